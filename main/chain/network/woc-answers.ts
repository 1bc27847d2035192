import { z } from 'zod';

/**
 * Strict readers of WhatsOnChain's and ARC's answers about coins, balances, histories and the tip. What a
 * provider answers is as hostile as any other input: a `value` that is a string broke the sums of a lookup,
 * a `tx_hash` that is not a txid went into later request paths, a fractional or negative amount or height
 * would enter the books. An answer that does not have the documented shape is refused whole (the caller
 * sees the provider as failing); nothing of it is used.
 */

/** Every satoshi there will ever be: no amount a provider states may exceed it. */
export const MAX_SATOSHIS = 2_100_000_000_000_000;
/** Far beyond any block height for centuries; a height past it is not one. */
const MAX_HEIGHT = 100_000_000;

const txid = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/)
  .transform((s) => s.toLowerCase());
const satoshis = z.number().int().min(0).max(MAX_SATOSHIS);
/** WhatsOnChain gives 0 (and on some routes -1) for a transaction no block holds yet. */
const height = z.number().int().min(-1).max(MAX_HEIGHT);

const utxos = z.array(z.object({ tx_hash: txid, tx_pos: z.number().int().min(0).max(0xffffffff), value: satoshis, height })).max(100_000);
const balance = z.object({
  confirmed: z.number().int().min(-MAX_SATOSHIS).max(MAX_SATOSHIS).optional(),
  unconfirmed: z.number().int().min(-MAX_SATOSHIS).max(MAX_SATOSHIS).optional(),
});
const history = z.array(z.object({ tx_hash: txid, height })).max(1_000_000);
const tip = z.object({ blocks: z.number().int().min(0).max(MAX_HEIGHT), bestblockhash: txid });
const arcStatus = z.object({
  txStatus: z.string().max(64).optional(),
  blockHeight: z.number().int().min(0).max(MAX_HEIGHT).nullish(),
  // ARC (and the embedded node's stand-in for it) answers "" for a transaction no block holds yet.
  blockHash: z
    .union([txid, z.literal('')])
    .nullish()
    .transform((h) => (h ? h : null)),
  merklePath: z
    .string()
    .regex(/^([0-9a-fA-F]{2})*$/)
    .max(1_000_000)
    .nullish()
    .transform((p) => (p ? p : null)),
});

/**
 * WhatsOnChain's TSC proof: `{index, txOrId, target, nodes}` (or a list of one), each node a 64-hex hash or
 * `*` (the node itself). At most 64 levels: no block holds 2^64 transactions. An empty list is no proof.
 */
const tscOne = z.object({
  index: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  nodes: z.array(z.union([z.literal('*'), txid])).max(64),
});
const tscProof = z.union([tscOne, z.array(tscOne).max(1)]).transform((p) => (Array.isArray(p) ? (p[0] ?? null) : p));

export type Read<T> = { ok: true; value: T } | { ok: false; reason: string };

function reader<S extends z.ZodType>(schema: S): (body: unknown) => Read<z.output<S>> {
  return (body) => {
    const r = schema.safeParse(body);
    if (r.success) return { ok: true, value: r.data };
    const issue = r.error.issues[0];
    return { ok: false, reason: `${issue.path.join('.') || 'the answer'}: ${issue.message}` };
  };
}

export const readUtxos = reader(utxos);
export const readBalance = reader(balance);
export const readHistory = reader(history);
export const readTip = reader(tip);
export const readArcStatus = reader(arcStatus);
export const readTscProof = reader(tscProof);
