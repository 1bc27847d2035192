import { randomBytes } from 'node:crypto';
import { DEFAULT_INVOICE_MINUTES } from '../../../shared/contracts/invoices.js';
import { DomainError } from '../../../shared/errors.js';
import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import { MAX_SATOSHIS, satoshisOfBsv, wholeOfDecimal } from '../../../shared/amount-schema.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import { callerOf, type OpContext } from '../context.js';
import { rateFor } from '../rates/rates.js';
import { resolveWallet } from '../wallets/resolve.js';
import { ownView } from './present.js';
import type { InvoiceServices } from './services.js';

type CreateInput = ParsedInputOf<typeof OPERATIONS.createInvoice>;

const SATOSHI_UNITS = new Set(['SAT', 'SATS', 'SATOSHI', 'SATOSHIS']);

/**
 * Most invoices open at once (unpaid, not cancelled, not past their expiry) that one user may have made, and
 * that may pay one wallet. Each open invoice's address is asked about at every scan of the books (the chain
 * provider's questions, shared by the whole organisation), and one past the gap limit costs a newly derived
 * address (SECURITY.md, limits).
 */
export const MAX_OPEN_INVOICES_PER_USER = 100;
export const MAX_OPEN_INVOICES_PER_WALLET = 200;

/** Refuses an invoice past the caps; run in the database transaction that inserts it, so none slips past. */
function checkOpenCaps(services: InvoiceServices, walletRow: number, uid: string, now: number): void {
  const { invoices } = services.repos;
  const hint = 'Cancel invoices no longer needed, or let them expire (give shorter expiries with expiresInMinutes).';
  if (invoices.openCount({ createdBy: uid }, now) >= MAX_OPEN_INVOICES_PER_USER)
    throw new DomainError('CONFLICT', `You have ${MAX_OPEN_INVOICES_PER_USER} open invoices, the most one user may have. ${hint}`, {
      limit: MAX_OPEN_INVOICES_PER_USER,
    });
  if (invoices.openCount({ walletRow }, now) >= MAX_OPEN_INVOICES_PER_WALLET)
    throw new DomainError(
      'CONFLICT',
      `This wallet has ${MAX_OPEN_INVOICES_PER_WALLET} open invoices, the most one wallet may have. ${hint}`,
      { limit: MAX_OPEN_INVOICES_PER_WALLET },
    );
}

/**
 * The wallet the invoice pays: the one `walletID` names (the caller's default without one), or the one
 * whose address or paymail the public service's `address` gives. Only a wallet the caller may use; an
 * address of anyone else's is refused in the same words as an unknown one.
 */
async function payeeWallet(ctx: OpContext<InvoiceServices>, input: CreateInput): Promise<WalletRow> {
  const { repos } = ctx.services;
  const { uid } = callerOf(ctx);
  let named: WalletRow | null = null;
  if (input.address) {
    const text = input.address.trim();
    const [alias, domain] = text.toLowerCase().split('@');
    const owner = domain === undefined ? repos.addresses.owner(text) : null;
    named = domain !== undefined ? repos.wallets.byPaymail(alias, domain) : owner ? repos.wallets.byRow(owner.walletRow) : null;
    if (!named || (named.ownerUid !== uid && !repos.wallets.members(named.id).includes(uid))) {
      throw new DomainError(
        'VALIDATION_FAILED',
        `address: ${text} is not an address or paymail of a wallet of yours here. An invoice is paid to one of your wallets (give walletID, or one of its addresses).`,
      );
    }
  }
  if (named && input.walletId === undefined) return named;
  const wallet = await resolveWallet(ctx, input.walletId);
  if (named && named.id !== wallet.id) throw new DomainError('VALIDATION_FAILED', 'address: belongs to another wallet than walletID.');
  return wallet;
}

/** The amount asked, in satoshis, fixed now: satoshis as given, BSV exactly, a currency at the current rate. */
async function price(
  ctx: OpContext<InvoiceServices>,
  input: CreateInput,
): Promise<{ satoshis: number; currency: { code: string; amount: string; rate: number } | null }> {
  if (input.satoshis !== undefined) {
    if (input.amount !== undefined) throw new DomainError('VALIDATION_FAILED', 'amount: give satoshis or amount, not both.');
    return { satoshis: input.satoshis, currency: null };
  }
  if (input.amount === undefined) {
    throw new DomainError(
      'VALIDATION_FAILED',
      'amount: is required (in BSV, or in a currency named by currency or type; or give satoshis).',
    );
  }
  const unit = (input.currency ?? input.type ?? 'BSV').trim().toUpperCase();
  if (unit === 'BSV') {
    const satoshis = satoshisOfBsv(input.amount);
    if (satoshis === null) throw new DomainError('VALIDATION_FAILED', 'amount: must be a BSV amount with at most 8 decimals.');
    return { satoshis, currency: null };
  }
  if (SATOSHI_UNITS.has(unit)) {
    const satoshis = wholeOfDecimal(input.amount);
    if (satoshis === null || satoshis > MAX_SATOSHIS)
      throw new DomainError('VALIDATION_FAILED', 'amount: must be a whole number of satoshis.');
    return { satoshis, currency: null };
  }
  const rate = await rateFor(ctx.services, unit);
  const satoshis = Math.round((Number(input.amount) * 1e8) / rate.rate);
  if (satoshis < 1)
    throw new DomainError('VALIDATION_FAILED', `amount: ${input.amount} ${rate.currency} is less than 1 satoshi at ${rate.rate}.`);
  if (satoshis > MAX_SATOSHIS) throw new DomainError('VALIDATION_FAILED', 'amount: is more than all the BSV there is.');
  return { satoshis, currency: { code: rate.currency, amount: input.amount, rate: rate.rate } };
}

export async function createInvoice(
  ctx: OpContext<InvoiceServices>,
  input: CreateInput,
): Promise<OutputOf<typeof OPERATIONS.createInvoice>> {
  const { services } = ctx;
  const wallet = await payeeWallet(ctx, input);
  const { satoshis, currency } = await price(ctx, input);
  const minutes = input.expiresInMinutes ?? input.setExpirationMinutes ?? input.expirationTimeInMinuts ?? DEFAULT_INVOICE_MINUTES;
  const now = services.now();
  const id = `inv_${randomBytes(16).toString('base64url')}`;
  const row = services.db.transaction(() => {
    checkOpenCaps(services, wallet.id, callerOf(ctx).uid, now);
    const address = services.addressBook.forInvoice(wallet);
    const invoice = {
      id,
      walletRow: wallet.id,
      createdBy: callerOf(ctx).uid,
      address,
      satoshis,
      currency: currency?.code ?? null,
      currencyAmount: currency?.amount ?? null,
      rate: currency?.rate ?? null,
      memo: input.memo ?? input.description ?? null,
      description: input.description ?? null,
      merchantData: input.merchantData ?? null,
      createdAt: now,
      expiresAt: now + minutes * 60_000,
    };
    services.repos.invoices.insert(invoice);
    return services.repos.invoices.byId(id)!;
  })();
  services.logger.info({ invoiceId: id, walletRow: wallet.id, satoshis }, 'invoice created');
  return ownView(row, wallet, now);
}
