import { DomainError } from '../../../shared/errors.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import type { OPERATIONS, TokenDetailsOutput } from '../../../shared/operations.js';
import { NFT_PROTOCOL_IDS } from '../../../shared/token-schemas.js';
import type { TokenRow } from '../../store/repos/tokens.js';
import type { OpContext } from '../context.js';
import { addressOfPkh } from './ledger.js';
import type { TokenSchema } from './schema.js';
import type { TokenServices } from './services.js';
import { hexUtf8 } from '../token-templates/script-bytes.js';

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

/**
 * A token's details by its id (`<redemption key hash>-<SYMBOL>`, or the key hash alone when one token
 * has it); for an NFT, each serial's data (as issued, UTF-8) and where it is now.
 */
export function tokenDetails(
  ctx: OpContext<TokenServices>,
  input: ParsedInputOf<typeof OPERATIONS.tokenDetails>,
): OutputOf<typeof OPERATIONS.tokenDetails> {
  const { repos } = ctx.services;
  const id = input.id.replace(/^:/, '');
  let t = repos.tokens.get(id) ?? repos.tokens.get(id.replace(/-([a-z0-9]+)$/i, (_, s: string) => `-${s.toUpperCase()}`));
  if (!t) {
    const byKey = repos.tokens.all().filter((x) => x.redemptionPkh === id.toLowerCase());
    if (byKey.length === 1) t = byKey[0];
  }
  if (!t) throw new DomainError('NOT_FOUND', `No token ${id} is known here.`);
  const out: TokenDetailsOutput = details(ctx.services, t);
  if (NFT_PROTOCOL_IDS.includes(t.protocol)) {
    out.serials = repos.tokens.serials(t.tokenId).map((s) => ({
      sn: s.sn,
      data: s.data.map((d) => (/^([0-9a-f]{2})*$/.test(d) ? hexUtf8(d) : d)),
      txid: s.txid,
      vout: s.vout,
      redeemed: s.redeemed,
    }));
  }
  return out;
}

export function listTokens(ctx: OpContext<TokenServices>): OutputOf<typeof OPERATIONS.listTokens> {
  return { tokens: ctx.services.repos.tokens.all().map((t) => details(ctx.services, t)) };
}
