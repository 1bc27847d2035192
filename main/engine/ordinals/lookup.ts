import type { LookupCoin } from '../../../shared/operations.js';
import type { OrdinalRepo } from '../../store/repos/ordinals.js';
import type { OrdinalsIndex } from './ordinals-index.js';

/** Outputs one lookup asks the ordinals index about at most (each decided within the index's own budget). */
const MAX_LOOKUP_OUTPUTS = 200;

/**
 * BSV-21 entries of a lookup (`POST /v1/lookup`): the token outputs the ordinals index says `address` holds,
 * each checked by the index (the network indexer's answers against the transactions, the local index by walking
 * the history). Invalid outputs are never listed; undecided ones are, with `proven` false. Per token (compact):
 * `amount` in the token's smallest unit with `decimals` (amount / 10^decimals is what people read); otherwise
 * one entry per output. A number past 2^53 loses precision here: listOrdinals answers exact decimal strings.
 */
export async function bsv21LookupCoins(index: OrdinalsIndex | undefined, address: string, compact: boolean): Promise<LookupCoin[]> {
  if (!index) return [];
  const outputs = (await index.ordinalOutputsOf(address)).slice(0, MAX_LOOKUP_OUTPUTS);
  const tokens = new Map<string, { sym: string | null; dec: number } | null>();
  const tokenOf = async (id: string) => {
    if (!tokens.has(id)) {
      const t = await index.bsv21Token(id);
      tokens.set(id, t ? { sym: t.sym, dec: t.dec } : null);
    }
    return tokens.get(id)!;
  };
  const held: { id: string; amt: bigint; proven: boolean; txid: string; vout: number }[] = [];
  for (const o of outputs) {
    const facts = await index.bsv21Output(o.txid, o.vout);
    if (!facts || facts.op === 'burn' || facts.valid === false) continue;
    held.push({ id: facts.id, amt: facts.amt, proven: facts.valid === true, txid: o.txid, vout: o.vout });
  }
  held.sort((a, b) => a.id.localeCompare(b.id) || a.txid.localeCompare(b.txid) || a.vout - b.vout);
  const coins: LookupCoin[] = [];
  const entry = async (id: string, amt: bigint, proven: boolean, at?: { txid: string; vout: number }): Promise<LookupCoin | null> => {
    const token = await tokenOf(id);
    if (!token) return null;
    return {
      protocol: 'BSV-21',
      tokenId: id,
      ...(token.sym ? { symbol: token.sym } : {}),
      decimals: token.dec,
      amount: Number(amt),
      address,
      proven,
      ...(at ?? {}),
    };
  };
  if (compact) {
    const by = new Map<string, { amt: bigint; proven: boolean }>();
    for (const h of held) {
      const t = by.get(h.id) ?? { amt: 0n, proven: true };
      by.set(h.id, { amt: t.amt + h.amt, proven: t.proven && h.proven });
    }
    for (const [id, t] of by) {
      const c = await entry(id, t.amt, t.proven);
      if (c) coins.push(c);
    }
  } else
    for (const h of held) {
      const c = await entry(h.id, h.amt, h.proven, { txid: h.txid, vout: h.vout });
      if (c) coins.push(c);
    }
  return coins;
}

/**
 * A wallet's BSV-21 entries for its balance (`GET /v1/balance`), from the ordinals books: valid outputs only,
 * per token (compact) or one entry per output, `amount` in the token's smallest unit with `decimals`.
 */
export function bsv21BalanceCoins(repo: Pick<OrdinalRepo, 'unspent' | 'token'>, walletRow: number, compact: boolean): LookupCoin[] {
  const valid = repo.unspent(walletRow).filter((o) => o.tokenId && o.amount !== null && o.bsv21Op !== 'burn' && o.validity === 'valid');
  const coin = (id: string, amt: bigint, at?: { txid: string; vout: number; address: string }): LookupCoin => {
    const t = repo.token(id);
    return {
      protocol: 'BSV-21',
      tokenId: id,
      ...(t?.sym ? { symbol: t.sym } : {}),
      decimals: t?.dec ?? 0,
      amount: Number(amt),
      proven: true,
      ...(at ?? {}),
    };
  };
  if (!compact) return valid.map((o) => coin(o.tokenId!, BigInt(o.amount!), { txid: o.txid, vout: o.vout, address: o.address }));
  const by = new Map<string, bigint>();
  for (const o of valid) by.set(o.tokenId!, (by.get(o.tokenId!) ?? 0n) + BigInt(o.amount!));
  return [...by.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([id, amt]) => coin(id, amt));
}
