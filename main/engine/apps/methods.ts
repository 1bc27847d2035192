/** Every method of BRC-100's WalletInterface: the ones not served yet answer WERR_NOT_IMPLEMENTED, not a 404. */
export const WALLET_METHODS = [
  'createAction',
  'signAction',
  'abortAction',
  'listActions',
  'internalizeAction',
  'listOutputs',
  'relinquishOutput',
  'getPublicKey',
  'revealCounterpartyKeyLinkage',
  'revealSpecificKeyLinkage',
  'encrypt',
  'decrypt',
  'createHmac',
  'verifyHmac',
  'createSignature',
  'verifySignature',
  'acquireCertificate',
  'listCertificates',
  'proveCertificate',
  'relinquishCertificate',
  'discoverByIdentityKey',
  'discoverByAttributes',
  'isAuthenticated',
  'waitForAuthentication',
  'getHeight',
  'getHeaderForHeight',
  'getNetwork',
  'getVersion',
] as const;
export type WalletMethod = (typeof WALLET_METHODS)[number];

export const isWalletMethod = (m: string): m is WalletMethod => (WALLET_METHODS as readonly string[]).includes(m);
