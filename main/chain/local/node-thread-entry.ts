import { parentPort, workerData } from 'node:worker_threads';
import { createLogger, type LogLevel } from '../../log/logger.js';
import type { FeePolicy } from '../types.js';
import { LocalNode } from './local-node.js';
import { NODE_CALLS, type NodeCall } from './local-chain.js';
import type { FromNodeThread, NodeThreadData, ToNodeThread } from './node-thread-protocol.js';

/**
 * The local node's own thread (node-thread.ts starts it): it opens the node's ledger, answers the calls
 * named in NODE_CALLS and nothing else, and tells its starter of every transaction and block. Its log
 * lines go to the starter's logger.
 */
const data = workerData as NodeThreadData;
const port = parentPort!;
const post = (m: FromNodeThread) => port.postMessage(m);

const logger = createLogger({
  level: data.logLevel as LogLevel,
  destination: { write: (line: string) => post({ type: 'log', line }) },
});

let node: LocalNode;
try {
  node = LocalNode.open({
    dataDir: data.dataDir,
    password: data.password,
    policy: data.policy as FeePolicy | undefined,
    nativeBinding: data.nativeBinding,
    logger,
  });
} catch (err) {
  post({ type: 'failed', name: (err as Error).name, message: (err as Error).message });
  process.exit(1);
}
node.setMiningInterval(data.miningIntervalMs);
node.on('tx', ({ txid, raw }) => post({ type: 'tx', txid, raw }));
node.on('block', (block) => post({ type: 'block', block }));
post({ type: 'ready', faucetAddress: node.faucetAddress, policy: node.policy });

const allowed = new Set<string>(NODE_CALLS);
port.on('message', async (m: ToNodeThread) => {
  if (m.type === 'close') {
    node.close();
    post({ type: 'closed' });
    port.close();
    return;
  }
  if (!allowed.has(m.name)) {
    post({ type: 'answer', id: m.id, ok: false, message: `no such node call: ${String(m.name)}` });
    return;
  }
  try {
    const value = await (node[m.name as NodeCall] as (...a: unknown[]) => unknown)(...m.args);
    post({ type: 'answer', id: m.id, ok: true, value });
  } catch (err) {
    post({ type: 'answer', id: m.id, ok: false, message: (err as Error).message });
  }
});
