import { parseTransactionHex, type ParsedTransaction } from '../../chain/transaction-bytes.js';
import type { OrdinalServices } from './services.js';
import { parseOrdOutput } from '../../chain/ordinal-envelope.js';

/** Transactions fetched by one trace at most: an ordinal moved more often than this as plain sats shows as a plain coin. */
const MAX_STEPS = 50;

export interface TracedOrigin {
  txid: string;
  vout: number;
  contentType: string;
  size: number;
}

/**
 * The inscription a 1-satoshi output carries by ordinal theory (the nth satoshi in is the nth satoshi out),
 * though its own script is a plain P2PKH: walked back, one transaction at a time, to the output that carries
 * the satoshi with an `ord` envelope. None when the satoshi came from an output of more than one satoshi (by
 * 1Sat's origin rule an inscription lives on a lone satoshi) or the walk is too long. Remembered (table
 * `ordinal_origins`), including "none".
 */
export async function originOf(
  services: Pick<OrdinalServices, 'repos' | 'chain'>,
  txid: string,
  vout: number,
): Promise<TracedOrigin | null> {
  const { repos } = services;
  const known = repos.ordinals.origin(txid, vout);
  if (known !== undefined) return known === '' ? null : decode(known);
  const fetched = new Map<string, ParsedTransaction>();
  const get = async (id: string) => {
    let t = fetched.get(id);
    if (!t) {
      const hex = await services.chain.getTransactionHex(id);
      if (!hex) return null;
      t = parseTransactionHex(hex);
      if (t.txid !== id) return null;
      fetched.set(id, t);
    }
    return t;
  };
  let at = { txid, vout };
  let found: TracedOrigin | null = null;
  for (let step = 0; step < MAX_STEPS; step++) {
    const tx = await get(at.txid);
    const out = tx?.tx.outputs[at.vout];
    if (!tx || !out || out.satoshis !== 1) break;
    if (step > 0 || at.txid !== txid || at.vout !== vout) {
      const ins = parseOrdOutput(out.lockingScript.toHex(), { maxContentBytes: 0 }).inscription;
      if (ins) {
        found = { txid: at.txid, vout: at.vout, contentType: ins.contentType, size: ins.size };
        break;
      }
    }
    // The satoshi's position among the outputs, then the input that held that position.
    let offset = 0;
    for (let i = 0; i < at.vout; i++) offset += tx.tx.outputs[i].satoshis ?? 0;
    let covered = 0;
    let next: { txid: string; vout: number } | null = null;
    for (const input of tx.tx.inputs) {
      const parent = await get(input.sourceTXID!);
      const sats = parent?.tx.outputs[input.sourceOutputIndex]?.satoshis;
      if (sats === undefined) break;
      if (offset < covered + sats) {
        next = sats === 1 ? { txid: input.sourceTXID!, vout: input.sourceOutputIndex } : null;
        break;
      }
      covered += sats;
      if (fetched.size > MAX_STEPS) break;
    }
    if (!next) break;
    at = next;
  }
  repos.ordinals.putOrigin(txid, vout, found ? encode(found) : '');
  return found;
}

const encode = (o: TracedOrigin) => `${o.txid}_${o.vout}|${o.size}|${o.contentType}`;
function decode(s: string): TracedOrigin | null {
  const [outpoint, size, ...type] = s.split('|');
  if (!outpoint || outpoint.length < 66) return null;
  return { txid: outpoint.slice(0, 64), vout: Number(outpoint.slice(65)), size: Number(size), contentType: type.join('|') };
}
