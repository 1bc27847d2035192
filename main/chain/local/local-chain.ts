import type { Transaction } from '@bsv/sdk';
import type { AddressHistoryEntry, BroadcastResult, ChainTip, ChainUtxo, FeePolicy, TxStatus } from '../types.js';
import type { BlockInfo, LocalNode } from './local-node.js';

/** A block the node mined, as its 'block' event and `mine` give it. */
export interface MinedBlock {
  height: number;
  hash: string;
  txids: string[];
}

/**
 * The embedded node as everything outside it uses it: every answer asynchronous, so that the node can run
 * on a thread of its own (node-thread.ts) as a real node runs on another machine, or in this thread
 * (`inProcessChain`, for tests that drive a node directly). The provider, the node's public routes, the
 * hosts and the benches see only this.
 */
export interface LocalChain {
  readonly faucetAddress: string;
  readonly policy: FeePolicy;
  /** Validates a transaction and, if valid, takes it into the mempool (LocalNode.accept). */
  accept(rawHex: string): Promise<BroadcastResult>;
  /** The same, the scripts checked at once on the node's own thread (seeding, tests). */
  submit(rawHex: string): Promise<BroadcastResult>;
  faucet(address: string, satoshis: number): Promise<BroadcastResult>;
  mine(): Promise<MinedBlock>;
  mineBlocks(blocks: number): Promise<{ height: number; hash: string; txCount: number }>;
  mempoolSize(): Promise<number>;
  tip(): Promise<ChainTip>;
  headerAt(height: number): Promise<string | null>;
  blockAt(height: number): Promise<BlockInfo | null>;
  utxos(address: string): Promise<ChainUtxo[]>;
  heldScripts(address: string, limit: number): Promise<ChainUtxo[]>;
  /** The transaction that spent an output: its txid, null while unspent, undefined when the output is unknown. */
  spentBy(txid: string, vout: number): Promise<string | null | undefined>;
  balance(address: string): Promise<number>;
  history(address: string): Promise<AddressHistoryEntry[]>;
  txHex(txid: string): Promise<string | null>;
  txStatus(txid: string): Promise<TxStatus>;
  /** Mines every `ms` while transactions wait; 0 turns it off. */
  setMiningInterval(ms: number): Promise<void>;
  onTransaction(listener: (e: { txid: string; tx: Transaction }) => void): void;
  onBlock(listener: (e: MinedBlock) => void): void;
  close(): Promise<void>;
}

/** The names of LocalChain's calls that go to the node: what a node thread answers, and nothing else. */
export const NODE_CALLS = [
  'accept',
  'submit',
  'faucet',
  'mine',
  'mineBlocks',
  'mempoolSize',
  'tip',
  'headerAt',
  'blockAt',
  'utxos',
  'heldScripts',
  'spentBy',
  'balance',
  'history',
  'txHex',
  'txStatus',
  'setMiningInterval',
] as const satisfies readonly (keyof LocalChain & keyof LocalNode)[];
export type NodeCall = (typeof NODE_CALLS)[number];

/** Each of the node's calls, answered by `answer(name, args)`: the one place the calls are listed as functions. */
export function nodeCalls(answer: (name: NodeCall, args: unknown[]) => Promise<unknown>): Pick<LocalChain, NodeCall> {
  return Object.fromEntries(NODE_CALLS.map((name) => [name, (...args: unknown[]) => answer(name, args)])) as unknown as Pick<
    LocalChain,
    NodeCall
  >;
}

/** A node on this thread, behind the same asynchronous face as one on a thread of its own. */
export function inProcessChain(node: LocalNode): LocalChain {
  return {
    faucetAddress: node.faucetAddress,
    policy: node.policy,
    ...nodeCalls(async (name, args) => (node[name] as (...a: unknown[]) => unknown)(...args)),
    onTransaction: (listener) => void node.on('tx', listener),
    onBlock: (listener) => void node.on('block', listener),
    close: async () => node.close(),
  };
}
