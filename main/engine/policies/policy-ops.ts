import { DEFAULT_WALLET_ID } from '../../../shared/wallet-schemas.js';
import { OPEN_POLICY, policyDocument, type PolicyDocument } from '../../../shared/contracts/policies.js';
import { DomainError } from '../../../shared/errors.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import { policyWords } from '../../../shared/policy-words.js';
import type { PolicyVersionRow } from '../../store/repos/policies.js';
import { callerOf, type OpContext } from '../context.js';
import { evaluate, type MoveFacts } from './evaluate.js';
import { factsOf, lookupsFor, PolicyCache } from './authorise.js';
import type { PolicyServices } from './services.js';
import { assertSeasonedDecider, fourEyesInForce } from './four-eyes.js';

type PolicyOutput = OutputOf<typeof OPERATIONS.getPolicy>;

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

function payeeNamer(services: PolicyServices): (id: string) => string {
  return (id) => services.repos.payees.byId(id)?.name ?? id;
}

function versionOut(services: PolicyServices, row: PolicyVersionRow | null) {
  if (!row) return null;
  const document = policyDocument.parse(JSON.parse(row.document)) as PolicyDocument;
  return {
    version: row.version,
    state: row.state,
    document,
    words: policyWords(document, payeeNamer(services)),
    proposedBy: row.proposedBy,
    proposedAt: iso(row.proposedAt)!,
    decidedBy: row.decidedBy,
    decidedAt: iso(row.decidedAt),
    note: row.note,
  };
}

/** Four-eyes: a change needs another (seasoned) admin once the organisation has two or more (four-eyes.ts). */
const fourEyes = fourEyesInForce;

function policyOutput(services: PolicyServices): PolicyOutput {
  const { policies } = services.repos;
  return {
    active: versionOut(services, policies.active()),
    proposed: versionOut(services, policies.proposed()),
    versions: policies.versions().map((v) => versionOut(services, v)!),
    fourEyes: fourEyes(services),
  };
}

export function getPolicy(ctx: OpContext<PolicyServices>): PolicyOutput {
  return policyOutput(ctx.services);
}

/** Every payee a rule names must exist: a rule about a payee that is not in the book would never match. */
function checkPayees(services: PolicyServices, doc: PolicyDocument): void {
  for (const [i, rule] of doc.rules.entries()) {
    const d = rule.when.destination;
    if (d?.kind !== 'payees') continue;
    for (const id of d.payees)
      if (!services.repos.payees.byId(id))
        throw new DomainError('VALIDATION_FAILED', `document.rules.${i}.when.destination.payees: ${id} is not in the payee book`);
  }
}

/**
 * A rule's wallets name one wallet each: a walletID several wallets have (every user's default wallet has
 * DEFAULT_WALLET_ID) is refused bare, as it would match them all, and must be named with its owner.
 */
function checkWallets(services: PolicyServices, doc: PolicyDocument): void {
  const owners = new Map<string, string[]>();
  for (const w of services.repos.wallets.all()) {
    const email = services.repos.users.byUid(w.ownerUid)?.email;
    if (email) owners.set(w.walletId, [...(owners.get(w.walletId) ?? []), email]);
  }
  for (const [i, rule] of doc.rules.entries())
    for (const entry of rule.when.wallets ?? []) {
      if (entry.includes('/')) continue;
      const sharedBy = owners.get(entry) ?? [];
      if (entry === DEFAULT_WALLET_ID || sharedBy.length > 1)
        throw new DomainError(
          'VALIDATION_FAILED',
          `document.rules.${i}.when.wallets: ${entry} is the walletID of ${entry === DEFAULT_WALLET_ID ? "every user's default wallet" : `${sharedBy.length} wallets`}; name one with its owner, as <owner e-mail>/${entry}${sharedBy[0] ? ` (e.g. ${sharedBy[0]}/${entry})` : ''}`,
        );
    }
}

export function proposePolicy(ctx: OpContext<PolicyServices>, input: ParsedInputOf<typeof OPERATIONS.proposePolicy>): PolicyOutput {
  const { services } = ctx;
  const caller = callerOf(ctx);
  checkPayees(services, input.document);
  checkWallets(services, input.document);
  const state = fourEyes(services) ? 'proposed' : 'active';
  const version = services.db.transaction(() =>
    services.repos.policies.addVersion(JSON.stringify(input.document), state, caller.email, services.now(), input.note ?? null),
  )();
  services.events.publish('policy', { version, state }, { kind: 'everyone' });
  return policyOutput(services);
}

export function decidePolicy(ctx: OpContext<PolicyServices>, input: ParsedInputOf<typeof OPERATIONS.decidePolicy>): PolicyOutput {
  const { services } = ctx;
  const caller = callerOf(ctx);
  const row = services.repos.policies.version(input.version);
  if (!row) throw new DomainError('NOT_FOUND', `Policy version ${input.version} does not exist.`);
  if (row.state !== 'proposed')
    throw new DomainError('CONFLICT', `Policy version ${input.version} is ${row.state}, not awaiting a decision.`);
  if (row.proposedBy.toLowerCase() === caller.email.toLowerCase())
    throw new DomainError('FORBIDDEN', 'Another admin must decide on a policy change (four-eyes): you proposed this version.');
  assertSeasonedDecider(services, caller.uid);
  const approve = input.decision === 'approve';
  if (
    !services.db.transaction(() =>
      services.repos.policies.decide(input.version, approve, caller.email, services.now(), input.note ?? null),
    )()
  )
    throw new DomainError('CONFLICT', `Policy version ${input.version} was decided by someone else meanwhile.`);
  services.events.publish('policy', { version: input.version, state: approve ? 'active' : 'rejected' }, { kind: 'everyone' });
  return policyOutput(services);
}

/** What the policy in force would decide for a payment, as the review shows it before Confirm. Records nothing. */
export function previewPolicy(
  ctx: OpContext<PolicyServices>,
  input: ParsedInputOf<typeof OPERATIONS.previewPolicy>,
  wallet: { id: number; walletId: string; title: string },
): OutputOf<typeof OPERATIONS.previewPolicy> {
  const { services } = ctx;
  const { doc } = new PolicyCache(services).current();
  const outputs =
    input.tokenId && input.tokens !== undefined && input.outputs.length === 0 ? [{ script: '', satoshis: input.tokens }] : input.outputs;
  const facts: MoveFacts = factsOf(
    services,
    // The review shows what the caller just resolved: its paymail is believed here, and the pay itself believes
    // it only for outputs that paymail's host vouched for (payments/value-flow.ts).
    {
      kind: 'payment',
      wallet: wallet as never,
      outputs,
      tokenId: input.tokenId ?? null,
      counterparty: input.paymail ?? null,
      paymailVouched: true,
    },
    { operation: 'previewPolicy', input: null, caller: ctx.caller, approval: null },
  );
  if (input.tokenId && input.tokens !== undefined) facts.amount = input.tokens;
  const decision = evaluate(
    doc === OPEN_POLICY ? OPEN_POLICY : doc,
    facts,
    lookupsFor(services, facts, services.now()),
    payeeNamer(services),
  );
  const a = decision.action;
  return {
    decision: a.action,
    rule: decision.rule,
    words:
      a.action === 'allow'
        ? `Allowed by the policy (${decision.rule}).`
        : a.action === 'deny'
          ? `Refused by the policy (${decision.rule}): ${a.reason}`
          : `This payment needs ${a.approvals.count} approval${a.approvals.count === 1 ? '' : 's'}: ${decision.words}.`,
    approvalsNeeded: a.action === 'approve' ? a.approvals.count : 0,
  };
}
