import type { HD } from '@bsv/sdk';
import type { ChainProvider } from '../../chain/types.js';
import { GAP_LIMIT } from './address-book.js';
import { accountNode, accountPathFrom, DERIVATION_SCHEMES } from './keys.js';

/** The account paths other wallets put a phrase's coins under, tried on every import scan. */
export const COMMON_ACCOUNT_PATHS: readonly { path: string; label: string }[] = [
  { path: DERIVATION_SCHEMES['bip44-bsv'], label: 'BSV standard (Keystead, most current BSV wallets)' },
  { path: DERIVATION_SCHEMES['bip44-btc'], label: 'Coin type 0 (Relysia, Centbee, early BSV wallets)' },
  { path: "m/0'", label: "BIP32 account m/0' (older wallets)" },
];

export interface PathFinding {
  derivationPath: string;
  label: string;
  /** Addresses with any history, on both chains (receive and change). */
  usedAddresses: number;
  transactions: number;
  /** Unspent satoshis on those addresses now. */
  satoshis: number;
}

/**
 * Where a recovery phrase's coins are: each common account path (and the user's own) walked like a wallet
 * scan, receive and change chains, until `gap` addresses in a row (GAP_LIMIT by default) have no history. Read-only: nothing
 * is stored, and the phrase never leaves this call.
 */
export async function scanPhrasePaths(chain: ChainProvider, mnemonic: string, extraPath?: string, gap = GAP_LIMIT): Promise<PathFinding[]> {
  const candidates = [...COMMON_ACCOUNT_PATHS];
  if (extraPath) {
    const path = accountPathFrom(extraPath);
    if (!candidates.some((c) => c.path === path)) candidates.push({ path, label: 'The path you gave' });
  }
  const findings: PathFinding[] = [];
  for (const { path, label } of candidates)
    findings.push({ derivationPath: path, label, ...(await scanAccount(chain, accountNode(mnemonic, path), gap)) });
  return findings;
}

async function scanAccount(chain: ChainProvider, account: HD, gap: number): Promise<Omit<PathFinding, 'derivationPath' | 'label'>> {
  const txids = new Set<string>();
  let usedAddresses = 0;
  let satoshis = 0;
  for (const c of [0, 1]) {
    const node = account.deriveChild(c);
    let lastUsed = -1;
    for (let idx = 0; idx <= lastUsed + gap; idx++) {
      const address = node.deriveChild(idx).pubKey.toAddress();
      const history = await chain.getHistory(address);
      if (history.length === 0) continue;
      lastUsed = idx;
      usedAddresses++;
      for (const h of history) txids.add(h.txid);
      satoshis += (await chain.getUtxos(address)).reduce((s, u) => s + u.satoshis, 0);
    }
  }
  return { usedAddresses, transactions: txids.size, satoshis };
}

/** The path an import should use: the one holding the most coins, then the most used; else the default. */
export function bestPath(findings: readonly PathFinding[]): string {
  const ranked = [...findings].sort((a, b) => b.satoshis - a.satoshis || b.transactions - a.transactions);
  return ranked[0] && ranked[0].transactions > 0 ? ranked[0].derivationPath : DERIVATION_SCHEMES['bip44-bsv'];
}
