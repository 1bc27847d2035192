import { Transaction, Utils } from '@bsv/sdk';
import type { ChainProvider } from '../../chain/types.js';
import type { TemplateRegistry } from '../token-templates/registry.js';
import type { TokenScript } from '../token-templates/template.js';

/** How many of an address's transactions (newest first) are read for token outputs in one lookup. */
export const MAX_ADDRESS_TXS = 300;
/** The most token outputs one lookup lists (the rest are left out, and the answer says so in the log). */
export const MAX_ADDRESS_TOKEN_OUTPUTS = 1_000;
/** A transaction larger than this (hex characters) is not read for tokens: no token transaction is that large. */
const MAX_TX_HEX = 2 * 1024 * 1024;
/** How many spent-by questions one lookup asks a provider that answers them. */
const MAX_SPENT_CHECKS = 200;

export interface ChainTokenOutput {
  txid: string;
  vout: number;
  satoshis: number;
  script: string;
  height: number | null;
  token: TokenScript;
  protocol: string;
}

/**
 * The unspent token outputs an address holds, read from the chain rather than from the books, so a key no
 * wallet of ours holds is seen too: from a provider that indexes them (getHeldScripts), else from the
 * address's history. Every answer is treated as hostile: the address's transactions are read
 * newest first and at most MAX_ADDRESS_TXS of them, each checked to be the transaction asked for (the
 * providers do) and of bounded size; an output counts only when a template recognises it and its owner is
 * this address's key hash; it is unspent when no transaction read spends it and, where the provider answers
 * spent-by questions, the provider knows of no spender.
 */
export async function tokenOutputsAt(chain: ChainProvider, templates: TemplateRegistry, address: string): Promise<ChainTokenOutput[]> {
  const pkh = Utils.toHex(Utils.fromBase58Check(address).data as number[]);
  if (chain.getHeldScripts) {
    // The provider indexes them (the embedded node): its unspent outputs held by this address, recognised here.
    return (await chain.getHeldScripts(address, MAX_ADDRESS_TOKEN_OUTPUTS)).flatMap((u) => {
      const r = templates.recognise(u.script);
      return r && r.token.owner === pkh ? [{ ...u, token: r.token, protocol: r.template.protocol }] : [];
    });
  }
  const history = (await chain.getHistory(address)).slice(-MAX_ADDRESS_TXS);
  const heights = new Map(history.map((h) => [h.txid, h.height]));
  // The provider's list of unspent outputs is read too (a network service may list token outputs there that
  // its address history lacks).
  const listed = await chain.getUtxos(address).catch(() => []);
  const txids = [...new Set([...history.map((h) => h.txid).reverse(), ...listed.map((u) => u.txid)])]
    .filter((t) => /^[0-9a-f]{64}$/.test(t))
    .slice(0, MAX_ADDRESS_TXS + 50);
  for (const u of listed) if (!heights.has(u.txid)) heights.set(u.txid, u.height);
  const found: ChainTokenOutput[] = [];
  const spent = new Set<string>();
  for (const txid of txids) {
    const hex = await chain.getTransactionHex(txid);
    if (!hex || hex.length > MAX_TX_HEX) continue;
    let tx: Transaction;
    try {
      tx = Transaction.fromHex(hex);
    } catch {
      continue;
    }
    for (const input of tx.inputs) if (input.sourceTXID) spent.add(`${input.sourceTXID}:${input.sourceOutputIndex}`);
    tx.outputs.forEach((o, vout) => {
      if (found.length >= MAX_ADDRESS_TOKEN_OUTPUTS) return;
      const script = o.lockingScript.toHex();
      const r = templates.recognise(script);
      if (!r || r.token.owner !== pkh) return;
      const height = heights.get(txid) ?? null;
      found.push({ txid, vout, satoshis: o.satoshis ?? 0, script, height, token: r.token, protocol: r.template.protocol });
    });
  }
  const unspent = found.filter((o) => !spent.has(`${o.txid}:${o.vout}`));
  if (!chain.getSpentBy) return unspent;
  const kept: ChainTokenOutput[] = [];
  for (const [i, o] of unspent.entries()) {
    if (i >= MAX_SPENT_CHECKS) {
      kept.push(o);
      continue;
    }
    if ((await chain.getSpentBy(o.txid, o.vout)) === null) kept.push(o);
  }
  return kept;
}
