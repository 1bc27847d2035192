import { csvFile } from '../../shared/csv.js';
import type { HistoryEntry } from '../../shared/operations.js';

/** The entries as CSV, one row per transaction, amounts in satoshis (text a spreadsheet would run is neutralised). */
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
  ];
  return csvFile(
    head,
    entries.map((e) => [e.time, e.txid, e.direction, e.amount, e.fee, e.feePaidBy, e.counterparty, e.memo, e.state, e.confirmations]),
  );
}
