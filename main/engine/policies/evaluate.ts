import {
  WINDOW_MS,
  type DestinationCondition,
  type PolicyAction,
  type PolicyAmount,
  type PolicyDocument,
  type PolicyRule,
} from '../../../shared/contracts/policies.js';
import { DomainError } from '../../../shared/errors.js';
import { defaultWords, ruleWords } from '../../../shared/policy-words.js';
import type { Role } from '../../../shared/roles.js';

/** Who asks for a move; null for the engine's own moves (none today move an organisation's value unasked). */
export interface Initiator {
  uid: string;
  email: string | null;
  role: Role;
  apiKeyId: string | null;
  /** The key's lineage (the first key of its rotations): a rule naming an earlier key of it applies too. */
  apiKeyLineage?: string | null;
}

/** A destination of a move: the address its output pays, and the paymail when the move pays one. */
export interface Destination {
  address: string | null;
  paymail: string | null;
}

/** What the policy judges: one move, in its asset's own unit. */
export interface MoveFacts {
  initiator: Initiator | null;
  walletID: string;
  /** The e-mail of the wallet's owner: a rule names a wallet whose walletID others share as `<owner e-mail>/<walletID>`. */
  walletOwner: string | null;
  walletRow: number;
  asset: 'bsv' | 'tokens' | 'nfts';
  tokenId: string | null;
  /** Satoshis for BSV, token units for tokens, a count for NFTs. */
  amount: number;
  destinations: Destination[];
}

/** Where the payee book stands on a destination: a usable payee, a payee still cooling off, or none. */
export interface PayeeStanding {
  payeeId: string;
  usable: boolean;
}

/** What evaluation asks of the world: the payee book, past moves, and the rate of the moment. */
export interface Lookups {
  payee(d: Destination): PayeeStanding | null;
  /** What was moved in a window (this move not included), in the move's asset unit. */
  windowTotal(per: 'initiator' | 'wallet', since: number): number;
  /** Satoshis per one unit of `currency` (null: the table has no rate for it). */
  satoshisPerUnit(currency: string): number | null;
  /** The lineage of an API key a rule names (the first key of its rotations); null for no such key. */
  apiKeyLineage(keyId: string): string | null;
  now: number;
}

export interface Decision {
  action: PolicyAction;
  /** `rule 2 (name)` or `default`. */
  rule: string;
  /** The position of the rule that decided (from 0), or -1 for the default. */
  index: number;
  words: string;
}

/** The asset key windows sum by: BSV, one token, NFTs. */
export function assetKey(m: Pick<MoveFacts, 'asset' | 'tokenId'>): string {
  return m.asset === 'tokens' ? `token:${m.tokenId ?? ''}` : m.asset;
}

/**
 * An amount of a rule in the move's unit, or null when it speaks of another asset (a BSV limit never
 * matches a token move: tokens count by their own amounts, NFTs by count, never by the satoshis they carry).
 */
function thresholdFor(a: PolicyAmount, m: MoveFacts, l: Lookups): number | null {
  if (a.satoshis !== undefined) return m.asset === 'bsv' ? a.satoshis : null;
  if (a.tokens !== undefined) return m.asset === 'tokens' ? a.tokens : null;
  if (a.count !== undefined) return m.asset === 'nfts' ? a.count : null;
  if (m.asset !== 'bsv') return null;
  const { currency, amount } = a.value!;
  const perUnit = l.satoshisPerUnit(currency);
  // Fail closed: a limit the policy cannot compute refuses the move instead of letting it pass unmeasured.
  if (perUnit === null)
    throw new DomainError(
      'RATE_UNAVAILABLE',
      `The payment policy compares amounts in ${currency}, and there is no ${currency} rate. Nothing was sent.`,
    );
  return Math.floor(Number(amount) * perUnit);
}

function destinationHolds(c: DestinationCondition, m: MoveFacts, l: Lookups): boolean {
  const standing = m.destinations.map((d) => l.payee(d));
  switch (c.kind) {
    case 'payees':
      return standing.length > 0 && standing.every((s) => s !== null && s.usable && c.payees.includes(s.payeeId));
    case 'inBook':
      return standing.length > 0 && standing.every((s) => s !== null && s.usable);
    case 'notInBook':
      return standing.some((s) => s === null || !s.usable);
    case 'paymailDomains':
      return m.destinations.some((d) => d.paymail !== null && c.domains.includes(d.paymail.split('@')[1] ?? ''));
  }
}

function initiatorHolds(rule: PolicyRule, m: MoveFacts, l: Lookups): boolean {
  const i = rule.when.initiator;
  if (!i) return true;
  const who = m.initiator;
  if (!who) return false;
  return (
    (i.roles ?? []).includes(who.role) ||
    (i.users ?? []).some((u) => u === who.uid || (who.email !== null && u.toLowerCase() === who.email.toLowerCase())) ||
    (who.apiKeyId !== null && (i.apiKeys ?? []).includes(who.apiKeyId)) ||
    (who.apiKeyLineage != null && (i.apiKeys ?? []).some((k) => l.apiKeyLineage(k) === who.apiKeyLineage))
  );
}

/**
 * Whether a rule's wallet entry names the move's wallet: its walletID, or `<owner e-mail>/<walletID>` (every
 * user's default wallet has the same walletID, so a rule names one of them with its owner).
 */
export function namesWallet(entry: string, m: Pick<MoveFacts, 'walletID' | 'walletOwner'>): boolean {
  const slash = entry.lastIndexOf('/');
  if (slash < 0) return entry === m.walletID;
  return (
    entry.slice(slash + 1) === m.walletID && m.walletOwner !== null && entry.slice(0, slash).toLowerCase() === m.walletOwner.toLowerCase()
  );
}

/** Whether every condition of a rule holds for the move (cheapest first; the window's sum last). */
export function ruleMatches(rule: PolicyRule, m: MoveFacts, l: Lookups): boolean {
  const w = rule.when;
  if (!initiatorHolds(rule, m, l)) return false;
  if (w.wallets && !w.wallets.some((e) => namesWallet(e, m))) return false;
  if (w.assets && !w.assets.includes(m.asset)) return false;
  if (w.tokenIds && (m.tokenId === null || !w.tokenIds.includes(m.tokenId))) return false;
  if (w.amountOver) {
    const over = thresholdFor(w.amountOver, m, l);
    if (over === null || m.amount <= over) return false;
  }
  if (w.destination && !destinationHolds(w.destination, m, l)) return false;
  if (w.window) {
    const over = thresholdFor(w.window.over, m, l);
    if (over === null) return false;
    const total = l.windowTotal(w.window.per, l.now - WINDOW_MS[w.window.period]) + m.amount;
    if (total <= over) return false;
  }
  return true;
}

/** The first rule that matches decides; else the default. */
export function evaluate(doc: PolicyDocument, m: MoveFacts, l: Lookups, payeeName?: (id: string) => string): Decision {
  for (const [index, rule] of doc.rules.entries()) {
    if (ruleMatches(rule, m, l)) {
      const label = `rule ${index + 1}${rule.name ? ` (${rule.name})` : ''}`;
      return { action: rule, rule: label, index, words: ruleWords(rule, payeeName) };
    }
  }
  return { action: doc.default, rule: 'default', index: -1, words: defaultWords(doc.default) };
}
