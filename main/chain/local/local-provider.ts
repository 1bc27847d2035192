import type { ChainEvents, ChainProvider, DevChain, ExchangeRate } from '../types.js';
import type { LocalNode } from './local-node.js';

/** The embedded node as a ChainProvider: in-process calls, no HTTP; a development chain that pushes events. */
export class LocalProvider implements ChainProvider {
  readonly network = 'local';
  readonly describe = 'embedded local node';
  readonly dev: DevChain;
  readonly events: ChainEvents;

  constructor(
    readonly node: LocalNode,
    private readonly usdRate: () => ExchangeRate | null,
  ) {
    this.dev = {
      faucet: (address, satoshis) => node.faucet(address, satoshis),
      mine: async (blocks) => node.mineBlocks(blocks),
      mempoolSize: async () => node.mempoolSize(),
    };
    this.events = {
      onTransaction: (listener) => void node.on('tx', listener),
      onBlock: (listener) => void node.on('block', listener),
    };
  }

  async broadcast(rawTxHex: string) {
    return this.node.accept(rawTxHex);
  }
  async getBalance(address: string) {
    return this.node.balance(address);
  }
  async getUtxos(address: string) {
    return this.node.utxos(address);
  }
  async getHistory(address: string) {
    return this.node.history(address);
  }
  async getHeldScripts(address: string, limit: number) {
    return this.node.heldScripts(address, limit);
  }
  async getSpentBy(txid: string, vout: number) {
    return this.node.spentBy(txid, vout) ?? null;
  }
  async getTransactionHex(txid: string) {
    return this.node.txHex(txid);
  }
  async getTxStatus(txid: string) {
    return this.node.txStatus(txid);
  }
  async getMerkleRoot(height: number) {
    return this.node.blockAt(height)?.merkleRoot ?? null;
  }
  async getBlockHeader(height: number) {
    return this.node.headerAt(height);
  }
  async getTip() {
    return this.node.tip();
  }
  async getFeePolicy() {
    return this.node.policy;
  }
  async getUsdRate() {
    return this.usdRate();
  }
}
