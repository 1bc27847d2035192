import { P2PKH } from '@bsv/sdk';
import type { z } from 'zod';
import { amountText } from '../../../shared/amounts.js';
import type { invoiceOutput, invoiceState, publicInvoice } from '../../../shared/contracts/invoices.js';
import type { InvoiceRow } from '../../store/repos/invoices.js';
import type { WalletRow } from '../../store/repos/wallets.js';

type State = z.infer<typeof invoiceState>;

/** The state as it stands at `now`: an open invoice past its expiry is expired (nothing needs to sweep it). */
export function stateAt(row: InvoiceRow, now: number): State {
  return row.state === 'open' && now > row.expiresAt ? 'expired' : row.state;
}

/**
 * The payment URI: BIP-21 with the `sv` flag, the amount in BSV and the memo as its label, which Keystead's
 * own URI reader (payments/uri.ts) and other BSV wallets read.
 */
export function invoiceUri(row: Pick<InvoiceRow, 'address' | 'satoshis' | 'memo'>): string {
  const label = row.memo ? `&label=${encodeURIComponent(row.memo)}` : '';
  return `bitcoin:${row.address}?sv&amount=${amountText(row.satoshis, 'BSV')}${label}`;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** What anyone holding the id may see: nothing of the wallet behind it. */
export function publicView(row: InvoiceRow, now: number): z.infer<typeof publicInvoice> {
  return {
    invoiceId: row.id,
    state: stateAt(row, now),
    address: row.address,
    satoshis: row.satoshis,
    amount: Number(amountText(row.satoshis, 'BSV')),
    currency:
      row.currency !== null && row.currencyAmount !== null && row.rate !== null
        ? { code: row.currency, amount: row.currencyAmount, rate: row.rate }
        : null,
    memo: row.memo,
    description: row.description,
    merchantData: row.merchantData,
    uri: invoiceUri(row),
    createdAt: iso(row.createdAt)!,
    expiresAt: iso(row.expiresAt)!,
    paidTxid: row.paidTxid,
    paidAt: iso(row.paidAt),
    network: 'bitcoin-sv',
    outputs: [{ amount: row.satoshis, script: new P2PKH().lock(row.address).toHex() }],
    creationTimestamp: Math.floor(row.createdAt / 1000),
    expirationTimestamp: Math.floor(row.expiresAt / 1000),
  };
}

/** What the organisation's users see: also the wallet and who made it. */
export function ownView(row: InvoiceRow, wallet: Pick<WalletRow, 'walletId' | 'title'>, now: number): z.infer<typeof invoiceOutput> {
  return { ...publicView(row, now), walletID: wallet.walletId, walletTitle: wallet.title, createdBy: row.createdBy };
}
