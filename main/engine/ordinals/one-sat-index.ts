import { Utils } from '@bsv/sdk';
import { z } from 'zod';
import { DomainError } from '../../../shared/errors.js';
import { parseTransactionHex, type ParsedTransaction } from '../../chain/transaction-bytes.js';
import type { ChainProvider } from '../../chain/types.js';
import type { Logger } from '../../log/logger.js';
import { httpRequest, HttpUnavailable, type HttpOptions } from '../../net/http.js';
import { parseOrdOutput, type Bsv21Op, type OrdOutputFacts } from '../../chain/ordinal-envelope.js';
import type { Bsv21OutputFacts, Bsv21TokenFacts, IndexedOutpoint, OrdinalsIndex } from './ordinals-index.js';

/**
 * The OrdinalsIndex on the real network: a 1Sat indexer (GorillaPool's public 1Sat Ordinals API by default,
 * or any server answering its routes), whose every answer is a claim checked against the transactions the
 * chain provider gives (each checked against its txid) before it is believed.
 *
 * Routes and fields relied on (learned from the public 1Sat API server's source, shruggr/1sat-server-js:
 * src/controllers/fungiblesController.ts, src/controllers/txosController.ts, src/models/bsv20Txo.ts,
 * src/models/token.ts, src/models/outpoint.ts, and the wallets that call it, yours-org/yours-wallet
 * src/services/GorillaPool.service.ts; no code taken). Outpoints are written `<txid>_<vout>`. The base URL is
 * `--ordinals-indexer-url`, by default the public API per network (PUBLIC_ENDPOINTS in chain/network/network-provider.ts:
 * `https://ordinals.gorillapool.io/api` on mainnet, `https://testnet.ordinals.gorillapool.io/api` on testnet).
 * - `GET /bsv20/outpoint/{txid}_{vout}` → one token output: `txid`, `vout`, `op` (`deploy+mint`, `transfer`,
 *   `burn`; BSV-20 v1 ops carry `tick` and no `id`), `id` (the token id, an outpoint), `amt` (a decimal
 *   string), `status` (1 valid, 0 pending, -1 invalid); 404 when the indexer holds no token operation there.
 * - `GET /bsv20/id/{id}` → a BSV-21 token: `id`, `sym`, `dec`, `amt` (decimal string: the deploy+mint's
 *   supply), `icon` (an outpoint), `status`; 404 when it knows no such token.
 * - `GET /txos/address/{address}/unspent?limit=&offset=&bsv20=` → a page of unspent 1-sat outputs at the
 *   address (`txid`, `vout`); `bsv20=true` lists those carrying token operations, `bsv20=false` the others
 *   (inscriptions and the 1-sat outputs their transfers left).
 *
 * What is checked: each named output exists in a transaction the chain provider gives; its script carries
 * the operation, token id and amount the indexer names (a deploy+mint's id is its own outpoint); a token's
 * deploy facts (symbol, decimals, supply, icon) equal its deploy+mint inscription's, which are what
 * Keystead answers; for a transfer or burn called valid, the token id is a deploy+mint output and the
 * transaction's inputs carry at least as much of the token as its outputs (one step of conservation);
 * an address's outputs pay that address (and hold one satoshi, or an inscription). What is trusted: that
 * the inputs themselves descend validly from the deploy+mint (the whole ancestry), a `pending` or
 * `invalid` verdict, that an output is unspent, and that no output is left out of an address's list.
 */

/** `<txid>_<vout>`, the only form of a token id and an outpoint Keystead takes from the indexer. */
export const OUTPOINT = /^[0-9a-f]{64}_\d+$/;
const TXID = /^[0-9a-f]{64}$/;
const U64_MAX = 2n ** 64n - 1n;

/** Answers are small JSON documents; one page of an address's outputs is at most `PAGE` of them. */
export const INDEXER_HTTP: HttpOptions = { timeoutMs: 10_000, retries: 2, backoffMs: 250, maxBytes: 2 * 1024 * 1024 };
const PAGE = 100;
/** Only whether an output is inscribed and its BSV-21 JSON (at most 1 KiB) are read here: no content is kept beyond that. */
const SMALL = { maxContentBytes: 2048 };

const vout = z.number().int().min(0).max(0xffffffff);
const outpoint = z
  .string()
  .regex(OUTPOINT)
  .refine((s) => Number(s.slice(65)) <= 0xffffffff, 'vout out of range');
/** Amounts only from decimal strings (a JSON number loses precision past 2^53), within an unsigned 64-bit integer. */
const amount = z
  .string()
  .regex(/^\d{1,20}$/)
  .transform((s) => BigInt(s))
  .refine((n) => n <= U64_MAX, 'amount out of range');
const status = z.union([z.literal(-1), z.literal(0), z.literal(1)]);

const tokenOutputAnswer = z.object({
  txid: z.string().regex(TXID).optional(),
  vout: vout.optional(),
  op: z.string().regex(/^[a-z+]{1,16}$/),
  id: outpoint.nullish(),
  tick: z.string().max(64).nullish(),
  amt: amount,
  status,
});

const tokenAnswer = z.object({
  id: outpoint.nullish(),
  sym: z.string().max(256).nullish(),
  dec: z.number().int().min(0).max(18).nullish(),
  amt: amount.nullish(),
  icon: z.union([outpoint, z.literal('')]).nullish(),
  status: status.optional(),
});

const outputsPage = z.array(z.object({ txid: z.string().regex(TXID), vout })).max(PAGE);

export interface OneSatIndexOptions {
  /** The indexer's API base, e.g. `https://ordinals.gorillapool.io/api` (no trailing slash needed). */
  baseUrl: string;
  /** Where the transactions the answers are checked against come from. */
  chain: Pick<ChainProvider, 'getTransactionHex'>;
  logger: Logger;
  /** Time, retry and size caps of each request (INDEXER_HTTP by default). */
  http?: Partial<HttpOptions>;
  /** Largest number of outputs taken from an address's list (2,000 by default); more is refused. */
  maxOutputs?: number;
  /** Most parent transactions fetched to check one transfer's inputs (100 by default); past it the verdict stays pending. */
  maxParents?: number;
}

/** The indexer's claim contradicts the transactions: refused, and said so (never used). */
function refused(source: string, what: string): DomainError {
  return new DomainError('CHAIN_UNAVAILABLE', `The 1Sat indexer ${source} ${what}; its answer was refused.`, {
    indexer: source,
    refused: true,
  });
}

export class OneSatIndex implements OrdinalsIndex {
  readonly source: string;
  private readonly base: string;
  private readonly http: HttpOptions;
  private readonly maxOutputs: number;
  private readonly maxParents: number;
  /** Transactions are immutable: the last few fetched are kept (small ones only), so one answer's checks fetch each once. */
  private readonly txCache = new Map<string, ParsedTransaction>();
  private txCacheBytes = 0;

  constructor(private readonly opts: OneSatIndexOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.source = this.base;
    this.http = { ...INDEXER_HTTP, ...opts.http };
    this.maxOutputs = opts.maxOutputs ?? 2000;
    this.maxParents = opts.maxParents ?? 100;
  }

  async bsv21Output(txid: string, vout: number): Promise<Bsv21OutputFacts | null> {
    checkOutpoint(txid, vout);
    const answer = await this.get(`/bsv20/outpoint/${txid}_${vout}`, tokenOutputAnswer, 'a token output');
    const tx = await this.transaction(txid);
    const output = tx.tx.outputs[vout];
    if (!output) {
      if (answer) throw refused(this.source, `names output ${vout} of transaction ${txid}, which has no such output`);
      return null;
    }
    const script = parseOrdOutput(output.lockingScript.toHex(), SMALL).bsv21;
    const own = `${txid}_${vout}`;
    // BSV-20 v1 operations (a `tick`, no `id`) are not BSV-21: the indexer's silence on BSV-21 is what it says then.
    const claim = answer && answer.id ? answer : null;
    if (!claim) {
      if (!script) return null;
      // The script carries a BSV-21 operation the indexer did not (yet) judge: its facts are the script's, undecided,
      // except a deploy+mint, which is its own token's origin.
      const op = opOf(script.op);
      if (!op) return null;
      return {
        id: op === 'deploy+mint' ? own : (script.id ?? own),
        op,
        amt: BigInt(script.amt),
        valid: op === 'deploy+mint' ? true : null,
      };
    }
    if (claim.txid !== undefined && claim.txid !== txid) throw refused(this.source, `answered for transaction ${claim.txid}, not ${txid}`);
    if (claim.vout !== undefined && claim.vout !== vout) throw refused(this.source, `answered for output ${claim.vout}, not ${vout}`);
    if (!script) throw refused(this.source, `calls ${own} a BSV-21 ${claim.op}, but its script carries no BSV-21 operation`);
    const op = opOf(script.op);
    if (!op || claim.op !== op) throw refused(this.source, `calls ${own} a ${claim.op}, but its script carries a ${script.op}`);
    const scriptId = op === 'deploy+mint' ? own : script.id;
    if (claim.id !== scriptId)
      throw refused(this.source, `names token ${claim.id} at ${own}, whose script carries token ${scriptId ?? 'none'}`);
    const amt = BigInt(script.amt);
    if (claim.amt !== amt) throw refused(this.source, `names amount ${claim.amt} at ${own}, whose script carries ${amt}`);
    let valid: boolean | null = claim.status === 1 ? true : claim.status === -1 ? false : null;
    if (valid && op !== 'deploy+mint') valid = await this.conserves(tx, scriptId!);
    return { id: scriptId!, op, amt, valid };
  }

  async bsv21Token(id: string): Promise<Bsv21TokenFacts | null> {
    if (!OUTPOINT.test(id) || Number(id.slice(65)) > 0xffffffff) throw new DomainError('VALIDATION_FAILED', 'A token id is <txid>_<vout>.');
    const answer = await this.get(`/bsv20/id/${id}`, tokenAnswer, 'a token');
    const deploy = await this.deployFacts(id);
    if (!deploy) {
      if (answer) throw refused(this.source, `calls ${id} a token, but that output carries no BSV-21 deploy+mint`);
      return null;
    }
    if (answer) {
      const differs = (field: string, claimed: unknown, actual: unknown) => {
        throw refused(
          this.source,
          `says token ${id} has ${field} ${String(claimed)}, but its deploy+mint inscription says ${String(actual)}`,
        );
      };
      if (answer.id != null && answer.id !== id) differs('id', answer.id, id);
      if (answer.status === -1) differs('status', 'invalid', 'a well-formed deploy+mint');
      if (answer.sym != null && answer.sym !== (deploy.sym ?? '')) differs('symbol', answer.sym, deploy.sym);
      if (answer.dec != null && answer.dec !== deploy.dec) differs('decimals', answer.dec, deploy.dec);
      if (answer.amt != null && answer.amt !== deploy.amt) differs('supply', answer.amt, deploy.amt);
      if (answer.icon && answer.icon !== deploy.icon) differs('icon', answer.icon, deploy.icon);
    }
    return deploy;
  }

  async ordinalOutputsOf(address: string): Promise<IndexedOutpoint[]> {
    // Base58 only: the address goes into the path, and nothing else may.
    if (!/^[1-9A-HJ-NP-Za-km-z]{25,35}$/.test(address)) throw new DomainError('VALIDATION_FAILED', 'Not a Bitcoin SV address.');
    const found = new Map<string, IndexedOutpoint & { tokens: boolean }>();
    for (const tokens of [false, true]) {
      for (let offset = 0; ; offset += PAGE) {
        const page = await this.get(
          `/txos/address/${address}/unspent?limit=${PAGE}&offset=${offset}&bsv20=${String(tokens)}`,
          outputsPage,
          'the outputs of an address',
        );
        for (const o of page ?? []) found.set(`${o.txid}_${o.vout}`, { txid: o.txid, vout: o.vout, tokens });
        if (found.size > this.maxOutputs)
          throw new DomainError(
            'CHAIN_UNAVAILABLE',
            `The 1Sat indexer ${this.source} lists more than ${this.maxOutputs} ordinal outputs at ${address}; Keystead reads at most that many.`,
            { indexer: this.source },
          );
        if (!page || page.length < PAGE) break;
      }
    }
    const held: IndexedOutpoint[] = [];
    let dropped = 0;
    for (const o of found.values()) {
      const output = (await this.transaction(o.txid)).tx.outputs[o.vout];
      const facts = output ? parseOrdOutput(output.lockingScript.toHex(), SMALL) : null;
      // An output that does not pay this address, or is neither one satoshi nor inscribed, is not what the indexer says.
      const ok = facts !== null && ownedBy(facts, address) && (facts.inscription !== null || (!o.tokens && output!.satoshis === 1));
      if (ok) held.push({ txid: o.txid, vout: o.vout });
      else dropped++;
    }
    if (dropped)
      this.opts.logger.warn(
        { indexer: this.source, address, dropped },
        'the 1Sat indexer listed outputs that do not hold an ordinal at the address; they were left out',
      );
    return held;
  }

  /** GET a route and parse it strictly: null on 404, an error for anything else that is not the expected shape. */
  private async get<T extends z.ZodType>(path: string, schema: T, what: string): Promise<z.output<T> | null> {
    let reply: { status: number; body: unknown };
    try {
      reply = await httpRequest(`${this.base}${path}`, { headers: { accept: 'application/json' } }, this.http);
    } catch (err) {
      if (err instanceof HttpUnavailable)
        throw new DomainError('CHAIN_UNAVAILABLE', `The 1Sat indexer ${this.source} did not answer for ${what}: ${err.lastError}`, {
          indexer: this.source,
        });
      throw err;
    }
    if (reply.status === 404) return null;
    if (reply.status !== 200)
      throw new DomainError('CHAIN_UNAVAILABLE', `The 1Sat indexer ${this.source} answered HTTP ${reply.status} for ${what}.`, {
        indexer: this.source,
      });
    const parsed = schema.safeParse(reply.body);
    if (!parsed.success) throw refused(this.source, `answered for ${what} with something that is not one`);
    return parsed.data;
  }

  /** A transaction from the chain provider, checked to be the one asked for. */
  private async transaction(txid: string): Promise<ParsedTransaction> {
    const cached = this.txCache.get(txid);
    if (cached) return cached;
    const hex = await this.opts.chain.getTransactionHex(txid);
    if (hex === null)
      throw new DomainError(
        'CHAIN_UNAVAILABLE',
        `The chain provider does not know transaction ${txid}, so the 1Sat indexer's answer cannot be checked.`,
        {
          indexer: this.source,
        },
      );
    let parsed: ParsedTransaction;
    try {
      parsed = parseTransactionHex(hex);
    } catch {
      throw new DomainError('CHAIN_UNAVAILABLE', `The chain provider answered transaction ${txid} with bytes that are not one.`);
    }
    if (parsed.txid !== txid)
      throw new DomainError('CHAIN_UNAVAILABLE', `The chain provider answered transaction ${txid} with another one.`);
    this.remember(parsed);
    return parsed;
  }

  private remember(tx: ParsedTransaction): void {
    const size = tx.raw.length;
    if (size > 1024 * 1024) return;
    this.txCache.set(tx.txid, tx);
    this.txCacheBytes += size;
    for (const [k, v] of this.txCache) {
      if (this.txCacheBytes <= 8 * 1024 * 1024 && this.txCache.size <= 256) break;
      this.txCache.delete(k);
      this.txCacheBytes -= v.raw.length;
    }
  }

  /** The deploy facts of output `id` from its own inscription, or null when it carries no BSV-21 deploy+mint. */
  private async deployFacts(id: string): Promise<Bsv21TokenFacts | null> {
    const [txid, v] = [id.slice(0, 64), Number(id.slice(65))];
    const output = (await this.transaction(txid)).tx.outputs[v];
    if (!output) return null;
    const facts = parseOrdOutput(output.lockingScript.toHex(), SMALL);
    if (!facts.bsv21 || opOf(facts.bsv21.op) !== 'deploy+mint') return null;
    const { sym, dec, amt, icon } = facts.bsv21;
    return { id, sym, dec: dec ?? 0, amt: BigInt(amt), icon };
  }

  /**
   * One step of a valid-called transfer or burn, checked: its token is a deploy+mint, and the transaction's inputs
   * carry at least as much of it as its outputs. The inputs' own validity is the indexer's word. Undecided (null)
   * when the transaction has more parents than are fetched for one check.
   */
  private async conserves(tx: ParsedTransaction, id: string): Promise<boolean | null> {
    if (!(await this.deployFacts(id))) throw refused(this.source, `calls an output of token ${id} valid, but ${id} is no deploy+mint`);
    // A coinbase's one input spends nothing, so it carries no token.
    const inputs = tx.tx.inputs.filter((i) => i.sourceTXID !== undefined && i.sourceTXID !== '0'.repeat(64));
    const parents = new Set(inputs.map((i) => i.sourceTXID));
    if (parents.size > this.maxParents) {
      this.opts.logger.warn(
        { indexer: this.source, txid: tx.txid, parents: parents.size },
        'too many parents to check a token transfer; left pending',
      );
      return null;
    }
    let into = 0n;
    for (const input of inputs) {
      const spent = (await this.transaction(input.sourceTXID!)).tx.outputs[input.sourceOutputIndex];
      const op = spent ? parseOrdOutput(spent.lockingScript.toHex(), SMALL).bsv21 : null;
      if (op && tokenIdOf(op, `${input.sourceTXID}_${input.sourceOutputIndex}`) === id) into += BigInt(op.amt);
    }
    let out = 0n;
    for (const o of tx.tx.outputs) {
      const op = parseOrdOutput(o.lockingScript.toHex(), SMALL).bsv21;
      if (op && opOf(op.op) !== 'deploy+mint' && op.id === id) out += BigInt(op.amt);
    }
    if (out > into)
      throw refused(this.source, `calls a transfer of ${out} of token ${id} valid in ${tx.txid}, whose inputs carry only ${into}`);
    return true;
  }
}

function checkOutpoint(txid: string, vout: number): void {
  if (!TXID.test(txid) || !Number.isInteger(vout) || vout < 0 || vout > 0xffffffff)
    throw new DomainError('VALIDATION_FAILED', 'An outpoint is a txid and an output index.');
}

function opOf(op: string): Bsv21OutputFacts['op'] | null {
  return op === 'deploy+mint' || op === 'transfer' || op === 'burn' ? op : null;
}

function tokenIdOf(op: Bsv21Op, own: string): string | null {
  return opOf(op.op) === 'deploy+mint' ? own : (op.id ?? null);
}

/** Whether the output's P2PKH part pays `address`, compared by key hash (whatever network prefix the address has). */
function ownedBy(facts: OrdOutputFacts, address: string): boolean {
  if (facts.ownerPkh === null) return false;
  try {
    return Utils.toHex(Utils.fromBase58Check(address).data as number[]) === facts.ownerPkh;
  } catch {
    return false;
  }
}
