import { randomUUID } from 'node:crypto';
import { amountText, parseAmount } from '../shared/amounts.js';
import { ApiError, createApiClient, UnexpectedAnswerError, UnreachableError, type HttpCallResult } from '../shared/api-client.js';
import type { AnyContract, InputOf, OutputOf } from '../shared/operation.js';
import { OPERATIONS, type PaymentRequest } from '../shared/operations.js';

/**
 * `keystead balance | history | pay`: scripting against a running Keystead's API. The address comes from
 * --url or KEYSTEAD_URL, the credentials from KEYSTEAD_TOKEN (an authToken) or KEYSTEAD_UID with
 * KEYSTEAD_API_KEY. Exit codes: 0 done, 1 the API refused (its message is printed), 2 bad usage, 3 not reachable.
 */
export const REMOTE_HELP = {
  balance:
    "keystead balance [--wallet <walletID>] [--json] [--url <url>]\n  Each wallet's balance (or one wallet's) from a running Keystead, in BSV and satoshis.",
  history:
    "keystead history [--wallet <walletID>] [--limit <n>] [--json] [--url <url>]\n  A wallet's transactions, newest first (the default wallet unless --wallet): time, state, direction,\n  amount, fee, txid, counterparty and memo.",
  pay: 'keystead pay <payto:… | paymail | bitcoin:… | address> [--amount <BSV> | --sats <n>] [--wallet <walletID>]\n             [--memo <text>] [--idempotency-key <key>] [--yes] [--json] [--url <url>]\n  Resolves and prices the payment and prints what would be sent; with --yes it pays. The idempotency key\n  (printed; random unless given) makes a repeated command pay once. Amounts are exact: --amount takes at\n  most 8 decimals, --sats whole satoshis.',
};

export const REMOTE_ENV = `Environment: KEYSTEAD_URL (default http://127.0.0.1:7480), KEYSTEAD_TOKEN (an authToken from login),
  or KEYSTEAD_UID with KEYSTEAD_API_KEY (an API key from Profile or POST /api/v1/apiKeys).`;

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

interface Options {
  positional: string[];
  flags: Map<string, string | true>;
}

const VALUE_FLAGS = new Set(['--wallet', '--limit', '--amount', '--sats', '--memo', '--idempotency-key', '--url']);
const BOOLEAN_FLAGS = new Set(['--json', '--yes']);

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
}

function remote(url: string, env: NodeJS.ProcessEnv): Remote {
  const { KEYSTEAD_TOKEN: token, KEYSTEAD_UID: uid, KEYSTEAD_API_KEY: apiKey } = env;
  const api = createApiClient({
    baseUrl: url,
    routes: 'rest',
    headers: token ? { authToken: token } : { uid: uid ?? '', apikey: apiKey ?? '' },
  });
  return {
    async call(op, input) {
      // Checked at the first call, so a command's own usage errors come first.
      if (!token && !(uid && apiKey)) throw new CliError('no credentials: set KEYSTEAD_TOKEN, or KEYSTEAD_UID and KEYSTEAD_API_KEY.', 2);
      try {
        return await api.call(op, input);
      } catch (e) {
        if (e instanceof UnreachableError)
          throw new CliError(`cannot reach Keystead at ${url}. Is it running (npm run serve)? Set --url or KEYSTEAD_URL otherwise.`, 3);
        if (e instanceof UnexpectedAnswerError) throw new CliError(`unexpected answer from ${url} (HTTP ${e.httpStatus}).`, 1);
        if (e instanceof ApiError) throw new CliError(`${e.message} (${e.code})`, 1);
        throw e;
      }
    },
  };
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
    return out(
      JSON.stringify({ wallets: shown.map((w) => ({ walletID: w.walletID, walletTitle: w.walletTitle, ...w.balance })) }, null, 2),
    );
  for (const w of shown) {
    const { confirmed, unconfirmed } = w.balance;
    out(
      `${w.walletTitle.padEnd(24)} ${bsv(confirmed + unconfirmed).padStart(20)}  ${confirmed.toLocaleString('en-US')} sat confirmed${unconfirmed ? `, ${unconfirmed.toLocaleString('en-US')} unconfirmed` : ''}  (${w.walletID})`,
    );
  }
  if (!shown.length) out('No wallets yet.');
}

async function history(o: Options, api: Remote, out: (s: string) => void) {
  const limit = Number(o.flags.get('--limit') ?? 20);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new CliError('--limit must be a whole number from 1 to 200.', 2);
  const data = (await api.call(OPERATIONS.history, { walletId: walletOf(o), maxResults: limit })).output;
  if (o.flags.has('--json')) return out(JSON.stringify({ walletID: data.walletID, history: data.history }, null, 2));
  if (!data.history.length) return out('No transactions yet.');
  for (const e of data.history) {
    const fee = e.fee === null ? '' : ` fee ${e.fee} sat${e.feePaidBy === 'feeManager' ? ' (fee manager)' : ''}`;
    out(
      `${e.time}  ${e.state.padEnd(9)} ${e.direction.padEnd(4)} ${bsv(e.amount).padStart(18)}${fee}  ${e.txid}${e.counterparty ? `  ${e.counterparty}` : ''}${e.memo ? `  "${e.memo}"` : ''}`,
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

async function pay(o: Options, api: Remote, out: (s: string) => void, err: (s: string) => void) {
  const [target] = o.positional;
  if (!target || o.positional.length > 1) throw new CliError(`pay needs one recipient.\n\n${REMOTE_HELP.pay}`, 2);
  const satoshis = satoshisOf(o);
  const walletId = walletOf(o);
  const resolved: PaymentRequest = (await api.call(OPERATIONS.resolveUri, { uri: target, amount: satoshis, walletId })).output.data;
  if (typeof o.flags.get('--memo') === 'string') resolved.memo = o.flags.get('--memo') as string;
  const quote = (await api.call(OPERATIONS.quotePayment, { ...resolved, walletId })).output;
  const key = typeof o.flags.get('--idempotency-key') === 'string' ? (o.flags.get('--idempotency-key') as string) : randomUUID();
  const review = [
    `From     ${quote.walletTitle} (${quote.walletID}), available ${bsv(quote.available)}`,
    ...quote.recipients.map(
      (r) => `To       ${r.address ?? `script ${r.script.slice(0, 40)}…`}  ${bsv(r.satoshis)} (${r.satoshis.toLocaleString('en-US')} sat)`,
    ),
    `Fee      ${quote.fee} sat, paid by ${quote.feePaidBy === 'feeManager' ? 'the fee manager' : 'the wallet'}`,
    `Total    ${bsv(quote.cost)} leaves the wallet; ${bsv(quote.availableAfter)} remains`,
  ];
  if (!o.flags.has('--json')) for (const line of review) err(line);
  if (!quote.sufficient) throw new CliError(quote.problem ?? 'the wallet cannot pay this.', 1);
  if (!o.flags.has('--yes')) throw new CliError('not paid: add --yes to pay.', 1);
  // The review's id goes with it: the API pays exactly the outputs printed above, or refuses.
  const {
    status,
    msg,
    output: paid,
  } = await api.call(OPERATIONS.pay, { ...resolved, reviewId: quote.reviewId, walletId, idempotencyKey: key });
  if (o.flags.has('--json')) return out(JSON.stringify({ status, msg, ...paid, idempotencyKey: key }, null, 2));
  err(`Paid (${paid.state}, delivered by ${paid.delivered}); idempotency key ${key}`);
  out(String(paid.txid));
}

/** Runs one remote command; returns the exit code. */
export async function runRemote(
  command: 'balance' | 'history' | 'pay',
  args: string[],
  env: NodeJS.ProcessEnv,
  out = (s: string) => console.log(s),
  err = (s: string) => console.error(s),
): Promise<number> {
  try {
    const o = parseOptions(args);
    const url = String(o.flags.get('--url') ?? env.KEYSTEAD_URL ?? 'http://127.0.0.1:7480').replace(/\/+$/, '');
    const api = remote(url, env);
    if (command === 'balance') await balance(o, api, out);
    else if (command === 'history') await history(o, api, out);
    else await pay(o, api, out, err);
    return 0;
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    err(`keystead: ${e.message}`);
    return e.exitCode;
  }
}
