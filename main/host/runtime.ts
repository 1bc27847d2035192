import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { createEngine, type Engine } from '../engine/engine.js';
import { buildServer } from '../server/app.js';
import { openStore } from '../store/database.js';
import { DEFAULT_PAYMAIL_DOMAIN } from './config.js';

export interface RuntimeOptions {
  dataDir: string;
  password: string;
  port: number;
  network: string;
  version: string;
  sessionTtlSeconds: number;
  /** Domain of this Keystead's paymail aliases; `localhost` by default. */
  paymailDomain?: string;
  bodyLimit?: number;
  uiDir?: string;
  /** See OpenOptions.nativeBinding. */
  nativeBinding?: string;
  logError?: (message: string) => void;
}

export interface Runtime {
  engine: Engine;
  server: FastifyInstance;
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish, then closes the database. Safe to call twice. */
  close(): Promise<void>;
}

/** Engine + HTTP server over one unlocked store: what both the headless and the desktop host run. */
export async function startRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const store = openStore({ dataDir: opts.dataDir, password: opts.password, nativeBinding: opts.nativeBinding });
  const engine = createEngine({
    store,
    config: { version: opts.version, network: opts.network, sessionTtlMs: opts.sessionTtlSeconds * 1000, paymailDomain: opts.paymailDomain ?? DEFAULT_PAYMAIL_DOMAIN },
  });
  let server: FastifyInstance;
  try {
    server = await buildServer({ engine, uiDir: opts.uiDir, bodyLimit: opts.bodyLimit, logError: opts.logError });
    await server.listen({ host: '127.0.0.1', port: opts.port });
  } catch (err) {
    engine.close();
    throw err;
  }
  const port = (server.server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    engine,
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    close() {
      closing ??= server.close().then(() => engine.close());
      return closing;
    },
  };
}
