import type { TokenRow } from '../../store/repos/tokens.js';
import { dataPush, hexUtf8, readPushes, utf8Hex } from '../token-templates/script-bytes.js';

/**
 * The token schema written in the contract transaction (the STAS family's JSON): name, protocolId, symbol,
 * description, image, totalSupply, decimals, satsPerToken, properties {legal, issuer, meta}, and tokenId
 * (the issuer's key hash, as the STAS SDKs set it).
 */
export interface TokenSchema {
  name: string;
  protocolId: string;
  symbol: string;
  description: string;
  image: string;
  totalSupply: number;
  decimals: number;
  satsPerToken: number;
  properties: Record<string, unknown>;
  tokenId: string;
}

/** The contract output: the issuer's P2PKH, OP_RETURN, the schema. Only the issuer's key can spend it, into the issue. */
export function contractScript(issuerPkh: string, schema: TokenSchema): string {
  return `76a914${issuerPkh}88ac6a${dataPush(utf8Hex(JSON.stringify(schema)))}`;
}

/** Reads the schema from a contract output of `issuerPkh`; null when the script is not one. */
export function readTokenSchema(script: string, issuerPkh: string): TokenSchema | null {
  const prefix = `76a914${issuerPkh}88ac6a`;
  if (!script.startsWith(prefix)) return null;
  const pushes = readPushes(script, prefix.length / 2);
  if (!pushes || pushes.length !== 1) return null;
  try {
    const s = JSON.parse(hexUtf8(pushes[0])) as Partial<TokenSchema>;
    if (typeof s.symbol !== 'string' || typeof s.satsPerToken !== 'number' || !Number.isSafeInteger(s.satsPerToken) || s.satsPerToken < 1)
      return null;
    return {
      name: typeof s.name === 'string' ? s.name : s.symbol,
      protocolId: typeof s.protocolId === 'string' ? s.protocolId : '',
      symbol: s.symbol,
      description: typeof s.description === 'string' ? s.description : '',
      image: typeof s.image === 'string' ? s.image : '',
      totalSupply: typeof s.totalSupply === 'number' && Number.isSafeInteger(s.totalSupply) ? s.totalSupply : 0,
      decimals: typeof s.decimals === 'number' && Number.isInteger(s.decimals) ? s.decimals : 0,
      satsPerToken: s.satsPerToken,
      properties: s.properties && typeof s.properties === 'object' ? (s.properties as Record<string, unknown>) : {},
      tokenId: typeof s.tokenId === 'string' ? s.tokenId : issuerPkh,
    };
  } catch {
    return null;
  }
}

/** The books' row for a token known from its schema (one received: no issuer wallet of ours). */
export function tokenRowFromSchema(
  schema: TokenSchema,
  t: Pick<TokenRow, 'tokenId' | 'protocol' | 'redemptionPkh' | 'contractTxid' | 'issueTxid' | 'createdAt'>,
): Omit<TokenRow, 'redeemed'> {
  return {
    ...t,
    symbol: schema.symbol,
    name: schema.name,
    schema: JSON.stringify(schema),
    supply: schema.totalSupply,
    satsPerToken: schema.satsPerToken,
    decimals: schema.decimals,
    splittable: t.protocol === 'KST-20' || t.protocol === 'STAS-20' || t.protocol === 'STAS',
    issuerWalletRow: null,
    issuerChain: null,
    issuerIdx: null,
  };
}
