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
/**
 * What this turn has to tell, posted as one message when its synchronous work is done: a broadcast's
 * announcement and its answer cross together, one hand-over instead of two.
 */
let outbox: FromNodeThread[] = [];
const flush = () => {
  const messages = outbox;
  outbox = [];
  if (messages.length) port.postMessage(messages.length === 1 ? messages[0] : ({ type: 'batch', messages } satisfies FromNodeThread));
};
const post = (m: FromNodeThread) => {
  if (outbox.push(m) === 1) queueMicrotask(flush);
};

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
  // Posted at once, not with the turn's other messages: the thread ends right after.
  port.postMessage({ type: 'failed', name: (err as Error).name, message: (err as Error).message } satisfies FromNodeThread);
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
    flush(); // before the port closes: what the node said last, then that it is closed
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
