import { requiredFee } from '../../chain/policy.js';
import type { FeePolicy } from '../../chain/types.js';

/** Bytes a P2PKH input adds (outpoint, script length, signature + key, sequence). */
export const P2PKH_INPUT_BYTES = 148;
/** Bytes a P2PKH output adds. */
export const P2PKH_OUTPUT_BYTES = 34;
/** Version and lock time (the input and output counts are added as varints). */
export const TX_OVERHEAD_BYTES = 8;

export const varintBytes = (n: number) => (n < 0xfd ? 1 : n <= 0xffff ? 3 : 5);

export const outputBytes = (scriptHex: string) => 8 + 1 + scriptHex.length / 2 + (scriptHex.length / 2 >= 0xfd ? 2 : 0);

export interface Coin {
  txid: string;
  vout: number;
  satoshis: number;
}

/**
 * Ordinals are sat-tracked (1Sat Ordinals): an inscription or a BSV-21 token lives on one satoshi, in a
 * 1-satoshi output, whose script may be a plain P2PKH once the inscription has been transferred. Spending
 * such an output as plain satoshis would hand the ordinal to whoever gets the input's satoshi (usually the
 * miner). So every coin selection leaves 1-satoshi outputs out, unless the caller asks for them (sending
 * that very ordinal).
 */
export const ORDINAL_SATOSHIS = 1;

/** The coins a payment may spend as plain satoshis: every one but 1-satoshi outputs (unless `includeOneSat`). */
export function plainCoins<C extends { satoshis: number }>(coins: readonly C[], opts: { includeOneSat?: boolean } = {}): C[] {
  return opts.includeOneSat ? [...coins] : coins.filter((c) => c.satoshis !== ORDINAL_SATOSHIS);
}

export interface Selection<C extends Coin> {
  coins: C[];
  /** What the selected coins add up to. */
  total: number;
  fee: number;
  /** Change back to the wallet (0: no change output). */
  change: number;
}

/**
 * Picks the coins for a payment: one coin when a single one covers it (the smallest such, so big coins
 * stay whole and no needless inputs are added), otherwise the largest coins first until covered. Coins
 * worth less than the fee to spend them are never picked. `feePaidElsewhere` (the fee manager pays)
 * makes the wallet cover only the outputs. 1-satoshi outputs are never picked unless `includeOneSat`.
 * `given` is the value of inputs the caller has already chosen (their bytes in `extraBytes`): it pays first,
 * and no coin is picked when it covers the outputs and the fee; what it leaves over comes back as change.
 * Returns null with the shortfall when the coins do not suffice.
 */
export function selectCoins<C extends Coin>(
  coins: readonly C[],
  outputs: { satoshis: number; script: string }[],
  policy: FeePolicy,
  opts: { feePaidElsewhere?: boolean; extraBytes?: number; includeOneSat?: boolean; given?: number } = {},
): { ok: true; selection: Selection<C> } | { ok: false; missing: number; available: number; needed: number } {
  const given = opts.given ?? 0;
  const target = outputs.reduce((s, o) => s + o.satoshis, 0) - given;
  const baseBytes = TX_OVERHEAD_BYTES + (opts.extraBytes ?? 0) + outputs.reduce((s, o) => s + outputBytes(o.script), 0);
  const spendable = plainCoins(coins, opts).filter((c) => c.satoshis > requiredFee(P2PKH_INPUT_BYTES, policy));
  const outputCount = (withChange: boolean) => outputs.length + (withChange ? 1 : 0);
  const feeFor = (inputs: number, withChange: boolean) =>
    opts.feePaidElsewhere
      ? 0
      : requiredFee(
          baseBytes +
            varintBytes(inputs) +
            varintBytes(outputCount(withChange)) +
            inputs * P2PKH_INPUT_BYTES +
            (withChange ? P2PKH_OUTPUT_BYTES : 0),
          policy,
        );

  const finish = (picked: C[]): Selection<C> => {
    // `target` is net of `given`, so the change and the fee below are of every input.
    const total = picked.reduce((s, c) => s + c.satoshis, 0);
    let fee = feeFor(picked.length, true);
    let change = total - target - fee;
    if (change < policy.dustLimit) {
      // Too little for a change output: leave it to the fee.
      fee = total - target;
      change = 0;
    }
    return { coins: picked, total, fee, change };
  };

  if (given > 0 && target + feeFor(0, false) <= 0) return { ok: true, selection: finish([]) };
  const single = [...spendable].sort((a, b) => a.satoshis - b.satoshis).find((c) => c.satoshis >= target + feeFor(1, false));
  if (single) return { ok: true, selection: finish([single]) };

  const picked: C[] = [];
  let total = 0;
  for (const c of [...spendable].sort((a, b) => b.satoshis - a.satoshis)) {
    picked.push(c);
    total += c.satoshis;
    if (total >= target + feeFor(picked.length, false)) return { ok: true, selection: finish(picked) };
  }
  const available = spendable.reduce((s, c) => s + c.satoshis, 0);
  const needed = target + feeFor(Math.max(1, spendable.length), false);
  return { ok: false, missing: needed - available, available, needed };
}
