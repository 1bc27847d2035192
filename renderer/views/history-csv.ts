import { csvFile } from '../../shared/csv.js';
import type { HistoryEntry } from '../../shared/operations.js';

/**
 * The entries as CSV, one row per transaction, amounts in satoshis (text a spreadsheet would run is neutralised);
 * a row that moved tokens says which (`token_id`, `token_symbol`) and how many (`token_amount`, negative when sent;
 * several tokens are separated by `;`).
 */
export function historyCsv(entries: readonly HistoryEntry[]): string {
  const head = [
    'time',
    'txid',
    'direction',
    'amount_satoshis',
    'fee_satoshis',
    'fee_paid_by',
    'counterparty',
    'memo',
    'state',
    'confirmations',
    'token_id',
    'token_symbol',
    'token_amount',
  ];
  const tokens = (e: HistoryEntry, pick: (m: HistoryEntry['tokens'][number]) => string | number) => (e.tokens ?? []).map(pick).join(';');
  const signed = (m: HistoryEntry['tokens'][number]) => (m.direction === 'out' ? -m.amount : m.amount);
  return csvFile(
    head,
    entries.map((e) => [
      e.time,
      e.txid,
      e.direction,
      e.amount,
      e.fee,
      e.feePaidBy,
      e.counterparty,
      e.memo,
      e.state,
      e.confirmations,
      tokens(e, (m) => m.id),
      tokens(e, (m) => m.symbol),
      // One token (the usual case): a number a spreadsheet sums; several: text.
      e.tokens?.length === 1 ? signed(e.tokens[0]) : tokens(e, signed),
    ]),
  );
}
