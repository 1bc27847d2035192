import { z } from 'zod';
import { defineRoute } from '../route.js';
import { OUTPOINT_PATTERN } from '../contracts/ordinals.js';

/**
 * An inscription's raw content (issue 30 §3). Inscription content is hostile (anyone can inscribe anything):
 * it is answered with `Content-Security-Policy: sandbox; default-src 'none'` and `X-Content-Type-Options:
 * nosniff`; only raster images and plain text are answered inline with their own type, everything else as an
 * attachment of type application/octet-stream (shared/contracts/ordinals.ts, inscriptionHeaders).
 */
export const ORDINALS_ROUTES = {
  inscriptionContent: defineRoute({
    method: 'GET',
    path: '/v1/ordinals/:outpoint/content',
    tag: { name: 'ordinals', description: '1Sat Ordinals: inscriptions and BSV-21 tokens.' },
    auth: 'credentials',
    summary:
      "An inscription's raw content, for an outpoint one of the organisation's wallets holds, served sandboxed (images and plain text inline, anything else as a download; nothing runs).",
    params: z.object({ outpoint: z.string().regex(OUTPOINT_PATTERN) }),
    response: z.string().meta({ description: 'The content bytes' }),
    responseType: 'application/octet-stream',
  }),
};
