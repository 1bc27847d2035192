import { DomainError } from '../../../shared/errors.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import type { OPERATIONS, TokenDetailsOutput } from '../../../shared/operations.js';
import { NFT_PROTOCOL_IDS } from '../../../shared/token-schemas.js';
import { Transaction } from '@bsv/sdk';
import type { TokenRow, TokenSerial } from '../../store/repos/tokens.js';
import { tokenIdOf } from '../token-templates/template.js';
import type { OpContext } from '../context.js';
import { addressOfPkh } from './ledger.js';
import type { TokenSchema } from './schema.js';
import type { TokenServices } from './services.js';

function details(services: TokenServices, t: TokenRow): Omit<TokenDetailsOutput, 'serials'> {
  const schema = JSON.parse(t.schema) as TokenSchema;
  return {
    tokenId: t.tokenId,
    name: t.name,
    symbol: t.symbol,
    protocolId: t.protocol,
    supply: t.supply,
    circulatingSupply: t.supply - t.redeemed,
    decimals: t.decimals,
    satsPerToken: t.satsPerToken,
    splittable: t.splittable,
    redeemAddr: addressOfPkh(t.redemptionPkh),
    image: schema.image ?? '',
    description: schema.description ?? '',
    properties: schema.properties ?? {},
    contractTxid: t.contractTxid,
    issueTxid: t.issueTxid,
    issuedHere: t.issuerWalletRow !== null,
  };
}

/** How many transactions one serial is followed through on the chain, and how many questions to the chain one call asks in all. */
export const MAX_SERIAL_HOPS = 50;
export const MAX_DETAILS_HOPS = 500;
/** Without a spent-by answer from the provider: how many of the holder's transactions are read to find the spender. */
const MAX_HOLDER_TXS = 100;

interface Walk {
  left: number;
  txs: Map<string, Transaction | null>;
}

async function txOf(services: TokenServices, walk: Walk, txid: string): Promise<Transaction | null> {
  if (walk.txs.has(txid)) return walk.txs.get(txid)!;
  walk.left--;
  const hex = await services.chain.getTransactionHex(txid);
  const tx = hex ? Transaction.fromHex(hex) : null;
  walk.txs.set(txid, tx);
  return tx;
}

const spends = (tx: Transaction, at: { txid: string; vout: number }) =>
  tx.inputs.some((i) => i.sourceTXID === at.txid && i.sourceOutputIndex === at.vout);

/**
 * The transaction that spent an output, by the books when one of our wallets held it, else by the chain:
 * the provider's spent-by answer, or (a provider without one) the holder's transactions. Every answer must
 * be a transaction that really spends the output, or it is not taken.
 */
async function spenderOf(
  services: TokenServices,
  walk: Walk,
  at: { txid: string; vout: number },
  owner: string,
): Promise<Transaction | null> {
  const held = services.repos.tokens.utxo(at.txid, at.vout);
  let candidates: string[];
  if (held?.spentBy) candidates = [held.spentBy];
  else if (walk.left-- <= 0) return null;
  else if (services.chain.getSpentBy) {
    const s = await services.chain.getSpentBy(at.txid, at.vout);
    candidates = s ? [s] : [];
  } else {
    candidates = (await services.chain.getHistory(addressOfPkh(owner)))
      .slice(-MAX_HOLDER_TXS)
      .map((h) => h.txid)
      .filter((t) => t !== at.txid);
  }
  for (const txid of candidates) {
    if (walk.left <= 0) return null;
    const tx = await txOf(services, walk, txid);
    if (tx && spends(tx, at)) return tx;
  }
  return null;
}

/**
 * Follows an NFT serial from where the books last saw it, through the transactions that spent it, to the
 * output that holds it now (the spending transaction's output of the same token), or to the transaction that
 * redeemed it (one with no output of that token). Bounded by MAX_SERIAL_HOPS and the call's budget; what it
 * learns is kept in token_serials (and a redemption in token_redemptions, so the circulating supply drops).
 */
async function followSerial(services: TokenServices, walk: Walk, tokenId: string, s: TokenSerial): Promise<void> {
  if (s.redeemed || s.txid === null || s.vout === null) return;
  let at = { txid: s.txid, vout: s.vout };
  let owner: string | null = null;
  for (let hop = 0; hop < MAX_SERIAL_HOPS && walk.left > 0; hop++) {
    // One of our wallets holds it here: the books are right, nothing to follow.
    const held = services.repos.tokens.utxo(at.txid, at.vout);
    if (held && held.status !== 'spent') return;
    if (owner === null) {
      const here = await txOf(services, walk, at.txid);
      const r = here?.outputs[at.vout] ? services.tokenTemplates.recognise(here.outputs[at.vout].lockingScript.toHex()) : null;
      if (!r || tokenIdOf(r.token) !== tokenId) break;
      owner = r.token.owner;
    }
    const spender = await spenderOf(services, walk, at, owner);
    if (!spender) break;
    const spenderId = spender.id('hex');
    let next = -1;
    let nextOwner: string | null = null;
    spender.outputs.forEach((o, vout) => {
      const r = next === -1 ? services.tokenTemplates.recognise(o.lockingScript.toHex()) : null;
      if (r && tokenIdOf(r.token) === tokenId) {
        next = vout;
        nextOwner = r.token.owner;
      }
    });
    if (next === -1) {
      services.db.transaction(() => services.repos.tokens.recordRedemption(spenderId, tokenId, 1, s.sn))();
      return;
    }
    at = { txid: spenderId, vout: next };
    owner = nextOwner;
    services.repos.tokens.moveSerial(tokenId, s.sn, at.txid, at.vout);
  }
}

/** Of one token, the satoshis a transaction's outputs hold, and those its inputs spent (null if a parent cannot be read). */
async function tokenFlow(
  services: TokenServices,
  walk: Walk,
  tx: Transaction,
  tokenId: string,
): Promise<{ outs: { vout: number; owner: string }[]; out: number; in: number | null }> {
  const outs: { vout: number; owner: string }[] = [];
  let out = 0;
  tx.outputs.forEach((o, vout) => {
    const r = services.tokenTemplates.recognise(o.lockingScript.toHex());
    if (r && tokenIdOf(r.token) === tokenId) {
      outs.push({ vout, owner: r.token.owner });
      out += o.satoshis ?? 0;
    }
  });
  let spent = 0;
  for (const i of tx.inputs) {
    const parent = await txOf(services, walk, i.sourceTXID!);
    const o = parent?.outputs[i.sourceOutputIndex];
    if (!o) return { outs, out, in: null };
    const r = services.tokenTemplates.recognise(o.lockingScript.toHex());
    if (r && tokenIdOf(r.token) === tokenId) spent += o.satoshis ?? 0;
  }
  return { outs, out, in: spent };
}

/**
 * Follows a fungible token issued elsewhere from its issue through every transaction that spent its outputs,
 * to learn the redemptions made there (a transaction whose outputs of the token hold less than its inputs of
 * it destroyed the difference): the circulating supply is then the chain's, not only what our wallets saw.
 * Each redemption is kept in token_redemptions (once per transaction), so a later walk and the token list
 * start from them. Bounded by the walk's budget: what it cannot reach stays as the books last had it.
 */
async function followSupply(services: TokenServices, walk: Walk, t: TokenRow): Promise<void> {
  if (!t.issueTxid) return;
  const issue = await txOf(services, walk, t.issueTxid);
  if (!issue) return;
  const seen = new Set<string>([t.issueTxid]);
  const queue = (await tokenFlow(services, walk, issue, t.tokenId)).outs.map((o) => ({ txid: t.issueTxid!, ...o }));
  while (queue.length && walk.left > 0) {
    const at = queue.shift()!;
    const held = services.repos.tokens.utxo(at.txid, at.vout);
    if (held && held.status !== 'spent') continue;
    const spender = await spenderOf(services, walk, at, at.owner);
    if (!spender) continue;
    const spenderId = spender.id('hex');
    if (seen.has(spenderId)) continue;
    seen.add(spenderId);
    const flow = await tokenFlow(services, walk, spender, t.tokenId);
    if (flow.in !== null && flow.out < flow.in && t.satsPerToken > 0) {
      const tokens = Math.floor((flow.in - flow.out) / t.satsPerToken);
      if (tokens > 0) services.repos.tokens.recordRedemption(spenderId, t.tokenId, tokens, null);
    }
    queue.push(...flow.outs.map((o) => ({ txid: spenderId, ...o })));
  }
}

/** Whose circulating supply the chain is followed for: fungible tokens issued by another organisation. */
const followsSupply = (t: TokenRow) => t.issuerWalletRow === null && !NFT_PROTOCOL_IDS.includes(t.protocol);

/**
 * A token's details by its id (`<redemption key hash>-<SYMBOL>`, or the key hash alone when one token
 * has it); for an NFT, each serial's data (as issued, UTF-8), where it is now and whether it is redeemed:
 * serials that left the organisation are followed on the chain (followSerial).
 */
export async function tokenDetails(
  ctx: OpContext<TokenServices>,
  input: ParsedInputOf<typeof OPERATIONS.tokenDetails>,
): Promise<OutputOf<typeof OPERATIONS.tokenDetails>> {
  const { repos } = ctx.services;
  const id = input.id.replace(/^:/, '');
  let t = repos.tokens.get(id) ?? repos.tokens.get(id.replace(/-([a-z0-9]+)$/i, (_, s: string) => `-${s.toUpperCase()}`));
  if (!t) {
    const byKey = repos.tokens.all().filter((x) => x.redemptionPkh === id.toLowerCase());
    if (byKey.length === 1) t = byKey[0];
  }
  if (!t) throw new DomainError('NOT_FOUND', `No token ${id} is known here.`);
  if (followsSupply(t)) {
    try {
      await followSupply(ctx.services, { left: MAX_DETAILS_HOPS, txs: new Map() }, t);
    } catch (err) {
      ctx.services.logger.warn({ tokenId: t.tokenId, err: (err as Error).message }, 'following the supply on the chain failed');
    }
    t = repos.tokens.get(t.tokenId)!;
  }
  if (NFT_PROTOCOL_IDS.includes(t.protocol)) {
    const walk: Walk = { left: MAX_DETAILS_HOPS, txs: new Map() };
    try {
      for (const s of repos.tokens.serials(t.tokenId)) await followSerial(ctx.services, walk, t.tokenId, s);
    } catch (err) {
      // The chain not answering leaves the serials where the books last saw them.
      ctx.services.logger.warn({ tokenId: t.tokenId, err: (err as Error).message }, 'following NFT serials on the chain failed');
    }
    t = repos.tokens.get(t.tokenId)!;
  }
  const out: TokenDetailsOutput = details(ctx.services, t);
  if (NFT_PROTOCOL_IDS.includes(t.protocol)) {
    out.serials = repos.tokens.serials(t.tokenId).map((s) => ({
      sn: s.sn,
      // Kept as the text it was issued with (issue.ts; lineage.ts for tokens issued elsewhere).
      data: s.data,
      txid: s.txid,
      vout: s.vout,
      redeemed: s.redeemed,
    }));
  }
  return out;
}

/** The tokens the organisation issued or holds; the supply of those issued elsewhere followed on the chain (one shared budget). */
export async function listTokens(ctx: OpContext<TokenServices>): Promise<OutputOf<typeof OPERATIONS.listTokens>> {
  const { services } = ctx;
  const walk: Walk = { left: MAX_DETAILS_HOPS, txs: new Map() };
  for (const t of services.repos.tokens.all().filter(followsSupply)) {
    try {
      await followSupply(services, walk, t);
    } catch (err) {
      services.logger.warn({ tokenId: t.tokenId, err: (err as Error).message }, 'following the supply on the chain failed');
    }
  }
  return { tokens: services.repos.tokens.all().map((t) => details(services, t)) };
}
