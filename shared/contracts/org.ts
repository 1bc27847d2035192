import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';

export const appStatusOutput = z.object({ initialised: z.boolean(), version: z.string(), network: z.string() });

export const ORG_OPERATIONS = byName(
  defineOperation({
    name: 'appStatus',
    input: z.object({}),
    output: appStatusOutput,
    access: 'public',
    summary: 'Whether the organisation is set up yet, plus version and network. No credentials.',
    msg: 'Status fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/status' }],
  }),
);
