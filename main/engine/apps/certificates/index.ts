import type { MethodHandler } from '../call.js';
import type { WalletMethod } from '../methods.js';
import { acquireCertificate } from './acquire.js';
import { discoverByAttributes, discoverByIdentityKey } from './discover.js';
import { listCertificates, proveCertificate, relinquishCertificate } from './held.js';

/** The BRC-100 methods of this group that Keystead serves, by name (brc100.ts dispatches to them). */
export const certificatesMethods: Partial<Record<WalletMethod, MethodHandler>> = {
  acquireCertificate,
  listCertificates,
  proveCertificate,
  relinquishCertificate,
  discoverByIdentityKey,
  discoverByAttributes,
};
