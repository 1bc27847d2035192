import { HD } from '@bsv/sdk';
import type { WalletRow } from '../../store/repos/wallets.js';

/** The paymail identity key hangs off the account at `<account>/2/0`, beside the receive (0) and change (1) chains. */
export const IDENTITY_CHAIN = 2;

/** The wallet's public paymail identity key, from its account xpub: what its paymail host publishes. */
export function identityPubKeyHex(wallet: Pick<WalletRow, 'accountXpub'>): string {
  return HD.fromString(wallet.accountXpub).deriveChild(IDENTITY_CHAIN).deriveChild(0).pubKey.toString();
}
