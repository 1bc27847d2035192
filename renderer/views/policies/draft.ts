import { parseAmount } from '../../../shared/amounts.js';
import type { PolicyAction, PolicyAmount, PolicyDocumentInput, PolicyRule } from '../../../shared/contracts/policies.js';
import type { Role } from '../../../shared/roles.js';

/**
 * The policy editor's working copy: what the form fields hold (amounts as typed, lists as picked), turned
 * into the policy document the API takes. The engine validates the document; this only shapes it, so a
 * half-typed amount is left out of the rule (and its words) rather than guessed.
 */

export type AmountUnit = 'bsv' | 'tokens' | 'count' | 'value';
export interface AmountDraft {
  unit: AmountUnit;
  text: string;
  currency: string;
}

export type DestinationKind = 'any' | 'inBook' | 'notInBook' | 'payees' | 'paymailDomains';
export type ActionKind = PolicyAction['action'];

export interface ActionDraft {
  action: ActionKind;
  reason: string;
  count: number;
  roles: Role[];
  users: string[];
}

export interface RuleDraft extends ActionDraft {
  /** Keeps React's identity of a rule while rules move up and down. */
  key: string;
  name: string;
  initiatorRoles: Role[];
  initiatorUsers: string[];
  initiatorApiKeys: string[];
  wallets: string[];
  assets: ('bsv' | 'tokens' | 'nfts')[];
  tokenIds: string[];
  amountOver: AmountDraft | null;
  destination: DestinationKind;
  payees: string[];
  domains: string[];
  window: { per: 'initiator' | 'wallet'; period: '24h' | '7d' | '30d'; over: AmountDraft } | null;
}

export interface PolicyDraft {
  rules: RuleDraft[];
  default: ActionDraft;
}

export const emptyAmount = (): AmountDraft => ({ unit: 'bsv', text: '', currency: 'USD' });
export const emptyAction = (): ActionDraft => ({ action: 'allow', reason: '', count: 1, roles: [], users: [] });

let keys = 0;
const newKey = () => `rule-${++keys}`;

export function emptyRule(): RuleDraft {
  return {
    ...emptyAction(),
    action: 'approve',
    roles: ['manager'],
    key: newKey(),
    name: '',
    initiatorRoles: [],
    initiatorUsers: [],
    initiatorApiKeys: [],
    wallets: [],
    assets: [],
    tokenIds: [],
    amountOver: null,
    destination: 'any',
    payees: [],
    domains: [],
    window: null,
  };
}

/** Why an amount's text is not one (null: it is, or it is empty). */
export function amountProblem(a: AmountDraft): string | null {
  const t = a.text.trim();
  if (!t) return null;
  if (a.unit === 'bsv') {
    const r = parseAmount(t, 'BSV');
    return r.ok ? (r.satoshis > 0 ? null : 'Must be above 0.') : r.error;
  }
  if (a.unit === 'value') return /^\d{1,12}(\.\d{1,2})?$/.test(t) ? null : 'An amount with at most 2 decimals.';
  return /^[1-9]\d{0,14}$/.test(t) ? null : 'A whole number above 0.';
}

export function amountOfDraft(a: AmountDraft): PolicyAmount | undefined {
  const t = a.text.trim();
  if (!t || amountProblem(a)) return undefined;
  if (a.unit === 'bsv') {
    const r = parseAmount(t, 'BSV');
    return r.ok ? { satoshis: r.satoshis } : undefined;
  }
  if (a.unit === 'tokens') return { tokens: Number(t) };
  if (a.unit === 'count') return { count: Number(t) };
  return { value: { currency: a.currency.trim().toUpperCase(), amount: t } };
}

export function draftOfAmount(a: PolicyAmount): AmountDraft {
  if (a.satoshis !== undefined) {
    const whole = Math.floor(a.satoshis / 1e8);
    const frac = String(a.satoshis % 1e8)
      .padStart(8, '0')
      .replace(/0+$/, '');
    return { unit: 'bsv', text: frac ? `${whole}.${frac}` : String(whole), currency: 'USD' };
  }
  if (a.tokens !== undefined) return { unit: 'tokens', text: String(a.tokens), currency: 'USD' };
  if (a.count !== undefined) return { unit: 'count', text: String(a.count), currency: 'USD' };
  return { unit: 'value', text: a.value!.amount, currency: a.value!.currency };
}

export function actionOfDraft(d: ActionDraft): PolicyAction {
  if (d.action === 'allow') return { action: 'allow' };
  if (d.action === 'deny') return { action: 'deny', reason: d.reason.trim() };
  return { action: 'approve', approvals: { count: d.count, roles: d.roles, users: d.users } };
}

function draftOfAction(a: PolicyAction): ActionDraft {
  if (a.action === 'allow') return emptyAction();
  if (a.action === 'deny') return { ...emptyAction(), action: 'deny', reason: a.reason };
  return { ...emptyAction(), action: 'approve', count: a.approvals.count, roles: a.approvals.roles, users: a.approvals.users };
}

/** Only the conditions that are set: an empty list is no condition at all (not "matches nothing"). */
export function ruleOfDraft(d: RuleDraft): PolicyRule {
  const when: PolicyRule['when'] = {};
  if (d.initiatorRoles.length || d.initiatorUsers.length || d.initiatorApiKeys.length)
    when.initiator = {
      ...(d.initiatorRoles.length ? { roles: d.initiatorRoles } : {}),
      ...(d.initiatorUsers.length ? { users: d.initiatorUsers } : {}),
      ...(d.initiatorApiKeys.length ? { apiKeys: d.initiatorApiKeys } : {}),
    };
  if (d.wallets.length) when.wallets = d.wallets;
  if (d.assets.length) when.assets = d.assets;
  if (d.tokenIds.length) when.tokenIds = d.tokenIds;
  const over = d.amountOver && amountOfDraft(d.amountOver);
  if (over) when.amountOver = over;
  if (d.destination === 'inBook' || d.destination === 'notInBook') when.destination = { kind: d.destination };
  if (d.destination === 'payees' && d.payees.length) when.destination = { kind: 'payees', payees: d.payees };
  if (d.destination === 'paymailDomains' && d.domains.length) when.destination = { kind: 'paymailDomains', domains: d.domains };
  const windowOver = d.window && amountOfDraft(d.window.over);
  if (d.window && windowOver) when.window = { per: d.window.per, period: d.window.period, over: windowOver };
  return { ...(d.name.trim() ? { name: d.name.trim() } : {}), when, ...actionOfDraft(d) } as PolicyRule;
}

export function draftOfRule(rule: PolicyRule): RuleDraft {
  const w = rule.when ?? {};
  const dest = w.destination;
  return {
    ...draftOfAction(rule),
    key: newKey(),
    name: rule.name ?? '',
    initiatorRoles: w.initiator?.roles ?? [],
    initiatorUsers: w.initiator?.users ?? [],
    initiatorApiKeys: w.initiator?.apiKeys ?? [],
    wallets: w.wallets ?? [],
    assets: w.assets ?? [],
    tokenIds: w.tokenIds ?? [],
    amountOver: w.amountOver ? draftOfAmount(w.amountOver) : null,
    destination: dest?.kind ?? 'any',
    payees: dest?.kind === 'payees' ? dest.payees : [],
    domains: dest?.kind === 'paymailDomains' ? dest.domains : [],
    window: w.window ? { per: w.window.per, period: w.window.period, over: draftOfAmount(w.window.over) } : null,
  };
}

export function documentOfDraft(d: PolicyDraft): PolicyDocumentInput {
  return { rules: d.rules.map(ruleOfDraft), default: actionOfDraft(d.default) };
}

export function draftOfDocument(doc: { rules: PolicyRule[]; default: PolicyAction } | null | undefined): PolicyDraft {
  if (!doc) return { rules: [], default: emptyAction() };
  return { rules: doc.rules.map(draftOfRule), default: draftOfAction(doc.default) };
}
