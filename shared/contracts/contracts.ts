import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { boolish, optionalText } from '../wallet-schemas.js';
import { ALL_ROLES } from './access.js';

export const compileDiagnostic = z.object({ file: z.string(), line: z.number().int(), column: z.number().int(), message: z.string(), severity: z.enum(['error', 'warning']) });

export const CONTRACT_OPERATIONS = byName(
  defineOperation({
    name: 'compile',
    input: z.object({
      sourceCode: z
        .string({ error: 'is required (base64 of the sCrypt source)' })
        .trim()
        .min(1, { error: 'is required' })
        .max(4_000_000, { error: 'is too large (about 3 MB of source at most)' })
        .regex(/^[A-Za-z0-9+/=\s]+$/, { error: 'must be base64' }),
      optimize: boolish,
      file: optionalText(200),
    }),
    output: z.object({
      /** ASM of the locking-script template, constructor arguments as $name (as the public service returns). */
      scrypt: z.string(),
      hex: z.string(),
      artifact: z.record(z.string(), z.unknown()),
      errors: z.array(compileDiagnostic),
    }),
    access: ALL_ROLES,
    summary: 'Compiles sCrypt source (base64) to Bitcoin Script: ASM with $placeholders, hex, and the scryptlib artifact.',
    msg: 'Operation completed successfully',
    rest: [{ method: 'POST', path: '/v1/compile', body: true, bodyLimit: 8 * 1024 * 1024 }],
  }),
);
