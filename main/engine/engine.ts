import type { z } from 'zod';
import { canCall, type OperationName, type OperationOutput } from '../../shared/operations.js';
import { ROLE_LABELS } from '../../shared/roles.js';
import { recordAudit } from './audit/audit-log.js';
import { randomBytes } from 'node:crypto';
import type { Store } from '../store/database.js';
import { createRepos } from '../store/repos/index.js';
import { authenticate, checkServiceId } from './auth/authenticate.js';
import { DEFAULT_THROTTLE, Throttle, type ThrottleOptions } from './auth/throttle.js';
import type { CallMeta, Credentials, EngineConfig, OpContext } from './context.js';
import type { EngineServices } from './services.js';
import { DomainError } from '../../shared/errors.js';
import { IMPLEMENTATIONS } from './operations.js';
import type { Implementation } from './operation.js';
import { AddressBook } from './wallets/address-book.js';
import { WalletSync } from './sync/wallet-sync.js';
import type { ChainProvider, ExchangeRate } from '../chain/types.js';
import { usdRateOf } from './rates/rates.js';
import { PaymailClient, type SrvResolver } from './paymail/client.js';
import { PaymailHost } from './paymail/host.js';
import { PaymailHostMap } from './paymail/host-map.js';
import { KeyRing } from './payments/keyring.js';
import { reconcileBooks, releaseUnsignedReservations, settleAttempts } from './payments/settle.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { CompilePool, DEFAULT_COMPILE_LIMITS, type CompileLimits } from './contracts/compile-pool.js';
import { TokenLedger } from './tokens/ledger.js';
import { TokenValidator } from './tokens/lineage.js';
import { TemplateRegistry } from './tokens/templates/registry.js';
import { checkStasTemplate } from './tokens/templates/stas.js';
import { EventHub, type EventHubOptions } from './events/hub.js';
import { EventStreams, type EventStream, type StreamRequest } from './events/streams.js';
import { BookEvents } from './events/book-events.js';
import type { LiveEvent } from '../../shared/events.js';

export interface EngineOptions {
  store: Store;
  config: EngineConfig;
  chain: ChainProvider;
  /** Network only: how often wallets are re-scanned, in ms (0: never). */
  syncIntervalMs?: number;
  /** DNS SRV lookups for paymail hosts (tests pass a stub). */
  srv?: SrvResolver;
  throttle?: ThrottleOptions;
  now?: () => number;
  /** Where the engine logs (never a secret); silent when absent. */
  logger?: Logger;
  compileLimits?: CompileLimits;
  /** Licensed STAS templates given at start (`--token-templates <dir>`), installed into the database. */
  tokenTemplates?: readonly { protocolId: string; template: string }[];
  /** How many live events are kept for clients that reconnect and for how long; how often streams recheck credentials. */
  liveEvents?: Omit<EventHubOptions, 'now'> & { recheckMs?: number };
}

export interface OperationResult<N extends OperationName> {
  msg: string;
  output: OperationOutput<N>;
}

export interface Engine {
  readonly config: EngineConfig;
  readonly logger: Logger;
  /** Resolves once the first wallet scan has finished. */
  readonly ready: Promise<void>;
  /** The USD rate from the rate table (served by the local node's WhatsOnChain route). */
  usdRate(): ExchangeRate | null;
  /** This Keystead as a paymail host (its routes are in main/server/paymail-routes.ts). */
  readonly paymailHost: PaymailHost;
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
 * The service engine: plain Node, no electron. Every call goes through `execute`, which authenticates,
 * authorizes against the operations table, validates the input and only then runs the handler.
 */
export function createEngine({ store, config, chain, syncIntervalMs = 30_000, srv, throttle, now = Date.now, logger = silentLogger(), compileLimits = DEFAULT_COMPILE_LIMITS, tokenTemplates = [], liveEvents = {} }: EngineOptions): Engine {
  const eventHub = new EventHub({ now, capacity: liveEvents.capacity, windowMs: liveEvents.windowMs });
  const repos = createRepos(store.db);
  for (const t of tokenTemplates) {
    const problem = checkStasTemplate(t.template);
    if (problem) throw new Error(`token template ${t.protocolId}: ${problem}`);
    repos.tokenTemplates.put(t.protocolId, t.template.trim(), 'flag', now());
  }
  const templates = new TemplateRegistry(() => repos.tokenTemplates.all());
  const passwordThrottle = new Throttle(throttle ?? DEFAULT_THROTTLE, now);
  let sealingKey: Buffer | undefined;
  const addressBook = new AddressBook({ repos, now });
  const sync = new WalletSync({ db: store.db, repos, now, addressBook }, chain);
  const tokenLedger = new TokenLedger({ repos, now }, templates);
  sync.sideBooks.push(tokenLedger);
  const tokenValidator = new TokenValidator({ repos, db: store.db, now, logger, chain }, templates);
  tokenLedger.onUnchecked = () => void tokenValidator.run();
  const paymailHosts = new PaymailHostMap(repos.settings, config.paymailHosts ?? {});
  const services: EngineServices = {
    keyring: new KeyRing({ sealingKey: () => services.sealingKey(), throttle: passwordThrottle }),
    compiler: new CompilePool(compileLimits, { logger }),
    paymail: new PaymailClient(() => paymailHosts.map(), srv),
    paymailHosts,
    db: store.db,
    repos,
    config,
    throttle: passwordThrottle,
    now,
    logger,
    addressBook,
    chain,
    sync,
    inFlight: new Set(),
    tokenTemplates: templates,
    tokenLedger,
    tokenValidator,
    events: eventHub,
    eventStreams: new EventStreams({ repos, now }, eventHub, liveEvents.recheckMs),
    sealingKey() {
      sealingKey ??= Buffer.from(repos.settings.getOrInit('wallet-sealing-key', () => randomBytes(32).toString('hex')), 'hex');
      return sealingKey;
    },
  };
  const bookEvents = new BookEvents(services);
  sync.onBooksChanged = (before, txids) => bookEvents.changed(before, txids);
  tokenValidator.onDecided = (decided) => bookEvents.tokensDecided(decided);
  addressBook.openKeys = (wallet, chain, idx) => services.keyring.publicKeyIfOpen(wallet, chain, idx);
  sync.onTip = (height) => eventHub.publish('block', { height }, { kind: 'everyone' });
  sync.onScanning = (syncing) => eventHub.publish('sync.state', { syncing }, { kind: 'everyone' });
  sync.onSyncError = (message) => eventHub.publish('sync.error', { message }, { kind: 'everyone' });
  services.repos.sessions.purgeEndedBefore(now() - 24 * 3600_000);
  if (chain.events) sync.attach(chain.events);
  else sync.startPolling(syncIntervalMs);
  let reconciling: Promise<void> | null = null;
  const reconcile = () =>
    (reconciling ??= (async () => {
      await settleAttempts(services);
      await reconcileBooks(services);
      await tokenValidator.run();
    })()
      .catch((err) => logger.error({ err: (err as Error).message }, 'reconciling the books with the chain failed; it runs again soon'))
      .finally(() => {
        reconciling = null;
      }));
  releaseUnsignedReservations(services);
  tokenLedger.releaseUnsigned((attempt) => repos.payments.attemptExists(attempt));
  // Every scan of all wallets ends by reconciling the books with the chain.
  sync.afterScan = reconcile;
  // Catch up with what happened while Keystead was not running (or, on the network, since the last poll).
  const ready = sync.scanAll();
  // Open payments are settled, and the books checked, every few seconds (half the broadcast window, 30 s at most).
  const settler = setInterval(() => void ready.then(reconcile), Math.min(30_000, Math.max(1_000, config.broadcastWindowMs / 2)));
  settler.unref();
  const paymailHost = new PaymailHost(services);

  return {
    config,
    logger,
    ready,
    usdRate: () => usdRateOf(services),
    paymailHost,
    setSelfUrl: (url) => paymailHosts.setSelf(config.paymailDomain, url),
    reconcile: () => ready.then(reconcile),
    async execute(name, input, credentials, meta) {
      const handler = IMPLEMENTATIONS[name] as unknown as Implementation;
      const def = handler.contract;
      const ctx: OpContext = { services, caller: null, meta };
      let parsedInput: unknown;
      try {
        if (def.access !== 'public') {
          ctx.caller = authenticate(services, credentials);
          if (!canCall(ctx.caller.role, name)) {
            throw new DomainError('ROLE_FORBIDDEN', `The ${ROLE_LABELS[ctx.caller.role]} role may not call ${name}.`);
          }
          if (def.enterprise) checkServiceId(services, credentials);
        }
        const parsed = def.input.safeParse(input ?? {});
        if (!parsed.success) throw new DomainError('VALIDATION_FAILED', describeIssues(parsed.error, input));
        parsedInput = parsed.data;
        const output = await handler.run(ctx, parsedInput);
        if (def.audit) {
          recordAudit(ctx, { action: name, target: handler.target?.(parsedInput, output) ?? null, outcome: 'success', code: null });
          // Audited calls include every change of access (sign-out, roles, users, keys): streams check theirs now.
          services.eventStreams.recheckAll();
        }
        // Never the input or output: either may hold a secret.
        logger.debug({ op: name, uid: ctx.caller?.uid ?? null }, 'operation succeeded');
        return { msg: def.msg, output } as OperationResult<typeof name>;
      } catch (err) {
        // Failed attempts are audited once someone is identified, and always for sign-in operations.
        if (def.audit && (ctx.caller || def.access === 'public')) {
          const target = parsedInput === undefined ? null : (handler.target?.(parsedInput) ?? null);
          recordAudit(ctx, { action: name, target, outcome: 'error', code: err instanceof DomainError ? err.code : 'INTERNAL' });
        }
        logger.debug({ op: name, uid: ctx.caller?.uid ?? null, code: err instanceof DomainError ? err.code : 'INTERNAL' }, 'operation failed');
        throw err;
      }
    },
    openEventStream: (request, deliver, end) => services.eventStreams.open(request, deliver, end),
    close() {
      clearInterval(settler);
      bookEvents.flush();
      sync.stop();
      void services.compiler.close();
      void paymailHost.close();
      store.close();
    },
  };
}

/** "email: is not a valid e-mail address; password: is required" */
export function describeIssues(error: z.ZodError, input: unknown): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length ? issue.path.join('.') : 'input';
      const missing = issue.code === 'invalid_type' && issue.path.length > 0 && valueAt(input, issue.path) === undefined;
      return `${where}: ${missing ? 'is required' : issue.message}`;
    })
    .join('; ');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}
