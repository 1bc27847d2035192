import { DomainError } from '../../../shared/errors.js';
import { callScope } from '../context.js';
import { currentFeePolicy } from '../payments/plan.js';
import type { PaymentServices } from '../payments/services.js';
import { plannedPayment, recordValueMove, sendRecordedMove } from '../payments/value-flow.js';
import { dataScript } from '../utilities/data-script.js';

/** The first push of an audit anchor, so an indexer (or an auditor) finds them. */
export const AUDIT_ANCHOR_PREFIX = 'keystead.audit.checkpoint';

/** The anchor's data output: OP_FALSE OP_RETURN <prefix> <day> <last id> <last hash, 32 bytes>. */
export function auditAnchorScript(c: { day: string; lastId: number; lastHash: string }): string {
  return dataScript([Buffer.from(AUDIT_ANCHOR_PREFIX), Buffer.from(c.day), Buffer.from(String(c.lastId)), Buffer.from(c.lastHash, 'hex')]);
}

/**
 * Writes an audit checkpoint's hash on chain from the fee manager wallet, through the same value flow as
 * data posts (POST /v1/post): coins reserved, the policy asked, signed, recorded, broadcast and booked. It
 * runs as the organisation's own call `auditAnchor` (no caller), never as whichever call's append closed
 * the day. Throws when there is no fee manager or it cannot pay.
 */
export function anchorAuditCheckpoint(services: PaymentServices, c: { day: string; lastId: number; lastHash: string }): Promise<string> {
  return callScope.run({ operation: 'auditAnchor', input: null, caller: null, approval: null }, async () => {
    const wallet = services.repos.wallets.feeManager();
    if (!wallet) throw new DomainError('NOT_FOUND', 'The fee manager is not set up, so the checkpoint cannot be anchored.');
    const account = await services.keyring.open(wallet);
    const policy = await currentFeePolicy(services);
    const outputs = [{ script: auditAnchorScript(c), satoshis: 0 }];
    const recorded = await recordValueMove(services, {
      intent: { kind: 'payment', wallet, outputs, tokenId: null },
      account,
      memo: `Audit checkpoint ${c.day}`,
      counterparty: null,
      delivery: null,
      policy,
      ...plannedPayment(services, wallet, account, outputs, policy),
    });
    return (await sendRecordedMove(services, recorded)).txid;
  });
}
