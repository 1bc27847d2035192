import path from 'node:path';
import { parseHostArgs, USAGE, UsageError } from './host/config.js';
import { resolvePassword } from './host/password.js';
import { startRuntime } from './host/runtime.js';
import { appVersion, projectRoot } from './host/version.js';
import { WrongPasswordError } from './store/database.js';
import { createLogger } from './log/logger.js';

/**
 * The headless host: the engine and HTTP server under plain Node, serving the built UI at `/`.
 * Contract relied on by scripts and tests: exactly one stdout line `Keystead listening on <url>` when
 * ready; everything else goes to stderr; SIGTERM/SIGINT close cleanly; a wrong password exits non-zero.
 */
async function main(): Promise<number> {
  const config = parseHostArgs(process.argv.slice(2));
  if (!config) {
    console.log(USAGE);
    return 0;
  }
  const { password, source } = resolvePassword(config.dataDir, config.passwordFile, process.env);
  if (source === 'new-keyfile') {
    console.error(
      `keystead: warning: no password given; created a random key file ${path.join(config.dataDir, 'keystead.key')} (0600). ` +
        'Anyone who can read it can open the database. Prefer --password-file or KEYSTEAD_PASSWORD.',
    );
  }
  const runtime = await startRuntime({
    ...config,
    network: config.chain.network,
    password,
    version: appVersion(),
    uiDir: path.join(projectRoot(), 'dist', 'renderer'),
    logger: createLogger({ level: config.logLevel }),
  });
  // Handlers go in before the ready line: a script may signal us the moment it reads that line.
  const stopped = new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      console.error(`keystead: ${signal} received, shutting down`);
      runtime.close().then(resolve, (err) => {
        console.error(`keystead: error while closing: ${(err as Error).message}`);
        resolve();
      });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  process.stdout.write(`Keystead listening on ${runtime.url}\n`);
  await stopped;
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof UsageError) {
      console.error(`keystead: ${err.message}\n\n${USAGE}`);
      process.exit(2);
    }
    if (err instanceof WrongPasswordError) {
      console.error(`keystead: ${err.message}`);
      process.exit(3);
    }
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(`keystead: the port is already in use. Pick another with --port, or --port 0 for any free one.`);
      process.exit(4);
    }
    console.error(`keystead: could not start: ${(err as Error).stack ?? String(err)}`);
    process.exit(1);
  },
);
