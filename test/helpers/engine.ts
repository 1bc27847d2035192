import { createEngine, type Engine, type EngineOptions } from '../../main/engine/engine.js';
import type { ThrottleOptions } from '../../main/engine/auth/throttle.js';
import { LocalNode } from '../../main/chain/local/local-node.js';
import { LocalProvider } from '../../main/chain/local/local-provider.js';
import type { ChainProvider } from '../../main/chain/types.js';
import { openStore, type Store } from '../../main/store/database.js';
import { tempDir } from './tmp.js';

export interface TestEngine {
  engine: Engine;
  node: LocalNode;
  /** The engine's open store, for tests that drive an engine module directly over the same books. */
  store: Store;
  dataDir: string;
  clock: { now: number };
}

/** An in-process engine over a real SQLCipher file in a temp dir, with a clock the test can move. */
export interface TestEngineOptions {
  throttle?: ThrottleOptions;
  sessionTtlMs?: number;
  broadcastWindowMs?: number;
  /** Paymail domains served by known hosts (e.g. a test's hostile receiver). */
  paymailHosts?: Record<string, string>;
  chain?: (local: ChainProvider) => ChainProvider;
  liveEvents?: EngineOptions['liveEvents'];
  authoriseValueMove?: EngineOptions['authoriseValueMove'];
}

export function testEngine(opts: TestEngineOptions = {}): TestEngine {
  const dataDir = tempDir();
  const clock = { now: Date.parse('2026-01-01T00:00:00Z') };
  const store = openStore({ dataDir, password: 'test-password' });
  const node = LocalNode.open({ dataDir, password: 'test-password', now: () => clock.now });
  const engine = createEngine({
    store,
    chain: (opts.chain ?? ((c) => c))(new LocalProvider(node, () => null)),
    config: {
      version: 'test',
      network: 'local',
      sessionTtlMs: opts.sessionTtlMs ?? 3600_000,
      paymailDomain: 'acme.test',
      broadcastWindowMs: opts.broadcastWindowMs ?? 30_000,
      paymailHosts: opts.paymailHosts,
    },
    throttle: opts.throttle,
    now: () => clock.now,
    liveEvents: opts.liveEvents,
    authoriseValueMove: opts.authoriseValueMove,
  });
  return { engine, node, store, dataDir, clock };
}

export const meta = { clientId: '127.0.0.1' };

/** The local provider with its broadcast replaced: for outages and refusals the chain cannot be made to give. */
export function withBroadcast(broadcast: ChainProvider['broadcast']): (local: ChainProvider) => ChainProvider {
  return (local) => ({
    network: local.network,
    describe: local.describe,
    getFeePolicy: () => local.getFeePolicy(),
    getUtxos: (a) => local.getUtxos(a),
    getBalance: (a) => local.getBalance(a),
    getHistory: (a) => local.getHistory(a),
    getTransactionHex: (t) => local.getTransactionHex(t),
    getTxStatus: (t) => local.getTxStatus(t),
    getTip: () => local.getTip(),
    getMerkleRoot: (h) => local.getMerkleRoot(h),
    getBlockHeader: (h) => local.getBlockHeader(h),
    getUsdRate: () => local.getUsdRate(),
    dev: local.dev,
    events: local.events,
    broadcast: (hex) => broadcast.call(local, hex),
  });
}
