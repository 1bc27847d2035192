import { ApiError } from '../api/client.js';

/**
 * The words a form labels an API field with, for a message naming a field the form does not show on its own
 * (its problem is then said in the form's alert, or in a notification). The API's messages name fields as
 * the API spells them ("walletTitle: is required"); people read the label ("Wallet title: is required.").
 * A form passes its own labels to `useSubmit`/`messageOf` where they differ from these.
 */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  email: 'E-mail',
  password: 'Password',
  currentPassword: 'Current password',
  newPassword: 'New password',
  otp: 'Code',
  organisation: 'Organisation',
  firstName: 'First name',
  lastName: 'Last name',
  title: 'Title',
  role: 'Role',
  userId: 'User',
  walletTitle: 'Wallet title',
  walletId: 'Wallet',
  walletID: 'Wallet',
  walletPassword: 'Wallet password',
  walletLogo: 'Logo URL',
  type: 'Type',
  members: 'Members',
  paymail: 'Paymail alias',
  newPaymailId: 'Paymail alias',
  activate: 'Active',
  mnemonicPhrase: 'Recovery phrase',
  derivationPath: 'Derivation path',
  gapLimit: 'Unused addresses to look past',
  rootKey: 'Root private key',
  amount: 'Amount',
  satoshis: 'Amount',
  currency: 'Currency',
  memo: 'Memo',
  destination: 'Destination',
  to: 'To',
  address: 'Address',
  uri: 'Payment request',
  outputs: 'Outputs',
  script: 'Script',
  approvalId: 'Approval',
  reason: 'Reason',
  expiryHours: 'Expiry (hours)',
  coolingOffHours: 'Cooling-off period (hours)',
  name: 'Name',
  label: 'Label',
  originator: 'App',
  protocol: 'Protocol',
  basket: 'Basket',
  limit: 'Limit',
  fileUrl: 'File URL',
  txid: 'Transaction id',
  sourceCode: 'Source code',
  swapHex: 'Offer',
  tokenSupply: 'Supply',
  satsPerToken: 'Satoshis per token',
  sym: 'Symbol',
  amt: 'Amount',
  dec: 'Decimals',
  icon: 'Icon',
  document: 'Policy',
};

/** Path parts that only say where in the request a field travelled (REST routes): never shown. */
const REQUEST_PARTS = new Set(['body', 'query', 'params', 'headers']);

/** Path names that mean "the whole request" or "the item itself": the message needs no label. */
const NO_LABEL = new Set(['input', 'id']);

/** "walletTitle" → "Wallet title", "sourceCode" → "Source code", "feeRateID" → "Fee rate". */
function humanise(name: string): string {
  const words = name
    .replace(/I[Dd]$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? `${words[0].toUpperCase()}${words.slice(1)}` : name;
}

const labelOf = (name: string, labels: Readonly<Record<string, string>>) => labels[name] ?? FIELD_LABELS[name] ?? humanise(name);

/**
 * A field path as people read it: "body.password" → "Password", "outputs.0.satoshis" → "Amount of output 1",
 * "limit.currency" → "Currency" (the form's label for the whole path wins when it has one).
 */
function pathLabel(path: string, labels: Readonly<Record<string, string>>): string | null {
  const parts = path.split('.');
  while (parts.length > 1 && REQUEST_PARTS.has(parts[0])) parts.shift();
  const whole = parts.join('.');
  if (labels[whole]) return labels[whole];
  const named = parts.filter((p) => !/^\d+$/.test(p));
  const last = named[named.length - 1];
  if (!last || NO_LABEL.has(last)) return null;
  const label = labelOf(last, labels);
  const index = parts.findIndex((p) => /^\d+$/.test(p));
  if (index <= 0) return label;
  const owner = labelOf(parts[index - 1], labels)
    .replace(/s$/, '')
    .toLowerCase();
  return `${label} of ${owner} ${Number(parts[index]) + 1}`;
}

/** Ends with a full stop (unless it already ends a sentence). */
const stop = (s: string) => (/[.!?]["”’)]?$/.test(s) ? s : `${s}.`);

/** A sentence of its own: capitalised, with a full stop. */
const sentence = (t: string) => {
  const s = t.trim();
  return s ? stop(`${s[0].toUpperCase()}${s.slice(1)}`) : s;
};

/** One part of a validation message: "walletTitle: is required", as the API writes them (a field path, then its problem). */
const FIELD_PART = /^([a-z][\w]*(?:\.[\w]+)*): (.+)$/s;

/**
 * A message for people: each "field: problem" part the API wrote becomes "Label: problem." with the field's
 * label; anything else is kept as the API said it. The API's own messages are never changed (scripts and
 * the CLI read them); only what the renderer shows is.
 */
export function humaniseMessage(message: string, labels: Readonly<Record<string, string>> = {}): string {
  // Two checks of one field can fail with the same words (a password too short, and so not long enough): said once.
  const parts = [...new Set(message.split('; '))];
  if (!parts.some((p) => FIELD_PART.test(p))) return message;
  return parts
    .map((part) => {
      const m = FIELD_PART.exec(part);
      if (!m) return sentence(part);
      const label = pathLabel(m[1], labels);
      return label ? `${label}: ${stop(m[2].trim())}` : sentence(m[2]);
    })
    .join(' ');
}

/** The sentence to show for a failed call: the API's own message, its field names put as the form labels them. */
export function messageOf(err: unknown, labels: Readonly<Record<string, string>> = {}): string {
  if (err instanceof ApiError) return humaniseMessage(err.message, labels);
  if (err instanceof LocalCheck) return err.message;
  return 'Something went wrong. Try again.';
}

/**
 * A check the form makes before calling the API (e.g. two passwords differ); its message is shown as is.
 * With a `field` of the form (an amount the field itself rejects), it is said under that field only.
 */
export class LocalCheck extends Error {
  constructor(message: string, options?: ErrorOptions & { field?: string }) {
    super(message, options);
    this.field = options?.field;
  }
  readonly field?: string;
}

/** A problem with the form of a value ("is not a valid e-mail address"): of an empty field, it means the field is required. */
const NOT_VALID = /^(is )?not a valid\b/i;

/** The input fields a form shows: a validation error naming one of them is shown under it. */
export interface SplitErrors {
  /** Per field, its problem as a sentence ("Is required."), without the API's `field:` prefix. */
  fields: Record<string, string>;
  /** What names no field of the form, as one message in words (null: nothing). */
  rest: string | null;
}

/**
 * Splits a failed call's message into the fields it names: the API's validation messages read
 * "email: is not a valid e-mail address; password: is required"; a form shows each part under its field,
 * and the rest in words, each field named by its label (the form's `labels`, else FIELD_LABELS).
 */
export function splitErrors(
  err: unknown,
  fields: readonly string[],
  labels: Readonly<Record<string, string>> = {},
  values: Readonly<Record<string, unknown>> = {},
): SplitErrors {
  if (err instanceof LocalCheck && err.field && fields.includes(err.field)) return { fields: { [err.field]: err.message }, rest: null };
  if (!(err instanceof ApiError) || err.code !== 'VALIDATION_FAILED') return { fields: {}, rest: messageOf(err, labels) };
  const out: Record<string, string> = {};
  const rest: string[] = [];
  // The form's field the last part was about: a part that names none and goes on in lower case ("…; send one amount,
  // or the same in both") is the rest of that field's sentence, said under it too.
  let last: string | null = null;
  for (const part of err.message.split('; ')) {
    const m = FIELD_PART.exec(part);
    if (!m && last && /^[a-z]/.test(part)) {
      out[last] = `${out[last].replace(/\.$/, '')}; ${stop(part)}`;
      continue;
    }
    const path = m?.[1].split('.') ?? [];
    while (path.length > 1 && REQUEST_PARTS.has(path[0])) path.shift();
    const field = path[0];
    last = m && field && fields.includes(field) ? field : null;
    if (m && field && fields.includes(field)) {
      // A field shows each of its problems once (two checks can fail with the same words), never again in the form's alert.
      // An empty field judged "not a valid e-mail address" (the API checks the form of what is there) is simply required.
      const empty = typeof values[field] === 'string' && (values[field] as string).trim() === '';
      const said = empty && NOT_VALID.test(m[2]) ? 'Is required.' : sentence(m[2]);
      if (!out[field]) out[field] = said;
      else if (!out[field].includes(said)) out[field] = `${out[field]} ${said}`;
    } else rest.push(part);
  }
  return { fields: out, rest: rest.length ? humaniseMessage(rest.join('; '), labels) : null };
}
