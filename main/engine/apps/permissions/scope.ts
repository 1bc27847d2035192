import { canonicalFields, type AppPermissionRow, type PermissionScope } from '../../../store/repos/app-permissions.js';

/**
 * What a grant covers, as the reference's permission manager (@bsv/wallet-toolbox's WalletPermissionsManager)
 * scopes its tokens: a protocol by security level and name, and at level 2 by counterparty too (a grant for
 * `*` covers every counterparty: only an admin makes one); a basket by name; a certificate type with the
 * fields it may disclose; an asset (`ordinal`, `token:<id>`) by name. Spends are one action each.
 */

/** The counterparty a level-2 grant names for every counterparty (an admin's choice; no request asks for it). */
export const ANY_COUNTERPARTY = '*';

/** Baskets the wallet keeps for itself, as in the reference: no app is granted them. */
export const isReservedBasket = (basket: string) => basket === 'default' || basket.startsWith('admin');

/** Protocols the reference keeps for the wallet itself (`admin …`): no app is granted them. */
export const isReservedProtocol = (name: string) => name.startsWith('admin');

/**
 * BRC-29's protocol (`[2, '3241645161d8']`, "wallet payment"): its keys are the keys of the coins paid into the
 * wallet by BRC-29 (payments/keyring.ts). An app may derive them (to pay by BRC-29, to check a payment) but
 * never sign with them: a signature with one is a spend of a wallet coin past the payment policy and the app's
 * spending authorisation. Compared as key derivation compares names (trimmed, lower case), at every level.
 */
export const isWalletPaymentProtocol = (name: string) => name.trim().toLowerCase() === '3241645161d8';

/**
 * The subject of a grant of a protocol's privileged keys: `privileged:<name>`. A colon is in no BRC-43
 * protocol name, so no grant of a protocol's everyday keys can be mistaken for one of its privileged keys.
 */
export const PRIVILEGED_PREFIX = 'privileged:';
export const privilegedSubject = (name: string) => `${PRIVILEGED_PREFIX}${name}`;

/** Whether a grant covers the use asked for. */
export function grantCovers(grant: AppPermissionRow, asked: PermissionScope): boolean {
  if (grant.kind !== asked.kind || grant.subject !== asked.subject) return false;
  switch (asked.kind) {
    case 'protocol':
      if (grant.securityLevel !== asked.securityLevel) return false;
      return asked.securityLevel !== 2 || grant.counterparty === ANY_COUNTERPARTY || grant.counterparty === asked.counterparty;
    case 'certificate':
      // Asking without fields discloses none (listing, acquiring, relinquishing): any grant of the type covers it.
      return asked.fields === null || grant.fields === null || asked.fields.every((f) => grant.fields!.includes(f));
    case 'spend':
      return false;
    default:
      return true;
  }
}

/** Whether a denial refuses the use asked for: a denied certificate field refuses every request disclosing it. */
export function denialCovers(denial: AppPermissionRow, asked: PermissionScope): boolean {
  if (asked.kind === 'certificate' && denial.kind === 'certificate' && denial.subject === asked.subject) {
    return denial.fields === null || (asked.fields !== null && asked.fields.some((f) => denial.fields!.includes(f)));
  }
  return grantCovers(denial, asked);
}

/** Two scopes are the same request (a pending one is asked again, not recorded twice). */
export function sameScope(a: PermissionScope, b: PermissionScope): boolean {
  return (
    a.originator === b.originator &&
    a.kind === b.kind &&
    a.subject === b.subject &&
    a.securityLevel === b.securityLevel &&
    a.counterparty === b.counterparty &&
    JSON.stringify(canonicalFields(a.fields)) === JSON.stringify(canonicalFields(b.fields))
  );
}

/** What must be granted, in words for the app's error and the person deciding. */
export function describeScope(s: PermissionScope): string {
  switch (s.kind) {
    case 'protocol': {
      const privileged = s.subject.startsWith(PRIVILEGED_PREFIX);
      const name = privileged ? s.subject.slice(PRIVILEGED_PREFIX.length) : s.subject;
      const counterparty = s.securityLevel === 2 ? ` with counterparty ${s.counterparty}` : '';
      return `${privileged ? 'the privileged keys of ' : ''}protocol [${s.securityLevel}, "${name}"]${counterparty}`;
    }
    case 'basket':
      return `basket "${s.subject}"`;
    case 'certificate':
      return `certificate type ${s.subject}${s.fields?.length ? ` (fields ${s.fields.join(', ')})` : ''}`;
    case 'asset':
      return `moving ${s.subject === 'ordinal' ? '1-sat ordinals' : s.subject}`;
    case 'spend':
      return `a spend of ${s.satoshis ?? 0} satoshis above the month's authorisation`;
  }
}
