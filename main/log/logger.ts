import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';

/**
 * The engine logs through this injected logger (pino, which fastify uses too), never `console`. Hosts
 * create it once; tests and embedders that pass none get a silent one. Fields that may hold a secret are
 * redacted wherever they appear in a logged object, as a second line of defence: the first is never
 * passing secrets to the logger at all.
 */
export type Logger = PinoLogger;

export const SECRET_FIELDS = [
  'password',
  'currentPassword',
  'newPassword',
  'walletPassword',
  'mnemonic',
  'mnemonicPhrase',
  'rootKey',
  'privateKey',
  'authToken',
  'apiKey',
  'apikey',
  'authorization',
  'seed',
  'wif',
] as const;

const REDACT_PATHS = SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]);

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function createLogger(opts: { level?: LogLevel; destination?: DestinationStream; name?: string } = {}): Logger {
  return pino(
    {
      name: opts.name ?? 'keystead',
      level: opts.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: undefined,
    },
    opts.destination ?? pino.destination({ fd: 2, sync: true }),
  );
}

export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
