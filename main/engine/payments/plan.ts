import { LockingScript, P2PKH, Transaction } from '@bsv/sdk';
import { randomUUID } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';
import { requiredFee } from '../../chain/policy.js';
import type { FeePolicy } from '../../chain/types.js';
import type { WalletUtxo } from '../../store/repos/wallet-utxos.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import type { PaymentServices } from './services.js';
import { SigningAccount } from './keyring.js';
import {
  outputBytes,
  P2PKH_INPUT_BYTES,
  P2PKH_OUTPUT_BYTES,
  plainCoins,
  selectCoins,
  TX_OVERHEAD_BYTES,
  varintBytes,
} from './coin-select.js';

export interface PaymentOutput {
  script: string;
  satoshis: number;
}

/** Which coins would pay, and what is left over: computed from the books, nothing reserved. */
export interface CoinChoice {
  coins: WalletUtxo[];
  /** Change back to the paying wallet (0: none). */
  change: number;
  /** The whole network fee, whoever pays it. */
  fee: number;
  /** The fee manager's part, when it pays the fee with one coin of its own. */
  feeManager: { wallet: WalletRow; coin: WalletUtxo; change: number } | null;
}

export interface Plan {
  /** Identifies this payment's reservation and its stored attempt. */
  attempt: string;
  coins: WalletUtxo[];
  change: { address: string; satoshis: number } | null;
  fee: number;
  feeManager: { wallet: WalletRow; coin: WalletUtxo; change: { address: string; satoshis: number } | null } | null;
}

/** The chain's fee policy now; an unreachable provider is a clear 503, not a crash. */
export async function currentFeePolicy(services: PaymentServices): Promise<FeePolicy> {
  try {
    return await services.chain.getFeePolicy();
  } catch (err) {
    throw new DomainError('CHAIN_UNAVAILABLE', `The ${services.chain.network} provider did not answer: ${(err as Error).message}`);
  }
}

const insufficient = (sel: { needed: number; available: number; missing: number }) =>
  new DomainError(
    'INSUFFICIENT_FUNDS',
    `Insufficient funds: this payment needs ${sel.needed} satoshis including the fee; the wallet has ${sel.available} spendable, ${sel.missing} satoshis missing.`,
    { missing: sel.missing, available: sel.available, needed: sel.needed },
  );

/**
 * Chooses the coins for a payment from what the books say is spendable now. The fee manager, when it can,
 * adds one input of its own to pay the whole fee; otherwise the wallet pays it.
 */
export function chooseCoins(services: PaymentServices, wallet: WalletRow, outputs: PaymentOutput[], policy: FeePolicy): CoinChoice {
  const paid = outputs.reduce((s, o) => s + o.satoshis, 0);
  // First from a few candidates (a wallet may hold 100,000 coins): the smallest coins that could pay alone
  // and the largest; then from more of each; every coin only if those do not do.
  const { walletUtxos } = services.repos;
  // Most payments take one coin: the smallest that pays alone. If one of the few smallest coins from the
  // amount up pays alone, it is that coin (any smaller one would be among them), so the largest coins need
  // not be read (they were a third of the statements' time a pay). A choice of several coins from so few
  // is not the one the wider candidates give, and is not taken.
  const single = chooseFrom(services, wallet, outputs, policy, (walletRow, from) => walletUtxos.candidates(walletRow, from, 8, 0), paid);
  if (single?.coins.length === 1) return single;
  return (
    chooseFrom(services, wallet, outputs, policy, (walletRow, from) => walletUtxos.candidates(walletRow, from, 8, 24), paid) ??
    chooseFrom(services, wallet, outputs, policy, (walletRow, from) => walletUtxos.candidates(walletRow, from, 50, 200), paid) ??
    chooseFrom(services, wallet, outputs, policy, (walletRow) => walletUtxos.available(walletRow), paid, true)!
  );
}

/**
 * The choice made from the coins `coinsOf` gives (largest first); null when they do not suffice and this is
 * not the `final` attempt (the caller then tries every coin), an error when it is.
 */
function chooseFrom(
  services: PaymentServices,
  wallet: WalletRow,
  outputs: PaymentOutput[],
  policy: FeePolicy,
  coinsOf: (walletRow: number, from: number) => WalletUtxo[],
  paid: number,
  final = false,
): CoinChoice | null {
  const { repos } = services;
  const fm = repos.wallets.feeManager();
  const fmCoins = fm && fm.id !== wallet.id ? coinsOf(fm.id, 1) : [];
  const coins = coinsOf(wallet.id, paid);

  if (fm && fmCoins.length) {
    const sel = selectCoins(coins, outputs, policy, { feePaidElsewhere: true });
    if (sel.ok) {
      const inputs = sel.selection.coins.length + 1;
      const outs = (sel.selection.change > 0 ? 1 : 0) + 1;
      const outputsBytes = outputs.reduce((s, o) => s + outputBytes(o.script), 0);
      const fee = requiredFee(
        TX_OVERHEAD_BYTES +
          varintBytes(inputs) +
          varintBytes(outputs.length + outs) +
          outputsBytes +
          inputs * P2PKH_INPUT_BYTES +
          outs * P2PKH_OUTPUT_BYTES,
        policy,
      );
      // Never a 1-satoshi output: it may carry an ordinal (coin-select.ts, plainCoins).
      const coin = plainCoins(fmCoins)
        .sort((a, b) => a.satoshis - b.satoshis)
        .find((c) => c.satoshis >= fee);
      // Among the candidates only the fee manager's smallest coins may all be too small: look at every coin.
      if (!coin && !final) return null;
      if (coin) {
        const fmChange = coin.satoshis - fee;
        const fmDust = fmChange >= policy.dustLimit ? 0 : fmChange; // too little for change: it goes to the miners too
        return {
          coins: sel.selection.coins,
          change: sel.selection.change,
          fee: fee + fmDust + (sel.selection.total - sel.selection.change - paid),
          feeManager: { wallet: fm, coin, change: fmChange >= policy.dustLimit ? fmChange : 0 },
        };
      }
    }
  }
  const sel = selectCoins(coins, outputs, policy);
  if (!sel.ok && !final) return null;
  if (!sel.ok) {
    // Coins held by payments still in flight would cover it: that is a race to retry, not a lack of funds.
    const held = repos.walletUtxos.reservedTotal(wallet.id);
    if (held > 0 && sel.available + held >= sel.needed) {
      throw new DomainError(
        'CONFLICT',
        `The wallet's coins are held by a payment still in progress (${held} satoshis). Try again once it completes.`,
        { held },
      );
    }
    throw insufficient(sel);
  }
  return { coins: sel.selection.coins, change: sel.selection.change, fee: sel.selection.fee, feeManager: null };
}

/** Claims the wallet's next unused change address (chain 1) so concurrent payments never share one. */
export function claimChangeAddress(services: PaymentServices, wallet: WalletRow): string {
  services.addressBook.ensureGap(wallet, 1);
  const [next] = services.repos.addresses.unused(wallet.id, 1, 1);
  services.repos.addresses.markUsed(wallet.id, next.address);
  return next.address;
}

/**
 * Chooses and reserves the coins, and claims the change addresses, inside one database transaction, so
 * concurrent payments never pick the same coin or share a change address.
 */
export function planAndReserve(
  services: PaymentServices,
  wallet: WalletRow,
  outputs: PaymentOutput[],
  policy: FeePolicy,
  chosen?: CoinChoice,
): Plan {
  const { db, repos } = services;
  const attempt = randomUUID();
  return db.transaction((): Plan => {
    // `chosen`: the choice made moments ago in this same database transaction (the policy was told its fee).
    const choice = chosen ?? chooseCoins(services, wallet, outputs, policy);
    const fm = choice.feeManager;
    const plan: Plan = {
      attempt,
      coins: choice.coins,
      change: choice.change > 0 ? { address: claimChangeAddress(services, wallet), satoshis: choice.change } : null,
      fee: choice.fee,
      feeManager: fm
        ? {
            wallet: fm.wallet,
            coin: fm.coin,
            change: fm.change > 0 ? { address: claimChangeAddress(services, fm.wallet), satoshis: fm.change } : null,
          }
        : null,
    };
    const all = fm ? [...plan.coins, fm.coin] : plan.coins;
    // Chosen and reserved in one synchronous transaction, so nothing can take them in between; a failure
    // here means the books changed under us, which the caller may simply retry.
    if (!repos.walletUtxos.reserve(all, attempt, services.now()))
      throw new DomainError('CONFLICT', 'Another payment took these coins at the same moment. Try again.');
    return plan;
  })();
}

/** The change addresses a plan claimed, to give back if the payment fails. */
export function changeAddressesOf(plan: Plan, wallet: WalletRow): { walletRow: number; address: string }[] {
  const list: { walletRow: number; address: string }[] = [];
  if (plan.change) list.push({ walletRow: wallet.id, address: plan.change.address });
  if (plan.feeManager?.change) list.push({ walletRow: plan.feeManager.wallet.id, address: plan.feeManager.change.address });
  return list;
}

/** Builds and signs the payment the plan describes: the outputs asked for, then the change. Signed on a key worker (keyring.ts). */
export async function buildTransaction(
  plan: Plan,
  outputs: PaymentOutput[],
  account: SigningAccount,
  fmAccount: SigningAccount | null,
): Promise<Transaction> {
  const spends: { coin: WalletUtxo; account: SigningAccount }[] = plan.coins.map((coin) => ({ coin, account }));
  if (plan.feeManager) spends.push({ coin: plan.feeManager.coin, account: fmAccount! });
  const tx = new Transaction();
  for (const { coin } of spends) tx.addInput({ sourceTXID: coin.txid, sourceOutputIndex: coin.vout, sequence: 0xffffffff });
  for (const o of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(o.script), satoshis: o.satoshis });
  if (plan.change) tx.addOutput({ lockingScript: new P2PKH().lock(plan.change.address), satoshis: plan.change.satoshis });
  if (plan.feeManager?.change)
    tx.addOutput({ lockingScript: new P2PKH().lock(plan.feeManager.change.address), satoshis: plan.feeManager.change.satoshis });
  await SigningAccount.signP2pkh(
    tx,
    spends.map(({ coin, account: a }) => ({
      account: a,
      chain: coin.chain ?? 0,
      idx: coin.idx ?? 0,
      brc29: coin.brc29,
      satoshis: coin.satoshis,
      script: coin.script,
    })),
  );
  return tx;
}
