import { groupedCommits } from '../store/grouped-commits.js';
import { randomBytes } from 'node:crypto';
import type { ChainProvider } from '../chain/types.js';
import type { Logger } from '../log/logger.js';
import type { Store } from '../store/database.js';
import { createRepos, type Repos } from '../store/repos/index.js';
import { DEFAULT_THROTTLE, Throttle, type ThrottleOptions } from './auth/throttle.js';
import { CompilePool, type CompileLimits } from './contracts/compile-pool.js';
import type { EngineConfig } from './context.js';
import { BookEvents } from './events/book-events.js';
import { EventHub, type EventHubOptions } from './events/hub.js';
import { EventStreams } from './events/streams.js';
import { InvoiceBooks } from './invoices/books.js';
import { PaymailClient, type SrvResolver } from './paymail/client.js';
import { PaymailHostMap } from './paymail/host-map.js';
import { PaymailHost } from './paymail/host.js';
import { AuditTrail } from './audit/trail.js';
import { AppActionBooks } from './apps/actions/books.js';
import { AppGate } from './apps/gate.js';
import { anchorAuditCheckpoint } from './fees/audit-anchor.js';
import type { AuthoriseValueMove } from './value-move.js';
import { createPolicyAuthoriser } from './policies/authorise.js';
import { runApproved } from './run-approved.js';
import { settleSendingApprovals } from './policies/approval-ops.js';
import { KeyRing } from './payments/keyring.js';
import { OrdinalBooks } from './ordinals/books.js';
import { LocalOrdinalsIndex } from './ordinals/local-index.js';
import { OneSatIndex } from './ordinals/one-sat-index.js';
import type { OrdinalsIndex } from './ordinals/ordinals-index.js';
import { reconcileBooks, settleAttempts } from './payments/settle.js';
import type { EngineServices } from './services.js';
import { WalletSync } from './sync/wallet-sync.js';
import { TemplateRegistry } from './token-templates/registry.js';
import { checkStasTemplate } from './token-templates/stas.js';
import { TokenLedger } from './tokens/ledger.js';
import { TokenValidator } from './tokens/lineage.js';
import { AddressBook } from './wallets/address-book.js';
import { KeyWorkers } from './wallets/key-workers.js';

/** What the engine's parts are built from (createEngine's options, resolved to their defaults). */
export interface BuildOptions {
  store: Store;
  config: EngineConfig;
  chain: ChainProvider;
  /** DNS SRV lookups for paymail hosts (tests pass a stub). */
  srv?: SrvResolver;
  /** The organisation's check of every value move (tests pass a recorder); the organisation's payment policy by default. */
  authoriseValueMove?: AuthoriseValueMove;
  throttle?: ThrottleOptions;
  now?: () => number;
  /** Where the engine logs (never a secret); silent when absent. */
  logger?: Logger;
  compileLimits?: CompileLimits;
  /**
   * Where wallet keys do their costly work (key-workers.ts): the process's pool unless given (tests: a worker that fails); the giver closes
   * it.
   */
  keyWorkers?: KeyWorkers;
  /** Licensed STAS templates given at start (`--token-templates <dir>`), installed into the database. */
  tokenTemplates?: readonly { protocolId: string; template: string }[];
  /** How many live events are kept for clients that reconnect and for how long; how often streams recheck credentials. */
  liveEvents?: Omit<EventHubOptions, 'now'> & { recheckMs?: number };
  /** The 1Sat indexer BSV-21 tokens and inscriptions are learnt from on the network; absent: Keystead's own index (local chain). */
  ordinalsIndexerUrl?: string | null;
}

/** The engine's parts, built and wired together: the services every operation gets, and what runs beside them. */
export interface EngineParts {
  services: EngineServices;
  /** Turns each committed change to the books into live events (balances are sent in bursts). */
  bookEvents: BookEvents;
  paymailHost: PaymailHost;
  /** Settles open payments and reconciles the books with the chain; concurrent calls share one run. */
  reconcile(): Promise<void>;
}

type Defaults = 'now' | 'logger' | 'compileLimits' | 'tokenTemplates' | 'liveEvents';

/**
 * Builds every part once and wires them by construction: each is given, when it is made, the parts it
 * tells or asks (the books tell the live events, the token books ask for lineage proofs). The one genuine
 * cycle, a scan of the wallets ending in a reconciliation that settles through the services holding that
 * sync, is closed by a callback that reaches `reconcile` only when a scan ends. Nothing runs yet:
 * createEngine starts it.
 */
export function buildServices(options: BuildOptions & Required<Pick<BuildOptions, Defaults>>): EngineParts {
  const { store, config, chain, srv, authoriseValueMove, throttle, now, logger, compileLimits, tokenTemplates, liveEvents } = options;
  const repos = createRepos(store.db);
  installTokenTemplates(repos, tokenTemplates, now);
  const eventHub = new EventHub({ now, capacity: liveEvents.capacity, windowMs: liveEvents.windowMs });
  const templates = new TemplateRegistry(() => repos.tokenTemplates.all());
  const passwordThrottle = new Throttle(throttle ?? DEFAULT_THROTTLE, now);
  let sealed: Buffer | undefined;
  const sealingKey = () =>
    (sealed ??= Buffer.from(
      repos.settings.getOrInit('wallet-sealing-key', () => randomBytes(32).toString('hex')),
      'hex',
    ));
  const keyWorkers = options.keyWorkers ?? KeyWorkers.shared();
  const keyring = new KeyRing({ sealingKey, throttle: passwordThrottle }, keyWorkers);
  const addressBook = new AddressBook(
    { repos, now },
    { workers: keyWorkers, remember: (wallet, chain, idx, pub) => keyring.remember(wallet, chain, idx, pub) },
  );
  const bookEvents = new BookEvents({ repos, events: eventHub });
  const tokenValidator = new TokenValidator({ repos, db: store.db, now, logger, chain }, templates, (decided) =>
    bookEvents.tokensDecided(decided),
  );
  const tokenLedger = new TokenLedger({ repos, now }, templates, () => void tokenValidator.run());
  // 1Sat Ordinals: the configured 1Sat indexer on the network (its answers checked against the transactions),
  // Keystead's own index on the embedded chain.
  const ordinalsIndex: OrdinalsIndex = options.ordinalsIndexerUrl
    ? new OneSatIndex({ baseUrl: options.ordinalsIndexerUrl, chain, logger })
    : new LocalOrdinalsIndex({ chain, repo: repos.ordinals, logger, now });
  const ordinalBooks = new OrdinalBooks({ repos, now }, () => ordinalsIndex, logger);
  const everyone = { kind: 'everyone' } as const;
  const sync = new WalletSync({ db: store.db, repos, now, logger, addressBook }, chain, {
    // Invoices are matched to incoming payments as they are booked, in the same database transaction.
    sideBooks: [tokenLedger, ordinalBooks, new InvoiceBooks({ repos, now }), new AppActionBooks({ repos, now })],
    onBooksChanged: (before, txids) => bookEvents.changed(before, txids),
    onTip: (height) => eventHub.publish('block', { height }, everyone),
    onScanning: (syncing) => eventHub.publish('sync.state', { syncing }, everyone),
    onSyncError: (message) => eventHub.publish('sync.error', { message }, everyone),
    // Every scan of all wallets ends by reconciling the books with the chain.
    afterScan: () => reconcile(),
  });
  const paymailHosts = new PaymailHostMap(repos.settings, config.paymailHosts ?? {});
  // Checkpoints are anchored (when the organisation opts in) through the fee manager, once the services exist.
  const auditTrail = new AuditTrail({ repos, db: store.db, now, logger, sealingKey, anchor: (c) => anchorAuditCheckpoint(services, c) });
  const services: EngineServices = {
    db: store.db,
    repos,
    config,
    now,
    logger,
    events: eventHub,
    throttle: passwordThrottle,
    sealingKey,
    auditTrail,
    keyring,
    addressBook,
    chain,
    sync,
    commits: groupedCommits(store.db),
    inFlight: new Set(),
    heldBack: (attempt) => repos.appActions.holdsBack(attempt),
    // The payment policy's check of every move (policies/authorise.ts), unless a test gives its own.
    authoriseValueMove: authoriseValueMove ?? createPolicyAuthoriser({ repos, now, logger, events: eventHub, tokenTemplates: templates }),
    runApproved: (request, secrets) => runApproved(services, request, secrets),
    carryingApprovals: new Set(),
    paymail: new PaymailClient(() => paymailHosts.map(), srv),
    paymailHosts,
    compiler: new CompilePool(compileLimits, { logger }),
    tokenTemplates: templates,
    tokenLedger,
    tokenValidator,
    ordinalsIndex,
    ordinalBooks,
    appGate: new AppGate(),
    eventStreams: new EventStreams({ repos, now }, eventHub, liveEvents.recheckMs),
  };
  let reconciling: Promise<void> | null = null;
  const reconcile = () =>
    (reconciling ??= (async () => {
      await settleAttempts(services);
      // An approved request left `sending` (a crash, or its payment was open) follows its payment.
      settleSendingApprovals(services);
      await reconcileBooks(services);
      await tokenValidator.run();
      await ordinalBooks.validatePending();
    })()
      .catch((err) => logger.error({ err: (err as Error).message }, 'reconciling the books with the chain failed; it runs again soon'))
      .finally(() => {
        reconciling = null;
      }));
  // Entries written before the hash chain existed are chained, and finished days closed, before any call.
  auditTrail.open();
  return { services, bookEvents, paymailHost: new PaymailHost(services), reconcile };
}

/** Installs the licensed templates given at start; a template that is not an STAS template stops the start. */
function installTokenTemplates(
  repos: Pick<Repos, 'tokenTemplates'>,
  templates: NonNullable<BuildOptions['tokenTemplates']>,
  now: () => number,
): void {
  for (const t of templates) {
    const problem = checkStasTemplate(t.template);
    if (problem) throw new Error(`token template ${t.protocolId}: ${problem}`);
    repos.tokenTemplates.put(t.protocolId, t.template.trim(), 'flag', now());
  }
}
