import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { openApiDocument } from '../../shared/openapi.js';
import { defineRoute } from '../../shared/route.js';
import { CHAIN_ROUTES, MAX_FAUCET } from '../../shared/routes/chain.js';
import { PAYMAIL_ROUTES } from '../../shared/routes/paymail.js';
import { buildServer } from '../../main/server/app.js';
import { registerRoute } from '../../main/server/route-binding.js';
import { meta, testEngine, type TestEngine } from '../helpers/engine.js';
import { inProcessChain } from '../../main/chain/local/local-chain.js';
import { ADMIN, request } from '../helpers/http.js';

/**
 * The routes that are not operations are each defined once (shared/routes/), and that one definition
 * drives both what the server accepts (a request its schemas refuse gets the route's own error shape) and
 * what the OpenAPI document says (the same schemas). Change a schema and both change.
 */
describe('route definitions: one schema for validation and for the OpenAPI document', () => {
  it('a definition registered on a server refuses what its schemas refuse, in its own shape, and is listed from the same schemas', async () => {
    const route = defineRoute({
      method: 'GET',
      path: '/things/:id',
      tag: { name: 'things', description: 'Things.' },
      auth: 'none',
      summary: 'A thing.',
      params: z.object({ id: z.string().regex(/^[a-f]{4}$/) }),
      query: z.object({ verbose: z.enum(['yes', 'no']).optional() }),
      response: z.object({ id: z.string(), verbose: z.boolean() }),
      refusal: { status: 404, body: { error: 'no such thing' } },
    });
    const app = Fastify();
    registerRoute(app, route, {
      handler: async (_req, reply, { params, query }) => reply.send({ id: params.id, verbose: query.verbose === 'yes' }),
    });
    try {
      const good = await app.inject({ url: '/things/abcd?verbose=yes' });
      assert.deepEqual([good.statusCode, good.json()], [200, { id: 'abcd', verbose: true }]);
      for (const url of ['/things/abcz', '/things/abcd?verbose=maybe']) {
        const bad = await app.inject({ url });
        assert.deepEqual([bad.statusCode, bad.json()], [404, { error: 'no such thing' }], url);
      }
    } finally {
      await app.close();
    }

    const item = (openApiDocument([], { version: 't' }, [route]) as any).paths['/things/{id}'].get;
    assert.deepEqual(item.parameters, [
      { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-f]{4}$' } },
      { name: 'verbose', in: 'query', required: false, schema: { type: 'string', enum: ['yes', 'no'] } },
    ]);
    assert.deepEqual(item.responses[404].content['application/json'].example, { error: 'no such thing' });
  });

  it("without a refusal of its own, a refused request is the server's validation error", async () => {
    const route = defineRoute({
      method: 'POST',
      path: '/count',
      tag: { name: 'things', description: 'Things.' },
      auth: 'none',
      summary: 'Counts.',
      body: z.object({ n: z.number().int() }),
      response: z.object({ n: z.number() }),
    });
    const app = Fastify();
    let caught: unknown;
    app.setErrorHandler((err, _req, reply) => {
      caught = err;
      return reply.code(400).send({ refused: true });
    });
    registerRoute(app, route, { handler: async (_req, reply, { body }) => reply.send({ n: body.n }) });
    try {
      assert.equal((await app.inject({ method: 'POST', url: '/count', payload: { n: 2 } })).statusCode, 200);
      assert.equal((await app.inject({ method: 'POST', url: '/count', payload: { n: 'two' } })).statusCode, 400);
      assert.equal((caught as { code?: string }).code, 'VALIDATION_FAILED');
      assert.match((caught as Error).message, /^body\.n: /);
    } finally {
      await app.close();
    }
  });

  describe('on the real server', () => {
    let t: TestEngine;
    let server: FastifyInstance;
    let base = '';
    let doc: any;

    before(async () => {
      t = testEngine();
      server = await buildServer({ engine: t.engine, node: inProcessChain(t.node) });
      await server.listen({ host: '127.0.0.1', port: 0 });
      base = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
      const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
      await t.engine.execute(
        'createWallet',
        { walletTitle: 'Shop', paymail: 'shop', paymailActivate: true },
        { authToken: s.authToken, serviceId: s.serviceId },
        meta,
      );
      doc = (await request(base, 'GET', '/openapi.json')).body;
    });
    after(async () => {
      await server.close();
      t.engine.close();
      t.node.close();
    });

    it("a path parameter: WhatsOnChain's block header refuses a height that is not a number as it always did, and documents the pattern", async () => {
      const bad = await request(base, 'GET', '/chain/woc/v1/bsv/local/block/tip/header');
      assert.deepEqual([bad.status, bad.body], [404, { error: 'block not found' }]);
      assert.equal((await request(base, 'GET', '/chain/woc/v1/bsv/local/block/0/header')).body.height, 0);

      const height = doc.paths['/chain/woc/v1/bsv/local/block/{height}/header'].get.parameters[0];
      assert.deepEqual([height.name, height.in, height.required], ['height', 'path', true]);
      const pattern = new RegExp(height.schema.pattern);
      assert.ok(pattern.test('12') && !pattern.test('tip'), 'the pattern the server checks');
    });

    it("a body: ARC and the faucet refuse a malformed one with ARC's problem details, and document the body they take", async () => {
      const arc = await request(base, 'POST', '/chain/arc/v1/tx', { body: { rawTx: 'not hex' } });
      assert.deepEqual(
        [arc.status, arc.body],
        [400, { status: 400, title: 'Bad request', detail: 'Send {"rawTx": "<hex>"} as JSON, or the hex as text/plain.' }],
      );
      const faucet = await request(base, 'POST', '/chain/dev/faucet', {
        body: { address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT', satoshis: MAX_FAUCET + 1 },
      });
      assert.deepEqual([faucet.status, faucet.body.detail], [400, `Send {"address", "satoshis"} (1 to ${MAX_FAUCET}).`]);
      const mine = await request(base, 'POST', '/chain/dev/mine', { body: { blocks: 101 } });
      assert.deepEqual([mine.status, mine.body.detail], [400, 'blocks: 1 to 100']);
      const raw = await request(base, 'POST', '/chain/woc/v1/bsv/local/tx/raw', { body: { hex: 'ab' } });
      assert.deepEqual(
        [raw.status, raw.body, raw.headers.get('content-type')],
        [400, 'send {"txhex": "<hex>"}', 'text/plain; charset=utf-8'],
      );

      const faucetBody = doc.paths['/chain/dev/faucet'].post.requestBody.content['application/json'].schema;
      assert.deepEqual(faucetBody.required, ['address', 'satoshis']);
      assert.equal(faucetBody.properties.satoshis.maximum, MAX_FAUCET);
      assert.deepEqual(
        doc.paths['/chain/dev/faucet'].post.responses[400].content['application/json'].example,
        CHAIN_ROUTES.faucet.refusal.body,
      );
      assert.equal(doc.paths['/chain/dev/mine'].post.requestBody.required, false, 'mine takes no body (one block)');
    });

    it("a paymail body: checked by the host with the route's schema, after the paymail is found, in the protocol's shape", async () => {
      const path = (handle: string) => `/api/bsvalias/p2p-payment-destination/${handle}`;
      const bad = await request(base, 'POST', path('shop@acme.test'), { body: { satoshis: -1 } });
      assert.deepEqual([bad.status, bad.body], [400, { code: 'bad-request', message: 'satoshis must be a positive whole number.' }]);
      const unknown = await request(base, 'POST', path('nobody@acme.test'), { body: { satoshis: -1 } });
      assert.deepEqual([unknown.status, unknown.body.code], [404, 'not-found'], 'an unknown paymail is said first');
      assert.equal((await request(base, 'POST', path('shop@acme.test'), { body: { satoshis: 1000 } })).status, 200);

      const p2p = doc.paths['/api/bsvalias/p2p-payment-destination/{handle}'].post;
      assert.deepEqual(p2p.requestBody.content['application/json'].schema, {
        type: 'object',
        properties: { satoshis: { type: 'integer', exclusiveMinimum: 0, maximum: Number.MAX_SAFE_INTEGER } },
        required: ['satoshis'],
      });
      assert.ok(PAYMAIL_ROUTES.p2pDestination.body.safeParse({ satoshis: 1 }).success, 'the schema the host checks');
      assert.deepEqual(
        p2p.parameters.map((p: any) => [p.name, p.in]),
        [['handle', 'path']],
      );
    });

    it('the event stream: a ticket sent twice is refused as an unknown ticket, and its query and header parameters are documented', async () => {
      const twice = await request(base, 'GET', '/v1/events?ticket=a&ticket=b');
      assert.deepEqual([twice.status, twice.body.data.code], [401, 'INVALID_CREDENTIALS']);
      const events = doc.paths['/v1/events'].get;
      assert.deepEqual(
        events.parameters.map((p: any) => [p.name, p.in, p.required]),
        [
          ['ticket', 'query', false],
          ['lastEventId', 'query', false],
          ['last-event-id', 'header', false],
        ],
      );
      assert.ok(events.security, 'credentials, as on the operations');
    });
  });
});
