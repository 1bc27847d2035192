import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { amountText, parseAmount } from '../shared/amounts.js';
import { ApiError, createApiClient, UnexpectedAnswerError, UnreachableError, type HttpCallResult } from '../shared/api-client.js';
import type { AnyContract, InputOf, OutputOf } from '../shared/operation.js';
import { OPERATIONS, type PaymentRequest } from '../shared/operations.js';
import { cleanRemoteText } from '../shared/remote-text.js';
import { APPROVAL_STATES } from '../shared/contracts/approvals.js';

/**
 * `keystead balance | history | pay | approvals | approve | reject | audit | payees`: scripting against a running Keystead's
 * API. The address comes from --url or KEYSTEAD_URL, the credentials from KEYSTEAD_TOKEN (an authToken) or KEYSTEAD_UID
 * with KEYSTEAD_API_KEY. Exit codes: 0 done, 1 the API refused (its message is printed), 2 bad usage, 3 not reachable,
 * 4 a payment the organisation's policy sent for approval (its approval id is printed; nothing moved yet),
 * 5 the audit trail does not verify (the first entry that does not match is printed).
 */
export const REMOTE_HELP = {
  balance:
    "keystead balance [--wallet <walletID>] [--json] [--url <url>]\n  Each wallet's balance (or one wallet's) from a running Keystead, in BSV and satoshis.",
  history:
    "keystead history [--wallet <walletID>] [--limit <n>] [--json] [--url <url>]\n  A wallet's transactions, newest first (the default wallet unless --wallet): time, state, direction,\n  amount, fee, tokens moved, txid, counterparty and memo.",
  pay: 'keystead pay <payto:… | paymail | bitcoin:… | address> [--amount <BSV> | --sats <n>] [--wallet <walletID>]\n             [--memo <text>] [--idempotency-key <key>] [--yes] [--json] [--url <url>]\n  Resolves and prices the payment and prints what would be sent; with --yes it pays. The idempotency key\n  (printed; random unless given) makes a repeated command pay once. Amounts are exact: --amount takes at\n  most 8 decimals, --sats whole satoshis.\n  When the organisation’s policy needs approvals for it, the payment waits: its approval id is printed\n  and the exit code is 4 (follow it with keystead approvals).',
  approvals:
    'keystead approvals [--all | --state <state>] [--json] [--url <url>]\n  Payments awaiting approval (all of them with --all, or those in one state: approved, sent, failed,\n  rejected, expired, cancelled), each with its review, rule and votes; and how many await your vote.',
  approve:
    'keystead approve <approvalId> [--otp <code>] [--json] [--url <url>]\n  Approves a payment awaiting approval; the last approval needed sends it (its txid is printed). With\n  two-step sign-in, confirm with the code from your authenticator app (--otp).',
  reject:
    'keystead reject <approvalId> [--reason <text>] [--otp <code>] [--json] [--url <url>]\n  Rejects a payment awaiting approval: nothing moves. The reason is shown to who asked for it.',
  audit:
    'keystead audit verify [--json] [--url <url>]\n  Recomputes the audit hash chain from the first entry and checks every signed checkpoint (admins). Prints ok,\n  or the first entry that does not match with the reason; exit code 5 when the trail does not verify.\nkeystead audit export --from <YYYY-MM-DD> --to <YYYY-MM-DD> [--format csv|json] [--out <file>] [--url <url>]\n  The audit entries of those UTC days (inclusive) with their hashes, and the checkpoints of those days (admins):\n  CSV or JSON (the default), on stdout or written to --out.',
  payees:
    "keystead payees [--all] [--json] [--url <url>]\n  The organisation's payee book: each payee's id, name, kind, destination and from when it may be paid\n  (--all: removed payees too).\nkeystead payees add --name <name> --destination <paymail|address|identity key> [--note <text>] [--json] [--url <url>]\n  Adds a payee (admins and managers); its id is printed. It may be paid without a rule's approvers only after\n  the cooling-off period.\nkeystead payees remove <payeeId> [--json] [--url <url>]\n  Removes a payee (kept, marked removed, for the record); its destination is then not in the book.",
};

export const REMOTE_ENV = `Environment: KEYSTEAD_URL (default http://127.0.0.1:7480), KEYSTEAD_TOKEN (an authToken from login),
  or KEYSTEAD_UID with KEYSTEAD_API_KEY (an API key from Profile or POST /api/v1/apiKeys).`;

/**
 * Text that others wrote (a payer's note or name, an app's description, a paymail host's error, a token's
 * symbol), as one inert line for the terminal: the engine cleans it where it comes in, and this cleans it
 * again, so an older row or a lying server cannot forge a line or send escape sequences (SECURITY.md).
 */
const printable = (s: string | null | undefined, maxLength = 500): string => (s ? cleanRemoteText(s, maxLength) : '');

/** Characters JSON leaves raw that a terminal acts on (C1 controls, line separators, bidi overrides). */
const JSON_UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `--json` output: nothing is changed, but the characters above are written as `\uXXXX` escapes (only
 * strings hold them, so the JSON reads back the same) and JSON already escapes the C0 controls.
 */
const json = (value: unknown): string =>
  JSON.stringify(value, null, 2).replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Controls a terminal acts on (ESC, CSI, carriage return, bidi overrides): every one but tab and line feed. */
// eslint-disable-next-line no-control-regex
const TERMINAL_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const terminalSafe = (s: string) => s.replace(TERMINAL_UNSAFE, '');

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The credentials (a session token or an API key) go with every request: over plain HTTP only to this
 * machine, where nobody on the network path can read them; another host must be reached over HTTPS.
 */
function refuseCleartextCredentials(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`--url ${url} is not a URL (e.g. http://127.0.0.1:7480 or https://keystead.example.com).`, 2);
  }
  if (parsed.protocol === 'https:') return;
  if (parsed.protocol !== 'http:') throw new CliError(`--url must be http:// or https://, not ${parsed.protocol}`, 2);
  if (!LOOPBACK_HOST.test(parsed.hostname))
    throw new CliError(
      `refusing to send credentials over plain HTTP to ${parsed.host}: anyone on the way could read them. Use https://, or run the command on that machine (http://127.0.0.1).`,
      2,
    );
}

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** A 202: the policy sent the payment for approval. Not a failure, but nothing moved yet either. */
class AwaitingApproval extends CliError {
  readonly approvalId: string;
  constructor(readonly answer: ApiError) {
    super(printable(answer.message, 2000), 4);
    this.approvalId = String((answer as ApiError & { approvalId?: unknown }).approvalId ?? '');
  }
}

interface Options {
  positional: string[];
  flags: Map<string, string | true>;
}

const VALUE_FLAGS = new Set([
  '--wallet',
  '--limit',
  '--amount',
  '--sats',
  '--memo',
  '--idempotency-key',
  '--url',
  '--otp',
  '--reason',
  '--state',
  '--from',
  '--to',
  '--format',
  '--out',
  '--name',
  '--destination',
  '--note',
]);
const BOOLEAN_FLAGS = new Set(['--json', '--yes', '--all']);

function parseOptions(args: string[]): Options {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (VALUE_FLAGS.has(a)) {
      const v = args[++i];
      if (v === undefined) throw new CliError(`${a} needs a value.`, 2);
      flags.set(a, v);
    } else if (BOOLEAN_FLAGS.has(a)) flags.set(a, true);
    else if (a.startsWith('--')) throw new CliError(`unknown option ${a}.`, 2);
    else positional.push(a);
  }
  return { positional, flags };
}

/** The API as the remote commands use it: each call's output, or a CliError that says what went wrong. */
interface Remote {
  call<C extends AnyContract>(op: C, input: InputOf<C>): Promise<HttpCallResult<OutputOf<C>>>;
  /** The same for the organisation's (enterprise) operations, which also need its serviceid: asked of `me` once. */
  callOrg<C extends AnyContract>(op: C, input: InputOf<C>): Promise<HttpCallResult<OutputOf<C>>>;
}

function remote(url: string, env: NodeJS.ProcessEnv): Remote {
  const { KEYSTEAD_TOKEN: token, KEYSTEAD_UID: uid, KEYSTEAD_API_KEY: apiKey } = env;
  const api = createApiClient({
    baseUrl: url,
    routes: 'rest',
    headers: token ? { authToken: token } : { uid: uid ?? '', apikey: apiKey ?? '' },
  });
  let serviceId: Promise<string> | undefined;
  const r: Remote = {
    async call(op, input) {
      return send(op, input);
    },
    async callOrg(op, input) {
      serviceId ??= send(OPERATIONS.me, {}).then((me) => me.output.serviceId);
      return send(op, input, { serviceid: await serviceId });
    },
  };
  async function send<C extends AnyContract>(op: C, input: InputOf<C>, headers?: Record<string, string>) {
    // Checked at the first call, so a command's own usage errors come first.
    if (!token && !(uid && apiKey)) throw new CliError('no credentials: set KEYSTEAD_TOKEN, or KEYSTEAD_UID and KEYSTEAD_API_KEY.', 2);
    try {
      return await api.call(op, input, headers);
    } catch (e) {
      if (e instanceof UnreachableError)
        throw new CliError(`cannot reach Keystead at ${url}. Is it running (npm run serve)? Set --url or KEYSTEAD_URL otherwise.`, 3);
      if (e instanceof UnexpectedAnswerError) throw new CliError(`unexpected answer from ${url} (HTTP ${e.httpStatus}).`, 1);
      if (e instanceof ApiError && e.code === 'APPROVAL_REQUIRED') throw new AwaitingApproval(e);
      if (e instanceof ApiError) throw new CliError(`${printable(e.message, 2000)} (${printable(e.code, 64)})`, 1);
      throw e;
    }
  }
  return r;
}

const bsv = (sats: number) => `${sats < 0 ? '-' : ''}${amountText(Math.abs(sats), 'BSV')} BSV`;
const walletOf = (o: Options): string | undefined =>
  typeof o.flags.get('--wallet') === 'string' ? (o.flags.get('--wallet') as string) : undefined;

async function balance(o: Options, api: Remote, out: (s: string) => void) {
  const { wallets } = (await api.call(OPERATIONS.listWallets, {})).output;
  const wanted = walletOf(o);
  const shown = wanted !== undefined ? wallets.filter((w) => w.walletID === wanted) : wallets;
  if (wanted !== undefined && !shown.length) throw new CliError(`there is no wallet ${wanted} in your account.`, 1);
  if (o.flags.has('--json'))
    return out(json({ wallets: shown.map((w) => ({ walletID: w.walletID, walletTitle: w.walletTitle, ...w.balance })) }));
  for (const w of shown) {
    const { confirmed, unconfirmed } = w.balance;
    out(
      `${printable(w.walletTitle, 100).padEnd(24)} ${bsv(confirmed + unconfirmed).padStart(20)}  ${confirmed.toLocaleString('en-US')} sat confirmed${unconfirmed ? `, ${unconfirmed.toLocaleString('en-US')} unconfirmed` : ''}  (${w.walletID})`,
    );
  }
  if (!shown.length) out('No wallets yet.');
}

async function history(o: Options, api: Remote, out: (s: string) => void) {
  const limit = Number(o.flags.get('--limit') ?? 20);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new CliError('--limit must be a whole number from 1 to 200.', 2);
  const data = (await api.call(OPERATIONS.history, { walletId: walletOf(o), maxResults: limit })).output;
  if (o.flags.has('--json')) return out(json({ walletID: data.walletID, history: data.history }));
  if (!data.history.length) return out('No transactions yet.');
  for (const e of data.history) {
    const fee = e.fee === null ? '' : ` fee ${e.fee} sat${e.feePaidBy === 'feeManager' ? ' (fee manager)' : ''}`;
    // Tokens moved, signed as the wallet saw them (a merge among its own outputs moves none).
    const tokens = e.tokens
      .filter((t) => t.direction !== 'self')
      .map((t) => `  ${t.direction === 'out' ? '-' : '+'}${t.amount} ${printable(t.symbol, 64)}${t.proven ? '' : ' (unproven)'}`)
      .join('');
    // Counterparty and memo are often a stranger's words (a payer's note and name, an app's description).
    const who = printable(e.counterparty);
    const memo = printable(e.memo);
    out(
      `${e.time}  ${e.state.padEnd(9)} ${e.direction.padEnd(4)} ${bsv(e.amount).padStart(18)}${fee}${tokens}  ${e.txid}${who ? `  ${who}` : ''}${memo ? `  "${memo}"` : ''}`,
    );
  }
}

function satoshisOf(o: Options): number | undefined {
  const amount = o.flags.get('--amount');
  const sats = o.flags.get('--sats');
  if (amount !== undefined && sats !== undefined) throw new CliError('give --amount (BSV) or --sats, not both.', 2);
  const given = amount ?? sats;
  if (given === undefined) return undefined;
  const r = parseAmount(String(given), amount !== undefined ? 'BSV' : 'sat');
  if (!r.ok) throw new CliError(r.error, 2);
  return r.satoshis;
}

async function pay(o: Options, api: Remote, out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const [target] = o.positional;
  if (!target || o.positional.length > 1) throw new CliError(`pay needs one recipient.\n\n${REMOTE_HELP.pay}`, 2);
  const satoshis = satoshisOf(o);
  const walletId = walletOf(o);
  const resolved: PaymentRequest = (await api.call(OPERATIONS.resolveUri, { uri: target, amount: satoshis, walletId })).output.data;
  if (typeof o.flags.get('--memo') === 'string') resolved.memo = o.flags.get('--memo') as string;
  const quote = (await api.call(OPERATIONS.quotePayment, { ...resolved, walletId })).output;
  const key = typeof o.flags.get('--idempotency-key') === 'string' ? (o.flags.get('--idempotency-key') as string) : randomUUID();
  const review = [
    `From     ${printable(quote.walletTitle, 100)} (${printable(quote.walletID, 80)}), available ${bsv(quote.available)}`,
    ...quote.recipients.map(
      (r) =>
        `To       ${printable(r.address, 80) || `script ${printable(r.script.slice(0, 40))}…`}  ${bsv(r.satoshis)} (${r.satoshis.toLocaleString('en-US')} sat)`,
    ),
    `Fee      ${quote.fee} sat, paid by ${quote.feePaidBy === 'feeManager' ? 'the fee manager' : 'the wallet'}`,
    `Total    ${bsv(quote.cost)} leaves the wallet; ${bsv(quote.availableAfter)} remains`,
  ];
  if (!o.flags.has('--json')) for (const line of review) err(line);
  if (!quote.sufficient) throw new CliError(printable(quote.problem, 2000) || 'the wallet cannot pay this.', 1);
  if (!o.flags.has('--yes')) throw new CliError('not paid: add --yes to pay.', 1);
  // The review's id goes with it: the API pays exactly the outputs printed above, or refuses.
  let answer: HttpCallResult<OutputOf<typeof OPERATIONS.pay>>;
  try {
    answer = await api.call(OPERATIONS.pay, { ...resolved, reviewId: quote.reviewId, walletId, idempotencyKey: key });
  } catch (e) {
    if (!(e instanceof AwaitingApproval)) throw e;
    const { approvalId, answer: a } = e;
    if (o.flags.has('--json')) out(json({ status: 'pending', code: a.code, msg: a.message, approvalId, idempotencyKey: key }));
    else {
      err(`Awaiting approval: ${printable(a.message, 2000)}`);
      out(approvalId);
    }
    return 4;
  }
  const { status, msg, output: paid } = answer;
  if (o.flags.has('--json')) {
    out(json({ status, msg, ...paid, idempotencyKey: key }));
    return 0;
  }
  err(`Paid (${paid.state}, delivered by ${paid.delivered}); idempotency key ${key}`);
  out(String(paid.txid));
  return 0;
}

type Approval = OutputOf<typeof OPERATIONS.getApproval>;

/** A reviewed amount in its asset's unit: BSV for BSV, token units, NFTs by count. */
const approvalAmount = (r: Approval['review']) =>
  r.asset === 'BSV'
    ? `${bsv(r.amount)} (${r.amount.toLocaleString('en-US')} sat)`
    : `${r.amount.toLocaleString('en-US')} ${printable(r.asset, 80)}`;

function printApproval(a: Approval, out: (s: string) => void) {
  const r = a.review;
  out(`${printable(a.approvalId, 80)}  ${printable(a.state.replace('_', ' '), 40)}${a.canVote ? '  (awaiting your vote)' : ''}`);
  out(
    `  ${approvalAmount(r)} from ${printable(r.walletTitle, 100)} (${printable(r.walletID, 80)}) by ${printable(a.initiator.email ?? a.initiator.uid, 200)}, ${printable(r.operation, 40)}`,
  );
  for (const o of r.outputs) out(`  to ${printable(o.address, 80) || `script ${printable(o.script.slice(0, 40))}…`}  ${bsv(o.satoshis)}`);
  const who = printable(r.counterparty);
  const memo = printable(r.memo);
  if (who) out(`  counterparty ${who}`);
  if (memo) out(`  memo "${memo}"`);
  out(`  needs ${printable(a.words, 500)}`);
  const approvals = a.votes.filter((v) => v.vote === 'approve').length;
  out(
    `  votes ${approvals}/${a.needed}${a.votes.length ? `: ${a.votes.map((v) => `${printable(v.vote, 20)} by ${printable(v.email ?? v.uid, 200)}`).join(', ')}` : ''}; expires ${a.expiresAt}`,
  );
  if (a.txid) out(`  txid ${printable(a.txid, 80)}`);
  const error = printable(a.error, 2000);
  if (error) out(`  ${error}`);
}

const APPROVAL_STATE_FLAGS = APPROVAL_STATES;

async function approvals(o: Options, api: Remote, out: (s: string) => void) {
  if (o.positional.length) throw new CliError(`approvals takes no arguments.\n\n${REMOTE_HELP.approvals}`, 2);
  const given = o.flags.get('--state');
  if (given !== undefined && o.flags.has('--all')) throw new CliError('give --all or --state, not both.', 2);
  if (given !== undefined && !(APPROVAL_STATE_FLAGS as readonly unknown[]).includes(given))
    throw new CliError(`--state must be one of ${APPROVAL_STATE_FLAGS.join(', ')}.`, 2);
  const state = o.flags.has('--all') ? 'all' : ((given as (typeof APPROVAL_STATE_FLAGS)[number] | undefined) ?? 'awaiting_approval');
  const data = (await api.call(OPERATIONS.listApprovals, { state })).output;
  if (o.flags.has('--json')) return out(json(data));
  if (!data.approvals.length) out(state === 'awaiting_approval' ? 'No payments are awaiting approval.' : 'No payments.');
  for (const a of data.approvals) printApproval(a, out);
  out(`${data.awaitingMyVote} awaiting your vote.`);
}

function approvalIdOf(o: Options, command: 'approve' | 'reject'): string {
  const [id] = o.positional;
  if (!id || o.positional.length > 1) throw new CliError(`${command} needs one approval id.\n\n${REMOTE_HELP[command]}`, 2);
  return id;
}

const flagText = (o: Options, name: string) => (typeof o.flags.get(name) === 'string' ? (o.flags.get(name) as string) : undefined);

async function vote(command: 'approve' | 'reject', o: Options, api: Remote, out: (s: string) => void, err: (s: string) => void) {
  const approvalId = approvalIdOf(o, command);
  const otp = flagText(o, '--otp');
  const { msg, output: a } =
    command === 'approve'
      ? await api.call(OPERATIONS.approvePayment, { approvalId, otp })
      : await api.call(OPERATIONS.rejectPayment, { approvalId, otp, reason: flagText(o, '--reason') });
  if (o.flags.has('--json')) return out(json({ msg, ...a }));
  if (a.state === 'sent') {
    err(`Approved: the payment was sent.`);
    return out(String(a.txid));
  }
  if (a.state === 'failed') throw new CliError(`approved, but the payment failed: ${printable(a.error, 2000) || 'no reason given'}`, 1);
  if (a.state === 'approved') return out('Approved: it waits for its initiator to send it with the wallet’s password.');
  if (a.state === 'rejected') return out(`Rejected ${a.approvalId}: nothing moves.`);
  const approvals = a.votes.filter((v) => v.vote === 'approve').length;
  out(`Approval recorded (${approvals} of ${a.needed}).`);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `audit verify`: 0 when the chain holds, 5 (and the first mismatch) when it does not. `audit export`: the trail of a date range. */
async function audit(o: Options, api: Remote, out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const [sub, ...extra] = o.positional;
  if ((sub !== 'verify' && sub !== 'export') || extra.length)
    throw new CliError(`audit needs verify or export.\n\n${REMOTE_HELP.audit}`, 2);
  if (sub === 'verify') {
    const v = (await api.callOrg(OPERATIONS.auditVerify, {})).output;
    if (o.flags.has('--json')) out(json(v));
    else if (v.ok) {
      out(`ok: ${v.entries} entries and ${v.checkpoints} checkpoints verified; audit key ${v.publicKey}`);
      if (v.unanchored.length) err(`not anchored on chain: ${printable(v.unanchored.join(', '), 4000)}`);
    } else {
      const m = v.firstMismatch;
      out(
        `mismatch at entry ${m?.id ?? '?'}${m?.day ? ` (${printable(m.day, 20)})` : ''}: ${printable(m?.reason, 2000) || 'no reason given'}`,
      );
    }
    return v.ok ? 0 : 5;
  }
  const from = flagText(o, '--from');
  const to = flagText(o, '--to');
  if (!from || !to || !DAY.test(from) || !DAY.test(to))
    throw new CliError(`audit export needs --from and --to as YYYY-MM-DD.\n\n${REMOTE_HELP.audit}`, 2);
  const format = flagText(o, '--format') ?? 'json';
  if (format !== 'csv' && format !== 'json') throw new CliError('--format must be csv or json.', 2);
  const data = (await api.callOrg(OPERATIONS.auditExport, { from, to, format })).output;
  const { csv, ...rest } = data;
  const text = format === 'csv' ? (csv ?? '') : `${json(rest)}\n`;
  const file = flagText(o, '--out');
  if (!file) {
    out(text.replace(/\r?\n$/, ''));
    return 0;
  }
  try {
    writeFileSync(file, text);
  } catch (e) {
    throw new CliError(`cannot write ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, 1);
  }
  err(`Wrote ${data.entries.length} entries and ${data.checkpoints.length} checkpoints (${from} to ${to}, ${format}) to ${file}.`);
  return 0;
}

type Payee = OutputOf<typeof OPERATIONS.addPayee>;

const payeeLine = (p: Payee) =>
  `${p.payeeId}  ${printable(p.name)}  ${p.kind} ${printable(p.destination)}  ${p.state === 'removed' ? 'removed' : p.usable ? 'usable' : `cooling off until ${p.usableFrom}`}${printable(p.note) ? `  "${printable(p.note)}"` : ''}`;

/** `payees` (list), `payees add`, `payees remove <id>`: the organisation's payee book. */
async function payees(o: Options, api: Remote, out: (s: string) => void, err: (s: string) => void) {
  const [sub = 'list', ...rest] = o.positional;
  const asJson = o.flags.has('--json');
  if (sub === 'list' && !rest.length) {
    const data = (await api.callOrg(OPERATIONS.listPayees, { includeRemoved: o.flags.has('--all') })).output;
    if (asJson) return out(json(data));
    if (!data.payees.length) out('No payees in the book.');
    for (const p of data.payees) out(payeeLine(p));
    return out(`Cooling-off period: ${data.coolingOffHours} hours.`);
  }
  if (sub === 'add' && !rest.length) {
    const name = flagText(o, '--name');
    const destination = flagText(o, '--destination');
    if (!name || !destination) throw new CliError(`payees add needs --name and --destination.\n\n${REMOTE_HELP.payees}`, 2);
    const { output: p } = await api.callOrg(OPERATIONS.addPayee, { name, destination, note: flagText(o, '--note') });
    if (asJson) return out(json(p));
    err(`Added ${printable(p.name)} (${p.kind} ${p.destination}); it may be paid without approvers from ${p.usableFrom}.`);
    return out(p.payeeId);
  }
  if (sub === 'remove' && rest.length === 1) {
    const { output: p } = await api.callOrg(OPERATIONS.removePayee, { id: rest[0] });
    if (asJson) return out(json(p));
    return out(`Removed ${printable(p.name)} (${p.payeeId}): its destination is no longer in the book.`);
  }
  throw new CliError(`payees takes list, add or remove <payeeId>.\n\n${REMOTE_HELP.payees}`, 2);
}

export const REMOTE_COMMANDS = ['balance', 'history', 'pay', 'approvals', 'approve', 'reject', 'audit', 'payees'] as const;
export type RemoteCommand = (typeof REMOTE_COMMANDS)[number];

/** Runs one remote command; returns the exit code. */
export async function runRemote(
  command: RemoteCommand,
  args: string[],
  env: NodeJS.ProcessEnv,
  print = (s: string) => console.log(s),
  printErr = (s: string) => console.error(s),
): Promise<number> {
  // Whatever a field holds, nothing the server answered reaches the terminal as a control sequence.
  const out = (s: string) => print(terminalSafe(s));
  const err = (s: string) => printErr(terminalSafe(s));
  try {
    const o = parseOptions(args);
    const url = String(o.flags.get('--url') ?? env.KEYSTEAD_URL ?? 'http://127.0.0.1:7480').replace(/\/+$/, '');
    refuseCleartextCredentials(url);
    const api = remote(url, env);
    if (command === 'balance') await balance(o, api, out);
    else if (command === 'history') await history(o, api, out);
    else if (command === 'approvals') await approvals(o, api, out);
    else if (command === 'approve' || command === 'reject') await vote(command, o, api, out, err);
    else if (command === 'audit') return await audit(o, api, out, err);
    else if (command === 'payees') await payees(o, api, out, err);
    else return await pay(o, api, out, err);
    return 0;
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    err(`keystead: ${e.message}`);
    return e.exitCode;
  }
}
