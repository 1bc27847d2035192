/**
 * The token protocols Keystead knows, each once, with what kind of token it makes: Keystead's own open
 * template (KST), and the STAS family, whose templates are licensed, so the organisation installs them.
 * The schemas' enums, the engine's template registry, the lookup types and the UI's choices all come from here.
 */
export const TOKEN_PROTOCOLS = {
  'KST-20': { licensed: false, nft: false },
  'KST-789': { licensed: false, nft: true },
  STAS: { licensed: true, nft: false },
  'STAS-20': { licensed: true, nft: false },
  'STAS-789': { licensed: true, nft: true },
} as const satisfies Record<string, { licensed: boolean; nft: boolean }>;

type Facts = typeof TOKEN_PROTOCOLS;
export type TokenProtocol = keyof Facts;
/** The licensed protocols: a template must be installed before their tokens can be issued or moved. */
export type StasProtocol = { [P in TokenProtocol]: Facts[P]['licensed'] extends true ? P : never }[TokenProtocol];

/** Object keys keep their insertion order (none of these is an integer), so this is the order above. */
export const TOKEN_PROTOCOL_IDS: readonly TokenProtocol[] = Object.keys(TOKEN_PROTOCOLS) as TokenProtocol[];

export const isTokenProtocol = (value: unknown): value is TokenProtocol =>
  typeof value === 'string' && Object.hasOwn(TOKEN_PROTOCOLS, value);
export const isStasProtocol = (value: unknown): value is StasProtocol => isTokenProtocol(value) && TOKEN_PROTOCOLS[value].licensed;
/** Whether a protocol's tokens are NFTs: one token per output, with per-token data. */
export const isNftProtocol = (value: unknown): boolean => isTokenProtocol(value) && TOKEN_PROTOCOLS[value].nft;

export const STAS_PROTOCOL_IDS: readonly StasProtocol[] = TOKEN_PROTOCOL_IDS.filter(isStasProtocol);
/** The NFT protocols, as strings: callers ask about protocols read from the database or the wire. */
export const NFT_PROTOCOL_IDS: readonly string[] = TOKEN_PROTOCOL_IDS.filter(isNftProtocol);
