import { readTokenTemplates } from './token-templates.js';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { createEngine, type Engine } from '../engine/engine.js';
import { buildServer } from '../server/app.js';
import { buildPaymailServer } from '../server/paymail-server.js';
import { buildBrc100Server } from '../server/brc100-server.js';
import { openStore } from '../store/database.js';
import type { LocalChain } from '../chain/local/local-chain.js';
import { openChain, type ChainSetup } from './chain-setup.js';
import { DEFAULT_PAYMAIL_DOMAIN, type ChainConfig } from './config.js';
import { silentLogger, type Logger } from '../log/logger.js';
import type { CompileLimits } from '../engine/contracts/compile-pool.js';

/** The local node, mining only on demand (tests and embedders that pass no chain configuration). */
export function defaultChainConfig(): ChainConfig {
  return { network: 'local', mineIntervalSeconds: 0, syncIntervalSeconds: 30, feeRate: 1, broadcastWindowSeconds: 30 };
}

export interface RuntimeOptions {
  dataDir: string;
  /** Licensed STAS templates to install at start (`--token-templates <dir>`). */
  tokenTemplatesDir?: string;
  password: string;
  port: number;
  network: string;
  /** How to reach the chain; the local node with defaults when absent. */
  chain?: ChainConfig;
  version: string;
  sessionTtlSeconds: number;
  /** Domain of this Keystead's paymail aliases; `localhost` by default. */
  paymailDomain?: string;
  /** Paymail domains of known hosts, looked up before DNS. */
  paymailHosts?: Record<string, string>;
  /** The public paymail listener, off when absent (see HostConfig). */
  paymailListen?: { host: string; port: number };
  paymailPublicUrl?: string;
  /** Proxies whose X-Forwarded-For names the client on the public paymail listener. */
  trustProxy?: string[];
  /** The BRC-100 listener for apps, off when absent (see HostConfig). */
  brc100Listen?: { host: string; port: number };
  /** How long a new app's first call waits for a decision (60 s by default). */
  brc100WaitSeconds?: number;
  bodyLimit?: number;
  uiDir?: string;
  /** See OpenOptions.nativeBinding. */
  nativeBinding?: string;
  /** Where the engine and server log; silent when absent. */
  logger?: Logger;
  /** What one contract compile may use; the defaults when absent. */
  compile?: CompileLimits;
}

export interface Runtime {
  engine: Engine;
  /** The embedded node (on its own thread), or null on a network. */
  node: LocalChain | null;
  server: FastifyInstance;
  url: string;
  port: number;
  /** The public paymail listener's address, when one runs. */
  paymailUrl: string | null;
  /** The BRC-100 listener's address, when one runs. */
  brc100Url: string | null;
  /** Stops accepting, lets in-flight requests finish, then closes the database. Safe to call twice. */
  close(): Promise<void>;
}

/** Engine + HTTP server over one unlocked store: what both the headless and the desktop host run. */
export async function startRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const logger = opts.logger ?? silentLogger();
  const tokenTemplates = opts.tokenTemplatesDir ? readTokenTemplates(opts.tokenTemplatesDir) : [];
  const store = openStore({ dataDir: opts.dataDir, password: opts.password, nativeBinding: opts.nativeBinding });
  const chainCfg = opts.chain ?? defaultChainConfig();
  let chain: ChainSetup;
  try {
    chain = await openChain(chainCfg, opts.dataDir, opts.password, opts.nativeBinding, logger);
  } catch (err) {
    store.close();
    throw err;
  }
  const engine = createEngine({
    store,
    chain: chain.provider,
    syncIntervalMs: chainCfg.syncIntervalSeconds * 1000,
    logger,
    compileLimits: opts.compile,
    tokenTemplates,
    ordinalsIndexerUrl: chain.ordinalsIndexerUrl,
    config: {
      version: opts.version,
      network: chain.provider.network,
      sessionTtlMs: opts.sessionTtlSeconds * 1000,
      paymailDomain: opts.paymailDomain ?? DEFAULT_PAYMAIL_DOMAIN,
      paymailHosts: opts.paymailHosts,
      broadcastWindowMs: chainCfg.broadcastWindowSeconds * 1000,
    },
  });
  const closeAll = async () => {
    engine.close();
    await chain.node?.close();
  };
  let server: FastifyInstance;
  /** The API server once it listens: a later listener's failure must close it too (the desktop then retries without that listener). */
  let apiServer: FastifyInstance | null = null;
  let paymailServer: FastifyInstance | null = null;
  let brc100Server: FastifyInstance | null = null;
  try {
    await engine.ready;
    server = await buildServer({
      engine,
      node: chain.node,
      chainApiKey: chainCfg.chainApiKey,
      uiDir: opts.uiDir,
      bodyLimit: opts.bodyLimit,
    });
    await server.listen({ host: '127.0.0.1', port: opts.port });
    apiServer = server;
    if (opts.paymailListen) {
      paymailServer = await buildPaymailServer({ engine, publicUrl: opts.paymailPublicUrl, trustedProxies: opts.trustProxy });
      await paymailServer.listen({ host: opts.paymailListen.host, port: opts.paymailListen.port });
    }
    if (opts.brc100Listen) {
      if (opts.brc100WaitSeconds !== undefined) engine.brc100.setWait(opts.brc100WaitSeconds * 1000);
      brc100Server = await buildBrc100Server({ engine });
      await brc100Server.listen({ host: opts.brc100Listen.host, port: opts.brc100Listen.port });
    }
  } catch (err) {
    await apiServer?.close();
    await paymailServer?.close();
    await brc100Server?.close();
    await closeAll();
    throw err;
  }
  const paymailAddress = paymailServer?.server.address() as AddressInfo | null | undefined;
  const paymailUrl = paymailAddress
    ? `http://${paymailAddress.family === 'IPv6' ? `[${paymailAddress.address}]` : paymailAddress.address}:${paymailAddress.port}`
    : null;
  if (paymailUrl)
    logger.info(
      { url: paymailUrl, publicUrl: opts.paymailPublicUrl ?? null, domain: opts.paymailDomain ?? DEFAULT_PAYMAIL_DOMAIN },
      'the public paymail listener is running',
    );
  const brc100Address = brc100Server?.server.address() as AddressInfo | null | undefined;
  const brc100Url = brc100Address
    ? `http://${brc100Address.family === 'IPv6' ? `[${brc100Address.address}]` : brc100Address.address}:${brc100Address.port}`
    : null;
  if (brc100Url) {
    engine.brc100.setListening(brc100Url.slice('http://'.length));
    logger.info({ url: brc100Url }, 'the BRC-100 listener for apps is running');
  }
  const port = (server.server.address() as AddressInfo).port;
  engine.setSelfUrl(`http://127.0.0.1:${port}`);
  logger.info({ url: `http://127.0.0.1:${port}`, network: chain.provider.network, dataDir: opts.dataDir }, 'Keystead is running');
  let closing: Promise<void> | undefined;
  return {
    engine,
    node: chain.node,
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    paymailUrl,
    brc100Url,
    close() {
      closing ??= Promise.all([server.close(), paymailServer?.close(), closeBrc100(brc100Server, engine)]).then(closeAll);
      return closing;
    },
  };
}

/** Waiting app calls end first (refused), so closing the listener need not wait out their deadline. */
async function closeBrc100(server: FastifyInstance | null, engine: Engine): Promise<void> {
  if (!server) return;
  const closed = server.close();
  engine.brc100.closing();
  await closed;
}
