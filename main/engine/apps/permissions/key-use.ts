import type { WalletProtocol } from '@bsv/sdk';
import * as a from '../args.js';
import type { WalletMethod } from '../methods.js';

/** The protocol a key or crypto call uses, and with whom: what permit.protocol is asked before any key is derived. */
export interface ProtocolUse {
  protocolID: WalletProtocol;
  counterparty: string;
}

/**
 * The protocol grant a key method needs, with its arguments checked first (a bad one is WERR_INVALID_PARAMETER,
 * not a wait). The identity key needs none. Linkage revelations are asked as the reference's permission manager
 * asks them: a level-2 protocol naming what is revealed, with the verifier as counterparty, so revealing is
 * granted apart from using the protocol's keys. Counterparty defaults are those of each method.
 */
export function protocolUse(method: WalletMethod, args: a.Args): ProtocolUse | null {
  switch (method) {
    case 'getPublicKey':
      if (a.optionalBoolean(args, 'identityKey')) return null;
      return own(args, 'self');
    case 'revealCounterpartyKeyLinkage': {
      const counterparty = a.publicKeyHex(args, 'counterparty');
      return {
        protocolID: [2, `counterparty key linkage revelation ${counterparty.toLowerCase()}`],
        counterparty: a.publicKeyHex(args, 'verifier'),
      };
    }
    case 'revealSpecificKeyLinkage': {
      const [level, name] = own(args, 'self').protocolID;
      return {
        protocolID: [2, `specific key linkage revelation ${level} ${name.toLowerCase().trim()}`],
        counterparty: a.publicKeyHex(args, 'verifier'),
      };
    }
    case 'createSignature':
      return own(args, 'anyone');
    case 'encrypt':
    case 'decrypt':
    case 'createHmac':
    case 'verifyHmac':
    case 'verifySignature':
      return own(args, 'self');
    default:
      return null;
  }
}

function own(args: a.Args, fallback: 'self' | 'anyone'): ProtocolUse {
  const protocolID = a.protocolID(args);
  a.keyID(args);
  return { protocolID, counterparty: a.counterparty(args, fallback) };
}
