import os from 'node:os';
import path from 'node:path';

/** Settings of the headless host, from command-line flags with environment variables as fallback. */
export interface HostConfig {
  dataDir: string;
  port: number;
  passwordFile?: string;
  network: string;
  sessionTtlSeconds: number;
  bodyLimit: number;
  paymailDomain: string;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const DEFAULT_PORT = 7480;
export const DEFAULT_PAYMAIL_DOMAIN = 'localhost';
export const NETWORKS = ['local'] as const;

export const USAGE = `Usage: npm run serve -- [options]

  --data-dir <dir>        where the encrypted database lives (env KEYSTEAD_DATA_DIR; default ${defaultDataDir()})
  --port <n>              loopback port, 0 picks a free one (env KEYSTEAD_PORT; default ${DEFAULT_PORT})
  --password-file <file>  file holding the database password (else env KEYSTEAD_PASSWORD; else a key file in the data dir)
  --network <name>        chain network: local (env KEYSTEAD_NETWORK; default local)
  --session-ttl <s>       authToken lifetime in seconds (env KEYSTEAD_SESSION_TTL; default 43200)
  --body-limit <bytes>    largest request body (env KEYSTEAD_BODY_LIMIT; default 1048576)
  --paymail-domain <d>    domain of this Keystead's paymail aliases (env KEYSTEAD_PAYMAIL_DOMAIN; default localhost)
  --help                  show this text`;

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = os.homedir();
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Keystead');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Keystead');
  return path.join(env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'keystead');
}

function integer(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw)) throw new UsageError(`${name} must be a whole number, got "${raw}".`);
  const n = Number(raw);
  if (n < min || n > max) throw new UsageError(`${name} must be between ${min} and ${max}, got ${n}.`);
  return n;
}

export function isDomainName(value: string): boolean {
  return value.length <= 253 && /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/.test(value);
}

/** Parses argv (without node and script). Returns null when --help was asked for. */
export function parseHostArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): HostConfig | null {
  const flags = new Map<string, string>();
  const known = ['--data-dir', '--port', '--password-file', '--network', '--session-ttl', '--body-limit', '--paymail-domain'];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') return null;
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (!known.includes(name)) throw new UsageError(`Unknown option ${arg}.`);
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') throw new UsageError(`${name} needs a value.`);
    flags.set(name, value);
  }
  const pick = (flag: string, envName: string) => flags.get(flag) ?? (env[envName] || undefined);
  const network = pick('--network', 'KEYSTEAD_NETWORK') ?? 'local';
  if (!(NETWORKS as readonly string[]).includes(network)) throw new UsageError(`--network must be one of: ${NETWORKS.join(', ')}.`);
  const port = pick('--port', 'KEYSTEAD_PORT');
  const ttl = pick('--session-ttl', 'KEYSTEAD_SESSION_TTL');
  const bodyLimit = pick('--body-limit', 'KEYSTEAD_BODY_LIMIT');
  const paymailDomain = (pick('--paymail-domain', 'KEYSTEAD_PAYMAIL_DOMAIN') ?? DEFAULT_PAYMAIL_DOMAIN).toLowerCase();
  if (!isDomainName(paymailDomain)) throw new UsageError(`--paymail-domain must be a domain name like example.com, got "${paymailDomain}".`);
  return {
    dataDir: path.resolve(pick('--data-dir', 'KEYSTEAD_DATA_DIR') ?? defaultDataDir(env)),
    port: port === undefined ? DEFAULT_PORT : integer('--port', port, 0, 65535),
    passwordFile: flags.get('--password-file'),
    network,
    sessionTtlSeconds: ttl === undefined ? 12 * 3600 : integer('--session-ttl', ttl, 1, 365 * 24 * 3600),
    bodyLimit: bodyLimit === undefined ? 1024 * 1024 : integer('--body-limit', bodyLimit, 1024, 256 * 1024 * 1024),
    paymailDomain,
  };
}
