import { Transaction } from '@bsv/sdk';
import type { z } from 'zod';
import { DomainError } from '../../../shared/errors.js';
import type { decodedTransaction, tokenInfo } from '../../../shared/contracts/utilities.js';
import { p2pkhAddressOf } from '../../chain/script.js';
import { dataPushesOf, printable } from './data-script.js';

export type DecodedTransaction = z.infer<typeof decodedTransaction>;
export type TokenInfo = z.infer<typeof tokenInfo>;
type DecodedOutput = DecodedTransaction['outputs'][number];

/** What decoding asks of the organisation and the chain; each answer may be "not known". */
export interface DecodeLookups {
  /** The token an output's script carries (the templates' reading, with what the books know of it), or null. */
  token(script: string, satoshis: number, outpoint: { txid: string; vout: number } | null): TokenInfo | null;
  /** The output an input spends (satoshis and locking script), or null when neither the books nor the chain have it. */
  previous(txid: string, vout: number): Promise<{ satoshis: number; script: string } | null>;
}

/** One output, read: its kind, address, the token it carries, the pushes of a data output. */
export function decodeOutput(
  script: string,
  satoshis: number,
  outpoint: { txid: string; vout: number } | null,
  lookups: Pick<DecodeLookups, 'token'>,
): Omit<DecodedOutput, 'vout'> {
  const address = p2pkhAddressOf(script);
  const token = address ? null : lookups.token(script, satoshis, outpoint);
  const data = address || token ? null : dataPushesOf(script);
  const texts = data?.map(printable) ?? null;
  return {
    satoshis,
    script,
    kind: address ? 'p2pkh' : token ? 'token' : data ? 'data' : 'script',
    address: address ?? token?.address ?? null,
    token,
    data,
    text: texts && texts.every((t) => t !== null) ? (texts as string[]) : null,
  };
}

/**
 * Decodes a raw transaction: its inputs (with the outputs they spend when the books or the chain know them),
 * its outputs with addresses, amounts and tokens, and the fee when every input's value is known.
 */
export async function decodeTransaction(hex: string, lookups: DecodeLookups): Promise<DecodedTransaction> {
  let tx: Transaction;
  try {
    tx = Transaction.fromHex(hex);
  } catch (err) {
    throw new DomainError('VALIDATION_FAILED', `Not a transaction: ${(err as Error).message}`);
  }
  // The reader is lenient (it reads past the end as zeros): what it read must be exactly what was sent.
  if (tx.toHex() !== hex.toLowerCase() || !tx.inputs.length || !tx.outputs.length)
    throw new DomainError('VALIDATION_FAILED', 'Not a transaction: the hex does not read as one transaction with inputs and outputs.');
  const txid = tx.id('hex');
  const inputs: DecodedTransaction['inputs'] = [];
  for (const i of tx.inputs) {
    const prevTxid = i.sourceTXID ?? i.sourceTransaction?.id('hex') ?? '';
    const prev = await lookups.previous(prevTxid, i.sourceOutputIndex);
    inputs.push({
      txid: prevTxid,
      vout: i.sourceOutputIndex,
      sequence: i.sequence ?? 0xffffffff,
      previous: prev ? decodeOutput(prev.script, prev.satoshis, { txid: prevTxid, vout: i.sourceOutputIndex }, lookups) : null,
    });
  }
  const outputs = tx.outputs.map((o, vout) => ({
    vout,
    ...decodeOutput(o.lockingScript.toHex(), o.satoshis ?? 0, { txid, vout }, lookups),
  }));
  const totalOut = outputs.reduce((s, o) => s + o.satoshis, 0);
  const totalIn = inputs.every((i) => i.previous) ? inputs.reduce((s, i) => s + (i.previous?.satoshis ?? 0), 0) : null;
  return {
    txid,
    size: hex.length / 2,
    version: tx.version,
    lockTime: tx.lockTime,
    inputs,
    outputs,
    totalIn,
    totalOut,
    fee: totalIn === null ? null : totalIn - totalOut,
  };
}
