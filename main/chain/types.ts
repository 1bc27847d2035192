import type { Transaction } from '@bsv/sdk';

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

/** Why the chain refused a transaction; each a distinct, stable code. */
export type RejectReason =
  'malformed' | 'missing-inputs' | 'double-spend' | 'bad-signature' | 'outputs-exceed-inputs' | 'dust' | 'fee-too-low' | 'too-large';

/**
 * What became of a broadcast. Only `rejected` is the chain's verdict on the transaction and may give its
 * coins back; `unknown` (no answer, a timeout, a 5xx, an answer about something else, such as a refused
 * API key) says nothing about it: the transaction may be on its way, so its coins stay reserved.
 */
export type BroadcastResult =
  | { status: 'accepted'; txid: string; alreadyKnown: boolean }
  | { status: 'rejected'; txid: string | null; reason: RejectReason; message: string; competingTxs?: string[] }
  | { status: 'unknown'; txid: string | null; message: string };

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
  /** `rejected`: the provider knows the transaction and refused it (ARC's REJECTED / DOUBLE_SPEND_ATTEMPTED). */
  state: 'unknown' | 'mempool' | 'mined' | 'rejected';
  blockHeight: number | null;
  blockHash: string | null;
  /** BUMP (BRC-74) hex, once mined. */
  merklePath: string | null;
  /**
   * The network's nodes have accepted the transaction (ARC's SEEN_ON_NETWORK, ACCEPTED_BY_NETWORK or MINED; the
   * embedded node for what it accepted). ARC also answers `mempool` for what it has only received or stored,
   * which anyone can make it do with any transaction, valid or not: that vouches for nothing.
   */
  seenOnNetwork?: boolean;
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

/**
 * A development chain's extras: test coins and blocks on demand. The embedded local node has them, and so
 * does another Keystead's local node reached with `--network remote`; ARC/WhatsOnChain do not.
 */
export interface DevChain {
  faucet(address: string, satoshis: number): Promise<BroadcastResult>;
  mine(blocks: number): Promise<{ height: number; hash: string; txCount: number }>;
  mempoolSize(): Promise<number>;
}

/** A chain that tells as things happen (the embedded node); others are polled. */
export interface ChainEvents {
  onTransaction(listener: (e: { txid: string; tx: Transaction }) => void): void;
  onBlock(listener: (e: { height: number; hash: string; txids: string[] }) => void): void;
}

export interface ChainProvider {
  readonly network: string;
  /** A description for the Network view: "embedded local node", "ARC https://… + WhatsOnChain …". */
  readonly describe: string;
  broadcast(rawTxHex: string): Promise<BroadcastResult>;
  getUtxos(address: string): Promise<ChainUtxo[]>;
  /** The satoshis of an address's unspent plain P2PKH outputs (confirmed and not), without listing them. */
  getBalance(address: string): Promise<number>;
  getHistory(address: string): Promise<AddressHistoryEntry[]>;
  getTransactionHex(txid: string): Promise<string | null>;
  /**
   * The txid of the transaction that spent an output, or null when none is known (unspent, or the output is
   * unknown). Optional: token details follow NFT serials on the chain with it.
   */
  getSpentBy?(txid: string, vout: number): Promise<string | null>;
  /**
   * The unspent non-P2PKH outputs an address holds (token outputs, whose script starts with its P2PKH), at most
   * `limit`. Optional: a provider that indexes them answers in one query; others are read from the history.
   */
  getHeldScripts?(address: string, limit: number): Promise<ChainUtxo[]>;
  getTxStatus(txid: string): Promise<TxStatus>;
  /**
   * A merkle path (BUMP hex) placing the transaction in the block at `height`, from an indexer, or null when it
   * has none. Optional: checked against the header before any height is believed (engine/sync/proven-height.ts).
   */
  getMerkleProof?(txid: string, height: number): Promise<string | null>;
  getTip(): Promise<ChainTip>;
  /** The merkle root of the block at `height` (hex, as txids are written), or null when there is none: SPV checks of BEEF. */
  getMerkleRoot(height: number): Promise<string | null>;
  /** The 80-byte header of the block at `height` (hex), or null when there is none: BRC-100's getHeaderForHeight. */
  getBlockHeader(height: number): Promise<string | null>;
  getFeePolicy(): Promise<FeePolicy>;
  getUsdRate(): Promise<ExchangeRate | null>;
  /** Present on development chains only: the faucet and mining on demand. */
  readonly dev?: DevChain;
  /** Present when the chain pushes its transactions and blocks (then wallets need no polling). */
  readonly events?: ChainEvents;
}
