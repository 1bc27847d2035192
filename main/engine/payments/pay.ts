import { LockingScript, P2PKH, Transaction, BSM, Utils } from '@bsv/sdk';
import { randomUUID } from 'node:crypto';
import type { OperationOutput, ParsedInput } from '../../../shared/operations.js';
import { isDust, requiredFee } from '../../chain/policy.js';
import type { FeePolicy } from '../../chain/types.js';
import type { WalletUtxo } from '../../store/repos/wallet-utxos.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import { callerOf, type OpContext, type Services } from '../context.js';
import { AppError } from '../errors.js';
import { paymailOf } from '../wallets/paymail-alias.js';
import { resolveWallet } from '../wallets/resolve.js';
import { outputBytes, P2PKH_INPUT_BYTES, P2PKH_OUTPUT_BYTES, selectCoins, TX_OVERHEAD_BYTES } from './coin-select.js';
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
        const fee = requiredFee(TX_OVERHEAD_BYTES + outputsBytes + inputs * P2PKH_INPUT_BYTES + outs * P2PKH_OUTPUT_BYTES, policy);
        const coin = [...fmCoins].sort((a, b) => a.satoshis - b.satoshis).find((c) => c.satoshis >= fee);
        if (coin) {
          const fmChange = coin.satoshis - fee;
          const plan: Plan = {
            attempt,
            coins: sel.selection.coins,
            change: sel.selection.change > 0 ? { address: claimChangeAddress(services, wallet), satoshis: sel.selection.change } : null,
            fee: fee + (sel.selection.total - sel.selection.change - outputs.reduce((s, o) => s + o.satoshis, 0)),
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

/**
 * Pays a payment request: reserve coins, build and sign, deliver (P2P to the receiver's paymail host,
 * or broadcast), then record. A failure before the chain accepts the transaction gives the coins back;
 * an idempotency key makes a retried call return the first result instead of paying twice.
 */
export async function pay(ctx: OpContext, input: PayInput): Promise<PayOutput> {
  const caller = callerOf(ctx);
  const { services } = ctx;
  const key = input.idempotencyKey;
  if (key) {
    const claim = services.repos.payments.claimKey(caller.uid, key, services.now());
    if (!claim.claimed) {
      if (claim.state === 'done' && claim.response) return JSON.parse(claim.response) as PayOutput;
      throw new AppError('CONFLICT', 'A payment with this idempotency-key is still in progress.');
    }
  }
  try {
    const result = await payOnce(ctx, input);
    if (key) services.repos.payments.finishKey(caller.uid, key, JSON.stringify(result));
    return result;
  } catch (err) {
    if (key) services.repos.payments.dropKey(caller.uid, key);
    throw err;
  }
}

async function payOnce(ctx: OpContext, input: PayInput): Promise<PayOutput> {
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
  let tx: Transaction;
  let txid: string;
  let delivered: 'p2p' | 'broadcast';
  try {
    const fmAccount = plan.feeManager ? await services.keyring.open(plan.feeManager.wallet) : null;
    tx = await build(plan, outputs, account, fmAccount);
    txid = tx.id('hex');
    if (input.peerProtocol === 'paymail' && input.peer) {
      const identity = account.identityKey();
      const sender = paymailOf(wallet) ?? '';
      await services.paymail.deliver(input.peer, {
        hex: tx.toHex(),
        reference: input.peerData ?? '',
        metadata: {
          sender,
          pubkey: identityPubKeyHex(wallet),
          signature: BSM.sign(Utils.toArray(txid, 'utf8'), identity, 'base64') as string,
          note: input.memo ?? '',
        },
      });
      delivered = 'p2p';
    } else {
      const r = await services.chain.broadcast(tx.toHex());
      if (r.status === 'rejected') {
        if (r.reason === 'network-error') throw new AppError('CHAIN_UNAVAILABLE', `The transaction could not be sent: ${r.message}`);
        throw new AppError('PAYMENT_REJECTED', `The network refused the transaction (${r.reason}): ${r.message}`, { reason: r.reason });
      }
      delivered = 'broadcast';
    }
  } catch (err) {
    services.db.transaction(() => {
      services.repos.walletUtxos.release(plan.attempt);
      if (plan.change) services.repos.addresses.markUnused(wallet.id, plan.change.address);
      if (plan.feeManager?.change) services.repos.addresses.markUnused(plan.feeManager.wallet.id, plan.feeManager.change.address);
    })();
    throw err;
  }
  // Accepted: record it now (the local node has usually done so already; applying twice is harmless).
  services.sync.applyTransaction(tx, txid, null);
  const counterparty = input.uri?.replace(/^payto:/i, '').split('?')[0] ?? null;
  services.repos.walletTxs.annotate(wallet.id, txid, input.memo ?? null, counterparty);
  return { txid, fee: plan.fee, feePaidBy: plan.feeManager ? 'feeManager' : 'wallet', delivered, walletID: wallet.walletId };
}
