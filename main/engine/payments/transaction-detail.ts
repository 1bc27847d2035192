import { Transaction } from '@bsv/sdk';
import { OPERATIONS } from '../../../shared/operations.js';
import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import { DomainError } from '../../../shared/errors.js';
import { p2pkhAddressOf } from '../../chain/script.js';
import type { OpContext } from '../context.js';
import { resolveWallet } from '../wallets/resolve.js';
import { historyEntryOf, tipHeight } from './history.js';
import type { PaymentServices } from './services.js';

type Detail = OutputOf<typeof OPERATIONS.transactionDetail>;

/** Inputs from outside the organisation whose amounts are looked up on the chain (each costs a fetch). */
const FOREIGN_INPUT_LOOKUPS = 20;

/**
 * One transaction of a wallet's history in full: the row, and the transaction's inputs and outputs, from
 * the books where they are ours and from the chain otherwise. A payment of ours is read from its signed
 * copy, so it shows even when the chain never took it.
 */
export async function transactionDetail(
  ctx: OpContext<PaymentServices>,
  input: ParsedInputOf<typeof OPERATIONS.transactionDetail>,
): Promise<Detail> {
  const wallet = await resolveWallet(ctx, input.walletId);
  const { repos, chain, tokenTemplates } = ctx.services;
  const row = repos.walletTxs.row(wallet.id, input.txid);
  if (!row) throw new DomainError('NOT_FOUND', `This wallet has no transaction ${input.txid}.`);
  const entry = historyEntryOf(row, await tipHeight(chain));
  const base = { ...entry, walletID: wallet.walletId };

  let hex = repos.payments.attemptFor(input.txid)?.raw ?? null;
  let unavailable: string | null = null;
  if (!hex) hex = await chain.getTransactionHex(input.txid).catch(() => null);
  if (!hex) unavailable = 'The chain provider does not have this transaction, or cannot be reached now.';
  if (!hex) return { ...base, size: null, inputs: null, outputs: null, unavailable };

  const tx = Transaction.fromHex(hex);
  const isThisWallet = (address: string | null) => address !== null && repos.addresses.owner(address)?.walletRow === wallet.id;
  let lookups = 0;
  const inputs: Detail['inputs'] = [];
  for (const i of tx.inputs) {
    const txid = i.sourceTXID ?? i.sourceTransaction?.id('hex') ?? '';
    const ours = repos.walletUtxos.get(txid, i.sourceOutputIndex);
    let satoshis = ours?.satoshis ?? null;
    let address = ours ? p2pkhAddressOf(ours.script) : null;
    if (!ours && lookups < FOREIGN_INPUT_LOOKUPS) {
      lookups++;
      const prev = await chain.getTransactionHex(txid).catch(() => null);
      const out = prev ? Transaction.fromHex(prev).outputs[i.sourceOutputIndex] : undefined;
      if (out) {
        satoshis = out.satoshis ?? null;
        address = tokenTemplates.holder(out.lockingScript.toHex());
      }
    }
    inputs.push({ txid, vout: i.sourceOutputIndex, satoshis, address, mine: ours?.walletRow === wallet.id });
  }
  const outputs: Detail['outputs'] = tx.outputs.map((o, vout) => {
    const script = o.lockingScript.toHex();
    const plain = p2pkhAddressOf(script);
    const holder = tokenTemplates.holder(script);
    const kind = plain ? 'p2pkh' : holder ? 'token' : /^(00)?6a/.test(script) ? 'data' : 'script';
    const owner = holder ? repos.addresses.owner(holder) : null;
    return {
      vout,
      kind,
      satoshis: o.satoshis ?? 0,
      address: holder,
      mine: isThisWallet(holder),
      change: owner?.walletRow === wallet.id && owner.chain === 1,
    };
  });
  return { ...base, size: hex.length / 2, inputs, outputs, unavailable };
}
