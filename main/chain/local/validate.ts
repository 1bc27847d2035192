import { LockingScript, Spend, type Transaction } from '@bsv/sdk';
import { isDust, requiredFee } from '../policy.js';
import type { FeePolicy, RejectReason } from '../types.js';

export interface KnownOutput {
  satoshis: number;
  script: string;
  spentBy: string | null;
}

export type Validation =
  | { ok: true; fee: number; spent: { txid: string; vout: number }[] }
  | { ok: false; reason: RejectReason; message: string; competingTxs?: string[] };

export const MAX_TX_SIZE = 10 * 1024 * 1024;

const fail = (reason: RejectReason, message: string, competingTxs?: string[]): Validation => ({ ok: false, reason, message, ...(competingTxs ? { competingTxs } : {}) });

/**
 * Checks a transaction against the outputs the ledger knows, cheapest checks first and every input's
 * scripts last, through @bsv/sdk's Spend interpreter. Pure: the caller supplies the lookups.
 */
export function validateTransaction(tx: Transaction, size: number, lookup: (txid: string, vout: number) => KnownOutput | null, policy: FeePolicy): Validation {
  if (tx.inputs.length === 0 || tx.outputs.length === 0) return fail('malformed', 'A transaction needs at least one input and one output.');
  if (size > MAX_TX_SIZE) return fail('too-large', `The transaction is ${size} bytes; the limit is ${MAX_TX_SIZE}.`);

  const seen = new Set<string>();
  const sources: KnownOutput[] = [];
  const competing = new Set<string>();
  for (const [i, input] of tx.inputs.entries()) {
    const txid = input.sourceTXID ?? input.sourceTransaction?.id('hex');
    const key = `${txid}:${input.sourceOutputIndex}`;
    if (!txid || /^0{64}$/.test(txid)) return fail('malformed', `Input ${i} has no previous output (coinbase inputs are for blocks only).`);
    if (seen.has(key)) return fail('malformed', `Input ${i} spends ${key} a second time in the same transaction.`);
    seen.add(key);
    const out = lookup(txid, input.sourceOutputIndex);
    if (!out) return fail('missing-inputs', `Input ${i} spends ${key}, which this chain does not know (missing inputs).`);
    if (out.spentBy) competing.add(out.spentBy);
    sources.push(out);
  }
  if (competing.size > 0) return fail('double-spend', `An input is already spent by ${[...competing].join(', ')} (double spend).`, [...competing]);

  let outTotal = 0;
  for (const [i, o] of tx.outputs.entries()) {
    const sats = o.satoshis ?? 0;
    if (!Number.isSafeInteger(sats) || sats < 0) return fail('malformed', `Output ${i} has an invalid amount.`);
    if (isDust(sats, o.lockingScript.toHex(), policy)) return fail('dust', `Output ${i} pays ${sats} satoshis, below the dust limit of ${policy.dustLimit}.`);
    outTotal += sats;
  }
  const inTotal = sources.reduce((sum, s) => sum + s.satoshis, 0);
  if (outTotal > inTotal) return fail('outputs-exceed-inputs', `The outputs (${outTotal} satoshis) exceed the inputs (${inTotal} satoshis).`);
  const fee = inTotal - outTotal;
  const need = requiredFee(size, policy);
  if (fee < need) return fail('fee-too-low', `The fee is ${fee} satoshis; ${size} bytes need at least ${need} (${policy.satoshis} sat per ${policy.bytes} bytes).`);

  for (const [i, input] of tx.inputs.entries()) {
    const source = sources[i];
    let valid = false;
    let detail = '';
    try {
      valid = new Spend({
        sourceTXID: input.sourceTXID ?? input.sourceTransaction!.id('hex'),
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
    if (!valid) return fail('bad-signature', `Input ${i} does not unlock its output (script verification failed${detail}).`);
  }
  return { ok: true, fee, spent: tx.inputs.map((inp) => ({ txid: inp.sourceTXID ?? inp.sourceTransaction!.id('hex'), vout: inp.sourceOutputIndex })) };
}
