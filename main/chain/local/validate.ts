import { LockingScript, type Transaction } from '@bsv/sdk';
import { ScriptSpend } from '../script-spend.js';
import { isDust, requiredFee } from '../policy.js';
import type { FeePolicy, RejectReason } from '../types.js';

export interface KnownOutput {
  satoshis: number;
  script: string;
  spentBy: string | null;
}

/** What one input spends, as its script check needs it. */
export type SpentSource = Pick<KnownOutput, 'satoshis' | 'script'>;

export type Rejection = { ok: false; reason: RejectReason; message: string; competingTxs?: string[] };

/** Everything but the scripts holds: the outputs it spends (in input order) and its fee. */
export type Checked = { ok: true; fee: number; sources: KnownOutput[]; spent: { txid: string; vout: number }[] };

export type Validation = { ok: true; fee: number; spent: { txid: string; vout: number }[] } | Rejection;

export const MAX_TX_SIZE = 10 * 1024 * 1024;

const fail = (reason: RejectReason, message: string, competingTxs?: string[]): Rejection => ({
  ok: false,
  reason,
  message,
  ...(competingTxs ? { competingTxs } : {}),
});

const sourceTxidOf = (tx: Transaction, i: number): string | undefined =>
  tx.inputs[i].sourceTXID ?? tx.inputs[i].sourceTransaction?.id('hex');

/**
 * Every check but the scripts, cheapest first: shape, size, known and unspent inputs, amounts, dust, fee.
 * Pure: the caller supplies the lookups. Run again just before recording, it is what keeps two
 * transactions whose scripts were checked at the same time from spending one output twice.
 */
export function checkTransaction(
  tx: Transaction,
  size: number,
  lookup: (txid: string, vout: number) => KnownOutput | null,
  policy: FeePolicy,
): Checked | Rejection {
  if (tx.inputs.length === 0 || tx.outputs.length === 0) return fail('malformed', 'A transaction needs at least one input and one output.');
  if (size > MAX_TX_SIZE) return fail('too-large', `The transaction is ${size} bytes; the limit is ${MAX_TX_SIZE}.`);

  const seen = new Set<string>();
  const sources: KnownOutput[] = [];
  const spent: { txid: string; vout: number }[] = [];
  const competing = new Set<string>();
  for (const [i, input] of tx.inputs.entries()) {
    const txid = sourceTxidOf(tx, i);
    const key = `${txid}:${input.sourceOutputIndex}`;
    if (!txid || /^0{64}$/.test(txid)) return fail('malformed', `Input ${i} has no previous output (coinbase inputs are for blocks only).`);
    if (seen.has(key)) return fail('malformed', `Input ${i} spends ${key} a second time in the same transaction.`);
    seen.add(key);
    const out = lookup(txid, input.sourceOutputIndex);
    if (!out) return fail('missing-inputs', `Input ${i} spends ${key}, which this chain does not know (missing inputs).`);
    if (out.spentBy) competing.add(out.spentBy);
    sources.push(out);
    spent.push({ txid, vout: input.sourceOutputIndex });
  }
  if (competing.size > 0)
    return fail('double-spend', `An input is already spent by ${[...competing].join(', ')} (double spend).`, [...competing]);

  let outTotal = 0;
  for (const [i, o] of tx.outputs.entries()) {
    const sats = o.satoshis ?? 0;
    if (!Number.isSafeInteger(sats) || sats < 0) return fail('malformed', `Output ${i} has an invalid amount.`);
    if (isDust(sats, o.lockingScript.toHex(), policy))
      return fail('dust', `Output ${i} pays ${sats} satoshis, below the dust limit of ${policy.dustLimit}.`);
    outTotal += sats;
  }
  const inTotal = sources.reduce((sum, s) => sum + s.satoshis, 0);
  if (outTotal > inTotal)
    return fail('outputs-exceed-inputs', `The outputs (${outTotal} satoshis) exceed the inputs (${inTotal} satoshis).`);
  const fee = inTotal - outTotal;
  const need = requiredFee(size, policy);
  if (fee < need)
    return fail(
      'fee-too-low',
      `The fee is ${fee} satoshis; ${size} bytes need at least ${need} (${policy.satoshis} sat per ${policy.bytes} bytes).`,
    );
  return { ok: true, fee, sources, spent };
}

/** Runs input `i`'s unlocking script against the output it spends, through @bsv/sdk's Spend interpreter. */
export function verifyInputScript(tx: Transaction, i: number, source: SpentSource): Rejection | null {
  const input = tx.inputs[i];
  let valid = false;
  let detail = '';
  try {
    valid = new ScriptSpend({
      sourceTXID: sourceTxidOf(tx, i)!,
      sourceOutputIndex: input.sourceOutputIndex,
      sourceSatoshis: source.satoshis,
      lockingScript: LockingScript.fromHex(source.script),
      transactionVersion: tx.version,
      otherInputs: tx.inputs.filter((_, j) => j !== i),
      unlockingScript: input.unlockingScript!,
      inputSequence: input.sequence ?? 0xffffffff,
      inputIndex: i,
      outputs: tx.outputs,
      lockTime: tx.lockTime,
    }).validate();
  } catch (err) {
    detail = `: ${(err as Error).message.split('\n')[0]}`;
  }
  return valid ? null : fail('bad-signature', `Input ${i} does not unlock its output (script verification failed${detail}).`);
}

/** Every input's script, first failure wins. */
export function verifyScripts(
  tx: Transaction,
  sources: readonly SpentSource[],
  indices: readonly number[] = sources.map((_, i) => i),
): Rejection | null {
  for (const i of indices) {
    const bad = verifyInputScript(tx, i, sources[i]);
    if (bad) return bad;
  }
  return null;
}

/** The whole validation on this thread: every check, then every input's script. */
export function validateTransaction(
  tx: Transaction,
  size: number,
  lookup: (txid: string, vout: number) => KnownOutput | null,
  policy: FeePolicy,
): Validation {
  const checked = checkTransaction(tx, size, lookup, policy);
  if (!checked.ok) return checked;
  const bad = verifyScripts(tx, checked.sources);
  return bad ?? { ok: true, fee: checked.fee, spent: checked.spent };
}
