import { P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction, UnlockingScript, Utils } from '@bsv/sdk';
import { EventEmitter } from 'node:events';
import type { Statement } from 'better-sqlite3-multiple-ciphers';
import { openStore, type Store } from '../../store/database.js';
import { blockHash, LOCAL_BITS, serializeHeader, ZERO_HASH } from '../block.js';
import { merklePathFor, merkleRoot } from '../merkle.js';
import { DEFAULT_FEE_POLICY } from '../policy.js';
export { MAX_FAUCET } from '../policy.js';
import type { AddressHistoryEntry, BroadcastResult, ChainTip, ChainUtxo, FeePolicy, TxStatus } from '../types.js';
import { LEDGER_STORE } from './ledger-schema.js';
import { checkTransaction, verifyScripts, type Checked, type KnownOutput, type Rejection } from './validate.js';
import { ScriptCheckUnavailable, ScriptVerifier } from './script-pool.js';
import { cheapEnoughForMainThread } from './main-thread-check.js';
import { othersWaiting } from '../others-waiting.js';
import { nativeCurve } from '../../crypto/secp256k1.js';
import { parseTransactionHex, type ParsedTransaction } from '../transaction-bytes.js';
import { holderAddressOf, p2pkhAddressOf } from '../script.js';
import { silentLogger, type Logger } from '../../log/logger.js';

/** 50 BSV per block, as Bitcoin's first era; the local chain's coins are for testing only. */
export const BLOCK_REWARD = 5_000_000_000;

export interface BlockInfo {
  height: number;
  hash: string;
  prevHash: string;
  merkleRoot: string;
  time: number;
  txCount: number;
}

export interface NodeEvents {
  /** `raw`: its standard serialization (hex), for a listener on another thread. */
  tx: [{ txid: string; tx: Transaction; raw: string }];
  block: [{ height: number; hash: string; txids: string[] }];
}

/** An output a transaction spends, and whose history it joins (the holder's address, if any). */
type SpentOutput = { txid: string; vout: number; holder: string | null };

/**
 * An idle node checks a transaction of at most this many inputs and bytes on its own thread (a payment's
 * usual shape), when its scripts and those of the outputs it spends are cheap (main-thread-check.ts);
 * anything larger or costlier, whose scripts a stranger could make costly, goes to the workers.
 */
const INLINE_INPUTS = 4;
const INLINE_BYTES = 1_000;

/** How the node's script workers run; other than the defaults only in tests (workers that fail, a short limit). */
export interface ScriptCheckOptions {
  workerFile?: string;
  limitMs?: number;
}

const unknown = (txid: string, message: string): BroadcastResult => ({ status: 'unknown', txid, message });

const rejected = (txid: string, r: Rejection): BroadcastResult => ({
  status: 'rejected',
  txid,
  reason: r.reason,
  message: r.message,
  ...(r.competingTxs ? { competingTxs: r.competingTxs } : {}),
});

/** BIP34: the coinbase starts with the block height as a minimal script number push. */
function heightPush(height: number): string {
  if (height === 0) return '00';
  const bytes: number[] = [];
  for (let n = height; n > 0; n = Math.floor(n / 256)) bytes.push(n & 0xff);
  if (bytes[bytes.length - 1] & 0x80) bytes.push(0);
  return Utils.toHex([bytes.length, ...bytes]);
}

/**
 * The embedded local ledger: a real little chain. Every input is checked by @bsv/sdk's Spend, double
 * spends and low fees are refused with distinct reasons, blocks carry correct merkle roots, and mined
 * transactions get BUMP merkle paths. State lives in its own SQLCipher file, so it survives restarts.
 */
/** The version field of the local chain's block headers. */
export const LOCAL_BLOCK_VERSION = 0x20000000;

export class LocalNode extends EventEmitter<NodeEvents> {
  private timer: NodeJS.Timeout | null = null;
  /** Statements prepared once, by their SQL: every submit runs the same dozen. */
  private readonly statements = new Map<string, Statement>();
  private lastSeq: number | null = null;
  private readonly faucetKey: PrivateKey;
  /** Checks the scripts of transactions that come through `accept`: the process's pool, unless given a worker or limit of its own. */
  private readonly scripts: ScriptVerifier;
  /**
   * Transactions arrived through `accept` and not decided yet: waiting a turn of the event loop, or being
   * checked on the workers (each settling once it is recorded or refused).
   */
  private readonly inProgress = new Set<Promise<unknown>>();
  readonly faucetAddress: string;

  private constructor(
    private readonly store: Store,
    readonly policy: FeePolicy,
    private readonly now: () => number,
    private readonly logger: Logger,
    scriptCheck: ScriptCheckOptions = {},
  ) {
    super();
    const ownScripts = scriptCheck.workerFile !== undefined || scriptCheck.limitMs !== undefined;
    this.scripts = ownScripts ? new ScriptVerifier(undefined, scriptCheck.workerFile, scriptCheck.limitMs) : ScriptVerifier.shared();
    const db = store.db;
    const wif = db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'faucet-key'").get()?.value;
    this.faucetKey = wif ? PrivateKey.fromWif(wif) : PrivateKey.fromRandom();
    if (!wif) db.prepare("INSERT INTO meta (key, value) VALUES ('faucet-key', ?)").run(this.faucetKey.toWif());
    this.faucetAddress = this.faucetKey.toAddress();
    this.judge = db.transaction((p: ParsedTransaction, withScripts: boolean | 'if-cheap') =>
      this.judgeNow(p, withScripts),
    ) as LocalNode['judge'];
    this.look = db.transaction((p: ParsedTransaction) => {
      const c = this.check(p);
      return 'checked' in c ? { sources: c.checked.sources } : c;
    });
    if (this.tip().height < 0) this.mine(); // genesis
  }

  private prepared<P extends unknown[] = unknown[], R = unknown>(sql: string): Statement<P, R> {
    let st = this.statements.get(sql);
    if (!st) this.statements.set(sql, (st = this.db.prepare(sql)));
    return st as unknown as Statement<P, R>;
  }

  static open(opts: {
    dataDir: string;
    password: string;
    policy?: FeePolicy;
    now?: () => number;
    nativeBinding?: string;
    logger?: Logger;
    scriptCheck?: ScriptCheckOptions;
  }): LocalNode {
    const store = openStore({ dataDir: opts.dataDir, password: opts.password, ...LEDGER_STORE, nativeBinding: opts.nativeBinding });
    // Every accepted transaction rewrites the same few hot pages (the ledger's tails): a longer WAL between
    // checkpoints writes each of them back once instead of once per thousand frames.
    store.db.pragma('wal_autocheckpoint = 10000');
    return new LocalNode(store, opts.policy ?? DEFAULT_FEE_POLICY, opts.now ?? Date.now, opts.logger ?? silentLogger(), opts.scriptCheck);
  }

  private get db() {
    return this.store.db;
  }

  /**
   * Validates and, if valid, accepts a transaction (raw or Extended Format hex) into the mempool, its
   * scripts checked on this thread. For callers that want the answer at once (tests, seeding, the faucet).
   */
  submit(rawHex: string): BroadcastResult {
    const parsed = this.parse(rawHex);
    if ('status' in parsed) return parsed;
    return this.settle(parsed, this.judge(parsed, true));
  }

  /**
   * The same as `submit`, with the scripts checked on the node's worker threads when the node is busy or
   * the transaction is large: transactions arriving together are checked side by side, and the event loop
   * serves requests meanwhile. Everything else is checked again when the transaction is recorded, in the
   * same database transaction, so two that spend one output and were checked at once cannot both be
   * accepted. When the ledger cannot judge it (the node is closing, a write failed) the answer is
   * `unknown`, never a refusal: the transaction may be fine, and nothing of it was recorded.
   */
  async accept(rawHex: string): Promise<BroadcastResult> {
    // A node that serves wallets has its workers ready before it is first busy.
    this.scripts.prestart();
    const parsed = this.parse(rawHex);
    if ('status' in parsed) return parsed;
    try {
      return await this.acceptParsed(parsed, true);
    } catch (err) {
      this.logger.warn({ txid: parsed.txid, err: (err as Error).message }, 'the local node could not judge a transaction');
      return unknown(parsed.txid, `the node could not judge the transaction: ${(err as Error).message}`);
    }
  }

  private async acceptParsed(parsed: ParsedTransaction, mayWaitForParents: boolean): Promise<BroadcastResult> {
    if (!this.store.db.open) return unknown(parsed.txid, 'the node is closed');
    // A small transaction is checked at once when the hand-over to a worker would cost more than it
    // frees: always with libsecp256k1 (a P2PKH input's check is then about 0.2 ms, the hand-over 0.5–1 ms),
    // else only on an idle node. A busy one hands it over, so that the work waiting for this thread
    // proceeds meanwhile: busy when other work ran during one turn of the event loop (requests, answers
    // from workers). While a check is on the workers every check joins them there, so that a child never
    // overtakes its parent.
    const small = parsed.tx.inputs.length <= INLINE_INPUTS && parsed.raw.length / 2 <= INLINE_BYTES;
    if (small && this.inProgress.size === 0 && (nativeCurve || !(await this.tracked(othersWaiting()))) && this.inProgress.size === 0) {
      const now = this.judge(parsed, 'if-cheap');
      if (!('sources' in now)) return this.settle(parsed, now);
      // Small, but the outputs it spends hold costly scripts: checked on the workers like a large one.
      return this.toWorkers(parsed, now.sources);
    }
    const first = this.look(parsed);
    if (!('sources' in first)) {
      // A parent sent just before may still be on the workers, not yet in the ledger: wait for what is
      // being checked now and look once more, so a child is never refused for arriving close behind it.
      if (mayWaitForParents && first.status === 'rejected' && first.reason === 'missing-inputs' && this.inProgress.size > 0) {
        await Promise.allSettled([...this.inProgress]);
        return this.acceptParsed(parsed, false);
      }
      return first;
    }
    return this.toWorkers(parsed, first.sources);
  }

  private toWorkers(parsed: ParsedTransaction, sources: KnownOutput[]): Promise<BroadcastResult> {
    return this.tracked(this.checkOnWorkersAndRecord(parsed, sources));
  }

  /** `work`, counted among the transactions in progress until it settles. */
  private async tracked<T>(work: Promise<T>): Promise<T> {
    this.inProgress.add(work);
    try {
      return await work;
    } finally {
      this.inProgress.delete(work);
    }
  }

  private async checkOnWorkersAndRecord(parsed: ParsedTransaction, sources: KnownOutput[]): Promise<BroadcastResult> {
    let bad: Rejection | null;
    try {
      bad = await this.scripts.verify(parsed.raw, sources);
    } catch (err) {
      if (!(err instanceof ScriptCheckUnavailable)) throw err;
      // Closing, or a script too costly to judge in time: the outcome stays open (never run it here instead).
      if (err.closing || err.timedOut || !this.store.db.open) return unknown(parsed.txid, err.message);
      // Nor a costly one: a stranger's expensive scripts would stall every request.
      if (!cheapEnoughForMainThread(parsed.tx, sources)) return unknown(parsed.txid, err.message);
      // Workers that fail (a thread that cannot start, an answer that is not a verdict) must not leave
      // payments undecided: check here, as the node did before it had workers.
      this.logger.warn({ txid: parsed.txid, err: err.message }, 'script workers failed; checking on the main thread');
      return this.settle(parsed, this.judge(parsed, true));
    }
    if (bad) return rejected(parsed.txid, bad);
    if (!this.store.db.open) return unknown(parsed.txid, 'the node closed before the transaction was recorded');
    return this.settle(parsed, this.judge(parsed, false));
  }

  private parse(rawHex: string): ParsedTransaction | BroadcastResult {
    try {
      return parseTransactionHex(rawHex);
    } catch (err) {
      return { status: 'rejected', txid: null, reason: 'malformed', message: (err as Error).message };
    }
  }

  private settle(parsed: ParsedTransaction, result: BroadcastResult): BroadcastResult {
    if (result.status === 'accepted' && !result.alreadyKnown) this.notify('tx', { txid: parsed.txid, tx: parsed.tx, raw: parsed.raw });
    return result;
  }

  /** Everything but the scripts, on one read snapshot: the answer already, or what the scripts spend. */
  private readonly look: (p: ParsedTransaction) => BroadcastResult | { sources: KnownOutput[] };

  /**
   * Checks (with the scripts, when `withScripts`) and records a transaction, all in one database
   * transaction: the lookups share its read snapshot (no lock round trip each), and nothing can change
   * between check and write.
   */
  private readonly judge: {
    (p: ParsedTransaction, withScripts: boolean): BroadcastResult;
    /** The scripts checked only when cheap enough for this thread; otherwise nothing recorded, and the outputs they spend. */
    (p: ParsedTransaction, withScripts: 'if-cheap'): BroadcastResult | { sources: KnownOutput[] };
  };

  private judgeNow(parsed: ParsedTransaction, withScripts: boolean | 'if-cheap'): BroadcastResult | { sources: KnownOutput[] } {
    const c = this.check(parsed);
    if (!('checked' in c)) return c;
    const { tx, txid, raw } = parsed;
    if (withScripts === 'if-cheap' && !cheapEnoughForMainThread(tx, c.checked.sources)) return { sources: c.checked.sources };
    const bad = withScripts ? verifyScripts(tx, c.checked.sources) : null;
    if (bad) return rejected(txid, bad);
    this.record(
      tx,
      txid,
      raw,
      c.checked.fee,
      c.checked.spent.map((s) => ({ ...s, holder: c.holders.get(`${s.txid}:${s.vout}`) ?? null })),
      null,
      null,
    );
    return { status: 'accepted', txid, alreadyKnown: false };
  }

  /** Known already, or every check but the scripts against the ledger (with whose history each spent output is in). */
  private check({ tx, txid, raw }: ParsedTransaction): BroadcastResult | { checked: Checked; holders: Map<string, string | null> } {
    if (this.prepared('SELECT 1 FROM txs WHERE txid = ?').get(txid)) return { status: 'accepted', txid, alreadyKnown: true };
    const lookup = this.prepared<[string, number], { satoshis: number; script: string; address: string | null; spent_by: string | null }>(
      'SELECT satoshis, script, address, spent_by FROM outputs WHERE txid = ? AND vout = ?',
    );
    const holders = new Map<string, string | null>();
    const checked = checkTransaction(
      tx,
      raw.length / 2,
      (t, o) => {
        const r = lookup.get(t, o);
        if (r) holders.set(`${t}:${o}`, r.address ?? holderAddressOf(r.script));
        return r ? { satoshis: r.satoshis, script: r.script, spentBy: r.spent_by } : null;
      },
      this.policy,
    );
    return checked.ok ? { checked, holders } : rejected(txid, checked);
  }

  private record(
    tx: Transaction,
    txid: string,
    raw: string,
    fee: number,
    spent: SpentOutput[],
    height: number | null,
    index: number | null,
  ): void {
    // The highest seq is read once, then counted here: max() over every transaction is a scan of the ledger.
    this.lastSeq ??= this.prepared<[], { s: number | null }>('SELECT max(seq) AS s FROM txs').get()?.s ?? 0;
    const seq = ++this.lastSeq;
    this.prepared(
      'INSERT INTO txs (txid, raw, fee, size, received_at, seq, block_height, block_index) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(txid, raw, fee, raw.length / 2, this.now(), seq, height, index);
    const spend = this.prepared('UPDATE outputs SET spent_by = ? WHERE txid = ? AND vout = ? AND spent_by IS NULL');
    const link = this.prepared('INSERT OR IGNORE INTO address_txs (address, txid) VALUES (?, ?)');
    for (const s of spent) {
      if (spend.run(txid, s.txid, s.vout).changes !== 1) throw new Error(`output ${s.txid}:${s.vout} was spent concurrently`);
      if (s.holder) link.run(s.holder, txid);
    }
    const insertOut = this.prepared('INSERT INTO outputs (txid, vout, satoshis, script, address) VALUES (?, ?, ?, ?, ?)');
    tx.outputs.forEach((o, vout) => {
      const script = o.lockingScript.toHex();
      const address = p2pkhAddressOf(script);
      insertOut.run(txid, vout, o.satoshis ?? 0, script, address);
      // A token output is in its holder's history (not among the address's spendable coins).
      const holder = address ?? holderAddressOf(script);
      if (holder) link.run(holder, txid);
    });
  }

  /** Mines the whole mempool into a new block (an empty one when the mempool is empty). */
  mine(): { height: number; hash: string; txids: string[] } {
    const result = this.db.transaction(() => {
      const prev = this.tip();
      const height = prev.height + 1;
      const pending = this.prepared<[], { txid: string; fee: number }>(
        'SELECT txid, fee FROM txs WHERE block_height IS NULL ORDER BY seq',
      ).all();
      const fees = pending.reduce((sum, t) => sum + t.fee, 0);
      const coinbase = new Transaction(
        1,
        [
          {
            sourceTXID: ZERO_HASH,
            sourceOutputIndex: 0xffffffff,
            unlockingScript: UnlockingScript.fromHex(`${heightPush(height)}04${Utils.toHex(Utils.toArray('ksd1', 'utf8'))}`),
            sequence: 0xffffffff,
          },
        ],
        [{ lockingScript: new P2PKH().lock(this.faucetAddress), satoshis: BLOCK_REWARD + fees }],
        0,
      );
      const coinbaseId = coinbase.id('hex');
      const txids = [coinbaseId, ...pending.map((t) => t.txid)];
      const prevRow = prev.height >= 0 ? this.blockAt(prev.height) : null;
      const header = {
        version: LOCAL_BLOCK_VERSION,
        prevHash: prev.height >= 0 ? prev.hash : ZERO_HASH,
        merkleRoot: merkleRoot(txids),
        time: Math.max(Math.floor(this.now() / 1000), (prevRow?.time ?? 0) + 1),
        bits: LOCAL_BITS,
        nonce: 0,
      };
      const hash = blockHash(header);
      this.prepared('INSERT INTO blocks (height, hash, prev_hash, merkle_root, time, header) VALUES (?, ?, ?, ?, ?, ?)').run(
        height,
        hash,
        header.prevHash,
        header.merkleRoot,
        header.time,
        Utils.toHex(serializeHeader(header)),
      );
      this.record(coinbase, coinbaseId, coinbase.toHex(), 0, [], height, 0);
      const confirm = this.prepared('UPDATE txs SET block_height = ?, block_index = ? WHERE txid = ?');
      pending.forEach((t, i) => confirm.run(height, i + 1, t.txid));
      return { height, hash, txids };
    })();
    this.notify('block', result);
    return result;
  }

  /** Tells listeners; their failure never turns an accepted transaction or a mined block into an error. */
  private notify<K extends keyof NodeEvents>(event: K, payload: NodeEvents[K][0]): void {
    try {
      (this.emit as (e: string, p: unknown) => boolean)(event, payload);
    } catch (err) {
      this.logger.error({ event, err: (err as Error).message }, 'a local node listener failed');
    }
  }

  /** Mines `blocks` blocks at once (the mempool goes into the first). */
  mineBlocks(blocks: number): { height: number; hash: string; txCount: number } {
    let last = { height: 0, hash: '', txids: [] as string[] };
    let txCount = 0;
    for (let i = 0; i < blocks; i++) {
      last = this.mine();
      txCount += last.txids.length;
    }
    return { height: last.height, hash: last.hash, txCount };
  }

  private faucetQueue: Promise<unknown> = Promise.resolve();

  /**
   * Sends test coins from the node's coinbase rewards, through the same validation as any transaction.
   * Requests are served one at a time, so two of them never pick the same reward coin.
   */
  faucet(address: string, satoshis: number): Promise<BroadcastResult> {
    const run = this.faucetQueue.then(() => this.faucetOnce(address, satoshis));
    this.faucetQueue = run.catch(() => undefined);
    return run;
  }

  private async faucetOnce(address: string, satoshis: number): Promise<BroadcastResult> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const tx = new Transaction();
      let total = 0;
      for (const u of this.unspentOf(this.faucetAddress)) {
        tx.addInput({
          sourceTransaction: Transaction.fromHex(this.txHex(u.txid)!),
          sourceOutputIndex: u.vout,
          unlockingScriptTemplate: new P2PKH().unlock(this.faucetKey),
        });
        total += u.satoshis;
        if (total > satoshis + 10_000) break;
      }
      if (total <= satoshis + 10_000) {
        this.mine(); // another coinbase reward
        continue;
      }
      tx.addOutput({ lockingScript: new P2PKH().lock(address), satoshis });
      tx.addOutput({ lockingScript: new P2PKH().lock(this.faucetAddress), change: true });
      await tx.fee(new SatoshisPerKilobyte((this.policy.satoshis * 1000) / this.policy.bytes));
      await tx.sign();
      return this.submit(tx.toHex());
    }
    return { status: 'rejected', txid: null, reason: 'outputs-exceed-inputs', message: 'the faucet could not fund the request' };
  }

  private unspentOf(address: string): { txid: string; vout: number; satoshis: number }[] {
    return this.db
      .prepare<[string], { txid: string; vout: number; satoshis: number }>(
        'SELECT txid, vout, satoshis FROM outputs WHERE address = ? AND spent_by IS NULL ORDER BY satoshis DESC',
      )
      .all(address);
  }

  tip(): ChainTip {
    const r = this.prepared<[], { height: number; hash: string }>('SELECT height, hash FROM blocks ORDER BY height DESC LIMIT 1').get();
    return r ?? { height: -1, hash: ZERO_HASH };
  }

  /** The block header at `height` (80 bytes, hex), or null past the tip. */
  headerAt(height: number): string | null {
    return this.prepared<[number], { header: string }>('SELECT header FROM blocks WHERE height = ?').get(height)?.header ?? null;
  }

  blockAt(height: number): BlockInfo | null {
    const r = this.db
      .prepare<[number], { height: number; hash: string; prev_hash: string; merkle_root: string; time: number; n: number }>(
        'SELECT b.*, (SELECT count(*) FROM txs t WHERE t.block_height = b.height) AS n FROM blocks b WHERE b.height = ?',
      )
      .get(height);
    return r ? { height: r.height, hash: r.hash, prevHash: r.prev_hash, merkleRoot: r.merkle_root, time: r.time, txCount: r.n } : null;
  }

  /**
   * An address's unspent outputs in the order the chain took them: outputs are stored as their transactions
   * are accepted (vout by vout), so the address index's rowid order is that order, with no sort.
   */
  utxos(address: string): ChainUtxo[] {
    return this.prepared<[string], ChainUtxo>(
      'SELECT o.txid, o.vout, o.satoshis, o.script, t.block_height AS height FROM outputs o JOIN txs t ON t.txid = o.txid WHERE o.address = ? AND o.spent_by IS NULL ORDER BY o.rowid',
    ).all(address);
  }

  /**
   * The unspent outputs an address holds that are not plain P2PKH coins: outputs whose script starts with the
   * address's P2PKH (token outputs), found through the address's history, at most `limit`, in chain order.
   */
  heldScripts(address: string, limit: number): ChainUtxo[] {
    const p2pkh = `76a914${Utils.toHex(Utils.fromBase58Check(address).data as number[])}88ac`;
    return this.prepared<[string, string, number], ChainUtxo>(
      `SELECT o.txid, o.vout, o.satoshis, o.script, t.block_height AS height FROM address_txs a
       JOIN outputs o ON o.txid = a.txid JOIN txs t ON t.txid = a.txid
       WHERE a.address = ? AND o.address IS NULL AND o.spent_by IS NULL AND substr(o.script, 1, 50) = ? AND length(o.script) > 50
       ORDER BY t.seq, o.vout LIMIT ?`,
    ).all(address, p2pkh, limit);
  }

  /** The transaction that spent an output: its txid, null while unspent, undefined when the output is unknown. */
  spentBy(txid: string, vout: number): string | null | undefined {
    const r = this.prepared<[string, number], { spent_by: string | null }>('SELECT spent_by FROM outputs WHERE txid = ? AND vout = ?').get(
      txid,
      vout,
    );
    return r ? r.spent_by : undefined;
  }

  /** What an address's unspent outputs hold: one sum over the address index, no join, no list. */
  balance(address: string): number {
    return (
      this.prepared<[string], { s: number | null }>('SELECT sum(satoshis) AS s FROM outputs WHERE address = ? AND spent_by IS NULL').get(
        address,
      )?.s ?? 0
    );
  }

  history(address: string): AddressHistoryEntry[] {
    return this.db
      .prepare<[string], { txid: string; height: number | null }>(
        'SELECT a.txid, t.block_height AS height FROM address_txs a JOIN txs t ON t.txid = a.txid WHERE a.address = ? ORDER BY t.seq',
      )
      .all(address);
  }

  txHex(txid: string): string | null {
    return this.prepared<[string], { raw: string }>('SELECT raw FROM txs WHERE txid = ?').get(txid)?.raw ?? null;
  }

  txStatus(txid: string): TxStatus {
    const t = this.prepared<[string], { block_height: number | null; block_index: number | null }>(
      'SELECT block_height, block_index FROM txs WHERE txid = ?',
    ).get(txid);
    if (!t) return { txid, state: 'unknown', blockHeight: null, blockHash: null, merklePath: null };
    if (t.block_height === null)
      return { txid, state: 'mempool', blockHeight: null, blockHash: null, merklePath: null, seenOnNetwork: true };
    const txids = this.prepared<[number], { txid: string }>('SELECT txid FROM txs WHERE block_height = ? ORDER BY block_index')
      .all(t.block_height)
      .map((r) => r.txid);
    return {
      txid,
      state: 'mined',
      blockHeight: t.block_height,
      blockHash: this.blockAt(t.block_height)!.hash,
      merklePath: merklePathFor(txids, t.block_index!, t.block_height).toHex(),
      seenOnNetwork: true,
    };
  }

  mempoolSize(): number {
    return this.prepared<[], { n: number }>('SELECT count(*) AS n FROM txs WHERE block_height IS NULL').get()!.n;
  }

  /** Mines every `ms` while transactions wait; 0 turns it off. */
  setMiningInterval(ms: number): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (ms > 0) {
      this.timer = setInterval(() => {
        if (this.mempoolSize() > 0) this.mine();
      }, ms);
      this.timer.unref();
    }
  }

  close(): void {
    this.setMiningInterval(0);
    if (this.scripts !== ScriptVerifier.shared()) {
      this.scripts.close().catch((err: Error) => this.logger.warn({ err: err.message }, 'the script workers did not stop cleanly'));
    }
    this.store.close();
  }
}
