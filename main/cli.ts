import { writeFileSync } from 'node:fs';
import { FileRefused, importReader, readBoundedText } from './cli-files.js';
import { compileScrypt } from './contracts/scrypt/compile.js';
import { formatDiagnostic } from './contracts/scrypt/diagnostics.js';
import { transpileSolidity, type TranspileLog } from './contracts/solidity/transpile.js';
import { isScryptTsCompile, SCRYPT_TS_HELP, scryptTsCompileCommand } from './cli-scrypt-ts.js';
import { REMOTE_COMMANDS, REMOTE_ENV, REMOTE_HELP, runRemote, type RemoteCommand } from './cli-remote.js';

// Command-line entry (`npx keystead …`): the headless app, the offline sCrypt compiler and the Solidity transpiler.
const usage = `Usage: keystead <command>

Commands:
  serve [options]                          run the headless app (same as npm run serve; --help for its options)
  compile <File.scrypt> [-o out.json] [--asm] [-O] [--import-root <dir>]
                                           compile sCrypt offline: writes the scryptlib artifact (default <File>.json);
                                           --asm prints the ASM template; -O runs the peephole optimiser
  compile <Contract.ts> | --project <dir>  compile scrypt-ts contracts offline, as scrypt-cli compile does: artifacts/
                                           <Name>.scrypt, .transformer.json and <Name>.json for Name.loadArtifact()
  transpile <File.sol> [-o out.scrypt] [--force] [--json]
                                           transpile Solidity to sCrypt offline (default <File>.scrypt); errors
                                           exit 1 and write nothing unless --force; --json prints {scrypt, errorLogs}
  balance [--wallet <id>] [--json]         wallet balances from a running Keystead (token from KEYSTEAD_TOKEN)
  history [--wallet <id>] [--limit <n>] [--json]
                                           a wallet's transactions from a running Keystead
  pay <uri|paymail|address> [--amount <BSV>|--sats <n>] [--wallet <id>] [--yes] [--json]
                                           price a payment, and with --yes pay it, through a running Keystead
  approvals [--all | --state <state>] [--json]
                                           payments awaiting approval, with their review and votes
  approve <approvalId> [--otp <code>]      approve a payment awaiting approval (the last approval sends it)
  reject <approvalId> [--reason <text>] [--otp <code>]
                                           reject a payment awaiting approval: nothing moves
  audit verify [--json]                    verify the tamper-evident audit trail (exit 5 when it does not hold)
  audit export --from <day> --to <day> [--format csv|json] [--out <file>]
                                           the audit trail of a date range, with its hashes and checkpoints
  payees [--all] [--json]                  the organisation's payee book
  payees add --name <name> --destination <paymail|address|key> [--note <text>]
                                           add a payee (usable after the cooling-off period)
  payees remove <payeeId>                  remove a payee from the book`;

/** Options that take a value (`-o out.json`, `--import-root dir`): their values are not the positional file. */
const VALUED = new Set(['-o', '--import-root']);

/** Every value of a repeatable option. */
const optionValues = (args: string[], name: string) => args.flatMap((a, i) => (a === name && args[i + 1] ? [args[i + 1]] : []));

/** `-o <out>` and the one positional argument. */
function fileArgs(args: string[]): { file: string | undefined; out: string | null; bad: boolean } {
  const outIndex = args.indexOf('-o');
  const file = args.find((a, i) => !a.startsWith('-') && (i === 0 || !VALUED.has(args[i - 1])));
  return { file, out: outIndex !== -1 ? (args[outIndex + 1] ?? null) : null, bad: !file || (outIndex !== -1 && !args[outIndex + 1]) };
}

function readSource(file: string): string | null {
  try {
    return readBoundedText(file);
  } catch (err) {
    console.error(
      `keystead: cannot read ${file}: ${err instanceof FileRefused ? err.message : ((err as NodeJS.ErrnoException).code ?? err)}`,
    );
    return null;
  }
}

/** `Foo.sol:3:5: error: unsupported type: \`X\`` (the log's start). */
const formatLog = (l: TranspileLog) => {
  const [, at] = /^(.*:\d+:\d+):\d+:\d+$/.exec(l.src) ?? [null, l.src];
  return `${at}: ${l.type.toLowerCase()}: ${l.message}`;
};

function transpileCommand(args: string[]): number {
  const { file, out, bad } = fileArgs(args);
  if (bad || !file) {
    console.error(usage);
    return 2;
  }
  const source = readSource(file);
  if (source === null) return 2;
  const force = args.includes('--force');
  // Positions name the file as the user gave it.
  const r = transpileSolidity(source, { file });
  const failed = r.logs.some((l) => l.type === 'Error');
  for (const l of r.logs) console.error(formatLog(l));
  const emit = !failed || force;
  if (args.includes('--json')) {
    console.log(JSON.stringify(emit ? { scrypt: r.scrypt, errorLogs: r.logs } : { errorLogs: r.logs }, null, 2));
  }
  if (emit && (out || !args.includes('--json'))) {
    const target = out ?? file.replace(/\.sol$/i, '') + '.scrypt';
    writeFileSync(target, r.scrypt);
    console.error(`keystead: wrote ${target}`);
  }
  return failed && !force ? 1 : 0;
}

function compileCommand(args: string[]): number {
  const { file, out: outArg, bad } = fileArgs(args);
  if (bad || !file) {
    console.error(usage);
    return 2;
  }
  const source = readSource(file);
  if (source === null) return 2;
  // Imports are read from disk, relative to the entry file, and only below its folder or an --import-root.
  const refusals: string[] = [];
  const readImport = importReader(file, optionValues(args, '--import-root'), refusals);
  const r = compileScrypt(source, { file, optimize: args.includes('-O'), readImport });
  for (const d of r.diagnostics) console.error(formatDiagnostic(d));
  for (const why of refusals) console.error(`keystead: import not read: ${why}`);
  if (!r.artifact) return 1;
  const out = outArg ?? file.replace(/\.scrypt$/i, '') + '.json';
  writeFileSync(out, `${JSON.stringify(r.artifact, null, 2)}\n`);
  if (args.includes('--asm')) console.log(r.asm);
  console.error(`keystead: wrote ${out}`);
  return 0;
}

/** `help <command>`: what one command does, with its options. */
const COMMAND_HELP: Record<string, string> = {
  serve:
    'keystead serve [options]\n  Runs the headless app: the engine, the embedded API and the UI on http://127.0.0.1:7480.\n  `keystead serve --help` lists its options (network, data directory, ports, limits).',
  compile:
    "keystead compile <File.scrypt> [-o out.json] [--asm] [-O] [--import-root <dir>]\n  Compiles sCrypt offline and writes the scryptlib artifact (default <File>.json). Imported files are read\n  relative to the file that imports them, only from regular files of at most 1 MB below the entry file's\n  folder or a folder named with --import-root (repeatable). --asm prints the locking-script ASM; -O runs the optimiser.\n  Exit codes: 0 compiled, 1 errors (printed as path:line:column: error: message), 2 bad usage.\n\n" +
    SCRYPT_TS_HELP,
  balance: `${REMOTE_HELP.balance}\n${REMOTE_ENV}`,
  history: `${REMOTE_HELP.history}\n${REMOTE_ENV}`,
  pay: `${REMOTE_HELP.pay}\n${REMOTE_ENV}`,
  approvals: `${REMOTE_HELP.approvals}\n${REMOTE_ENV}`,
  approve: `${REMOTE_HELP.approve}\n${REMOTE_ENV}`,
  reject: `${REMOTE_HELP.reject}\n${REMOTE_ENV}`,
  audit: `${REMOTE_HELP.audit}\n${REMOTE_ENV}`,
  payees: `${REMOTE_HELP.payees}\n${REMOTE_ENV}`,
  transpile:
    'keystead transpile <File.sol> [-o out.scrypt] [--force] [--json]\n  Transpiles Solidity to sCrypt offline (default <File>.scrypt). With errors nothing is written and the\n  exit code is 1, unless --force writes the best effort; --json prints {scrypt, errorLogs} on stdout.',
};

const [command, ...rest] = process.argv.slice(2);
if (command === '--help' || command === '-h' || command === 'help') {
  const topic = rest[0];
  if (topic && !COMMAND_HELP[topic]) {
    console.error(`keystead: no command "${topic}".\n\n${usage}`);
    process.exitCode = 2;
  } else
    console.log(
      topic
        ? COMMAND_HELP[topic]
        : `${usage}\n\n  help <command>                           what one command does\n  --help                                   this list`,
    );
} else if (command === 'serve') {
  process.argv.splice(2, 1);
  await import('./headless.js');
} else if (command === 'compile') {
  process.exitCode = isScryptTsCompile(rest) ? await scryptTsCompileCommand(rest) : compileCommand(rest);
} else if (command === 'transpile') {
  process.exitCode = transpileCommand(rest);
} else if ((REMOTE_COMMANDS as readonly string[]).includes(command)) {
  process.exitCode = await runRemote(command as RemoteCommand, rest, process.env);
} else {
  console.error(command ? `keystead: unknown command "${command}".\n\n${usage}` : usage);
  process.exitCode = command ? 2 : 0;
}
