/**
 * Text a counterparty wrote (a payer's note or sender name, a paymail host's error message, an app's
 * description) is shown in history, in the CLI's terminal output and in logs. Before it is stored or
 * printed it is made one inert line (SECURITY.md, "Counterparty text"): no line breaks that would forge
 * another line, no terminal escape sequences, no bidi overrides that reorder what is shown.
 */

/** Whitespace controls and line/paragraph separators: each becomes one space, so words stay apart. */
const SPACING = /[\t\n\v\f\r\u0085\u2028\u2029]/g;

/**
 * Every other C0 control (NUL, ESC, …), DEL, the C1 controls (U+0080–U+009F, among them CSI and OSC), and
 * the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): removed.
 */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** A surrogate without its pair (not text; a terminal shows it as garbage): replaced by U+FFFD. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * `s` as one printable line of at most `maxLength` UTF-16 units (a surrogate pair is never cut in half):
 * spacing controls become spaces, other controls and bidi overrides are removed, the ends are trimmed.
 * Text without any of these, within the length, is returned unchanged.
 */
export function cleanRemoteText(s: string, maxLength: number): string {
  let text = s.replace(SPACING, ' ').replace(CONTROLS, '').replace(LONE_SURROGATE, '\ufffd').trim();
  if (text.length > maxLength) {
    text = text.slice(0, maxLength);
    if (/[\ud800-\udbff]$/.test(text)) text = text.slice(0, -1);
    text = text.trimEnd();
  }
  return text;
}

/** Whether `s` holds a line break, a control character or a bidi override: not one inert line of text. */
export function isOneInertLine(s: string): boolean {
  return !/[\t\n\v\f\r\u0085\u2028\u2029]/.test(s) && !new RegExp(CONTROLS.source).test(s);
}

/** A transaction id as Keystead keeps one: 64 hex digits, lower case; anything else is not one (null). */
export function txidOf(s: unknown): string | null {
  return typeof s === 'string' && s.length === 64 && /^[0-9a-f]{64}$/i.test(s) ? s.toLowerCase() : null;
}
