import type { Transaction } from '@bsv/sdk';
import type { ChainProvider } from '../../chain/types.js';
import { ScriptCheckUnavailable, type Rejection, type SpentSource } from '../../chain/script-check.js';
import { addCost, NO_COST, scriptCost, type ScriptCost } from '../../chain/script-cost.js';
import { BeefFormatError, readBeef, type BeefEntry, type ReadBeef } from './beef-reader.js';
import { bumpRoot, BumpError } from './bump.js';

/**
 * What a stranger's BEEF may make this engine do. Every unproven transaction's inputs are script-checked,
 * so the package is bounded, cheapest check first, before any script runs: its shape and counts, then the
 * proven ancestors against the chain's headers, then a budget on what its scripts could cost; only then
 * are the scripts run, on worker threads with a time limit.
 */
export interface BeefLimits {
  /** Transactions the BEEF carries. */
  transactions: number;
  /** Leaves of all its merkle paths together. */
  bumpLeaves: number;
  /** Inputs of its unproven transactions together: each is a script check. */
  unprovenInputs: number;
  /** Unconfirmed ancestors in a line behind the payment (what Keystead as a sender puts in a BEEF at most). */
  unprovenDepth: number;
  /**
   * Signature checks in every script that will run: each unproven input's unlocking script and the output
   * it spends. One costs about 5 ms of @bsv/sdk's interpreter; a P2PKH input is one.
   */
  sigops: number;
  /** Bytes of those same scripts together. */
  scriptBytes: number;
}

export const BEEF_LIMITS: Readonly<BeefLimits> = Object.freeze({
  transactions: 1_000,
  bumpLeaves: 64_000,
  unprovenInputs: 5_000,
  unprovenDepth: 25,
  sigops: 500,
  scriptBytes: 1_000_000,
});

export const MAX_BEEF_TRANSACTIONS = BEEF_LIMITS.transactions;
export const MAX_BEEF_UNPROVEN_INPUTS = BEEF_LIMITS.unprovenInputs;

/** How long one BEEF's scripts may take on the workers: a budgeted package needs a few seconds at most. */
export const BEEF_SCRIPT_LIMIT_MS = 15_000;

/** Runs a stranger's scripts away from the main thread (script-check.ts's pool, or a stand-in in tests). */
export interface ScriptChecker {
  verify(raw: string, sources: readonly SpentSource[]): Promise<Rejection | null>;
}

/** The BEEF is refused for what it is (answered 400 bad-beef), with the reason. */
export class BadBeef extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'BadBeef';
  }
}

/** The BEEF could not be checked now (the chain's headers or the script workers were unavailable): 503. */
export class BeefUncheckable extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'BeefUncheckable';
  }
}

/** An unproven transaction of the package with the outputs its inputs spend (in input order). */
interface Unproven {
  entry: BeefEntry & { tx: Transaction; raw: string };
  sources: SpentSource[];
}

interface Package {
  proven: BeefEntry[];
  unproven: Unproven[];
}

/**
 * Reads a BEEF a sender delivered and checks it by SPV, in this order, each step only after the one
 * before passed: (a) read strictly within the counts; (b) the proven ancestors' merkle paths against the
 * chain's block headers; (c) the budget of signature checks and script bytes; (d) every unproven input's
 * scripts against the output it spends, on `scripts`' workers. Throws BadBeef with the reason (naming
 * the limit or the proof), or BeefUncheckable when it cannot be checked now.
 */
export async function verifiedBeef(
  chain: ChainProvider,
  beefHex: string,
  scripts: ScriptChecker,
  limits: Partial<BeefLimits> = {},
): Promise<Transaction> {
  const l: BeefLimits = { ...BEEF_LIMITS, ...limits };
  let beef: ReadBeef;
  try {
    beef = readBeef(beefHex, l);
  } catch (err) {
    if (err instanceof BeefFormatError) throw new BadBeef(`beef is not a BEEF transaction (${err.message})`, { cause: err });
    throw err;
  }
  const pkg = packageOf(beef, l);
  await checkProofs(chain, pkg.proven);
  checkBudget(pkg.unproven, l);
  await checkScripts(scripts, pkg.unproven);
  return beef.subject.tx!;
}

/** The transactions the payment rests on: proven ones (where the walk stops) and unproven ones with their sources. */
function packageOf(beef: ReadBeef, l: BeefLimits): Package {
  const proven: BeefEntry[] = [];
  const unproven: Unproven[] = [];
  const seen = new Set<string>([beef.subject.txid]);
  const stack: BeefEntry[] = [beef.subject];
  let inputs = 0;
  while (stack.length) {
    const e = stack.pop()!;
    if (e.proof) {
      proven.push(e);
      continue;
    }
    const { tx, raw } = e;
    if (!tx || !raw) throw new BadBeef(`the BEEF gives only the id of ${e.txid}, which is unproven and spent by a transaction that is`);
    inputs += tx.inputs.length;
    if (inputs > l.unprovenInputs) throw new BadBeef(`the BEEF asks for more than ${l.unprovenInputs} unproven inputs to be checked`);
    const sources: SpentSource[] = [];
    let spent = 0;
    for (const [i, input] of tx.inputs.entries()) {
      const source = beef.byTxid.get(input.sourceTXID!);
      if (!source?.tx)
        throw new BadBeef(
          `input ${i} of ${e.txid} spends ${input.sourceTXID}, which the BEEF does not carry (an unproven transaction needs its sources)`,
        );
      const out = source.tx.outputs[input.sourceOutputIndex];
      if (!out)
        throw new BadBeef(
          `input ${i} of ${e.txid} spends output ${input.sourceOutputIndex} of ${source.txid}, which has ${source.tx.outputs.length}`,
        );
      spent += out.satoshis ?? 0;
      sources.push({ satoshis: out.satoshis ?? 0, script: out.lockingScript.toHex() });
      if (!seen.has(source.txid)) {
        seen.add(source.txid);
        stack.push(source);
      }
    }
    const paid = tx.outputs.reduce((sum, o) => sum + (o.satoshis ?? 0), 0);
    if (paid > spent) throw new BadBeef(`${e.txid} pays out ${paid} satoshis but spends ${spent}`);
    unproven.push({ entry: { ...e, tx, raw }, sources });
  }
  const depth = unprovenDepth(beef, beef.subject, new Map()) - 1;
  if (depth > l.unprovenDepth)
    throw new BadBeef(`the BEEF's chain of unconfirmed ancestors is ${depth} deep; the limit is ${l.unprovenDepth}`);
  return { proven, unproven };
}

/** Unproven transactions on the longest line from `e` back to proven ones (each counted once: memoised). */
function unprovenDepth(beef: ReadBeef, e: BeefEntry, memo: Map<string, number>): number {
  if (e.proof || !e.tx) return 0;
  const known = memo.get(e.txid);
  if (known !== undefined) return known;
  let deepest = 0;
  for (const input of e.tx.inputs) deepest = Math.max(deepest, unprovenDepth(beef, beef.byTxid.get(input.sourceTXID!)!, memo));
  memo.set(e.txid, deepest + 1);
  return deepest + 1;
}

/** Every proven ancestor's merkle path must give the root of the chain's block at its height (no script runs). */
async function checkProofs(chain: ChainProvider, proven: readonly BeefEntry[]): Promise<void> {
  const claims = proven.map((e) => {
    try {
      return { e, height: e.proof!.blockHeight, root: bumpRoot(e.proof!, e.txid) };
    } catch (err) {
      if (err instanceof BumpError) throw new BadBeef(`the merkle proof of ${e.txid} is wrong: ${err.message}`, { cause: err });
      throw err;
    }
  });
  const roots = new Map<number, Promise<string | null>>();
  for (const c of claims) if (!roots.has(c.height)) roots.set(c.height, chain.getMerkleRoot(c.height));
  let chainRoots: Map<number, string | null>;
  try {
    chainRoots = new Map(await Promise.all([...roots].map(async ([h, root]) => [h, await root] as const)));
  } catch (err) {
    throw new BeefUncheckable(`the chain's block headers could not be read: ${(err as Error).message}`, { cause: err });
  }
  for (const { e, height, root } of claims) {
    const want = chainRoots.get(height);
    if (want === null) throw new BadBeef(`the merkle proof of ${e.txid} names block ${height}, which the chain does not have`);
    if (want !== root) throw new BadBeef(`the merkle proof of ${e.txid} does not match the chain's block ${height}`);
  }
}

/** What running the package's scripts could cost, counted, against the budget: refused before any runs. */
function checkBudget(unproven: readonly Unproven[], l: BeefLimits): void {
  let cost: ScriptCost = NO_COST;
  for (const { entry, sources } of unproven) {
    for (const [i, input] of entry.tx.inputs.entries()) {
      cost = addCost(cost, scriptCost(input.unlockingScript!.toBinary()));
      cost = addCost(cost, scriptCost(Buffer.from(sources[i].script, 'hex')));
    }
  }
  if (cost.sigops > l.sigops) {
    throw new BadBeef(
      `the BEEF's scripts hold ${cost.sigops} signature checks (OP_CHECKSIG, and OP_CHECKMULTISIG's keys, in the unlocking scripts and the outputs they spend); the signature-check limit is ${l.sigops}`,
    );
  }
  if (cost.bytes > l.scriptBytes)
    throw new BadBeef(`the BEEF's scripts to run are ${cost.bytes} bytes; the script-bytes limit is ${l.scriptBytes}`);
}

/** Every unproven input against the output it spends, on the workers, side by side. */
async function checkScripts(scripts: ScriptChecker, unproven: readonly Unproven[]): Promise<void> {
  let verdicts: { txid: string; bad: Rejection | null }[];
  try {
    verdicts = await Promise.all(unproven.map(async (u) => ({ txid: u.entry.txid, bad: await scripts.verify(u.entry.raw, u.sources) })));
  } catch (err) {
    if (err instanceof ScriptCheckUnavailable && err.timedOut)
      throw new BadBeef(`the BEEF's scripts are too costly to check: ${err.message}`, { cause: err });
    throw new BeefUncheckable(`the BEEF's scripts could not be checked now: ${(err as Error).message}`, { cause: err });
  }
  const failed = verdicts.find((v) => v.bad);
  if (failed) throw new BadBeef(`the BEEF does not verify: ${failed.txid}: ${failed.bad!.message}`);
}
