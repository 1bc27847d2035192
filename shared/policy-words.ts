import type {
  DestinationCondition,
  PolicyAction,
  PolicyAmount,
  PolicyConditions,
  PolicyDocument,
  PolicyRule,
} from './contracts/policies.js';
import { ROLE_LABELS, type Role } from './roles.js';

/**
 * A policy's rules in words, as the editor, the payment review and the approvals show them: "Operators:
 * payments over 0.1 BSV or to a payee not in the book need 2 approvals from managers". One function for
 * every view, so a rule reads the same wherever it is shown.
 */

const plural = (role: Role) => (role === 'api_user' ? 'API users' : `${ROLE_LABELS[role]}s`);
/** A role as approvers are named in a sentence: "managers", "API users". */
export const roleWords = (role: Role) => (role === 'api_user' ? 'API users' : plural(role).toLowerCase());
/** "a, b or c". */
export const listWords = (items: string[], joiner = 'or') =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${joiner} ${items[items.length - 1]}`;
const list = listWords;

/** Satoshis as BSV without trailing zeros: 10000000 → "0.1". */
export function bsvWords(satoshis: number): string {
  const whole = Math.floor(satoshis / 1e8);
  const frac = String(satoshis % 1e8)
    .padStart(8, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

export function amountWords(a: PolicyAmount): string {
  if (a.satoshis !== undefined) return `${bsvWords(a.satoshis)} BSV`;
  if (a.tokens !== undefined) return `${a.tokens} tokens`;
  if (a.count !== undefined) return `${a.count} NFT${a.count === 1 ? '' : 's'}`;
  return `${a.value!.amount} ${a.value!.currency}`;
}

function who(when: PolicyConditions): string {
  const i = when.initiator;
  if (!i) return 'Anyone';
  const parts = [...(i.roles ?? []).map(plural), ...(i.users ?? []), ...(i.apiKeys ?? []).map((k) => `API key ${k}`)];
  return parts.length ? list(parts) : 'Anyone';
}

function destinationWords(d: DestinationCondition, payeeName: (id: string) => string): string {
  switch (d.kind) {
    case 'payees':
      return `only to ${list(d.payees.map(payeeName))}`;
    case 'inBook':
      return 'only to payees in the book';
    case 'notInBook':
      return 'to a payee not in the book';
    case 'paymailDomains':
      return `to a paymail at ${list(d.domains)}`;
  }
}

function whatWords(when: PolicyConditions): string {
  const assets = when.assets ?? [];
  const noun =
    assets.length === 0
      ? 'payments'
      : list(assets.map((a) => (a === 'bsv' ? 'BSV payments' : a === 'tokens' ? 'token moves' : 'NFT moves')));
  const tokens = when.tokenIds?.length ? ` of ${list(when.tokenIds)}` : '';
  const wallets = when.wallets?.length ? ` from ${list(when.wallets)}` : '';
  return `${noun}${tokens}${wallets}`;
}

function actionWords(a: PolicyAction): string {
  if (a.action === 'allow') return 'are allowed';
  if (a.action === 'deny') return `are refused ("${a.reason}")`;
  const from = [...a.approvals.roles.map(roleWords), ...a.approvals.users];
  return `need ${a.approvals.count} approval${a.approvals.count === 1 ? '' : 's'} from ${list(from)}`;
}

/** One rule in words. */
export function ruleWords(rule: PolicyRule, payeeName: (id: string) => string = (id) => id): string {
  const when = rule.when ?? {};
  const conditions: string[] = [];
  if (when.amountOver) conditions.push(`over ${amountWords(when.amountOver)}`);
  if (when.destination) conditions.push(destinationWords(when.destination, payeeName));
  const window = when.window
    ? ` when ${when.window.per === 'initiator' ? 'their' : 'the wallet’s'} total in ${when.window.period === '24h' ? '24 hours' : when.window.period === '7d' ? '7 days' : '30 days'} goes over ${amountWords(when.window.over)}`
    : '';
  const subject = `${whatWords(when)}${conditions.length ? ` ${conditions.join(' and ')}` : ''}${window}`;
  const name = rule.name ? ` [${rule.name}]` : '';
  return `${who(when)}: ${subject} ${actionWords(rule)}${name}`;
}

/** The default in words. */
export function defaultWords(action: PolicyAction): string {
  return `Otherwise: payments ${actionWords(action)}`;
}

/** Every rule, then the default. */
export function policyWords(doc: PolicyDocument, payeeName?: (id: string) => string): string[] {
  return [...doc.rules.map((r) => ruleWords(r, payeeName)), defaultWords(doc.default)];
}
