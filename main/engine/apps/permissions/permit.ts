import type { WalletProtocol } from '@bsv/sdk';
import { canonicalFields, type PermissionScope } from '../../../store/repos/app-permissions.js';
import type { AppRow } from '../../../store/repos/apps.js';
import type { AppPermit } from '../call.js';
import type { AppPermissionServices } from '../services.js';
import { unauthorized } from '../werr.js';
import { ask } from './judge.js';
import { isReservedBasket, isReservedProtocol, privilegedSubject } from './scope.js';
import { spend } from './spend.js';

const scopeOf = (
  originator: string,
  kind: PermissionScope['kind'],
  subject: string,
  more: Partial<PermissionScope> = {},
): PermissionScope => ({
  originator,
  kind,
  subject,
  securityLevel: null,
  counterparty: null,
  fields: null,
  satoshis: null,
  ...more,
});

/** A counterparty as a level-2 grant names it: `self`, `anyone`, or a public key in lower-case hex. */
export const counterpartyKey = (counterparty: string) => counterparty.trim().toLowerCase();

/**
 * The organisation's grants to an allowed app, asked by every BRC-100 method before it uses a protocol's
 * keys, a basket, a certificate or the wallet's value. Security level 0 protocols are open to every allowed
 * app (BRC-43; the reference's permission manager asks nothing for them); levels 1 and 2 need a grant, at
 * level 2 for the counterparty named. An ungranted use waits for a decision (judge.ts) or is refused.
 */
export function permitOf(services: AppPermissionServices, app: AppRow): AppPermit {
  const { originator } = app;
  return {
    protocol: async (protocolID: WalletProtocol, counterparty: string, purpose: string, privileged = false) => {
      const [level, given] = protocolID;
      // Level 0 is open, but never for the privileged keys: each of their uses is granted.
      if (level === 0 && !privileged) return;
      const name = given.toLowerCase().trim();
      if (isReservedProtocol(name)) throw unauthorized(`The protocol "${name}" is kept for the wallet itself: no app may use it.`);
      const scope = scopeOf(originator, 'protocol', privileged ? privilegedSubject(name) : name, {
        securityLevel: level,
        counterparty: level === 2 ? counterpartyKey(counterparty) : null,
      });
      await ask(services, app, scope, purpose);
    },
    basket: async (basket, purpose) => {
      if (isReservedBasket(basket)) throw unauthorized(`The basket "${basket}" is kept for the wallet itself: no app may use it.`);
      await ask(services, app, scopeOf(originator, 'basket', basket), purpose);
    },
    certificate: async (type, purpose, fields, verifier) => {
      const scope = scopeOf(originator, 'certificate', type, { fields: fields && fields.length ? canonicalFields(fields) : null });
      await ask(services, app, scope, verifier ? `${purpose} to ${verifier}` : purpose);
    },
    spend: (request) => spend(services, app, request),
  };
}
