import { BSM, Transaction, Utils } from '@bsv/sdk';
import { createHash } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';
import type { OperationOutput, ParsedInput } from '../../../shared/operations.js';
import { isDust } from '../../chain/policy.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import { callerOf, type OpContext, type Services } from '../context.js';
import { paymailOf } from '../wallets/paymail-alias.js';
import { resolveWallet } from '../wallets/resolve.js';
import { chainSees, completeAttempt } from './settle.js';
import { identityPubKeyHex, type SigningAccount } from './keyring.js';
import { buildTransaction, changeAddressesOf, currentFeePolicy, planAndReserve } from './plan.js';

type PayInput = ParsedInput<'pay'>;
type PayOutput = OperationOutput<'pay'>;

/** What identifies a payment request, so an idempotency key cannot be reused for a different one. */
function requestHash(input: PayInput): string {
  const { walletId, outputs, peer, peerData } = input;
  return createHash('sha256').update(JSON.stringify({ walletId: walletId ?? '', outputs, peer: peer ?? null, peerData: peerData ?? null })).digest('hex');
}

/**
 * Pays a payment request: reserve coins, build and sign, keep the signed transaction, deliver (P2P to
 * the receiver's paymail host, or broadcast), then follow the chain. The books change only when the chain
 * has the transaction: until then its coins stay reserved and history shows it pending. Only a definite
 * refusal gives the coins back. An idempotency key makes a retried call return the first result.
 */
export async function pay(ctx: OpContext, input: PayInput): Promise<PayOutput> {
  const caller = callerOf(ctx);
  const { services } = ctx;
  const key = input.idempotencyKey;
  if (key) {
    const claim = services.repos.payments.claimKey(caller.uid, key, services.now(), requestHash(input));
    if (!claim.claimed) {
      if (!claim.sameRequest) throw new DomainError('CONFLICT', 'This idempotency-key was used for a different payment.');
      if (claim.state === 'done' && claim.response) return JSON.parse(claim.response) as PayOutput;
      throw new DomainError('CONFLICT', 'A payment with this idempotency-key is still in progress; its outcome will be settled. Retry later.');
    }
  }
  try {
    return await payOnce(ctx, input, key ? { uid: caller.uid, key } : null);
  } catch (err) {
    // The key stays claimed while the payment's outcome is unknown, so a retry cannot pay twice.
    if (key && !(err instanceof DomainError && err.details.outcomeUnknown)) services.repos.payments.dropKey(caller.uid, key);
    throw err;
  }
}

type Delivery =
  | { kind: 'broadcast' }
  | { kind: 'delivered'; peerTxid: string }
  | { kind: 'refused'; error: DomainError; reason: string }
  | { kind: 'unclear'; error: DomainError };

async function deliver(services: Services, input: PayInput, wallet: WalletRow, account: SigningAccount, tx: Transaction, txid: string): Promise<Delivery> {
  if (input.peerProtocol === 'paymail' && input.peer) {
    try {
      const answer = await services.paymail.deliver(input.peer, {
        hex: tx.toHex(),
        reference: input.peerData ?? '',
        metadata: {
          sender: paymailOf(wallet) ?? '',
          pubkey: identityPubKeyHex(wallet),
          signature: BSM.sign(Utils.toArray(txid, 'utf8'), account.identityKey(), 'base64') as string,
          note: input.memo ?? '',
        },
      });
      return { kind: 'delivered', peerTxid: answer.txid };
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return err.details.definite === true ? { kind: 'refused', error: err, reason: `the receiver refused it: ${err.message}` } : { kind: 'unclear', error: err };
    }
  }
  const r = await services.chain.broadcast(tx.toHex());
  if (r.status === 'accepted') return { kind: 'broadcast' };
  if (r.status === 'unknown') return { kind: 'unclear', error: new DomainError('CHAIN_UNAVAILABLE', `The transaction could not be sent: ${r.message}`) };
  return {
    kind: 'refused',
    error: new DomainError('PAYMENT_REJECTED', `The network refused the transaction (${r.reason}): ${r.message}`, { reason: r.reason }),
    reason: `the network refused it (${r.reason}): ${r.message}`,
  };
}

async function payOnce(ctx: OpContext, input: PayInput, key: { uid: string; key: string } | null): Promise<PayOutput> {
  const { services } = ctx;
  const wallet = await resolveWallet(ctx, input.walletId);
  const outputs = input.outputs;
  if (outputs.reduce((s, o) => s + o.satoshis, 0) <= 0) throw new DomainError('VALIDATION_FAILED', 'outputs: must pay more than 0 satoshis in total');
  const account = await services.keyring.open(wallet, input.walletPassword); // a wrong wallet password fails before any coin is touched
  const policy = await currentFeePolicy(services);
  outputs.forEach((o, i) => {
    if (isDust(o.satoshis, o.script, policy)) throw new DomainError('VALIDATION_FAILED', `outputs.${i}: ${o.satoshis} satoshis is below the dust limit of ${policy.dustLimit}`);
  });

  const plan = planAndReserve(services, wallet, outputs, policy);
  const changeAddresses = changeAddressesOf(plan, wallet);
  let tx: Transaction;
  try {
    const fmAccount = plan.feeManager ? await services.keyring.open(plan.feeManager.wallet) : null;
    tx = await buildTransaction(plan, outputs, account, fmAccount);
  } catch (err) {
    services.db.transaction(() => {
      services.repos.walletUtxos.release(plan.attempt);
      for (const c of changeAddresses) services.repos.addresses.markUnused(c.walletRow, c.address);
    })();
    throw err;
  }
  const txid = tx.id('hex');
  const p2p = input.peerProtocol === 'paymail' && !!input.peer;
  const result: PayOutput = {
    txid,
    fee: plan.fee,
    feePaidBy: plan.feeManager ? 'feeManager' : 'wallet',
    delivered: p2p ? 'p2p' : 'broadcast',
    walletID: wallet.walletId,
    state: 'pending',
    seenByChain: false,
    peerTxid: null,
  };
  const memo = input.memo ?? null;
  const counterparty = input.uri?.replace(/^payto:/i, '').split('?')[0] ?? null;
  // Kept before sending: after a crash or an unclear answer, this is what gets settled. History shows it
  // pending from here on; the books (spent coins, change) follow once the chain has it.
  services.db.transaction(() => {
    services.repos.payments.recordAttempt({ attempt: plan.attempt, walletRow: wallet.id, txid, raw: tx.toHex(), result: JSON.stringify(result), memo, counterparty, at: services.now(), changeAddresses });
    if (key) services.repos.payments.linkKey(key.uid, key.key, plan.attempt);
    services.sync.recordUnseen(tx, txid, { walletRow: wallet.id, memo, counterparty });
  })();

  services.inFlight.add(plan.attempt);
  try {
    return await follow(services, plan.attempt, await deliver(services, input, wallet, account, tx, txid), tx, result);
  } finally {
    services.inFlight.delete(plan.attempt);
  }
}

/** After delivery: book the payment if the chain has it, keep it pending if not, undo it if refused. */
async function follow(services: Services, attempt: string, outcome: Delivery, tx: Transaction, result: PayOutput): Promise<PayOutput> {
  const { repos, sync, db } = services;
  const txid = result.txid;
  if (outcome.kind === 'unclear') {
    repos.payments.attemptUnknown(attempt);
    throw new DomainError(
      'CHAIN_UNAVAILABLE',
      `The payment's outcome is not known yet (${outcome.error.message}). Its coins stay reserved while Keystead re-sends transaction ${txid} until the chain settles it; repeat the call with the same idempotency-key to get the result.`,
      { outcomeUnknown: true, txid },
    );
  }
  // Whatever the counterparty said, the chain decides: a receiver may refuse and broadcast anyway, or
  // accept and never broadcast.
  const seen = outcome.kind === 'broadcast' ? { seen: true as const, height: null } : await chainSees(services, txid);
  if (outcome.kind === 'refused' && !seen?.seen) {
    sync.revertTransaction(txid, outcome.reason);
    throw outcome.error;
  }
  const peerTxid = outcome.kind === 'delivered' && outcome.peerTxid !== txid ? outcome.peerTxid : null;
  if (peerTxid) {
    services.logger.warn({ txid, peerTxid }, 'the P2P receiver answered a different txid; the chain is checked for ours');
    repos.walletTxs.setPeerTxid(txid, peerTxid);
  }
  if (seen?.seen) return completeAttempt(services, attempt, tx, { ...result, peerTxid, seenByChain: true }, seen.height);
  const pending = { ...result, peerTxid };
  db.transaction(() => repos.payments.attemptPending(attempt, services.now(), peerTxid, JSON.stringify(pending)))();
  services.logger.info({ txid }, 'the receiver took the payment but the chain has not shown it yet; it stays pending');
  return pending;
}
