import { DomainError } from '../../../shared/errors.js';
import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import type { InvoiceRow } from '../../store/repos/invoices.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import { callerOf, type Caller, type OpContext } from '../context.js';
import { RateLimit } from '../paymail/rate-limit.js';
import { resolveWallet } from '../wallets/resolve.js';
import { ownView, publicView, stateAt } from './present.js';
import type { InvoiceServices } from './services.js';

/** Reads by id without credentials, per client: enough for a payer's wallet to poll, too few to guess ids. */
export const PUBLIC_READS_PER_MINUTE = 120;
const PUBLIC_READ_BURST = 30;
const limits = new WeakMap<object, RateLimit>();

function limiter(services: InvoiceServices): RateLimit {
  let l = limits.get(services);
  if (!l) limits.set(services, (l = new RateLimit(PUBLIC_READS_PER_MINUTE, PUBLIC_READ_BURST, services.now)));
  return l;
}

const notFound = (id: string) => new DomainError('NOT_FOUND', `There is no invoice ${id}.`);

/**
 * Whether the caller may see an invoice: an admin, or someone who may use its wallet now. Having made it is
 * not enough: a member removed from a shared wallet no longer reads or cancels what they made for it.
 */
function maySee(services: InvoiceServices, caller: Caller, wallet: WalletRow): boolean {
  return caller.role === 'admin' || wallet.ownerUid === caller.uid || services.repos.wallets.members(wallet.id).includes(caller.uid);
}

/** An invoice the caller may see, with its wallet; NOT_FOUND otherwise (an id of another's says nothing more). */
export function visibleInvoice(ctx: OpContext<InvoiceServices>, id: string): { row: InvoiceRow; wallet: WalletRow } {
  const { repos } = ctx.services;
  const row = repos.invoices.byId(id);
  const wallet = row ? repos.wallets.byRow(row.walletRow) : null;
  if (!row || !wallet || !maySee(ctx.services, callerOf(ctx), wallet)) throw notFound(id);
  return { row, wallet };
}

export function paymentRequest(
  ctx: OpContext<InvoiceServices>,
  input: ParsedInputOf<typeof OPERATIONS.paymentRequest>,
): OutputOf<typeof OPERATIONS.paymentRequest> {
  const { services } = ctx;
  const limit = limiter(services);
  const key = ctx.meta.clientId;
  if (!limit.take(key)) {
    const retryAfter = limit.retryAfter(key);
    throw new DomainError('RATE_LIMITED', `Too many invoice reads; try again in ${retryAfter} s.`, { retryAfter });
  }
  const row = services.repos.invoices.byId(input.invoiceId);
  if (!row) throw notFound(input.invoiceId);
  return publicView(row, services.now());
}

export async function listInvoices(
  ctx: OpContext<InvoiceServices>,
  input: ParsedInputOf<typeof OPERATIONS.listInvoices>,
): Promise<OutputOf<typeof OPERATIONS.listInvoices>> {
  const { services } = ctx;
  const caller = callerOf(ctx);
  const { wallets } = services.repos;
  let walletRows: number[] | null;
  if (input.walletId !== undefined) walletRows = [(await resolveWallet(ctx, input.walletId)).id];
  else walletRows = caller.role === 'admin' ? null : wallets.visibleTo(caller.uid).map((w) => w.id);
  const now = services.now();
  // One more than a page, to know whether another follows.
  const rows = services.repos.invoices.list({
    walletRows,
    state: input.state,
    now,
    limit: input.maxResults + 1,
    offset: input.nextPageToken,
  });
  const page = rows.slice(0, input.maxResults);
  const byRow = new Map<number, WalletRow | null>();
  const walletOf = (row: number) => (byRow.has(row) ? byRow.get(row)! : byRow.set(row, wallets.byRow(row)).get(row)!);
  return {
    invoices: page.flatMap((r) => {
      const w = walletOf(r.walletRow);
      return w ? [ownView(r, w, now)] : [];
    }),
    meta: { nextPageToken: rows.length > input.maxResults ? input.nextPageToken + input.maxResults : null },
  };
}

export function cancelInvoice(
  ctx: OpContext<InvoiceServices>,
  input: ParsedInputOf<typeof OPERATIONS.cancelInvoice>,
): OutputOf<typeof OPERATIONS.cancelInvoice> {
  const { services } = ctx;
  const caller = callerOf(ctx);
  const { row, wallet } = visibleInvoice(ctx, input.invoiceId);
  if (caller.role !== 'admin' && row.createdBy !== caller.uid) {
    throw new DomainError('FORBIDDEN', 'Only the creator of an invoice, or an admin, may cancel it.');
  }
  const now = services.now();
  if (!services.repos.invoices.cancel(row.id, now)) {
    const state = stateAt(row, now);
    throw new DomainError(
      'CONFLICT',
      `This invoice is ${state}${row.paidTxid ? ` (txid ${row.paidTxid})` : ''}; only an open one can be cancelled.`,
    );
  }
  return ownView(services.repos.invoices.byId(row.id)!, wallet, now);
}
