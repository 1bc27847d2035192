import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import type { OpContext } from '../context.js';
import { resolveWallet } from '../wallets/resolve.js';
import type { UtilityServices } from './services.js';

type Output = OutputOf<typeof OPERATIONS.walletMetrics>;
type Period = Output['period'];
type Bucket = Output['periods'][number];

/** What metrics read of a history row. */
export interface MetricsRow {
  direction: 'in' | 'out' | 'self';
  /** Net change of the balance, satoshis (negative when paying). */
  amount: number;
  fee: number | null;
  feePaidBy: 'wallet' | 'feeManager' | null;
  state: 'unseen' | 'seen' | 'failed';
  /** When it was booked, ms since the epoch. */
  time: number;
}

/** The UTC start of the period holding `t`: the day, the week (from Monday) or the month. */
export function periodStart(t: number, period: Period): number {
  const d = new Date(t);
  if (period === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (period === 'day') return day;
  return day - ((d.getUTCDay() + 6) % 7) * 86_400_000;
}

/** The start of the period before the one starting at `start`. */
function previousStart(start: number, period: Period): number {
  if (period === 'day') return start - 86_400_000;
  if (period === 'week') return start - 7 * 86_400_000;
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1);
}

const empty = (start: number): Bucket => ({
  start: new Date(start).toISOString(),
  received: { count: 0, satoshis: 0 },
  sent: { count: 0, satoshis: 0 },
  fees: 0,
  net: 0,
});

/**
 * Counts and volumes per period, newest first, the last `count` periods up to `now` (empty ones included):
 * what came in (`in`), what went out (`out`; a payment to oneself counts only its fee), the fees this wallet
 * paid, the net change. Failed transactions never happened; pending ones count.
 */
export function bucketMetrics(
  rows: readonly MetricsRow[],
  period: Period,
  count: number,
  now: number,
): { periods: Bucket[]; totals: Output['totals'] } {
  const periods: Bucket[] = [];
  const byStart = new Map<number, Bucket>();
  for (let s = periodStart(now, period), i = 0; i < count; i++, s = previousStart(s, period)) {
    const b = empty(s);
    periods.push(b);
    byStart.set(s, b);
  }
  const totals = { ...empty(0), transactions: 0 };
  for (const r of rows) {
    if (r.state === 'failed') continue;
    const fee = r.feePaidBy === 'wallet' ? (r.fee ?? 0) : 0;
    for (const b of [byStart.get(periodStart(r.time, period)), totals]) {
      if (!b) continue;
      if (r.direction === 'in') {
        b.received.count++;
        b.received.satoshis += r.amount;
      } else {
        b.sent.count++;
        b.sent.satoshis += Math.max(0, -r.amount - fee);
      }
      b.fees += fee;
      b.net += r.amount;
    }
    totals.transactions++;
  }
  const { start: _start, ...rest } = totals;
  return { periods, totals: rest };
}

/** Rows read at most (newest first): a wallet with more has its metrics from these. */
const MAX_ROWS = 100_000;

/** GET /v1/metrics: the balance and unspent outputs (the public service's `data`), and Keystead's counts and volumes per period. */
export async function walletMetrics(
  ctx: OpContext<UtilityServices>,
  input: ParsedInputOf<typeof OPERATIONS.walletMetrics>,
): Promise<Output> {
  const wallet = await resolveWallet(ctx, input.walletId);
  const { repos } = ctx.services;
  const rows: MetricsRow[] = [];
  for (let offset = 0; offset < MAX_ROWS; offset += 1000) {
    const page = repos.walletTxs.page(wallet.id, 1000, offset);
    rows.push(...page);
    if (page.length < 1000) break;
  }
  const utxos = repos.walletUtxos.unspent(wallet.id);
  const b = repos.walletUtxos.balance(wallet.id);
  return {
    walletID: wallet.walletId,
    data: {
      balance: b.confirmed + b.unconfirmed,
      userUtxos: utxos.map((u) => ({
        walletId: wallet.walletId,
        script: u.script,
        tx_pos: u.vout,
        address: u.address,
        path: u.chain !== null && u.idx !== null ? `m/${u.chain}/${u.idx}` : null,
        tx_hash: u.txid,
        value: u.satoshis,
        height: u.height,
      })),
    },
    period: input.period,
    ...bucketMetrics(rows, input.period, input.periods, ctx.services.now()),
  };
}
