import { P2PKH, Transaction } from '@bsv/sdk';
import { DomainError } from '../../../shared/errors.js';
import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import { p2pkhAddressOf } from '../../chain/script.js';
import type { InvoiceRow } from '../../store/repos/invoices.js';
import type { OpContext } from '../context.js';
import { pay } from '../payments/pay.js';
import { resolveWallet } from '../wallets/resolve.js';
import { stateAt } from './present.js';
import type { InvoiceServices } from './services.js';

type PayInvoiceInput = ParsedInputOf<typeof OPERATIONS.payInvoice>;
type PayInvoiceOutput = OutputOf<typeof OPERATIONS.payInvoice>;
type PayInput = ParsedInputOf<typeof OPERATIONS.pay>;

/** Invoices being paid right now, per engine: a second payment of one while the first is under way is refused. */
const underWay = new WeakMap<object, Set<string>>();

function payable(row: InvoiceRow | null, id: string, now: number): InvoiceRow {
  if (!row) throw new DomainError('NOT_FOUND', `There is no invoice ${id}.`);
  const state = stateAt(row, now);
  if (state !== 'open') {
    throw new DomainError(
      'CONFLICT',
      `This invoice is ${state}${row.paidTxid ? ` (txid ${row.paidTxid})` : ''}; only an open one can be paid.`,
    );
  }
  return row;
}

/**
 * Pays an invoice. Anyone who holds its id may (as anyone may pay an address); the caller's own wallet
 * pays through the one pay operation (payments/pay.ts: reserve, sign, broadcast, follow the chain), or a
 * transaction the payer built (BIP-270) is checked to pay the invoice in full and broadcast. Either way
 * the invoice is marked paid with the txid; should the chain refuse the transaction, it opens again.
 */
export async function payInvoice(ctx: OpContext<InvoiceServices>, input: PayInvoiceInput): Promise<PayInvoiceOutput> {
  const { services } = ctx;
  const row = payable(services.repos.invoices.byId(input.invoiceId), input.invoiceId, services.now());
  let busy = underWay.get(services);
  if (!busy) underWay.set(services, (busy = new Set()));
  if (busy.has(row.id))
    throw new DomainError('CONFLICT', 'This invoice is being paid by another request; read it again to see the outcome.');
  busy.add(row.id);
  try {
    const paid = input.transaction ? await broadcastPayment(ctx, row, input.transaction) : await payFromWallet(ctx, row, input);
    const now = services.now();
    // A payer's own transaction pays the invoice once it is booked (a node took it); until then the scan books
    // it, and marks the invoice paid, when one does.
    if (paid.state !== 'failed' && (!input.transaction || paid.seenByChain)) services.repos.invoices.markPaid(row.id, paid.txid, now);
    const after = services.repos.invoices.byId(row.id)!;
    const memo = input.memo ?? null;
    return {
      invoiceId: row.id,
      state: stateAt(after, now),
      txid: paid.txid,
      walletID: paid.walletID,
      fee: paid.fee,
      feePaidBy: paid.feePaidBy,
      seenByChain: paid.seenByChain,
      payment: {
        transaction: input.transaction ?? null,
        memo,
        merchantData: input.merchantData ?? row.merchantData,
        refundTo: input.refundTo ?? null,
      },
      memo: row.memo,
    };
  } finally {
    busy.delete(row.id);
  }
}

interface Paid {
  txid: string;
  state: 'pending' | 'confirmed' | 'failed';
  walletID: string | null;
  fee: number | null;
  feePaidBy: 'wallet' | 'feeManager' | null;
  seenByChain: boolean;
}

async function payFromWallet(ctx: OpContext<InvoiceServices>, row: InvoiceRow, input: PayInvoiceInput): Promise<Paid> {
  const payer = await resolveWallet(ctx, input.walletId);
  if (payer.id === row.walletRow)
    throw new DomainError('VALIDATION_FAILED', 'walletID: an invoice cannot be paid from the wallet it pays.');
  const request: PayInput = {
    walletId: input.walletId,
    walletPassword: input.walletPassword,
    outputs: [{ script: new P2PKH().lock(row.address).toHex(), satoshis: row.satoshis }],
    memo: input.memo ?? row.memo,
    // History names the invoice's address as the counterparty.
    uri: row.address,
    idempotencyKey: input.idempotencyKey,
  };
  const r = await pay(ctx, request);
  return { txid: r.txid, state: r.state, walletID: r.walletID, fee: r.fee, feePaidBy: r.feePaidBy, seenByChain: r.seenByChain };
}

async function broadcastPayment(ctx: OpContext<InvoiceServices>, row: InvoiceRow, hex: string): Promise<Paid> {
  const { services } = ctx;
  let tx: Transaction | null = null;
  try {
    tx = Transaction.fromHex(hex);
  } catch {
    /* refused below */
  }
  // The parser is lenient: what it read must also be all that was sent, and spend and pay something.
  if (!tx || tx.toHex() !== hex || tx.inputs.length === 0 || tx.outputs.length === 0) {
    throw new DomainError('VALIDATION_FAILED', 'transaction: is not a transaction in hex.');
  }
  const pays = tx.outputs.reduce((s, o) => (p2pkhAddressOf(o.lockingScript.toHex()) === row.address ? s + (o.satoshis ?? 0) : s), 0);
  if (pays < row.satoshis) {
    throw new DomainError(
      'VALIDATION_FAILED',
      `transaction: pays ${pays} satoshis to the invoice's address ${row.address}; the invoice asks for ${row.satoshis}.`,
    );
  }
  const txid = tx.id('hex');
  const r = await services.chain.broadcast(hex);
  if (r.status === 'rejected') throw new DomainError('PAYMENT_REJECTED', `The chain refused the transaction (${r.reason}): ${r.message}`);
  if (r.status === 'unknown') {
    throw new DomainError('CHAIN_UNAVAILABLE', `The ${services.chain.network} provider did not confirm the broadcast: ${r.message}`);
  }
  // Booked now rather than at the next poll once a node took it (idempotent: the node's own announcement may
  // have done it); on ARC's "accepted" alone, by the scan once a node vouches for it.
  const booked = await services.sync.bookAccepted(tx, txid);
  return { txid, state: 'pending', walletID: null, fee: null, feePaidBy: null, seenByChain: booked };
}
