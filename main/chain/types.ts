/**
 * Everything that touches a blockchain goes through a ChainProvider: the embedded local node (the
 * default) or ARC + WhatsOnChain on the real network. Amounts are integer satoshis; ids and scripts hex.
 */
export interface FeePolicy {
  /** The mining fee: `satoshis` per `bytes` of transaction size. */
  satoshis: number;
  bytes: number;
  /** The smallest value of a non-data output. */
  dustLimit: number;
}

/** Why a transaction was refused; each a distinct, stable code. */
export type RejectReason =
  | 'malformed'
  | 'missing-inputs'
  | 'double-spend'
  | 'bad-signature'
  | 'outputs-exceed-inputs'
  | 'dust'
  | 'fee-too-low'
  | 'too-large'
  | 'network-error';

export type BroadcastResult =
  | { status: 'accepted'; txid: string; alreadyKnown: boolean }
  | { status: 'rejected'; txid: string | null; reason: RejectReason; message: string; competingTxs?: string[] };

export interface ChainUtxo {
  txid: string;
  vout: number;
  satoshis: number;
  /** Locking script, hex. */
  script: string;
  /** Null while unconfirmed. */
  height: number | null;
}

export interface TxStatus {
  txid: string;
  state: 'unknown' | 'mempool' | 'mined';
  blockHeight: number | null;
  blockHash: string | null;
  /** BUMP (BRC-74) hex, once mined. */
  merklePath: string | null;
}

export interface ChainTip {
  height: number;
  hash: string;
}

export interface ExchangeRate {
  /** ISO currency code, upper case. */
  currency: string;
  /** Price of one BSV in that currency. */
  rate: number;
  source: string;
  time: string;
}

export interface AddressHistoryEntry {
  txid: string;
  height: number | null;
}

export interface ChainProvider {
  readonly network: string;
  /** A description for the Network view: "embedded local node", "ARC https://… + WhatsOnChain …". */
  readonly describe: string;
  broadcast(rawTxHex: string): Promise<BroadcastResult>;
  getUtxos(address: string): Promise<ChainUtxo[]>;
  getHistory(address: string): Promise<AddressHistoryEntry[]>;
  getTransactionHex(txid: string): Promise<string | null>;
  getTxStatus(txid: string): Promise<TxStatus>;
  getTip(): Promise<ChainTip>;
  getFeePolicy(): Promise<FeePolicy>;
  getUsdRate(): Promise<ExchangeRate | null>;
}
