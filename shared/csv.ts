/**
 * CSV for exports a person opens in a spreadsheet. Text cells may come from strangers (a payer's memo, a
 * sender's name): a cell a spreadsheet would read as a formula (OWASP's CSV-injection rule: it starts with
 * `=`, `+`, `-`, `@`, a tab or a carriage return) is prefixed with a single quote, so it shows as text and
 * never runs. Numbers are written as numbers: Keystead makes them, and a negative amount must stay one.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvCell = string | number | null;

/** One field: neutralised when it is text that would start a formula, quoted when it holds a comma, quote or line break. */
export function csvField(value: CsvCell): string {
  let text: string;
  if (value === null) text = '';
  else if (typeof value === 'number') text = Number.isFinite(value) ? String(value) : '';
  else text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole file: the header, then one line per row, CRLF line ends (RFC 4180). */
export function csvFile(head: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [head.map(csvField).join(','), ...rows.map((r) => r.map(csvField).join(','))].join('\r\n') + '\r\n';
}
