import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ApiError, createApiClient, UnexpectedAnswerError, UnreachableError } from '../../shared/api-client.js';
import { restRequest, rpcRequest } from '../../shared/api-request.js';
import { OPERATIONS } from '../../shared/operations.js';

const OUTPUTS = [{ script: '76a914' + '00'.repeat(20) + '88ac', satoshis: 5000 }];

describe('the REST request for an operation: the inverse of how the server reads its route', () => {
  it('pay: POST /v1/pay, the wallet and the idempotency key in their headers, the rest as the body', () => {
    assert.deepEqual(
      restRequest(OPERATIONS.pay, { outputs: OUTPUTS, memo: 'm', reviewId: 'ab', walletId: 'w-1', idempotencyKey: 'invoice-77' }),
      {
        method: 'POST',
        path: '/v1/pay',
        headers: { walletID: 'w-1', 'idempotency-key': 'invoice-77' },
        body: { outputs: OUTPUTS, memo: 'm', reviewId: 'ab' },
      },
    );
    assert.deepEqual(
      restRequest(OPERATIONS.pay, { outputs: OUTPUTS }),
      { method: 'POST', path: '/v1/pay', headers: {}, body: { outputs: OUTPUTS } },
      'nothing not given',
    );
  });

  it('the routes the CLI and the benchmarks call', () => {
    assert.deepEqual(restRequest(OPERATIONS.quotePayment, { outputs: OUTPUTS, walletId: 'w' }), {
      method: 'POST',
      path: '/v1/pay/quote',
      headers: { walletID: 'w' },
      body: { outputs: OUTPUTS },
    });
    assert.deepEqual(restRequest(OPERATIONS.resolveUri, { uri: 'a@b.test', amount: undefined, walletId: undefined }), {
      method: 'POST',
      path: '/v1/URI',
      headers: {},
      body: { uri: 'a@b.test' },
    });
    assert.deepEqual(restRequest(OPERATIONS.history, { walletId: 'w', maxResults: 20 }), {
      method: 'GET',
      path: '/v1/history',
      headers: { walletID: 'w', maxResults: '20' },
    });
    assert.deepEqual(restRequest(OPERATIONS.listWallets, {}), { method: 'GET', path: '/v1/wallets', headers: {} });
  });

  it('path parameters and query strings', () => {
    assert.deepEqual(restRequest(OPERATIONS.tokenDetails, { id: 'ab/c d' }), {
      method: 'GET',
      path: '/api/v1/token/ab%2Fc%20d',
      headers: {},
    });
    assert.deepEqual(restRequest(OPERATIONS.convertAmount, { amount: 1000, currency: 'USD' }), {
      method: 'GET',
      path: '/v1/convert?amount=1000&currency=USD',
      headers: {},
    });
  });

  it('refuses a field the route has no place for, or that a header cannot carry', () => {
    assert.throws(() => restRequest(OPERATIONS.history, { walletId: 'w', colour: 'red' }), /GET \/v1\/history has no place for colour/);
    assert.throws(() => restRequest(OPERATIONS.tokenDetails, {}), /id is part of the path/);
    assert.throws(() => restRequest(OPERATIONS.pay, { outputs: OUTPUTS, idempotencyKey: { a: 1 } }), /travels in a header/);
    assert.throws(() => restRequest(OPERATIONS.pay, [] as never), /must be an object/);
  });

  it('the UI calls every operation as POST /rpc/<name> with its whole input', () => {
    assert.deepEqual(rpcRequest(OPERATIONS.pay, { outputs: OUTPUTS, walletId: 'w' }), {
      method: 'POST',
      path: '/rpc/pay',
      headers: {},
      body: { outputs: OUTPUTS, walletId: 'w' },
    });
    assert.deepEqual(rpcRequest(OPERATIONS.me, undefined as never).body, {});
  });
});

describe('the client on the wire', () => {
  const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  let answer: { status: number; body: string } = { status: 200, body: '' };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  let url = '';
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  it('sends what the CLI sent before it was typed: path, credentials, walletID, idempotency-key, JSON body', async () => {
    const paid = {
      txid: 'aa',
      fee: 1,
      feePaidBy: 'wallet',
      delivered: 'broadcast',
      walletID: 'w',
      state: 'pending',
      seenByChain: true,
      peerTxid: null,
    };
    answer = {
      status: 200,
      body: JSON.stringify({ statusCode: 200, data: { status: 'success', msg: 'Transaction sent successfully', ...paid } }),
    };
    const api = createApiClient({ baseUrl: url, routes: 'rest', headers: { authToken: 'kst_t' } });
    const r = await api.call(OPERATIONS.pay, { outputs: OUTPUTS, reviewId: 'ab', walletId: 'w', idempotencyKey: 'k-1' });
    assert.deepEqual(r, { status: 'success', msg: 'Transaction sent successfully', output: paid });
    const req = seen.at(-1)!;
    assert.deepEqual([req.method, req.url, req.body], ['POST', '/v1/pay', JSON.stringify({ outputs: OUTPUTS, reviewId: 'ab' })]);
    assert.deepEqual(
      [req.headers.authtoken, req.headers.walletid, req.headers['idempotency-key'], req.headers['content-type']],
      ['kst_t', 'w', 'k-1', 'application/json'],
    );

    await api.call(OPERATIONS.history, { walletId: 'w', maxResults: 5 });
    const get = seen.at(-1)!;
    assert.deepEqual(
      [get.method, get.url, get.body, get.headers.maxresults, get.headers['content-type']],
      ['GET', '/v1/history', '', '5', undefined],
    );
  });

  it('the UI: POST /rpc/<name> with the session as a bearer token', async () => {
    answer = { status: 200, body: JSON.stringify({ statusCode: 200, data: { status: 'success', msg: 'ok', revoked: true } }) };
    const api = createApiClient({ baseUrl: url, routes: 'rpc' });
    await api.call(OPERATIONS.logout, {}, { authorization: 'Bearer kst_t' });
    const req = seen.at(-1)!;
    assert.deepEqual([req.method, req.url, req.body, req.headers.authorization], ['POST', '/rpc/logout', '{}', 'Bearer kst_t']);
  });

  it('errors: the API refusing, something else answering, nothing answering', async () => {
    const api = createApiClient({ baseUrl: url, routes: 'rest' });
    answer = {
      status: 422,
      body: JSON.stringify({ statusCode: 422, data: { status: 'error', msg: 'No.', code: 'VALIDATION_FAILED', errors: ['x'] } }),
    };
    await assert.rejects(
      api.call(OPERATIONS.listWallets, {}),
      (e: ApiError) =>
        e.code === 'VALIDATION_FAILED' &&
        e.kind === 'invalid' &&
        e.message === 'No.' &&
        (e as ApiError & { errors: string[] }).errors[0] === 'x',
    );
    answer = { status: 502, body: '<html>Bad gateway</html>' };
    await assert.rejects(api.call(OPERATIONS.listWallets, {}), (e: unknown) => e instanceof UnexpectedAnswerError && e.httpStatus === 502);
    const gone = createApiClient({ baseUrl: 'http://127.0.0.1:9', routes: 'rest' });
    await assert.rejects(gone.call(OPERATIONS.listWallets, {}), (e: unknown) => e instanceof UnreachableError && e.kind === 'unavailable');
  });
});
