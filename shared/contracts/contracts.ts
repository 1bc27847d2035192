import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { boolish, optionalText } from '../wallet-schemas.js';
import { ALL_ROLES } from './access.js';

/** A transpiler log, as sol2scrypt writes them: `src` is `<file>:<line>:<col>:<endLine>:<endCol>` (1-based, end exclusive). */
export const transpileLog = z.object({ type: z.enum(['Error', 'Warning']), message: z.string(), src: z.string() });

const base64Source = (what: string) =>
  z
    .string({ error: `is required (base64 of the ${what} source)` })
    .trim()
    .min(1, { error: 'is required' })
    .max(4_000_000, { error: 'is too large (about 3 MB of source at most)' })
    .regex(/^[A-Za-z0-9+/=\s]+$/, { error: 'must be base64' });

export const compileDiagnostic = z.object({
  file: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  message: z.string(),
  severity: z.enum(['error', 'warning']),
});

export const CONTRACT_OPERATIONS = byName(
  defineOperation({
    name: 'compile',
    input: z.object({
      sourceCode: base64Source('sCrypt'),
      optimize: boolish,
      file: optionalText(200),
      /** Files the source imports: the path as the import names it (relative to the source) → base64 source. */
      imports: z
        .record(z.string().trim().min(1).max(300), base64Source('imported sCrypt'))
        .refine((m) => Object.keys(m).length <= 100, { error: 'at most 100 imported files' })
        .optional(),
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
    credentialsOptional: true,
  }),
  defineOperation({
    name: 'transpile',
    input: z.object({ sourceCode: base64Source('Solidity'), force: boolish, file: optionalText(200) }),
    output: z.object({
      /** The sCrypt: present when there were no errors, or with `force` (then best effort). */
      scrypt: z.string().optional(),
      errorLogs: z.array(transpileLog),
    }),
    access: ALL_ROLES,
    summary:
      'Transpiles Solidity (base64) to sCrypt, offline: the sCrypt and every unsupported construct as an error log at its position; with force, the best-effort sCrypt despite errors.',
    msg: 'Operation completed successfully',
    rest: [{ method: 'POST', path: '/v1/transpile', body: true, headers: ['force'], bodyLimit: 8 * 1024 * 1024 }],
    credentialsOptional: true,
  }),
);
