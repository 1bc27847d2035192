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

/** The sCrypt a scrypt-ts source was transpiled to, and the transpiler's `.transformer.json`. */
export const scryptTsOutput = z.object({
  /** `<Name>.scrypt`, as scrypt-cli names it after the .ts file. */
  file: z.string(),
  scrypt: z.string(),
  transformer: z.record(z.string(), z.unknown()),
});

export const CONTRACT_OPERATIONS = byName(
  defineOperation({
    name: 'compile',
    input: z.object({
      sourceCode: base64Source('sCrypt or scrypt-ts'),
      optimize: boolish,
      file: optionalText(200),
      /** scrypt-ts (TypeScript) is transpiled to sCrypt first; by default the language the file name says (`.ts`: scrypt-ts). */
      language: z.enum(['scrypt', 'scrypt-ts']).optional(),
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
      /** scrypt-ts only: what scrypt-cli writes beside the artifact (`<Name>.scrypt`, `<Name>.transformer.json`). */
      transpiled: scryptTsOutput.optional(),
    }),
    access: ALL_ROLES,
    summary:
      'Compiles sCrypt, or scrypt-ts (TypeScript, transpiled first), source (base64) to Bitcoin Script: ASM with $placeholders, hex, the scryptlib artifact, and for scrypt-ts the generated sCrypt.',
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
