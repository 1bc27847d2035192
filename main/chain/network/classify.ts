import { cleanRemoteText, txidOf } from '../../../shared/remote-text.js';
import type { BroadcastResult, RejectReason } from '../types.js';

/**
 * Turns an ARC answer into a BroadcastResult honestly. ARC reports some failures as HTTP 200 with a
 * txStatus, and others as 46x errors; node messages vary. "Missing inputs" is not a double spend (an
 * unknown parent is not a conflict), and "already known" is a success.
 */
const ALREADY_KNOWN = /already known|already in the mempool|txn-already-known|transaction already in block chain/i;

export function reasonFromText(text: string): RejectReason | null {
  const t = text.toLowerCase();
  if (/missing[- ]?inputs|missingorspent|bad-txns-inputs-missingorspent|parent.*not found|unknown parent/.test(t)) return 'missing-inputs';
  if (/double[- ]?spend|txn-mempool-conflict|conflicting|competing/.test(t)) return 'double-spend';
  if (/fee.*(low|insufficient)|insufficient.*fee|min relay fee|fee too low/.test(t)) return 'fee-too-low';
  if (/dust/.test(t)) return 'dust';
  if (/outputs? (exceed|greater|more than)|in.*belowout|bad-txns-in-belowout/.test(t)) return 'outputs-exceed-inputs';
  if (/script|signature|mandatory-script-verify|non-mandatory|unlock/.test(t)) return 'bad-signature';
  if (/too large|oversize|size/.test(t)) return 'too-large';
  if (/malformed|parse|deserial|invalid/.test(t)) return 'malformed';
  return null;
}

const BY_STATUS: Record<number, RejectReason> = {
  460: 'malformed',
  461: 'malformed',
  462: 'missing-inputs',
  463: 'malformed',
  464: 'dust',
  465: 'fee-too-low',
  466: 'double-spend',
  473: 'fee-too-low',
};

const KNOWN_REASONS: readonly RejectReason[] = [
  'malformed',
  'missing-inputs',
  'double-spend',
  'bad-signature',
  'outputs-exceed-inputs',
  'dust',
  'fee-too-low',
  'too-large',
];

/**
 * ARC's answers that judge the transaction itself: malformed or invalid (461, 463), missing or spent inputs
 * (462), dust (464), fee too low (465, 473). Others in the 46x range are about ARC's own view (460: it could
 * not fetch the parents of a non-extended transaction; 466 and DOUBLE_SPEND_ATTEMPTED: a competing
 * transaction exists, but either may still be mined; 467–469, 475: proofs and BEEF), and any other 4xx is
 * about the request (a key, a path): none of those says the transaction can never be mined.
 */
const TRANSACTION_VERDICTS = new Set([461, 462, 463, 464, 465, 473]);

/**
 * Three answers, never more certain than ARC was: `accepted`, `rejected` (ARC judged the transaction
 * and refused it), or `unknown` (an orphan waiting for its parents, no txid, or an error about the request).
 */
export function classifyArc(status: number, body: unknown, ourTxid: string | null): BroadcastResult {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  // The txid is the one we computed from the bytes we sent; ARC's is only compared with it. An answer about
  // another transaction says nothing about ours.
  const theirs = txidOf(b.txid);
  if (ourTxid !== null && theirs !== null && theirs !== ourTxid)
    return { status: 'unknown', txid: ourTxid, message: `ARC answered about another transaction (${theirs}); ours was not judged.` };
  const txid = ourTxid ?? theirs;
  const txStatus = String(b.txStatus ?? '').toUpperCase();
  const said = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
  const text = cleanRemoteText(
    [b.title, b.detail, b.extraInfo, typeof body === 'string' ? body : ''].map(said).filter(Boolean).join(' '),
    500,
  );
  const named = Array.isArray(b.competingTxs)
    ? b.competingTxs
        .map(txidOf)
        .filter((t): t is string => t !== null)
        .slice(0, 20)
    : [];
  const competingTxs = named.length > 0 ? named : undefined;
  if (status >= 200 && status < 300) {
    if (txStatus === 'DOUBLE_SPEND_ATTEMPTED') {
      // A competing transaction exists. Real ARC does not call this final; a Keystead node (which marks
      // its verdicts with `reason`) has judged it.
      if (b.reason === 'double-spend')
        return {
          status: 'rejected',
          txid,
          reason: 'double-spend',
          message: text || 'Double spend.',
          ...(competingTxs ? { competingTxs } : {}),
        };
      return {
        status: 'unknown',
        txid,
        message: `A competing transaction exists (${(competingTxs ?? []).join(', ') || 'unnamed'}); either may still be mined.`,
      };
    }
    if (['REJECTED', 'INVALID', 'MALFORMED'].includes(txStatus))
      return { status: 'rejected', txid, reason: reasonFromText(text) ?? 'malformed', message: text || txStatus };
    // An orphan may still be accepted once its parents arrive.
    if (/ORPHAN/.test(txStatus))
      return { status: 'unknown', txid, message: `ARC holds the transaction as an orphan (${txStatus}): its parents are not known yet.` };
    if (!txid) return { status: 'unknown', txid: null, message: 'ARC answered without a txid.' };
    return { status: 'accepted', txid, alreadyKnown: ALREADY_KNOWN.test(text) || txStatus === 'MINED' };
  }
  if (ALREADY_KNOWN.test(text) && txid) return { status: 'accepted', txid, alreadyKnown: true };
  const ours = typeof b.reason === 'string' && (KNOWN_REASONS as readonly string[]).includes(b.reason) ? (b.reason as RejectReason) : null;
  if (ours || TRANSACTION_VERDICTS.has(status)) {
    const reason = ours ?? reasonFromText(text) ?? BY_STATUS[status] ?? 'malformed';
    return { status: 'rejected', txid, reason, message: text || `ARC answered HTTP ${status}.`, ...(competingTxs ? { competingTxs } : {}) };
  }
  return { status: 'unknown', txid, message: `ARC answered HTTP ${status}${text ? `: ${text}` : ''}; the transaction was not judged.` };
}
