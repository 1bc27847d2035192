import { MerklePath, P2PKH, Transaction } from '@bsv/sdk';
import { parseTransactionHex, type ParsedTransaction } from '../transaction-bytes.js';
import type {
  AddressHistoryEntry,
  BroadcastResult,
  ChainProvider,
  ChainTip,
  ChainUtxo,
  DevChain,
  ExchangeRate,
  FeePolicy,
  TxStatus,
} from '../types.js';
import { classifyArc } from './classify.js';
import { headerFromWoc, maxTargetAt, UntrustedHeader } from './woc-header.js';
import { DEFAULT_HTTP, httpRequest, HttpUnavailable, type HttpOptions } from '../../net/http.js';
import { silentLogger, type Logger } from '../../log/logger.js';
import { DEFAULT_FEE_POLICY } from '../policy.js';
import { isDustLimit, MAX_DUST_LIMIT, readMiningFee, readUsdRate } from './answers.js';
import { readArcStatus, readBalance, readHistory, readTip, readTscProof, readUtxos, type Read } from './woc-answers.js';
import { merkleRootOfHeader } from '../block.js';

export interface NetworkConfig {
  /** mainnet, testnet, or remote (another Keystead's local node). */
  network: string;
  arcUrl: string;
  arcApiKey?: string;
  /** WhatsOnChain base including the network, e.g. https://api.whatsonchain.com/v1/bsv/main */
  wocUrl: string;
  wocApiKey?: string;
  /** Satoshis; a whole number from 0 to MAX_DUST_LIMIT (1 if not given). */
  dustLimit?: number;
  http?: Partial<HttpOptions>;
  /** Where refused answers are reported (silent if not given). */
  logger?: Logger;
  /** remote: the other Keystead's development routes (faucet, mining), under its /chain/dev. */
  devUrl?: string;
}

/** The public services per network; `ordinalsIndexerUrl` is the public 1Sat API (engine/ordinals/one-sat-index.ts). */
export const PUBLIC_ENDPOINTS = {
  mainnet: {
    arcUrl: 'https://arc.taal.com',
    wocUrl: 'https://api.whatsonchain.com/v1/bsv/main',
    ordinalsIndexerUrl: 'https://ordinals.gorillapool.io/api',
  },
  testnet: {
    arcUrl: 'https://arc-test.taal.com',
    wocUrl: 'https://api.whatsonchain.com/v1/bsv/test',
    ordinalsIndexerUrl: 'https://testnet.ordinals.gorillapool.io/api',
  },
} as const;

/** Endpoints of another Keystead's embedded node, for `--network remote`. */
export function remoteEndpoints(baseUrl: string): { arcUrl: string; wocUrl: string; devUrl: string } {
  const base = baseUrl.replace(/\/+$/, '');
  return { arcUrl: `${base}/chain/arc`, wocUrl: `${base}/chain/woc/v1/bsv/local`, devUrl: `${base}/chain/dev` };
}

class ProviderError extends Error {}

/** ARC's statuses that say a node of the network accepted the transaction (it validated its inputs and scripts). */
const NODES_ACCEPTED = new Set(['ACCEPTED_BY_NETWORK', 'SEEN_ON_NETWORK']);

/** ARC for broadcast and status, WhatsOnChain for outputs, transactions, history, the tip and rates. */
export class NetworkProvider implements ChainProvider {
  readonly network: string;
  readonly describe: string;
  private readonly http: HttpOptions;
  /** The last fee policy ARC answered that passed every check; a refused answer never replaces it. */
  private policyCache: { at: number; policy: FeePolicy } | null = null;
  private readonly dustLimit: number;
  private readonly logger: Logger;
  readonly dev?: DevChain;

  constructor(private readonly cfg: NetworkConfig) {
    if (cfg.dustLimit !== undefined && !isDustLimit(cfg.dustLimit))
      throw new RangeError(`dustLimit must be a whole number of satoshis from 0 to ${MAX_DUST_LIMIT}`);
    this.dustLimit = cfg.dustLimit ?? 1;
    this.logger = cfg.logger ?? silentLogger();
    this.network = cfg.network;
    this.describe = `ARC ${cfg.arcUrl} + WhatsOnChain ${cfg.wocUrl}`;
    this.http = { ...DEFAULT_HTTP, ...cfg.http };
    if (cfg.devUrl) this.dev = this.remoteDev(cfg.devUrl);
  }

  /** Another Keystead's local node offers its faucet and mining over HTTP (with the chain API key if set). */
  private remoteDev(devUrl: string): DevChain {
    const post = async (path: string, body: unknown) => {
      const r = await httpRequest(
        `${devUrl}${path}`,
        { method: 'POST', headers: this.arcHeaders(), body: JSON.stringify(body) },
        this.http,
      );
      if (r.status !== 200) throw new ProviderError(`the remote node's ${path} answered HTTP ${r.status}`);
      return r.body as Record<string, unknown>;
    };
    return {
      faucet: async (address, satoshis) => (await post('/faucet', { address, satoshis })) as unknown as BroadcastResult,
      mine: async (blocks) => (await post('/mine', { blocks })) as unknown as { height: number; hash: string; txCount: number },
      mempoolSize: async () => Number((await post('/mempool', {})).size),
    };
  }

  private arcHeaders(): Record<string, string> {
    return {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(this.cfg.arcApiKey ? { authorization: `Bearer ${this.cfg.arcApiKey}` } : {}),
    };
  }

  private async woc(path: string): Promise<{ status: number; body: unknown }> {
    return httpRequest(
      `${this.cfg.wocUrl}${path}`,
      { headers: { accept: 'application/json', ...(this.cfg.wocApiKey ? { authorization: this.cfg.wocApiKey } : {}) } },
      this.http,
    );
  }

  /** A provider's answer that failed its strict reader is the provider failing: nothing of it is used. */
  private checked<T>(what: string, r: Read<T>): T {
    if (r.ok) return r.value;
    throw new ProviderError(`${what} answered something that is not a valid answer (${r.reason}); it was not used`);
  }

  private async wocOk(path: string): Promise<unknown> {
    const r = await this.woc(path);
    if (r.status !== 200) throw new ProviderError(`WhatsOnChain ${path} answered HTTP ${r.status}`);
    return r.body;
  }

  async broadcast(rawTxHex: string): Promise<BroadcastResult> {
    let txid: string | null = null;
    try {
      txid = Transaction.fromHex(rawTxHex).id('hex');
    } catch {
      /* EF or malformed: ARC will say */
    }
    try {
      const r = await httpRequest(
        `${this.cfg.arcUrl}/v1/tx`,
        { method: 'POST', headers: this.arcHeaders(), body: JSON.stringify({ rawTx: rawTxHex }) },
        this.http,
      );
      return classifyArc(r.status, r.body, txid);
    } catch (err) {
      if (err instanceof HttpUnavailable) return { status: 'unknown', txid, message: err.message };
      throw err;
    }
  }

  async getUtxos(address: string): Promise<ChainUtxo[]> {
    const list = this.checked('WhatsOnChain unspent', readUtxos(await this.wocOk(`/address/${address}/unspent`)));
    const script = new P2PKH().lock(address).toHex();
    return list.map((u) => ({ txid: u.tx_hash, vout: u.tx_pos, satoshis: u.value, script, height: u.height > 0 ? u.height : null }));
  }

  async getBalance(address: string): Promise<number> {
    const b = this.checked('WhatsOnChain balance', readBalance(await this.wocOk(`/address/${address}/balance`)));
    return (b.confirmed ?? 0) + (b.unconfirmed ?? 0);
  }

  async getHistory(address: string): Promise<AddressHistoryEntry[]> {
    const r = await this.woc(`/address/${address}/history`);
    if (r.status === 404) return [];
    if (r.status !== 200) throw new ProviderError(`WhatsOnChain history answered HTTP ${r.status}`);
    return this.checked('WhatsOnChain history', readHistory(r.body)).map((h) => ({
      txid: h.tx_hash,
      height: h.height > 0 ? h.height : null,
    }));
  }

  async getTransactionHex(txid: string): Promise<string | null> {
    const r = await this.woc(`/tx/${txid}/hex`);
    if (r.status === 404) return null;
    if (r.status !== 200 || typeof r.body !== 'string') throw new ProviderError(`WhatsOnChain tx hex answered HTTP ${r.status}`);
    // The books are kept from these bytes: an answer that is not exactly the transaction asked for is an error, not data.
    let parsed: ParsedTransaction;
    try {
      parsed = parseTransactionHex(r.body);
    } catch (err) {
      throw new ProviderError(`WhatsOnChain answered transaction ${txid} with bytes that are not one: ${(err as Error).message}`);
    }
    if (parsed.txid !== txid) throw new ProviderError(`WhatsOnChain answered transaction ${txid} with another one (${parsed.txid})`);
    return parsed.raw;
  }

  /** WhatsOnChain's spent route: `{txid, vin}` of the spending transaction, 404 while unspent. Anything else is an error. */
  async getSpentBy(txid: string, vout: number): Promise<string | null> {
    const r = await this.woc(`/tx/${txid}/${vout}/spent`);
    if (r.status === 404) return null;
    const spender = (r.body as { txid?: unknown } | null)?.txid;
    if (r.status !== 200 || typeof spender !== 'string' || !/^[0-9a-f]{64}$/.test(spender))
      throw new ProviderError(`WhatsOnChain spent answered HTTP ${r.status} without a transaction id`);
    return spender;
  }

  async getTxStatus(txid: string): Promise<TxStatus> {
    const r = await httpRequest(`${this.cfg.arcUrl}/v1/tx/${txid}`, { headers: this.arcHeaders() }, this.http);
    if (r.status === 404) return { txid, state: 'unknown', blockHeight: null, blockHash: null, merklePath: null };
    if (r.status !== 200) throw new ProviderError(`ARC status answered HTTP ${r.status}`);
    const b = this.checked('ARC status', readArcStatus(r.body));
    const txStatus = String(b.txStatus ?? '').toUpperCase();
    const none = { blockHeight: null, blockHash: null, merklePath: null };
    if (txStatus === 'MINED')
      return {
        txid,
        state: 'mined',
        blockHeight: b.blockHeight ?? null,
        blockHash: b.blockHash ?? null,
        merklePath: b.merklePath ?? null,
        seenOnNetwork: true,
      };
    if (txStatus === 'REJECTED') return { txid, state: 'rejected', ...none };
    // An orphan waits for parents nobody may have, and a double-spend attempt may still lose: neither is
    // something the chain has.
    if (txStatus === '' || /ORPHAN|UNKNOWN|DOUBLE_SPEND/.test(txStatus)) return { txid, state: 'unknown', ...none };
    // Only a node's acceptance vouches for the transaction; RECEIVED, STORED, ANNOUNCED_TO_NETWORK and the like
    // say ARC holds it, which anyone can bring about with any transaction.
    return { txid, state: 'mempool', ...none, seenOnNetwork: NODES_ACCEPTED.has(txStatus) };
  }

  /**
   * WhatsOnChain's TSC proof (`/tx/{txid}/proof/tsc`: the transaction's index in the block and the sibling
   * hash at each level, bottom up), as a BUMP at `height`. Only a shape check here: whether it proves anything
   * is decided against the block header (engine/sync/proven-height.ts).
   */
  async getMerkleProof(txid: string, height: number): Promise<string | null> {
    const r = await this.woc(`/tx/${txid}/proof/tsc`);
    if (r.status === 404) return null;
    if (r.status !== 200) throw new ProviderError(`WhatsOnChain proof answered HTTP ${r.status}`);
    const proof = this.checked('WhatsOnChain proof', readTscProof(r.body));
    if (proof === null) return null;
    const path: { offset: number; hash?: string; txid?: boolean; duplicate?: boolean }[][] = proof.nodes.map((node, level) => [
      node === '*' ? { offset: (proof.index >> level) ^ 1, duplicate: true } : { offset: (proof.index >> level) ^ 1, hash: node },
    ]);
    if (path.length === 0) path.push([]);
    path[0].push({ offset: proof.index, hash: txid, txid: true });
    path[0].sort((a, b) => a.offset - b.offset);
    try {
      return new MerklePath(height, path).toHex();
    } catch (err) {
      throw new ProviderError(`WhatsOnChain's proof of ${txid} is not a merkle path: ${(err as Error).message}`);
    }
  }

  /** The merkle root of the header `getBlockHeader` rebuilt and checked (proof of work on the real networks). */
  async getMerkleRoot(height: number): Promise<string | null> {
    const header = await this.getBlockHeader(height);
    return header === null ? null : merkleRootOfHeader(header);
  }

  async getBlockHeader(height: number): Promise<string | null> {
    const r = await this.woc(`/block/${height}/header`);
    if (r.status === 404) return null;
    if (r.status !== 200) throw new ProviderError(`WhatsOnChain block header answered HTTP ${r.status}`);
    try {
      // Another Keystead's local node does no proof of work; the real networks do, at least so much at each height.
      return headerFromWoc(r.body, height, maxTargetAt(this.network, height));
    } catch (err) {
      if (err instanceof UntrustedHeader) throw new ProviderError(`WhatsOnChain's header of block ${height} was refused: ${err.message}`);
      throw err;
    }
  }

  async getTip(): Promise<ChainTip> {
    const b = this.checked('WhatsOnChain chain info', readTip(await this.wocOk('/chain/info')));
    return { height: b.blocks, hash: b.bestblockhash };
  }

  /**
   * ARC's mining fee, cached 10 minutes. An answer that fails `readMiningFee` (a wrong type, fractional or
   * absurd bytes, a rate above 1 satoshi per byte) is refused and logged: the last good policy stays in use,
   * or the default (1 satoshi per 1,000 bytes) before there is one. An unreachable ARC is still an error.
   */
  async getFeePolicy(): Promise<FeePolicy> {
    if (this.policyCache && Date.now() - this.policyCache.at < 10 * 60_000) return this.policyCache.policy;
    const r = await httpRequest(`${this.cfg.arcUrl}/v1/policy`, { headers: this.arcHeaders() }, this.http);
    if (r.status !== 200) throw new ProviderError(`ARC policy answered HTTP ${r.status}`);
    const fee = readMiningFee(r.body);
    if (!fee.ok) {
      const kept = this.policyCache?.policy ?? { ...DEFAULT_FEE_POLICY, dustLimit: this.dustLimit };
      this.logger.warn(
        { provider: 'ARC', kept: { satoshis: kept.satoshis, bytes: kept.bytes } },
        `refused ARC's fee policy: ${fee.reason}; keeping ${this.policyCache ? 'the last good policy' : 'the default policy'}`,
      );
      return kept;
    }
    const policy = { ...fee.value, dustLimit: this.dustLimit };
    this.policyCache = { at: Date.now(), policy };
    return policy;
  }

  /** WhatsOnChain's USD rate, or null when the answer is not a plausible one (refused and logged). */
  async getUsdRate(): Promise<ExchangeRate | null> {
    const rate = readUsdRate(await this.wocOk('/exchangerate'), Date.now());
    if (!rate.ok) {
      this.logger.warn({ provider: 'WhatsOnChain' }, `refused WhatsOnChain's USD rate: ${rate.reason}`);
      return null;
    }
    return { currency: 'USD', rate: rate.value.rate, source: 'whatsonchain', time: rate.value.time };
  }
}
