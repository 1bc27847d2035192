import type { Logger } from '../log/logger.js';

/**
 * The desktop app serves BRC-100 apps by default, where @bsv/sdk's `WalletClient('json-api')` looks for a
 * wallet: 127.0.0.1:3321, the reference desktop wallet's HTTP port. The headless host keeps it off unless
 * `--brc100-listen` is given. Plain Node (no Electron), so it is tested without Electron.
 */
export const DESKTOP_BRC100_LISTEN = '127.0.0.1:3321';

/** Values of KEYSTEAD_BRC100_LISTEN that turn the desktop listener off. */
const OFF = new Set(['off', 'no', 'false', '0', 'none']);

/**
 * The environment the desktop host parses its settings from (config.ts): KEYSTEAD_BRC100_LISTEN unset or
 * empty means the default address; `off` (or no, false, 0, none) means no listener; any other value is an
 * address, checked by the usual parser (loopback only unless KEYSTEAD_BRC100_ALLOW_REMOTE=yes).
 */
export function desktopEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const given = env.KEYSTEAD_BRC100_LISTEN?.trim() ?? '';
  const out = { ...env };
  if (OFF.has(given.toLowerCase())) delete out.KEYSTEAD_BRC100_LISTEN;
  else if (given === '') out.KEYSTEAD_BRC100_LISTEN = DESKTOP_BRC100_LISTEN;
  return out;
}

/** What a start attempt is given: the ports it listens on (a subset of RuntimeOptions). */
export interface ListenChoice {
  port: number;
  brc100Listen?: { host: string; port: number };
}

const inUse = (err: unknown): err is NodeJS.ErrnoException & { port?: number } => (err as NodeJS.ErrnoException)?.code === 'EADDRINUSE';

/**
 * Starts the desktop's runtime so that a taken port never keeps the app from opening: the local API falls
 * back to any free port (the UI reaches it over IPC, so its port matters to nobody), and when the BRC-100
 * port is taken (often by another BRC-100 wallet running) the app starts without the listener and says so
 * in the log; apps then reach that other wallet, as they would without Keystead.
 */
export async function startDesktop<T, O extends ListenChoice>(start: (opts: O) => Promise<T>, opts: O, logger: Logger): Promise<T> {
  let attempt = opts;
  for (;;) {
    try {
      return await start(attempt);
    } catch (err) {
      if (!inUse(err)) throw err;
      const brc = attempt.brc100Listen;
      // Node names the port it could not bind. The API listens first, so a clash on a shared number is the API's.
      if (err.port === attempt.port && attempt.port !== 0) {
        attempt = { ...attempt, port: 0 };
      } else if (brc && (err.port === brc.port || err.port === undefined)) {
        logger.warn(
          { brc100Listen: `${brc.host}:${brc.port}` },
          `the BRC-100 listener for apps did not start: ${brc.host}:${brc.port} is in use (another wallet?). Keystead runs without it; free the port and restart, or set KEYSTEAD_BRC100_LISTEN to another address or to off`,
        );
        attempt = { ...attempt, brc100Listen: undefined };
      } else {
        throw err;
      }
    }
  }
}
