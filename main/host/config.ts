import os from 'node:os';
import path from 'node:path';
import { LOG_LEVELS, type LogLevel } from '../log/logger.js';
import { parseTrustedProxies } from '../server/client-address.js';
import { DEFAULT_COMPILE_LIMITS, defaultCompileWorkers, type CompileLimits } from '../engine/contracts/compile-pool.js';

/** Settings of the headless host, from command-line flags with environment variables as fallback. */
export interface HostConfig {
  dataDir: string;
  port: number;
  passwordFile?: string;
  network: string;
  sessionTtlSeconds: number;
  bodyLimit: number;
  paymailDomain: string;
  paymailHosts: Record<string, string>;
  /** The public paymail listener (`--paymail-listen host:port`), off when absent. */
  paymailListen?: { host: string; port: number };
  /** The address the world reaches that listener at, for the capabilities it advertises. */
  paymailPublicUrl?: string;
  /** Proxies whose X-Forwarded-For names the client on that listener (`--trust-proxy`); none: the peer is the client. */
  trustProxy?: string[];
  /** The BRC-100 listener for apps (`--brc100-listen host:port`), off when absent; loopback unless allowed otherwise. */
  brc100Listen?: { host: string; port: number };
  /** How long the first call of a new app waits for an admin's decision, in seconds. */
  brc100WaitSeconds: number;
  chain: ChainConfig;
  /** How much the engine logs to stderr (JSON lines). */
  logLevel: LogLevel;
  /** What one contract compile may use. */
  compile: CompileLimits;
  /** A directory of licensed STAS templates, `<protocolId>.hex` (STAS.hex, STAS-20.hex, STAS-789.hex). */
  tokenTemplatesDir?: string;
}

/** Which chain this Keystead uses and how it reaches it. */
export interface ChainConfig {
  network: 'local' | 'testnet' | 'mainnet' | 'remote';
  /** remote: the other Keystead's base URL (its /chain routes). */
  remoteUrl?: string;
  arcUrl?: string;
  arcApiKey?: string;
  wocUrl?: string;
  wocApiKey?: string;
  /**
   * testnet/mainnet: the 1Sat indexer's API base for BSV-21 tokens and inscriptions (the public 1Sat API by
   * default); its answers are checked against the transactions. local never uses one; remote only when given.
   */
  ordinalsIndexerUrl?: string;
  /** local: mine waiting transactions every this many seconds (0: only on demand). */
  mineIntervalSeconds: number;
  /** network: re-scan wallets every this many seconds. */
  syncIntervalSeconds: number;
  /** local: require this key on the node's /chain/arc and /chain/woc routes. */
  chainApiKey?: string;
  /** local: the node's fee policy in satoshis per 1,000 bytes. */
  feeRate: number;
  /** How long a P2P receiver has to get a payment onto the chain before Keystead broadcasts it itself. */
  broadcastWindowSeconds: number;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const DEFAULT_PORT = 7480;
export const DEFAULT_PAYMAIL_DOMAIN = 'localhost';
export const NETWORKS = ['local', 'testnet', 'mainnet', 'remote'] as const;

export const USAGE = `Usage: npm run serve -- [options]

  --data-dir <dir>        where the encrypted database lives (env KEYSTEAD_DATA_DIR; default ${defaultDataDir()})
  --port <n>              loopback port, 0 picks a free one (env KEYSTEAD_PORT; default ${DEFAULT_PORT})
  --password-file <file>  file holding the database password (else env KEYSTEAD_PASSWORD; else a key file in the data dir)
  --network <name>        local | testnet | mainnet | remote (env KEYSTEAD_NETWORK; default local)
  --remote-url <url>      remote: another Keystead whose local node to share (env KEYSTEAD_REMOTE_URL)
  --arc-url <url>         ARC endpoint (env KEYSTEAD_ARC_URL; default per network)
  --arc-api-key <key>     ARC API key (env KEYSTEAD_ARC_API_KEY)
  --woc-url <url>         WhatsOnChain base incl. network (env KEYSTEAD_WOC_URL; default per network)
  --woc-api-key <key>     WhatsOnChain API key (env KEYSTEAD_WOC_API_KEY)
  --ordinals-indexer-url <url>  1Sat indexer API for BSV-21 tokens and inscriptions (env KEYSTEAD_ORDINALS_INDEXER_URL;
                          default per network: https://ordinals.gorillapool.io/api; never used on the local chain)
  --mine-interval <s>     local: mine waiting transactions every s seconds, 0 = on demand (env KEYSTEAD_MINE_INTERVAL; default 60)
  --sync-interval <s>     network: re-scan wallets every s seconds (env KEYSTEAD_SYNC_INTERVAL; default 30)
  --fee-rate <sat/kB>     local: the node's fee policy (env KEYSTEAD_FEE_RATE; default 1)
  --broadcast-window <s>  how long a P2P receiver has to get a payment onto the chain before Keystead broadcasts it itself (env KEYSTEAD_BROADCAST_WINDOW; default 30)
  --chain-api-key <key>   local: require this key on the node's ARC/WhatsOnChain routes (env KEYSTEAD_CHAIN_API_KEY)
  --session-ttl <s>       authToken lifetime in seconds (env KEYSTEAD_SESSION_TTL; default 43200)
  --body-limit <bytes>    largest request body (env KEYSTEAD_BODY_LIMIT; default 1048576)
  --paymail-domain <d>    domain of this Keystead's paymail aliases (env KEYSTEAD_PAYMAIL_DOMAIN; default localhost)
  --paymail-hosts <list>  paymail domains served by known hosts, e.g. b.test=http://127.0.0.1:7481,c.test=… (env KEYSTEAD_PAYMAIL_HOSTS)
  --paymail-listen <h:p>  also serve the paymail routes (only those) on this address for the public internet,
                          behind a TLS reverse proxy, e.g. 127.0.0.1:7490 (env KEYSTEAD_PAYMAIL_LISTEN; default off)
  --paymail-public-url <u> the https:// address that listener is reached at (env KEYSTEAD_PAYMAIL_PUBLIC_URL;
                          default: from the request's Host and X-Forwarded-Proto)
  --trust-proxy <list>    IP addresses of reverse proxies in front of that listener, comma-separated: from them
                          the rightmost X-Forwarded-For entry that is not a proxy is the client for its limits
                          (env KEYSTEAD_TRUST_PROXY; default none: the connecting address is the client)
  --brc100-listen <h:p>   serve BRC-100 apps (@bsv/sdk WalletClient, JSON over HTTP) on this address, e.g.
                          127.0.0.1:3321, the address WalletClient('json-api') calls (env KEYSTEAD_BRC100_LISTEN;
                          default off). Loopback only, unless --brc100-allow-remote yes
  --brc100-allow-remote yes  let that listener bind a non-loopback address: anyone who reaches it can claim any
                          app's name, so only behind something that authenticates them (env KEYSTEAD_BRC100_ALLOW_REMOTE)
  --brc100-wait <s>       how long a new app's first call waits to be allowed before it is refused (env
                          KEYSTEAD_BRC100_WAIT; default 60)
  --compile-timeout <s>   stop a contract compile after s seconds (env KEYSTEAD_COMPILE_TIMEOUT; default 10)
  --compile-memory <MB>   a compile worker's heap limit (env KEYSTEAD_COMPILE_MEMORY; default 512)
  --compile-max-source <bytes>  refuse larger contract sources (env KEYSTEAD_COMPILE_MAX_SOURCE; default 1000000)
  --compile-workers <n>   contract compiles running at once, one worker thread each (env KEYSTEAD_COMPILE_WORKERS; default: the cores less one)
  --token-templates <dir>  install the licensed STAS templates in <dir>: STAS.hex, STAS-20.hex, STAS-789.hex (env KEYSTEAD_TOKEN_TEMPLATES)
  --log-level <level>     fatal | error | warn | info | debug | silent: what goes to stderr as JSON lines (env KEYSTEAD_LOG_LEVEL; default info)
  --help                  show this text`;

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = os.homedir();
  // An empty or relative variable is unset (XDG Base Directory rules), never a path relative to the cwd.
  const absolute = (v: string | undefined) => (v && path.isAbsolute(v) ? v : undefined);
  if (platform === 'win32') return path.join(absolute(env.APPDATA) ?? path.join(home, 'AppData', 'Roaming'), 'Keystead');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Keystead');
  return path.join(absolute(env.XDG_DATA_HOME) ?? path.join(home, '.local', 'share'), 'keystead');
}

function integer(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw)) throw new UsageError(`${name} must be a whole number, got "${raw}".`);
  const n = Number(raw);
  if (n < min || n > max) throw new UsageError(`${name} must be between ${min} and ${max}, got ${n}.`);
  return n;
}

/** 127.0.0.0/8, ::1 and localhost: addresses only this machine reaches. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

export function isDomainName(value: string): boolean {
  return (
    value.length <= 253 && /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/.test(value)
  );
}

/** Parses argv (without node and script). Returns null when --help was asked for. */
export function parseHostArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): HostConfig | null {
  const flags = new Map<string, string>();
  const known = [
    '--data-dir',
    '--port',
    '--password-file',
    '--network',
    '--session-ttl',
    '--body-limit',
    '--paymail-domain',
    '--paymail-hosts',
    '--paymail-listen',
    '--paymail-public-url',
    '--trust-proxy',
    '--brc100-listen',
    '--brc100-allow-remote',
    '--brc100-wait',
    '--remote-url',
    '--arc-url',
    '--arc-api-key',
    '--woc-url',
    '--woc-api-key',
    '--ordinals-indexer-url',
    '--mine-interval',
    '--sync-interval',
    '--fee-rate',
    '--chain-api-key',
    '--log-level',
    '--broadcast-window',
    '--compile-timeout',
    '--compile-memory',
    '--compile-max-source',
    '--compile-workers',
    '--token-templates',
  ];
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
  if (!isDomainName(paymailDomain))
    throw new UsageError(`--paymail-domain must be a domain name like example.com, got "${paymailDomain}".`);
  const url = (flag: string, envName: string) => {
    const v = pick(flag, envName);
    if (v === undefined) return undefined;
    try {
      const u = new URL(v);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
    } catch {
      throw new UsageError(`${flag} must be an http(s) URL, got "${v}".`);
    }
    return v.replace(/\/+$/, '');
  };
  const paymailHosts: Record<string, string> = {};
  for (const pair of (pick('--paymail-hosts', 'KEYSTEAD_PAYMAIL_HOSTS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [domain, target] = pair.split('=');
    if (!domain || !target || !isDomainName(domain.toLowerCase()) || !/^https?:\/\/[^\s/]+\/?$/.test(target)) {
      throw new UsageError(`--paymail-hosts entries look like domain=http://host:port, got "${pair}".`);
    }
    paymailHosts[domain.toLowerCase()] = target.replace(/\/+$/, '');
  }
  const chain: ChainConfig = {
    network: network as ChainConfig['network'],
    remoteUrl: url('--remote-url', 'KEYSTEAD_REMOTE_URL'),
    arcUrl: url('--arc-url', 'KEYSTEAD_ARC_URL'),
    arcApiKey: pick('--arc-api-key', 'KEYSTEAD_ARC_API_KEY'),
    wocUrl: url('--woc-url', 'KEYSTEAD_WOC_URL'),
    wocApiKey: pick('--woc-api-key', 'KEYSTEAD_WOC_API_KEY'),
    ordinalsIndexerUrl: url('--ordinals-indexer-url', 'KEYSTEAD_ORDINALS_INDEXER_URL'),
    mineIntervalSeconds: integer('--mine-interval', pick('--mine-interval', 'KEYSTEAD_MINE_INTERVAL') ?? '60', 0, 86_400),
    syncIntervalSeconds: integer('--sync-interval', pick('--sync-interval', 'KEYSTEAD_SYNC_INTERVAL') ?? '30', 1, 86_400),
    chainApiKey: pick('--chain-api-key', 'KEYSTEAD_CHAIN_API_KEY'),
    feeRate: integer('--fee-rate', pick('--fee-rate', 'KEYSTEAD_FEE_RATE') ?? '1', 1, 1_000_000),
    broadcastWindowSeconds: integer('--broadcast-window', pick('--broadcast-window', 'KEYSTEAD_BROADCAST_WINDOW') ?? '30', 1, 3600),
  };
  const logLevel = pick('--log-level', 'KEYSTEAD_LOG_LEVEL') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) throw new UsageError(`--log-level must be one of: ${LOG_LEVELS.join(', ')}.`);
  if (chain.network === 'remote' && !chain.remoteUrl)
    throw new UsageError("--network remote needs --remote-url <the other Keystead's address>.");
  const tokenTemplates = pick('--token-templates', 'KEYSTEAD_TOKEN_TEMPLATES');
  const listen = pick('--paymail-listen', 'KEYSTEAD_PAYMAIL_LISTEN');
  let paymailListen: HostConfig['paymailListen'];
  if (listen !== undefined) {
    const m = /^(\[[0-9a-f:]+\]|[a-z0-9.-]+):(\d{1,5})$/i.exec(listen.trim());
    if (!m) throw new UsageError(`--paymail-listen must be host:port, e.g. 127.0.0.1:7490 or 0.0.0.0:7490, got "${listen}".`);
    paymailListen = { host: m[1].replace(/^\[|\]$/g, ''), port: integer('--paymail-listen port', m[2], 0, 65535) };
  }
  const paymailPublicUrl = url('--paymail-public-url', 'KEYSTEAD_PAYMAIL_PUBLIC_URL');
  if (paymailPublicUrl && !paymailListen) throw new UsageError('--paymail-public-url needs --paymail-listen.');
  const trustProxyList = pick('--trust-proxy', 'KEYSTEAD_TRUST_PROXY');
  let trustProxy: string[] | undefined;
  if (trustProxyList !== undefined) {
    try {
      trustProxy = parseTrustedProxies(trustProxyList);
    } catch (err) {
      throw new UsageError(`--trust-proxy must be IP addresses separated by commas, e.g. 127.0.0.1,::1 (${(err as Error).message}).`);
    }
    if (!paymailListen) throw new UsageError('--trust-proxy needs --paymail-listen.');
  }
  const brc100 = pick('--brc100-listen', 'KEYSTEAD_BRC100_LISTEN');
  let brc100Listen: HostConfig['brc100Listen'];
  if (brc100 !== undefined) {
    const m = /^(\[[0-9a-f:]+\]|[a-z0-9.-]+):(\d{1,5})$/i.exec(brc100.trim());
    if (!m) throw new UsageError(`--brc100-listen must be host:port, e.g. 127.0.0.1:3321, got "${brc100}".`);
    brc100Listen = { host: m[1].replace(/^\[|\]$/g, ''), port: integer('--brc100-listen port', m[2], 0, 65535) };
    const allowRemote = pick('--brc100-allow-remote', 'KEYSTEAD_BRC100_ALLOW_REMOTE');
    if (allowRemote !== undefined && allowRemote !== 'yes') throw new UsageError('--brc100-allow-remote takes "yes".');
    if (!isLoopback(brc100Listen.host) && allowRemote !== 'yes') {
      throw new UsageError(
        `--brc100-listen ${brc100} is not a loopback address: apps name themselves, so anyone who reaches it could act as an allowed app. Use 127.0.0.1, or add --brc100-allow-remote yes.`,
      );
    }
  }
  const brc100WaitSeconds = integer('--brc100-wait', pick('--brc100-wait', 'KEYSTEAD_BRC100_WAIT') ?? '60', 1, 600);
  return {
    brc100Listen,
    brc100WaitSeconds,
    paymailListen,
    paymailPublicUrl,
    trustProxy,
    chain,
    tokenTemplatesDir: tokenTemplates ? path.resolve(tokenTemplates) : undefined,
    dataDir: path.resolve(pick('--data-dir', 'KEYSTEAD_DATA_DIR') ?? defaultDataDir(env)),
    port: port === undefined ? DEFAULT_PORT : integer('--port', port, 0, 65535),
    passwordFile: flags.get('--password-file'),
    network,
    sessionTtlSeconds: ttl === undefined ? 12 * 3600 : integer('--session-ttl', ttl, 1, 365 * 24 * 3600),
    bodyLimit: bodyLimit === undefined ? 1024 * 1024 : integer('--body-limit', bodyLimit, 1024, 256 * 1024 * 1024),
    paymailDomain,
    paymailHosts,
    logLevel: logLevel as LogLevel,
    compile: {
      timeoutMs:
        integer(
          '--compile-timeout',
          pick('--compile-timeout', 'KEYSTEAD_COMPILE_TIMEOUT') ?? String(DEFAULT_COMPILE_LIMITS.timeoutMs / 1000),
          1,
          600,
        ) * 1000,
      memoryMb: integer(
        '--compile-memory',
        pick('--compile-memory', 'KEYSTEAD_COMPILE_MEMORY') ?? String(DEFAULT_COMPILE_LIMITS.memoryMb),
        64,
        16_384,
      ),
      maxSourceBytes: integer(
        '--compile-max-source',
        pick('--compile-max-source', 'KEYSTEAD_COMPILE_MAX_SOURCE') ?? String(DEFAULT_COMPILE_LIMITS.maxSourceBytes),
        1_000,
        100_000_000,
      ),
      workers: integer(
        '--compile-workers',
        pick('--compile-workers', 'KEYSTEAD_COMPILE_WORKERS') ?? String(defaultCompileWorkers()),
        1,
        256,
      ),
    },
  };
}
