import type { FeePolicy } from '../types.js';
import type { MinedBlock, NodeCall } from './local-chain.js';

/** What the node thread is started with. The password opens its ledger; it stays in this process. */
export interface NodeThreadData {
  dataDir: string;
  password: string;
  policy?: FeePolicy;
  nativeBinding?: string;
  miningIntervalMs: number;
  /** The starter's log level: the thread logs no more than its starter would. */
  logLevel: string;
}

/** To the node thread: a call (answered once, by its id), or the request to close the ledger. */
export type ToNodeThread = { type: 'call'; id: number; name: NodeCall; args: unknown[] } | { type: 'close' };

/** From the node thread, in the order it happened: an answer is posted after the events of the work it answers. */
export type FromNodeThread =
  | { type: 'ready'; faucetAddress: string; policy: FeePolicy }
  | { type: 'failed'; name: string; message: string }
  | { type: 'answer'; id: number; ok: true; value: unknown }
  | { type: 'answer'; id: number; ok: false; message: string }
  | { type: 'tx'; txid: string; raw: string }
  | { type: 'block'; block: MinedBlock }
  | { type: 'log'; line: string }
  | { type: 'closed' }
  /** Several of the above from one turn of the thread, in order. */
  | { type: 'batch'; messages: FromNodeThread[] };
