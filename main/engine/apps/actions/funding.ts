import { randomUUID } from 'node:crypto';
import { requiredFee } from '../../../chain/policy.js';
import type { FeePolicy } from '../../../chain/types.js';
import type { WalletUtxo } from '../../../store/repos/wallet-utxos.js';
import type { WalletRow } from '../../../store/repos/wallets.js';
import {
  outputBytes,
  P2PKH_INPUT_BYTES,
  P2PKH_OUTPUT_BYTES,
  plainCoins,
  TX_OVERHEAD_BYTES,
  varintBytes,
} from '../../payments/coin-select.js';
import { claimChangeAddress } from '../../payments/plan.js';
import type { Brc100Services } from '../services.js';
import { WalletErr } from '../werr.js';

/**
 * Funding an action from the answering wallet's own coins: what the app's inputs and outputs leave
 * uncovered, plus the fee, with change back to the wallet on a fresh change address. Coins are reserved
 * under one attempt id in the caller's database transaction (value-flow.ts's reserve step), so no payment
 * of Keystead's takes them meanwhile. The fee manager is left out: an action's fee is the wallet's.
 */

/** An input the app names (a basket output of the wallet, or an output its inputBEEF carries). */
export interface AppInputSource {
  vin: number;
  txid: string;
  vout: number;
  satoshis: number;
  /** The locking script it spends. */
  script: string;
  unlockingScript?: string;
  unlockingScriptLength: number;
  sequence: number;
  description: string;
  /** The basket it comes from (a wallet's basket output), null for an input from the app's BEEF. */
  basket: string | null;
}

/**
 * A coin of the wallet spent to fund the action, signed by the wallet with its P2PKH key: at an HD address
 * (chain/idx), or a BRC-29 payment an app internalized (`brc29`, utxos.brc29; chain/idx null), whose key
 * SigningAccount.keyFor derives.
 */
export interface FundingCoin {
  txid: string;
  vout: number;
  satoshis: number;
  script: string;
  chain: number | null;
  idx: number | null;
  brc29?: string | null;
}

export interface Funding {
  attempt: string;
  coins: FundingCoin[];
  change: { address: string; satoshis: number } | null;
  fee: number;
}

/** WERR_INSUFFICIENT_FUNDS as the reference answers it (HTTPWalletJSON reads the two amounts). */
export class InsufficientFunds extends WalletErr {
  constructor(
    readonly totalSatoshisNeeded: number,
    readonly moreSatoshisNeeded: number,
  ) {
    super(
      'WERR_INSUFFICIENT_FUNDS',
      7,
      `Insufficient funds in the available inputs to cover the cost of the required outputs and the transaction fee (${moreSatoshisNeeded} more satoshis are needed, for a total of ${totalSatoshisNeeded}), plus whatever would be required in order to pay the fee to unlock and spend the outputs used to provide the additional satoshis.`,
    );
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), totalSatoshisNeeded: this.totalSatoshisNeeded, moreSatoshisNeeded: this.moreSatoshisNeeded };
  }
}

/** Bytes an input with an unlocking script of `n` bytes adds: outpoint, length, script, sequence. */
export const inputBytes = (n: number) => 40 + varintBytes(n) + n;

/** Coins the wallet can sign: at one of its HD addresses, or a BRC-29 payment (no chain/index, its remittance in brc29). */
export const signable = (u: Pick<WalletUtxo, 'chain' | 'idx' | 'brc29'>) => (u.chain !== null && u.idx !== null) || !!u.brc29;

/** What funding an action takes: its coins (preset first), its fee and the change left for the wallet. */
interface FundingChoice {
  coins: FundingCoin[];
  fee: number;
  change: number;
}

/**
 * Chooses (largest first) the wallet's coins for an action, reading the books only; `preset` coins (an
 * earlier noSend action's change, named by the app) are spent first. Throws InsufficientFunds with the
 * reference's amounts.
 */
export function chooseFunding(
  services: Brc100Services,
  wallet: WalletRow,
  inputs: readonly AppInputSource[],
  outputs: readonly { lockingScript: string; satoshis: number }[],
  policy: FeePolicy,
  preset: readonly FundingCoin[] = [],
): FundingChoice {
  const { repos } = services;
  const paid = outputs.reduce((s, o) => s + o.satoshis, 0);
  const given = inputs.reduce((s, i) => s + i.satoshis, 0);
  const fixedBytes =
    TX_OVERHEAD_BYTES +
    outputs.reduce((s, o) => s + outputBytes(o.lockingScript), 0) +
    inputs.reduce((s, i) => s + inputBytes(i.unlockingScriptLength), 0);
  const feeFor = (coins: number, withChange: boolean) =>
    requiredFee(
      fixedBytes +
        varintBytes(inputs.length + coins) +
        varintBytes(outputs.length + (withChange ? 1 : 0)) +
        coins * P2PKH_INPUT_BYTES +
        (withChange ? P2PKH_OUTPUT_BYTES : 0),
      policy,
    );
  const picked: FundingCoin[] = [...preset];
  let total = given + preset.reduce((s, c) => s + c.satoshis, 0);
  const enough = () => total >= paid + feeFor(picked.length, false);
  if (!enough()) {
    // Never a 1-satoshi output: it may carry an ordinal (coin-select.ts, plainCoins).
    const candidates = plainCoins(repos.walletUtxos.available(wallet.id)).filter(signable);
    for (const u of candidates) {
      if (u.satoshis <= requiredFee(P2PKH_INPUT_BYTES, policy)) continue;
      picked.push({
        txid: u.txid,
        vout: u.vout,
        satoshis: u.satoshis,
        script: u.script,
        chain: u.chain,
        idx: u.idx,
        brc29: u.brc29 ?? null,
      });
      total += u.satoshis;
      if (enough()) break;
    }
  }
  if (!enough()) {
    const needed = paid + feeFor(picked.length, false);
    throw new InsufficientFunds(needed, needed - total);
  }
  const fee = feeFor(picked.length, true);
  const change = total - paid - fee;
  // Change below dust is left to the miner: it is part of the fee.
  return change < policy.dustLimit ? { coins: picked, fee: total - paid, change: 0 } : { coins: picked, fee, change };
}

/**
 * Chooses (chooseFunding) and reserves the wallet's coins for an action, and claims its change address.
 * Call inside a database transaction.
 */
export function fundAction(
  services: Brc100Services,
  wallet: WalletRow,
  inputs: readonly AppInputSource[],
  outputs: readonly { lockingScript: string; satoshis: number }[],
  policy: FeePolicy,
  preset: readonly FundingCoin[] = [],
): Funding {
  const attempt = randomUUID();
  const { coins, fee, change } = chooseFunding(services, wallet, inputs, outputs, policy, preset);
  if (!services.repos.walletUtxos.reserve(coins.slice(preset.length), attempt, services.now()))
    throw new WalletErr('WERR_INVALID_OPERATION', 4, 'Another payment took these coins at the same moment. Try again.');
  return { attempt, coins, change: change > 0 ? { address: claimChangeAddress(services, wallet), satoshis: change } : null, fee };
}
