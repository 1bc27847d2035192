import type { ChainProvider, ExchangeRate } from '../types.js';
import type { LocalNode } from './local-node.js';

/** The embedded node as a ChainProvider: in-process calls, no HTTP. */
export class LocalProvider implements ChainProvider {
  readonly network = 'local';
  readonly describe = 'embedded local node';

  constructor(
    readonly node: LocalNode,
    private readonly usdRate: () => ExchangeRate | null,
  ) {}

  async broadcast(rawTxHex: string) {
    return this.node.submit(rawTxHex);
  }
  async getUtxos(address: string) {
    return this.node.utxos(address);
  }
  async getHistory(address: string) {
    return this.node.history(address);
  }
  async getTransactionHex(txid: string) {
    return this.node.txHex(txid);
  }
  async getTxStatus(txid: string) {
    return this.node.txStatus(txid);
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
