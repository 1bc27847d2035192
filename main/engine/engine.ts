import type { OperationName } from '../../shared/operations.js';
import type { LiveEvent } from '../../shared/events.js';
import type { ExchangeRate } from '../chain/types.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { buildServices, type BuildOptions } from './build-services.js';
import { DEFAULT_COMPILE_LIMITS } from './contracts/compile-pool.js';
import type { CallMeta, Credentials, EngineConfig } from './context.js';
import type { EventStream, StreamRequest } from './events/streams.js';
import { executeOperation, type OperationResult } from './execute.js';
import type { PaymailHost } from './paymail/host.js';
import { Brc100Host } from './apps/brc100.js';
import { releaseUnsignedReservations } from './payments/settle.js';
import { RATE_TTL_MS, refreshRates, usdRateOf } from './rates/rates.js';

export interface EngineOptions extends BuildOptions {
  /** Network only: how often wallets are re-scanned, in ms (0: never). */
  syncIntervalMs?: number;
}

export type { OperationResult };

export interface Engine {
  readonly config: EngineConfig;
  readonly logger: Logger;
  /** Resolves once the first wallet scan has finished. */
  readonly ready: Promise<void>;
  /** The USD rate from the rate table (served by the local node's WhatsOnChain route). */
  usdRate(): ExchangeRate | null;
  /** This Keystead as a paymail host (its routes are in main/server/paymail-routes.ts). */
  readonly paymailHost: PaymailHost;
  /** The wallet BRC-100 apps reach (its listener is main/server/brc100-server.ts). */
  readonly brc100: Brc100Host;
  /** Tells the engine its own address, so its own paymail domain resolves to itself. */
  setSelfUrl(url: string): void;
  /**
   * Settles open payments and reconciles the books with the chain now (it also runs after every wallet
   * scan and every few seconds). Concurrent calls share one run.
   */
  reconcile(): Promise<void>;
  execute<N extends OperationName>(name: N, input: unknown, credentials: Credentials, meta: CallMeta): Promise<OperationResult<N>>;
  /**
   * Opens a live event stream for a signed-in caller (credentials or a ticket): replays what the client
   * missed since `lastEventId`, then delivers every new event the caller may see; `end` is called when the
   * credentials stop holding. Throws the authentication error when they do not hold now.
   */
  openEventStream(request: StreamRequest, deliver: (event: LiveEvent) => void, end: (reason: string) => void): EventStream;
  close(): void;
}

/**
 * The service engine: plain Node, no electron. Its parts are built and wired in build-services.ts; here
 * they start (the books catch up with the chain, open payments settle every few seconds). Every call goes
 * through `execute` (execute.ts), which authenticates, authorizes against the operations table, validates
 * the input and only then runs the handler.
 */
export function createEngine({ syncIntervalMs = 30_000, ...options }: EngineOptions): Engine {
  const { store, config, chain } = options;
  const { now = Date.now, logger = silentLogger() } = options;
  const { services, bookEvents, paymailHost, reconcile } = buildServices({
    ...options,
    now,
    logger,
    compileLimits: options.compileLimits ?? DEFAULT_COMPILE_LIMITS,
    tokenTemplates: options.tokenTemplates ?? [],
    liveEvents: options.liveEvents ?? {},
  });
  const { sync, tokenLedger, repos } = services;
  repos.sessions.purgeEndedBefore(now() - 24 * 3600_000);
  if (chain.events) sync.attach(chain.events);
  else sync.startPolling(syncIntervalMs);
  releaseUnsignedReservations(services);
  tokenLedger.releaseUnsigned((attempt) => repos.payments.attemptExists(attempt));
  services.ordinalBooks.releaseUnsigned((attempt) => repos.payments.attemptExists(attempt));
  // Catch up with what happened while Keystead was not running (or, on the network, since the last poll).
  const ready = sync.scanAll();
  // Open payments are settled, and the books checked, every few seconds (half the broadcast window, 30 s at most).
  const settler = setInterval(() => void ready.then(reconcile), Math.min(30_000, Math.max(1_000, config.broadcastWindowMs / 2)));
  settler.unref();
  // On the network the USD rate is kept fresh in the background (policy limits in USD use it, and refuse a
  // rate older than an hour): a payment never waits for the rate provider.
  const rater = chain.network === 'local' ? null : setInterval(() => void refreshRates(services), RATE_TTL_MS);
  rater?.unref();
  if (rater) void refreshRates(services);

  return {
    config,
    logger,
    ready,
    usdRate: () => usdRateOf(services),
    paymailHost,
    brc100: new Brc100Host(services),
    setSelfUrl: (url) => services.paymailHosts.setSelf(config.paymailDomain, url),
    reconcile: () => ready.then(reconcile),
    execute: (name, input, credentials, meta) => executeOperation(services, name, input, credentials, meta),
    openEventStream: (request, deliver, end) => services.eventStreams.open(request, deliver, end),
    close() {
      clearInterval(settler);
      if (rater) clearInterval(rater);
      services.appGate.wakeAll();
      bookEvents.flush();
      sync.stop();
      services.commits.flush();
      void services.compiler.close();
      void paymailHost.close();
      store.close();
    },
  };
}
