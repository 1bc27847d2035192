import { randomBytes } from 'node:crypto';
import { OPEN_POLICY, policyDocument, type PolicyDocument } from '../../../shared/contracts/policies.js';
import { parseOrdOutput } from '../../chain/ordinal-envelope.js';
import { p2pkhAddressOf } from '../../chain/script.js';
import { APPROVAL_ID_PREFIX, type approvalReview } from '../../../shared/contracts/approvals.js';
import { DomainError } from '../../../shared/errors.js';
import { callScope, type CallScope } from '../context.js';
import type { ValueMoveIntent, ValueMoveTicket } from '../value-move.js';
import { payeeFor } from '../payees/book.js';
import { rateForPolicy } from '../rates/guard.js';
import { assetKey, evaluate, type Destination, type MoveFacts } from './evaluate.js';
import { approvalExpiryMs } from './settings.js';
import type { PolicyServices } from './services.js';
import type { z } from 'zod';

type Review = z.infer<typeof approvalReview>;

/** Input fields never stored with a request awaiting approval: the initiator gives them again if needed. */
const SECRET_FIELDS = new Set(['walletPassword', 'password', 'otp', 'privateKey', 'secretKey', 'mnemonic', 'mnemonicPhrase', 'rootKey']);

function withoutSecrets(input: unknown): unknown {
  if (Array.isArray(input)) return input.map(withoutSecrets);
  if (input === null || typeof input !== 'object') return input;
  return Object.fromEntries(
    Object.entries(input)
      .filter(([k]) => !SECRET_FIELDS.has(k))
      .map(([k, v]) => [k, withoutSecrets(v)]),
  );
}

/** Whether running the call again would need a secret that is never stored (a swept key). */
function needsStoredSecret(input: unknown): boolean {
  const i = (input ?? {}) as Record<string, unknown>;
  return typeof i.privateKey === 'string' || typeof i.secretKey === 'string';
}

/** The paymail a move's counterparty names, when it is one (`alias@domain`, or a `payto:`/URI naming one). */
export function paymailOf(counterparty: string | null | undefined): string | null {
  if (!counterparty) return null;
  const bare = counterparty
    .replace(/^(payto|bitcoin|pay):/i, '')
    .split('?')[0]
    .trim()
    .toLowerCase();
  return /^[^@\s/]+@[a-z0-9.-]+\.[a-z]{2,}$/.test(bare) ? bare : null;
}

/**
 * The policy's document in force, parsed once per version (the check runs on every move, so a pay with
 * ten rules costs a row read and the rules' evaluation, not a parse).
 */
export class PolicyCache {
  private cached: { version: number; doc: PolicyDocument } | null = null;

  constructor(private readonly services: Pick<PolicyServices, 'repos'>) {}

  current(): { version: number; doc: PolicyDocument } {
    const row = this.services.repos.policies.active();
    if (!row) return { version: 0, doc: OPEN_POLICY };
    if (this.cached?.version !== row.version) this.cached = { version: row.version, doc: policyDocument.parse(JSON.parse(row.document)) };
    return this.cached;
  }
}

/** The move as the policy judges it: its asset and amount in the asset's own unit, and where it pays. */
/**
 * The outputs of a move that leave its wallet, with the address each pays (null for data). What stays in the
 * wallet (a token transfer's change back to it) moves nothing: only what leaves counts and is reviewed.
 */
export function leavingOutputs(
  services: { repos: Pick<PolicyServices['repos'], 'addresses'> } & Pick<PolicyServices, 'tokenTemplates'>,
  move: ValueMoveIntent,
) {
  return move.outputs
    .map((o) => ({ script: o.script, satoshis: o.satoshis, address: services.tokenTemplates.holder(o.script) }))
    .filter((o) => {
      // A token's contract output (the issuer's P2PKH with its schema after OP_RETURN) is spent at once by the
      // issue, into the wallet's tokens: it stays, though no book holds it meanwhile.
      const kept = move.kind === 'token-contract' ? o.address : bookedHolderOf(services.tokenTemplates, o.script);
      return kept === null || services.repos.addresses.owner(kept)?.walletRow !== move.wallet.id;
    });
}

/**
 * The address whose wallet's books take an output paid there: a coin (a plain P2PKH), a token the templates
 * recognise, or an inscription (the 1Sat books). An output that only its key can spend but that none of the
 * books takes (a P2PKH followed by OP_RETURN data) is not the wallet's to see or spend: paying it to one of the
 * wallet's own addresses leaves the wallet, and counts.
 */
function bookedHolderOf(templates: PolicyServices['tokenTemplates'], script: string): string | null {
  const coin = p2pkhAddressOf(script);
  if (coin !== null) return coin;
  if (templates.recognise(script)) return templates.holder(script);
  const ordinal = script.includes(ORD_MARKER) ? parseOrdOutput(script, { maxContentBytes: 0 }) : null;
  return ordinal?.inscription ? ordinal.owner : null;
}
/** "ord" pushed: every inscription envelope holds it (the 1Sat books' own quick test). */
const ORD_MARKER = '036f7264';

export function factsOf(
  services: Pick<PolicyServices, 'repos' | 'tokenTemplates'>,
  move: ValueMoveIntent,
  scope: CallScope | undefined,
): MoveFacts {
  const caller = scope?.caller ?? null;
  // A paymail counts only when its host vouched for the outputs (value-move.ts): else the caller's label.
  const paymail = move.paymailVouched ? paymailOf(move.counterparty) : null;
  const leaving = leavingOutputs(services, move);
  const destinations: Destination[] = leaving.map((o) => ({ address: o.address, paymail }));
  const satoshis = leaving.reduce((s, o) => s + o.satoshis, 0);
  let asset: MoveFacts['asset'] = 'bsv';
  // What leaves includes the network fee: data writes pay no outputs and can cost a great deal.
  let amount = satoshis + (move.fee ?? 0);
  if (move.measure) {
    asset = move.measure.asset;
    amount = move.measure.amount;
  } else if (move.tokenId) {
    const token = services.repos.tokens.get(move.tokenId);
    const nft = token !== null && (token.supply === 1 || !token.splittable);
    asset = nft ? 'nfts' : 'tokens';
    amount = nft ? leaving.length : Math.floor(satoshis / (token?.satsPerToken ?? 1));
  }
  return {
    initiator: caller
      ? {
          uid: caller.uid,
          email: caller.email,
          role: caller.role,
          apiKeyId: caller.apiKeyId ?? null,
          apiKeyLineage: caller.apiKeyLineage ?? null,
        }
      : null,
    walletID: move.wallet.walletId,
    walletOwner: services.repos.users.byUid(move.wallet.ownerUid)?.email ?? null,
    walletRow: move.wallet.id,
    asset,
    tokenId: move.tokenId,
    amount,
    destinations,
  };
}

/** What `evaluate` asks of the world, answered from this engine's tables. */
export function lookupsFor(services: Pick<PolicyServices, 'repos'>, facts: MoveFacts, now: number) {
  const asset = assetKey(facts);
  return {
    now,
    payee: (d: Destination) => {
      const match = payeeFor(services.repos, { paymail: d.paymail ?? undefined, address: d.address ?? undefined }, now);
      return match ? { payeeId: match.payeeId, usable: match.usable } : null;
    },
    windowTotal: (per: 'initiator' | 'wallet', since: number) =>
      per === 'initiator'
        ? facts.initiator
          ? services.repos.policies.windowTotal({ asset, since, initiator: facts.initiator.uid })
          : 0
        : services.repos.policies.windowTotal({ asset, since, walletRow: facts.walletRow }),
    satoshisPerUnit: (currency: string) => {
      // A provider's rate older than an hour measures nothing: the limit fails closed (rates/guard.ts).
      const rate = rateForPolicy(services.repos.rates, currency, now);
      return rate ? 1e8 / rate.rate : null;
    },
    // A key that rotated itself is the same holder: a rule naming any key of its lineage names it.
    apiKeyLineage: (keyId: string) => services.repos.apiKeys.byId(keyId)?.lineage ?? null,
  };
}

const sameMultiset = (a: readonly string[], b: readonly string[]) => {
  const x = [...a].sort();
  const y = [...b].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/**
 * The organisation's check of every move of value (payments/value-flow.ts calls it inside the database
 * transaction that reserves the move's coins, and the sweep before it broadcasts). Synchronous on purpose:
 * the window's sum and this move's place in it are read and written in one step, so fifty payments arriving
 * together are held to the total as one would be.
 *
 * - allow: the move counts in its windows (`held`) until it ends without being recorded (the ticket).
 * - deny: POLICY_DENIED with the rule's reason; nothing is reserved.
 * - approve: the request is recorded with its exact review (and counts in its windows while it waits), and
 *   the call answers APPROVAL_REQUIRED (202) with its id; nothing is reserved or signed.
 * - an approved request carried out (the call scope names it): the move must pay exactly the reviewed
 *   outputs (for a paymail, the same amounts to the same paymail: its host gives fresh scripts), else
 *   APPROVAL_MISMATCH and nothing is sent.
 */
export function createPolicyAuthoriser(
  services: Pick<PolicyServices, 'repos' | 'now' | 'logger' | 'events' | 'tokenTemplates'>,
  cache = new PolicyCache(services),
) {
  const judge = judgeOne(services, cache);
  return (move: ValueMoveIntent): ValueMoveTicket => {
    const parts = partsByAsset(services, move);
    if (parts.length === 1) return judge(move);
    // A move in two assets (a token swap's further BSV payments) is judged in each, in this one database
    // transaction: any refusal refuses it, and it cannot wait for approvals (one request reviews one asset), so a
    // part that would wait refuses it in words that say so; its request is rolled back with the transaction.
    const tickets: ValueMoveTicket[] = [];
    try {
      for (const part of parts) {
        const ticket = judge(part);
        tickets.push(ticket);
        if (ticket.awaiting)
          throw new DomainError(
            'POLICY_DENIED',
            `The organisation's payment policy needs approvals for the ${part.tokenId ? 'tokens' : 'BSV'} this moves, and a move of tokens and BSV together cannot wait for them. Ask an approver, or move them separately.`,
          );
      }
    } catch (err) {
      tickets.forEach((t) => t.release());
      throw err;
    }
    return { release: () => tickets.forEach((t) => t.release()) };
  };
}

/** Token moves whose further outputs may pay BSV out (a swap's further payments): judged as tokens and as BSV. */
const TWO_ASSET_KINDS: ReadonlySet<ValueMoveIntent['kind']> = new Set(['token-transfer', 'token-swap', 'token-offer']);

/**
 * The move as one part per asset it moves: a token move's outputs that are not token outputs and carry
 * satoshis are a BSV payment of their own (else a BSV rule would never see them, and they would be counted
 * as tokens at the token's satoshis per token).
 */
function partsByAsset(services: Pick<PolicyServices, 'tokenTemplates'>, move: ValueMoveIntent): ValueMoveIntent[] {
  if (!move.tokenId || move.measure || !TWO_ASSET_KINDS.has(move.kind)) return [move];
  const isBsv = (o: { script: string; satoshis: number }) => o.satoshis > 0 && services.tokenTemplates.recognise(o.script) === null;
  const bsv = move.outputs.filter(isBsv);
  if (bsv.length === 0) return [move];
  return [
    { ...move, outputs: move.outputs.filter((o) => !isBsv(o)) },
    { ...move, kind: 'payment', tokenId: null, outputs: bsv },
  ];
}

function judgeOne(services: Pick<PolicyServices, 'repos' | 'now' | 'logger' | 'events' | 'tokenTemplates'>, cache: PolicyCache) {
  return (move: ValueMoveIntent): ValueMoveTicket => {
    const scope = callScope.getStore();
    const facts = factsOf(services, move, scope);
    const now = services.now();
    const { repos } = services;
    const asset = assetKey(facts);

    // A move from which nothing leaves the wallet (a token merge before a transfer, an issue to the issuer's own
    // address) is judged for refusal only: approvers review what leaves, so it never waits for them, and in an
    // approved call it is part of carrying the operation out.
    const nothingLeaves = facts.destinations.length === 0;
    if (scope?.approval && !scope.approval.consumed) {
      if (nothingLeaves) return { release: () => {} };
      const reviewed = scope.approval;
      const paymail = paymailOf(reviewed.counterparty);
      const leaving = leavingOutputs(services, move);
      // The reviewed outputs exactly; or, for a paymail, the same amounts to fresh scripts its host gave this
      // engine when it resolved the paymail again (vouched), never scripts a caller merely labelled with it.
      const same =
        sameMultiset(
          leaving.map((o) => `${o.script}:${o.satoshis}`),
          reviewed.outputs.map((o) => `${o.script}:${o.satoshis}`),
        ) ||
        (paymail !== null &&
          move.paymailVouched === true &&
          paymailOf(move.counterparty) === paymail &&
          sameMultiset(
            leaving.map((o) => String(o.satoshis)),
            reviewed.outputs.map((o) => String(o.satoshis)),
          ));
      if (!same)
        throw new DomainError(
          'APPROVAL_MISMATCH',
          paymail
            ? `${paymail} now asks for other outputs than the ones approved; nothing was sent. Ask again for a new approval.`
            : 'The payment no longer pays exactly what was approved; nothing was sent.',
        );
      // The fee too: a rate risen since the review (a data write's fee can grow a thousandfold) is not what was
      // approved. A little more is: coin selection may take another coin than it would have at the review.
      if (reviewed.fee != null && move.fee !== undefined && move.fee > reviewed.fee + Math.max(10, Math.ceil(reviewed.fee / 10)))
        throw new DomainError(
          'APPROVAL_MISMATCH',
          `It would now pay a network fee of ${move.fee} satoshis, more than the ${reviewed.fee} its approvers reviewed (the network's fee rate rose); nothing was sent. Ask again for a new approval.`,
        );
      reviewed.consumed = true;
      const id = repos.policies.holdApproval(reviewed.approvalId);
      return { release: () => id !== null && repos.policies.releaseMove(id) };
    }

    const { version, doc } = cache.current();
    const decision = evaluate(doc, facts, lookupsFor(services, facts, now));
    const { action } = decision;
    if (action.action === 'deny')
      throw new DomainError('POLICY_DENIED', `The organisation's payment policy refuses this (${decision.rule}): ${action.reason}`, {
        rule: decision.rule,
      });
    const initiator = facts.initiator?.uid ?? 'engine';
    if (action.action === 'allow' || nothingLeaves) {
      const id = repos.policies.addMove({
        at: now,
        initiator,
        walletRow: facts.walletRow,
        asset,
        amount: facts.amount,
        state: 'held',
        approvalId: null,
      });
      // A token move's network fee is BSV leaving too: it counts in the BSV windows (a later BSV move meets it
      // there), though a fee alone is never judged (it names no payee a rule could be about).
      const feeId =
        facts.asset !== 'bsv' && move.fee
          ? repos.policies.addMove({
              at: now,
              initiator,
              walletRow: facts.walletRow,
              asset: assetKey({ asset: 'bsv', tokenId: null }),
              amount: move.fee,
              state: 'held',
              approvalId: null,
            })
          : null;
      return {
        release: () => {
          repos.policies.releaseMove(id);
          if (feeId !== null) repos.policies.releaseMove(feeId);
        },
      };
    }

    // Approvals: only a call of an operation can wait for them (it is what the approvers' last vote runs again),
    // and only one that needs no secret to run again (a sweep's key is never stored).
    if (!scope || !facts.initiator)
      throw new DomainError(
        'POLICY_DENIED',
        `The organisation's payment policy needs approvals for this (${decision.rule}), and it was not asked for by anyone.`,
      );
    if (needsStoredSecret(scope.input))
      throw new DomainError(
        'POLICY_DENIED',
        `The organisation's payment policy needs ${action.approvals.count} approval(s) for this (${decision.words}), and a sweep cannot wait for them: its key is never stored. One of the approvers can sweep it.`,
        { rule: decision.rule },
      );
    const approvalId = `${APPROVAL_ID_PREFIX}${randomBytes(16).toString('base64url')}`;
    const review: Review = {
      operation: scope.operation,
      walletID: move.wallet.walletId,
      walletTitle: move.wallet.title,
      asset: facts.asset === 'bsv' ? 'BSV' : facts.asset === 'nfts' ? `NFT ${facts.tokenId ?? ''}`.trim() : (facts.tokenId ?? 'tokens'),
      amount: facts.asset === 'bsv' ? facts.amount - (move.fee ?? 0) : facts.amount,
      fee: move.fee ?? null,
      outputs: leavingOutputs(services, move),
      counterparty: move.counterparty ?? null,
      memo: typeof (scope.input as { memo?: unknown })?.memo === 'string' ? ((scope.input as { memo: string }).memo ?? null) : null,
    };
    repos.approvals.insert({
      id: approvalId,
      operation: scope.operation,
      // Its own idempotency key: carrying it out twice (a retry after a crash) can never pay twice.
      input: JSON.stringify({ ...(withoutSecrets(scope.input ?? {}) as object), idempotencyKey: approvalId }),
      review: JSON.stringify(review),
      walletRow: facts.walletRow,
      initiatorUid: facts.initiator.uid,
      initiatorKey: facts.initiator.apiKeyId,
      policyVersion: version,
      rule: decision.rule,
      needed: action.approvals.count,
      approverRoles: action.approvals.roles,
      approverUids: action.approvals.users,
      createdAt: now,
      expiresAt: now + approvalExpiryMs(services),
    });
    repos.policies.addMove({ at: now, initiator, walletRow: facts.walletRow, asset, amount: facts.amount, state: 'awaiting', approvalId });
    services.logger.info({ approvalId, rule: decision.rule, op: scope.operation }, 'a payment awaits approval');
    // Returned, not thrown: the request and its place in the windows are kept with the check's transaction.
    const awaiting = new DomainError(
      'APPROVAL_REQUIRED',
      `This payment needs ${action.approvals.count} approval${action.approvals.count === 1 ? '' : 's'} (${decision.words}). It waits as ${approvalId}; nothing has been reserved or signed.`,
      { approvalId, state: 'awaiting_approval', rule: decision.rule, needed: action.approvals.count },
    );
    return {
      release: () => repos.policies.releaseApproval(approvalId),
      awaiting,
      announce: () => services.events.publish('approval', { approvalId, state: 'awaiting_approval' }, { kind: 'everyone' }),
    };
  };
}
