import type { BroadcastResult, ChainEvents, ChainProvider, DevChain, ExchangeRate } from '../types.js';
import { inProcessChain, type LocalChain } from './local-chain.js';
import { LocalNode } from './local-node.js';

/**
 * The embedded node as a ChainProvider: a development chain that pushes events. The node runs on a thread
 * of its own (node-thread.ts) in the hosts, or on this one when a test drives a LocalNode directly.
 */
export class LocalProvider implements ChainProvider {
  readonly network = 'local';
  readonly describe = 'embedded local node';
  readonly dev: DevChain;
  readonly events: ChainEvents;
  /** The node, as everything outside the chain layer calls it. */
  readonly chain: LocalChain;

  constructor(
    node: LocalNode | LocalChain,
    private readonly usdRate: () => ExchangeRate | null,
  ) {
    const chain = node instanceof LocalNode ? inProcessChain(node) : node;
    this.chain = chain;
    this.dev = {
      faucet: (address, satoshis) => chain.faucet(address, satoshis),
      mine: (blocks) => chain.mineBlocks(blocks),
      mempoolSize: () => chain.mempoolSize(),
    };
    this.events = {
      onTransaction: (listener) => chain.onTransaction(listener),
      onBlock: (listener) => chain.onBlock(listener),
    };
  }

  /** A node that cannot answer (its thread stopped, or it is closing) leaves the outcome open, as a network that does not answer. */
  async broadcast(rawTxHex: string): Promise<BroadcastResult> {
    try {
      return await this.chain.accept(rawTxHex);
    } catch (err) {
      return { status: 'unknown', txid: null, message: `the local node did not answer: ${(err as Error).message}` };
    }
  }
  getBalance(address: string) {
    return this.chain.balance(address);
  }
  getUtxos(address: string) {
    return this.chain.utxos(address);
  }
  getHistory(address: string) {
    return this.chain.history(address);
  }
  getHeldScripts(address: string, limit: number) {
    return this.chain.heldScripts(address, limit);
  }
  async getSpentBy(txid: string, vout: number) {
    return (await this.chain.spentBy(txid, vout)) ?? null;
  }
  getTransactionHex(txid: string) {
    return this.chain.txHex(txid);
  }
  getTxStatus(txid: string) {
    return this.chain.txStatus(txid);
  }
  async getMerkleRoot(height: number) {
    return (await this.chain.blockAt(height))?.merkleRoot ?? null;
  }
  getBlockHeader(height: number) {
    return this.chain.headerAt(height);
  }
  getTip() {
    return this.chain.tip();
  }
  async getFeePolicy() {
    return this.chain.policy;
  }
  async getUsdRate() {
    return this.usdRate();
  }
}
