import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/**
 * A faithful replay of the public service's official JavaScript SDK (vaionex/RelysiaSDK, v1.1.x, the
 * `src/<module>/v1` layout), so tests call Keystead exactly as a user's unchanged script would. npm offers
 * only the old `relysia` 1.0.x offline, so the SDK's transport and its 51 HTTP-backed methods are rebuilt
 * here from its source (see the README's "Using scripts written for the public service"):
 *
 * - the URL is `baseURL + '/' + version + path` (`/admin/` before the version when the SDK's isAdmin slot is
 *   truthy), the query string appended raw;
 * - header names go on the wire with the SDK's casing (node:http keeps it), `Content-Type: application/json`
 *   and `Accept: application/json` on every request, GET and DELETE included, and axios's User-Agent;
 * - a POST or PUT without data sends an empty body with `Content-Length: 0`, as axios does;
 * - a status of 400 or more rejects like axios (`error.response.status`, `error.response.data`);
 * - every method returns `body.data`; auth and signUp keep `body.data.token` for the later calls.
 *
 * The SDK's Joi validation is left out, except where it changes what is sent: keys its validators reject
 * (so they can never be sent) throw here too, `compile` never sends a body, `wallet.v2.history` never sends.
 */

export interface RelysiaConfig {
  authToken?: string;
  serviceId?: string;
}

/** What went on the wire, for tests that check the request itself. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What axios rejects with on an HTTP status of 400 or more (the SDK never catches it). */
export class AxiosLikeError extends Error {
  readonly isAxiosError = true;
  constructor(
    readonly response: { status: number; data: any; headers: IncomingHttpHeaders },
    readonly config: { method: string; url: string },
  ) {
    super(`Request failed with status code ${response.status}`);
    // axios's message, and the answer where a failing test shows it.
    const body = typeof response.data === 'string' ? response.data.slice(0, 300) : JSON.stringify(response.data);
    this.stack = `${this.message}: ${config.method} ${config.url} answered ${body}`;
  }
}

/** Joi's ValidationError, thrown where the SDK's validator stops a call before anything is sent. */
export class SdkValidationError extends Error {
  override readonly name = 'ValidationError';
}

const NOT_LOGGED_IN = 'You must logged In. Try calling auth() method first';

type Headers = Record<string, string | number | boolean | undefined>;
type Opts = Record<string, any>;

/** The SDK's `src/request.js`: default headers on every request, per-call ones spread after them. */
class Transport {
  readonly sent: SentRequest[] = [];
  constructor(private readonly baseURL: string) {}

  private url(reqPath: string, isAdmin: unknown, version: string): string {
    return `${this.baseURL}${isAdmin ? '/admin/' : '/'}${version}${reqPath}`;
  }

  post(reqPath: string, data: unknown, headers: Headers = {}, isAdmin: unknown = false, version = 'v1'): Promise<any> {
    return this.send('POST', this.url(reqPath, isAdmin, version), headers, data);
  }

  put(reqPath: string, data: unknown, headers: Headers = {}, isAdmin: unknown = false, version = 'v1'): Promise<any> {
    return this.send('PUT', this.url(reqPath, isAdmin, version), headers, data);
  }

  get(reqPath: string, headers: Headers = {}, isAdmin: unknown = false, query?: string, version = 'v1'): Promise<any> {
    return this.send('GET', this.url(reqPath, isAdmin, version) + (query ?? ''), headers, undefined);
  }

  /** `deleteRequest(reqPath, config, isAdmin, version)`: never a body. */
  delete(reqPath: string, config: Headers | undefined, isAdmin: unknown = false, version = 'v1'): Promise<any> {
    return this.send('DELETE', this.url(reqPath, isAdmin, version), config ?? {}, undefined);
  }

  /** axios 0.22's http adapter, as far as the wire shows it. */
  private async send(method: string, url: string, perCall: Headers, data: unknown): Promise<any> {
    const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json' };
    for (const [name, value] of Object.entries(perCall)) {
      // Node refuses an undefined header value before sending (ERR_HTTP_INVALID_HEADER_VALUE), as under axios.
      if (value === undefined) throw httpHeaderError(name);
      headers[name] = String(value);
    }
    headers['User-Agent'] = 'axios/0.22.0';
    const body = data === undefined ? '' : JSON.stringify(data);
    if (method === 'POST' || method === 'PUT' || body) headers['Content-Length'] = String(Buffer.byteLength(body));
    const target = new URL(url);
    this.sent.push({ method, url, headers, body });
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: target.hostname, port: target.port, method, path: url.slice(url.indexOf('/', 'http://'.length)), headers },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c) => (text += c));
          res.on('end', () => {
            // axios's default transformResponse: JSON when it parses, else the text as it came.
            let parsed: any = text;
            try {
              parsed = JSON.parse(text);
            } catch {
              /* not JSON: keep the text */
            }
            const status = res.statusCode ?? 0;
            if (status >= 400) reject(new AxiosLikeError({ status, data: parsed, headers: res.headers }, { method, url }));
            else resolve(parsed);
          });
        },
      );
      req.on('error', reject);
      req.end(body || undefined);
    });
  }
}

function httpHeaderError(name: string): Error {
  const e = new TypeError(`Invalid value "undefined" for header "${name}"`) as TypeError & { code: string };
  e.code = 'ERR_HTTP_INVALID_HEADER_VALUE';
  return e;
}

/** Keys the SDK's validators reject; passing one throws before sending, as Joi does. */
function notAllowed(opts: Opts | undefined, keys: readonly string[]): void {
  for (const key of keys) if (opts && key in opts) throw new SdkValidationError(`"${key}" is not allowed`);
}

/** `src/authentication/v1/index.js`: owns the token every other module reads at call time. */
class Authentication {
  authToken: string | undefined;
  constructor(
    private readonly t: Transport,
    private readonly serviceId: string | undefined,
    config: RelysiaConfig,
  ) {
    this.authToken = config.authToken;
  }

  validate(): void {
    if (!this.authToken) throw new Error(NOT_LOGGED_IN);
  }

  private svc(): Headers {
    return this.serviceId ? { serviceId: this.serviceId } : {};
  }

  /** POST /v1/auth. It builds a serviceId header but never passes it (SDK bug): none is sent. */
  async auth(opts: { email: string; password: string; serviceId?: string }): Promise<any> {
    const resp = await this.t.post('/auth', { email: opts.email, password: opts.password });
    this.authToken = resp.data?.token;
    return resp.data;
  }

  /** POST /v1/signUp (capital U). photo and displayName are refused by its validator, so never sent. */
  async signUp(opts: { email: string; password: string }): Promise<any> {
    notAllowed(opts, ['photo', 'displayName']);
    const resp = await this.t.post('/signUp', { email: opts.email, password: opts.password }, this.svc());
    this.authToken = resp.data?.token;
    return resp.data;
  }

  /** POST /v1/reset/password, without a token. */
  async resetPassword(opts: { email: string }): Promise<any> {
    return (await this.t.post('/reset/password', { email: opts.email }, this.svc())).data;
  }

  async sendOtp(opts: { from: string; to: string; message: string }): Promise<any> {
    this.validate();
    const body = { from: opts.from, to: opts.to, message: opts.message };
    return (await this.t.post('/sendOTP', body, { authToken: this.authToken, ...this.svc() })).data;
  }

  async validateOtp(opts: { to: string; otp: string }): Promise<any> {
    this.validate();
    return (await this.t.post('/validateOTP', { to: opts.to, otp: opts.otp }, { authToken: this.authToken, ...this.svc() })).data;
  }

  setAuthToken(token: string): void {
    this.authToken = token;
  }

  getAuthToken(): string | undefined {
    return this.authToken;
  }
}

/** The headers most modules start from: the token, the config's serviceId when the wrapper forwards it. */
function base(auth: Authentication, serviceId: string | undefined, extra: Headers = {}): Headers {
  auth.validate();
  const h: Headers = { authToken: auth.authToken };
  if (serviceId) h.serviceId = serviceId;
  for (const [k, v] of Object.entries(extra)) if (v) h[k] = v;
  return h;
}

/**
 * The SDK's methods are `async`: a throw before sending (not logged in, validation, an undefined header)
 * rejects the returned promise rather than throwing at the call.
 */
function asyncMethods<T extends Record<string, (...a: any[]) => Promise<any>>>(methods: T): T {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(methods)) out[name] = async (...a: unknown[]) => fn(...a);
  return out as T;
}

/** Builds the SDK's modules around one transport and one authentication object. */
export function createRelysia(baseURL: string, config: RelysiaConfig = {}) {
  const t = new Transport(baseURL);
  const svc = config.serviceId;
  const auth = new Authentication(t, svc, config);
  const data = async (p: Promise<any>) => (await p).data;

  const walletV1 = {
    /** A GET, with every parameter in a header; walletTitle defaults to 'default'. */
    createWallet: (o: Opts = {}) =>
      data(
        t.get(
          '/createWallet',
          base(auth, svc, {
            walletTitle: o.walletTitle || 'default',
            type: o.type,
            walletLogo: o.walletLogo,
            walletPassword: o.walletPassword,
          }),
        ),
      ),
    metrics: (o: Opts = {}) => data(t.get('/metrics', base(auth, svc, { walletId: o.walletId }))),
    address: (o: Opts = {}) => data(t.get('/address', base(auth, svc, { walletId: o.walletId }))),
    allAddresses: (o: Opts = {}) => data(t.get('/allAddresses', base(auth, svc, { walletId: o.walletId }))),
    balance: (o: Opts = {}) => data(t.get('/balance', base(auth, svc, { walletId: o.walletId, currency: o.currency }))),
    /** nextPageToken goes as a header in v1. */
    history: (o: Opts = {}) =>
      data(t.get('/history', base(auth, svc, { nextPageToken: o.nextPageToken, walletId: o.walletId, type: o.type }))),
    wallets: (o: Opts = {}) => data(t.get('/wallets', base(auth, svc, { oauth: o.oauth }))),
    mnemonic: (o: Opts = {}) => data(t.get('/mnemonic', base(auth, svc, { walletId: o.walletId }))),
    deleteWallet: (o: { walletId: string }) => data(t.delete('/wallet', base(auth, svc, { walletId: o.walletId }))),
    /** No login check: without a token the authToken header is undefined and Node throws before sending. */
    leaderboard: (o: { tokenId: string }) => {
      const h: Headers = { authToken: auth.authToken, tokenId: o.tokenId };
      if (svc) h.serviceId = svc;
      return data(t.get('/leaderboard', h));
    },
  };

  const walletV2 = {
    /** GET /v2/balance. Its validator allows only serviceId, walletId, currency: type, compact, nextPageToken throw. */
    balance: async (o: Opts = {}) => {
      notAllowed(o, ['type', 'compact', 'nextPageToken']);
      return data(t.get('/balance', base(auth, svc, { walletId: o.walletId, currency: o.currency }), false, undefined, 'v2'));
    },
    /** SDK bug: its v2 validator has no `history`, so the call throws before sending. */
    history: async (_o: Opts = {}): Promise<never> => {
      throw new TypeError('this.validator.history is not a function');
    },
    /** Not an SDK method: what `history` would send if its validator existed (GET /v2/history, the token in the query). */
    historyAsWritten: (o: Opts = {}) =>
      data(
        t.get(
          '/history',
          base(auth, svc, { walletId: o.walletId, type: o.type }),
          false,
          o.nextPageToken ? `?nextPageToken=${o.nextPageToken}` : undefined,
          'v2',
        ),
      ),
  };

  // transaction.v1: the wrapper drops the config's serviceId, and the code reads opts.walletId, which the
  // validators reject ("walletId" is not allowed): no walletId header can ever be sent.
  const tx = (path: string, o: Opts, extra: Headers = {}) => {
    notAllowed(o, ['walletId']);
    return data(t.post(path, o.data, base(auth, undefined, extra)));
  };
  const transactionV1 = {
    send: (o: Opts) => tx('/send', o),
    rawtx: (o: Opts) => tx('/rawtx', o),
    drop: (o: Opts) => tx('/drop', o, { serviceId: o.serviceId, secretKey: o.secretKey, privateKey: o.privateKey }),
    offer: (o: Opts) => tx('/offer', o),
    swap: (o: Opts) => tx('/swap', o),
    exchangeOffer: (o: Opts) => tx('/exchangeOffer', o),
    exchangeSwap: (o: Opts) => tx('/exchangeSwap', o),
    inspect: (o: Opts) => tx('/inspect', o),
    pay: (o: Opts) => tx('/pay', o, { serviceId: o.serviceId }),
    /** A `host` option replaces the HTTP Host header. */
    invoice: (o: Opts) => tx('/invoice', o, { host: o.host }),
    /** The id goes into the path raw. */
    paymentRequest: (o: { invoiceId: string }) => data(t.get(`/payment-request/${o.invoiceId}`, base(auth, undefined))),
    paymentRequestPay: (o: Opts) => data(t.post(`/payment-request/pay/${o.invoiceId}`, o.data, base(auth, undefined))),
  };

  // The stored wrapper builds feeManager.v1 with the token only: no serviceId header.
  const feeManagerV1 = {
    initBeta: (o: { mnemonic: string }) => data(t.get('/initBeta', base(auth, undefined, { mnemonic: o.mnemonic }))),
    /** Its spelling. */
    feeMetricesBeta: () => data(t.get('/feeMetricesBeta', base(auth, undefined))),
    feeAddressBeta: () => data(t.get('/feeAddressBeta', base(auth, undefined))),
    feeUtxoState: () => data(t.get('/feeUtxoState', base(auth, undefined))),
  };

  // utility.v1: the real SDK does not await these requests and resolves to undefined (an HTTP error becomes an
  // unhandled rejection). The replay awaits them and returns body.data, so tests can see what the server did.
  const utilityV1 = {
    uri: (o: { uri: string }) => data(t.get('/URI', base(auth, undefined, { uri: o.uri }))),
    /** satoshis must be a string for its validator. */
    currencyConversion: (o: { satoshis: string; currency: string }) =>
      data(t.get('/currencyConversion', base(auth, undefined, { satoshis: o.satoshis, currency: o.currency }))),
    transpile: (o: Opts) => data(t.post('/transpile', o.data, base(auth, undefined, { force: o.force }))),
    /** Its strict validator takes only `sourceCode` and the code posts `opts.data`: the body is always empty. */
    compile: (o: { sourceCode: string }) => {
      notAllowed(o, ['data']);
      return data(t.post('/compile', undefined, base(auth, undefined)));
    },
    /** Headers spelled `walletID` and `serviceid`, both required by its validator. */
    post: (o: Opts) => data(t.post('/post', o.data, base(auth, undefined, { walletID: o.walletID, serviceid: o.serviceid }))),
    upload: (o: Opts) => data(t.post('/upload', o.data, base(auth, undefined, { walletID: o.walletID, serviceid: o.serviceid }))),
  };

  const paymailV1 = {
    getPaymailDetails: (o: { paymailId: string }) => data(t.get(`/paymail/${o.paymailId}`, base(auth, svc))),
    updatePaymail: (o: Opts) => data(t.put('/paymail', o.data, base(auth, svc, { walletId: o.walletId }))),
    /** Posts to `/paymail/${opts.activate}`, a key its validator refuses: always `/v1/paymail/undefined`. */
    activatePaymail: (o: Opts) => {
      notAllowed(o, ['activate']);
      return data(t.post(`/paymail/${o.activate}`, o.data, base(auth, svc, { walletId: o.walletId })));
    },
  };

  const notificationV1 = {
    /** Puts to `/notificationToken/${opts.userId}`, a key its validator refuses: always `/undefined`. */
    notificationToken: (o: Opts) => {
      notAllowed(o, ['userId']);
      return data(t.put(`/notificationToken/${o.userId}`, o.data, base(auth, undefined)));
    },
    sendNotification: (o: Opts) => data(t.post('/sendNotification', o.data, base(auth, undefined))),
  };

  // delete.v1: not awaited by the real SDK either (it resolves to undefined); see utility.v1.
  const deleteV1 = {
    deleteUserAccount: () => data(t.delete('/user', base(auth, undefined))),
    deleteAllWallets: () => data(t.delete('/wallets', base(auth, undefined))),
    /**
     * `deleteRequest(url, opts.data, headers)`: the arguments are shifted, so the headers land in the isAdmin slot
     * (`DELETE /admin/v1/notificationToken/undefined`) and no token is sent.
     */
    notificationToken: (o: Opts = {}) => {
      notAllowed(o, ['userId', 'data']);
      const headers = base(auth, undefined);
      return data(t.delete(`/notificationToken/${o.userId}`, o.data, headers));
    },
  };

  const contractsV1 = {
    issue: (o: Opts) => data(t.post('/issue', o.data, base(auth, svc, { protocol: o.protocol }))),
    tokenDetails: (o: { id: string }) => data(t.get(`/token/${o.id}`, base(auth, undefined))),
    /** walletId is unreachable (its validator allows walletID, the code reads walletId). */
    redeem: (o: Opts) => {
      notAllowed(o, ['walletId']);
      return data(t.post('/redeem', o.data, base(auth, svc)));
    },
  };

  return {
    /** Every request sent, in order. */
    sent: t.sent,
    authentication: { v1: auth, auth },
    user: { v1: asyncMethods({ getUserDetails: () => data(t.get('/user', base(auth, svc))) }) },
    wallet: { v1: asyncMethods(walletV1), v2: asyncMethods(walletV2) },
    transaction: { v1: asyncMethods(transactionV1) },
    feeManager: { v1: asyncMethods(feeManagerV1) },
    utility: { v1: asyncMethods(utilityV1) },
    paymail: { v1: asyncMethods(paymailV1) },
    notification: { v1: asyncMethods(notificationV1) },
    delete: { v1: asyncMethods(deleteV1) },
    contracts: { v1: asyncMethods(contractsV1) },
  };
}

export type Relysia = ReturnType<typeof createRelysia>;

/** The axios-like rejection of a call, for tests that expect one (fails when the call succeeds). */
export async function rejection(p: Promise<unknown>): Promise<AxiosLikeError> {
  let value: unknown;
  try {
    value = await p;
  } catch (e) {
    if (e instanceof AxiosLikeError) return e;
    throw e;
  }
  throw new Error(`expected an HTTP error, got success: ${JSON.stringify(value)?.slice(0, 500)}`);
}

/**
 * A deliberate refusal, as a script sees it: a 4xx JSON envelope whose `data` has a code and a message
 * (not the unknown-route 404, which would mean the route the SDK calls is missing).
 */
export async function refusal(p: Promise<unknown>, status?: number | RegExp): Promise<{ status: number; code: string; msg: string }> {
  const e = await rejection(p);
  const { status: got, data } = e.response;
  const shown = `${got} ${typeof data === 'string' ? data.slice(0, 200) : JSON.stringify(data)}`;
  if (typeof data !== 'object' || data === null) throw new Error(`not a JSON envelope: ${shown}`);
  if (data.statusCode !== got) throw new Error(`statusCode differs from the HTTP status: ${shown}`);
  if (typeof data.data?.code !== 'string' || typeof data.data?.msg !== 'string') throw new Error(`no data.code and data.msg: ${shown}`);
  if (/^No route /.test(data.data.msg)) throw new Error(`the route the SDK calls does not exist: ${shown}`);
  if (status instanceof RegExp ? !status.test(String(got)) : status !== undefined ? got !== status : got < 400 || got >= 500)
    throw new Error(`expected status ${status ?? '4xx'}: ${shown}`);
  return { status: got, code: data.data.code, msg: data.data.msg };
}
