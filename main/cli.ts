import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compileScrypt } from './contracts/scrypt/compile.js';
import { formatDiagnostic } from './contracts/scrypt/diagnostics.js';

// Command-line entry (`npx keystead …`): the headless app, and the offline sCrypt compiler.
const usage = `Usage: keystead <command>

Commands:
  serve [options]                          run the headless app (same as npm run serve; --help for its options)
  compile <File.scrypt> [-o out.json] [--asm] [-O]
                                           compile sCrypt offline: writes the scryptlib artifact (default <File>.json);
                                           --asm prints the ASM template; -O runs the peephole optimiser`;

function compileCommand(args: string[]): number {
  const file = args.find((a) => !a.startsWith('-') && args[args.indexOf(a) - 1] !== '-o');
  const outIndex = args.indexOf('-o');
  if (!file || (outIndex !== -1 && !args[outIndex + 1])) {
    console.error(usage);
    return 2;
  }
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (err) {
    console.error(`keystead: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? err}`);
    return 2;
  }
  const r = compileScrypt(source, { file: path.basename(file), optimize: args.includes('-O') });
  for (const d of r.diagnostics) console.error(formatDiagnostic(d));
  if (!r.artifact) return 1;
  const out = outIndex !== -1 ? args[outIndex + 1] : file.replace(/\.scrypt$/i, '') + '.json';
  writeFileSync(out, `${JSON.stringify(r.artifact, null, 2)}\n`);
  if (args.includes('--asm')) console.log(r.asm);
  console.error(`keystead: wrote ${out}`);
  return 0;
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'serve') {
  process.argv.splice(2, 1);
  await import('./headless.js');
} else if (command === 'compile') {
  process.exitCode = compileCommand(rest);
} else {
  console.error(command ? `keystead: unknown command "${command}".\n\n${usage}` : usage);
  process.exitCode = command ? 2 : 0;
}
