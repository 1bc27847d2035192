import { createHash } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import { isDust } from '../../chain/policy.js';
import type { FeePolicy } from '../../chain/types.js';
import { callerOf, type OpContext } from '../context.js';
import type { PaymentServices } from './services.js';
import type { AuditServices } from '../audit/services.js';
import { resolveWallet } from '../wallets/resolve.js';
import { currentFeePolicy } from './plan.js';
import { refuseReservedKey } from './reserved-keys.js';
import { plannedPayment, recordValueMove, sendRecordedMove } from './value-flow.js';
import { assertReviewed, reviewedOf } from './review.js';
import { recordSuccessInside } from '../audit/audit-log.js';

type PayInput = ParsedInputOf<typeof OPERATIONS.pay>;
type PayOutput = OutputOf<typeof OPERATIONS.pay>;

/** What identifies a payment request, so an idempotency key cannot be reused for a different one. */
function requestHash(input: PayInput): string {
  const { walletId, outputs, peer, peerData } = input;
  return createHash('sha256')
    .update(JSON.stringify({ walletId: walletId ?? '', outputs, peer: peer ?? null, peerData: peerData ?? null }))
    .digest('hex');
}

/** How far a pay call got: once the signed transaction is stored, only its settlement may free the key. */
interface Progress {
  recorded: boolean;
}

/**
 * Pays a payment request as a value move (value-flow.ts): reserve coins, build and sign, keep the signed
 * transaction, deliver (P2P to the receiver's paymail host, or broadcast), then follow the chain. The books
 * change only when the chain has the transaction: until then its coins stay reserved and history shows it
 * pending. Only the chain's refusal gives the coins back. An idempotency key makes a retried call return
 * the first result.
 */
export async function pay(ctx: OpContext<PaymentServices & AuditServices>, input: PayInput): Promise<PayOutput> {
  const caller = callerOf(ctx);
  const { services } = ctx;
  // A reviewed payment is checked before anything else: what is signed is what was reviewed, at the fee
  // rate it was priced at (the pay then builds with that same policy, not one fetched again).
  let reviewedPolicy: FeePolicy | undefined;
  if (input.reviewId) {
    reviewedPolicy = await currentFeePolicy(services);
    assertReviewed(input.reviewId, reviewedOf((await resolveWallet(ctx, input.walletId)).walletId, input, reviewedPolicy));
  }
  const key = input.idempotencyKey;
  if (key) {
    refuseReservedKey(key);
    const claim = services.repos.payments.claimKey(caller.uid, key, services.now(), requestHash(input));
    if (!claim.claimed) {
      if (!claim.sameRequest) throw new DomainError('CONFLICT', 'This idempotency-key was used for a different payment.');
      if (claim.state === 'done' && claim.response) return JSON.parse(claim.response) as PayOutput;
      throw new DomainError(
        'CONFLICT',
        'A payment with this idempotency-key is still in progress; its outcome will be settled. Retry later.',
      );
    }
  }
  const progress: Progress = { recorded: false };
  try {
    // Nothing can fail after the booking's commit, so the entry is the one the operation's own record would be.
    const audit = (final: PayOutput) => recordSuccessInside(ctx, 'pay', final.txid);
    return await payOnce(ctx, input, key ? { uid: caller.uid, key } : null, progress, audit, reviewedPolicy);
  } catch (err) {
    // Before anything was signed and stored, the key may be used again. After, it stays bound to the
    // stored payment, and only that payment's definite failure frees it: a retry can never pay twice.
    if (key && !progress.recorded) services.repos.payments.dropKey(caller.uid, key);
    throw err;
  }
}

/**
 * Pays under an idempotency key the caller already claimed (a batch item's, see tokens/batch-keys.ts):
 * the key is linked to the stored payment, so its settlement finishes it. The caller frees the key when
 * this fails before anything was stored.
 */
export async function payUnderKey(
  ctx: OpContext<PaymentServices>,
  input: PayInput,
  key: { uid: string; key: string } | null,
): Promise<PayOutput> {
  return payOnce(ctx, input, key, { recorded: false });
}

async function payOnce(
  ctx: OpContext<PaymentServices>,
  input: PayInput,
  key: { uid: string; key: string } | null,
  progress: Progress,
  /** The `pay` operation's success entry (audited), written with the booking when it books at once. */
  audit?: (final: PayOutput) => void,
  /** The fee policy a reviewed payment was checked against; otherwise the chain's current one. */
  reviewedPolicy?: FeePolicy,
): Promise<PayOutput> {
  const { services } = ctx;
  const wallet = await resolveWallet(ctx, input.walletId);
  const outputs = input.outputs;
  if (outputs.reduce((s, o) => s + o.satoshis, 0) <= 0)
    throw new DomainError('VALIDATION_FAILED', 'outputs: must pay more than 0 satoshis in total');
  const account = await services.keyring.open(wallet, input.walletPassword); // a wrong wallet password fails before any coin is touched
  const policy = reviewedPolicy ?? (await currentFeePolicy(services));
  outputs.forEach((o, i) => {
    if (isDust(o.satoshis, o.script, policy))
      throw new DomainError('VALIDATION_FAILED', `outputs.${i}: ${o.satoshis} satoshis is below the dust limit of ${policy.dustLimit}`);
  });

  const p2p = input.peerProtocol === 'paymail' && !!input.peer;
  const memo = input.memo ?? null;
  const recorded = await recordValueMove(services, {
    intent: { kind: 'payment', wallet, outputs, tokenId: null },
    account,
    memo,
    counterparty: input.uri?.replace(/^payto:/i, '').split('?')[0] ?? null,
    delivery: p2p ? { peer: input.peer!, reference: input.peerData ?? '', note: memo ?? '', beefPeer: input.peerBeef ?? null } : null,
    policy,
    ...plannedPayment(services, wallet, account, outputs, policy),
    alsoRecord: (s) => {
      if (key) services.repos.payments.linkKey(key.uid, key.key, s.attempt);
    },
    alsoComplete: audit,
  });
  progress.recorded = true;
  return sendRecordedMove(services, recorded);
}
