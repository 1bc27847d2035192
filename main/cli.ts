// Command-line entry (`npx keystead …`). Sub-commands arrive with their capabilities (compile, …).
const [command] = process.argv.slice(2);
const usage = `Usage: keystead <command>

Commands:
  serve [options]   run the headless app (same as npm run serve; --help for its options)`;

if (command === 'serve') {
  process.argv.splice(2, 1);
  await import('./headless.js');
} else {
  console.error(command ? `keystead: unknown command "${command}".\n\n${usage}` : usage);
  process.exitCode = command ? 2 : 0;
}
