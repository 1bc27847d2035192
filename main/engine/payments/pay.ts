import { LockingScript, P2PKH, Transaction, BSM, Utils } from '@bsv/sdk';
import { createHash, randomUUID } from 'node:crypto';
import type { OperationOutput, ParsedInput } from '../../../shared/operations.js';
import { isDust, requiredFee } from '../../chain/policy.js';
import type { FeePolicy } from '../../chain/types.js';
import type { WalletUtxo } from '../../store/repos/wallet-utxos.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import { callerOf, type OpContext, type Services } from '../context.js';
import { AppError } from '../errors.js';
import { paymailOf } from '../wallets/paymail-alias.js';
import { resolveWallet } from '../wallets/resolve.js';
import { outputBytes, P2PKH_INPUT_BYTES, P2PKH_OUTPUT_BYTES, selectCoins, TX_OVERHEAD_BYTES, varintBytes } from './coin-select.js';
import { identityPubKeyHex, type SigningAccount } from './keyring.js';

type PayInput = ParsedInput<'pay'>;
type PayOutput = OperationOutput<'pay'>;

interface Plan {
  attempt: string;
  coins: WalletUtxo[];
  change: { address: string; satoshis: number } | null;
  fee: number;
  feeManager: { wallet: WalletRow; coin: WalletUtxo; change: { address: string; satoshis: number } | null } | null;
}

/** Claims the wallet's next unused change address (chain 1) so concurrent payments never share one. */
function claimChangeAddress(services: Services, wallet: WalletRow): string {
  services.addressBook.ensureGap(wallet, 1);
  const [next] = services.repos.addresses.unused(wallet.id, 1, 1);
  services.repos.addresses.markUsed(wallet.id, next.address);
  return next.address;
}

/**
 * Chooses and reserves the coins inside one database transaction, so concurrent payments never pick
 * the same coin. The fee manager, when it can, adds one input of its own to pay the whole fee.
 */
function planAndReserve(services: Services, wallet: WalletRow, outputs: { script: string; satoshis: number }[], policy: FeePolicy): Plan {
  const { db, repos } = services;
  const attempt = randomUUID();
  return db.transaction((): Plan => {
    const fm = repos.wallets.feeManager();
    const fmCoins = fm && fm.id !== wallet.id ? repos.walletUtxos.available(fm.id) : [];
    const coins = repos.walletUtxos.available(wallet.id);
    const outputsBytes = outputs.reduce((s, o) => s + outputBytes(o.script), 0);

    if (fmCoins.length) {
      const sel = selectCoins(coins, outputs, policy, { feePaidElsewhere: true });
      if (sel.ok) {
        const inputs = sel.selection.coins.length + 1;
        const outs = (sel.selection.change > 0 ? 1 : 0) + 1;
        const fee = requiredFee(
          TX_OVERHEAD_BYTES + varintBytes(inputs) + varintBytes(outputs.length + outs) + outputsBytes + inputs * P2PKH_INPUT_BYTES + outs * P2PKH_OUTPUT_BYTES,
          policy,
        );
        const coin = [...fmCoins].sort((a, b) => a.satoshis - b.satoshis).find((c) => c.satoshis >= fee);
        if (coin) {
          const fmChange = coin.satoshis - fee;
          const fmDust = fmChange >= policy.dustLimit ? 0 : fmChange; // too little for change: it goes to the miners too
          const plan: Plan = {
            attempt,
            coins: sel.selection.coins,
            change: sel.selection.change > 0 ? { address: claimChangeAddress(services, wallet), satoshis: sel.selection.change } : null,
            fee: fee + fmDust + (sel.selection.total - sel.selection.change - outputs.reduce((s, o) => s + o.satoshis, 0)),
            feeManager: { wallet: fm!, coin, change: fmChange >= policy.dustLimit ? { address: claimChangeAddress(services, fm!), satoshis: fmChange } : null },
          };
          if (!repos.walletUtxos.reserve([...plan.coins, coin], attempt, services.now())) throw new Error('coins taken concurrently');
          return plan;
        }
      }
    }

    const sel = selectCoins(coins, outputs, policy);
    if (!sel.ok) {
      throw new AppError(
        'INSUFFICIENT_FUNDS',
        `Insufficient funds: this payment needs ${sel.needed} satoshis including the fee; the wallet has ${sel.available} spendable, ${sel.missing} satoshis missing.`,
        { missing: sel.missing, available: sel.available, needed: sel.needed },
      );
    }
    const plan: Plan = {
      attempt,
      coins: sel.selection.coins,
      change: sel.selection.change > 0 ? { address: claimChangeAddress(services, wallet), satoshis: sel.selection.change } : null,
      fee: sel.selection.fee,
      feeManager: null,
    };
    if (!repos.walletUtxos.reserve(plan.coins, attempt, services.now())) throw new Error('coins taken concurrently');
    return plan;
  })();
}

function addInput(tx: Transaction, coin: WalletUtxo, account: SigningAccount): void {
  tx.addInput({
    sourceTXID: coin.txid,
    sourceOutputIndex: coin.vout,
    sequence: 0xffffffff,
    unlockingScriptTemplate: new P2PKH().unlock(account.key(coin.chain ?? 0, coin.idx ?? 0), 'all', false, coin.satoshis, LockingScript.fromHex(coin.script)),
  });
}

async function build(plan: Plan, outputs: { script: string; satoshis: number }[], account: SigningAccount, fmAccount: SigningAccount | null): Promise<Transaction> {
  const tx = new Transaction();
  for (const c of plan.coins) addInput(tx, c, account);
  if (plan.feeManager) addInput(tx, plan.feeManager.coin, fmAccount!);
  for (const o of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(o.script), satoshis: o.satoshis });
  if (plan.change) tx.addOutput({ lockingScript: new P2PKH().lock(plan.change.address), satoshis: plan.change.satoshis });
  if (plan.feeManager?.change) tx.addOutput({ lockingScript: new P2PKH().lock(plan.feeManager.change.address), satoshis: plan.feeManager.change.satoshis });
  await tx.sign();
  return tx;
}

/** What identifies a payment request, so an idempotency key cannot be reused for a different one. */
function requestHash(input: PayInput): string {
  const { walletId, outputs, peer, peerData } = input;
  return createHash('sha256').update(JSON.stringify({ walletId: walletId ?? '', outputs, peer: peer ?? null, peerData: peerData ?? null })).digest('hex');
}

/**
 * Pays a payment request: reserve coins, build and sign, keep the signed transaction, deliver (P2P to
 * the receiver's paymail host, or broadcast), then record. Only a definite refusal gives the coins back;
 * when the outcome is unknown (a timeout, a 5xx) they stay reserved and Keystead re-sends the same
 * transaction until the chain settles it. An idempotency key makes a retried call return the first result.
 */
export async function pay(ctx: OpContext, input: PayInput): Promise<PayOutput> {
  const caller = callerOf(ctx);
  const { services } = ctx;
  const key = input.idempotencyKey;
  if (key) {
    const claim = services.repos.payments.claimKey(caller.uid, key, services.now(), requestHash(input));
    if (!claim.claimed) {
      if (!claim.sameRequest) throw new AppError('CONFLICT', 'This idempotency-key was used for a different payment.');
      if (claim.state === 'done' && claim.response) return JSON.parse(claim.response) as PayOutput;
      throw new AppError('CONFLICT', 'A payment with this idempotency-key is still in progress; its outcome will be settled. Retry later.');
    }
  }
  try {
    return await payOnce(ctx, input, key ? { uid: caller.uid, key } : null);
  } catch (err) {
    // The key stays claimed while the payment's outcome is unknown, so a retry cannot pay twice.
    if (key && !(err instanceof AppError && err.extra.outcomeUnknown)) services.repos.payments.dropKey(caller.uid, key);
    throw err;
  }
}

type Delivery = { ok: true; delivered: 'p2p' | 'broadcast' } | { ok: false; definite: boolean; error: AppError };

async function deliver(services: Services, input: PayInput, wallet: WalletRow, account: SigningAccount, tx: Transaction, txid: string): Promise<Delivery> {
  if (input.peerProtocol === 'paymail' && input.peer) {
    try {
      await services.paymail.deliver(input.peer, {
        hex: tx.toHex(),
        reference: input.peerData ?? '',
        metadata: {
          sender: paymailOf(wallet) ?? '',
          pubkey: identityPubKeyHex(wallet),
          signature: BSM.sign(Utils.toArray(txid, 'utf8'), account.identityKey(), 'base64') as string,
          note: input.memo ?? '',
        },
      });
      return { ok: true, delivered: 'p2p' };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return { ok: false, definite: err.extra.definite === true, error: err };
    }
  }
  const r = await services.chain.broadcast(tx.toHex());
  if (r.status === 'accepted') return { ok: true, delivered: 'broadcast' };
  if (r.reason === 'network-error') return { ok: false, definite: false, error: new AppError('CHAIN_UNAVAILABLE', `The transaction could not be sent: ${r.message}`) };
  return { ok: false, definite: true, error: new AppError('PAYMENT_REJECTED', `The network refused the transaction (${r.reason}): ${r.message}`, { reason: r.reason }) };
}

async function payOnce(ctx: OpContext, input: PayInput, key: { uid: string; key: string } | null): Promise<PayOutput> {
  const { services } = ctx;
  const wallet = await resolveWallet(ctx, input.walletId);
  const outputs = input.outputs;
  if (outputs.reduce((s, o) => s + o.satoshis, 0) <= 0) throw new AppError('VALIDATION_FAILED', 'outputs: must pay more than 0 satoshis in total');
  const account = await services.keyring.open(wallet, input.walletPassword); // a wrong wallet password fails before any coin is touched
  let policy: FeePolicy;
  try {
    policy = await services.chain.getFeePolicy();
  } catch (err) {
    throw new AppError('CHAIN_UNAVAILABLE', `The ${services.chain.network} provider did not answer: ${(err as Error).message}`);
  }
  outputs.forEach((o, i) => {
    if (isDust(o.satoshis, o.script, policy)) throw new AppError('VALIDATION_FAILED', `outputs.${i}: ${o.satoshis} satoshis is below the dust limit of ${policy.dustLimit}`);
  });

  const plan = planAndReserve(services, wallet, outputs, policy);
  const giveBack = () =>
    services.db.transaction(() => {
      services.repos.walletUtxos.release(plan.attempt);
      if (plan.change) services.repos.addresses.markUnused(wallet.id, plan.change.address);
      if (plan.feeManager?.change) services.repos.addresses.markUnused(plan.feeManager.wallet.id, plan.feeManager.change.address);
    })();

  let tx: Transaction;
  try {
    const fmAccount = plan.feeManager ? await services.keyring.open(plan.feeManager.wallet) : null;
    tx = await build(plan, outputs, account, fmAccount);
  } catch (err) {
    giveBack();
    throw err;
  }
  const txid = tx.id('hex');
  const delivered: PayOutput['delivered'] = input.peerProtocol === 'paymail' && input.peer ? 'p2p' : 'broadcast';
  const result: PayOutput = { txid, fee: plan.fee, feePaidBy: plan.feeManager ? 'feeManager' : 'wallet', delivered, walletID: wallet.walletId };
  const memo = input.memo ?? null;
  const counterparty = input.uri?.replace(/^payto:/i, '').split('?')[0] ?? null;
  // Kept before sending: after a crash or an unclear answer, this is what gets settled.
  services.db.transaction(() => {
    services.repos.payments.recordAttempt({ attempt: plan.attempt, walletRow: wallet.id, txid, raw: tx.toHex(), result: JSON.stringify(result), memo, counterparty, at: services.now() });
    if (key) services.repos.payments.linkKey(key.uid, key.key, plan.attempt);
  })();

  const outcome = await deliver(services, input, wallet, account, tx, txid);
  if (!outcome.ok) {
    if (outcome.definite) {
      services.db.transaction(() => services.repos.payments.attemptFailed(plan.attempt))();
      giveBack();
      throw outcome.error;
    }
    services.repos.payments.attemptUnknown(plan.attempt);
    throw new AppError(
      'CHAIN_UNAVAILABLE',
      `The payment's outcome is not known yet (${outcome.error.message}). Its coins stay reserved while Keystead re-sends transaction ${txid} until the chain settles it; repeat the call with the same idempotency-key to get the result.`,
      { outcomeUnknown: true, txid },
    );
  }
  services.db.transaction(() => services.repos.payments.attemptDone(plan.attempt, JSON.stringify(result)))();
  recordPayment(services, wallet.id, tx, txid, memo, counterparty);
  return result;
}

/** Bookkeeping after the chain accepted: never turns a sent payment into an error. */
export function recordPayment(services: Services, walletRow: number, tx: Transaction, txid: string, memo: string | null, counterparty: string | null): void {
  try {
    services.sync.applyTransaction(tx, txid, null); // the local node has usually done so already; applying twice is harmless
    services.repos.walletTxs.annotate(walletRow, txid, memo, counterparty);
  } catch (err) {
    console.error(`keystead: payment ${txid} was sent, but recording it failed (the next wallet scan will): ${(err as Error).message}`);
  }
}
