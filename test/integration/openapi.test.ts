import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { REST_ROUTES } from '../../main/server/routes.js';
import { ROOT, startHeadless, type Headless } from '../helpers/headless.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * GET /openapi.json: the OpenAPI 3.1 document derived from the operation contracts, valid under a standard
 * validator, naming every REST route the server answers, each of which the README's route table lists.
 */
describe('the OpenAPI document', () => {
  let host: Headless;
  let doc: any;
  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw' });
    const r = await fetch(`${host.url}/openapi.json`);
    assert.equal(r.status, 200);
    doc = await r.json();
  });
  after(() => host.stop());

  it('is valid OpenAPI 3.1 (a standard validator), with the security schemes the server reads', async () => {
    const result = await new Validator().validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['apikey', 'authToken', 'bearer', 'uid']);
  });

  it('has every REST route, with its roles, parameters, body and envelopes', () => {
    for (const route of REST_ROUTES) {
      const item = doc.paths[route.url.replace(/:(\w+)/g, '{$1}')];
      assert.ok(item?.[route.method.toLowerCase()], `${route.method} ${route.url} is in the document`);
    }
    const pay = doc.paths['/v1/pay'].post;
    assert.match(pay.description, /Roles: admin, manager, operator, api_user/);
    assert.ok(pay.requestBody.content['application/json'].schema.properties, 'the body schema');
    assert.ok(pay.parameters.some((p: any) => p.name === 'idempotency-key' && p.in === 'header'));
    assert.equal(pay.responses.default.content['application/json'].schema.$ref, '#/components/schemas/ErrorEnvelope');
    // The paymail host's and the local node's own routes are listed too, with their path parameters.
    assert.ok(doc.paths['/.well-known/bsvalias'].get);
    assert.deepEqual(
      doc.paths['/api/bsvalias/receive-transaction/{handle}'].post.parameters.map((p: any) => p.name),
      ['handle'],
    );
    assert.ok(doc.paths['/chain/arc/v1/tx'].post);
    // … each with its request and response shape (a route registered without one fails here).
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(methods)) {
        if (!['paymail host', 'local node', 'live events'].includes(op.tags?.[0])) continue;
        const content = Object.values(op.responses[200].content as Record<string, { schema: object }>)[0];
        assert.ok(Object.keys(content.schema).length > 0, `${method.toUpperCase()} ${path} has no response schema`);
        if (method === 'post' && !path.endsWith('/mempool'))
          assert.ok(op.requestBody, `${method.toUpperCase()} ${path} has no request schema`);
      }
    }
    assert.deepEqual(doc.paths['/api/bsvalias/beef/{handle}'].post.requestBody.content['application/json'].schema.required, [
      'beef',
      'reference',
    ]);
    assert.ok(doc.paths['/v1/events'].get.responses[200].content['text/event-stream']);
    assert.match(doc.paths['/chain/faucet'].post.description, /Roles: admin, manager/, 'an operation route keeps its contract');
    const compile = doc.paths['/v1/compile'].post;
    assert.ok(compile.requestBody.content['application/json'].schema.properties.imports, 'schemas follow the contracts');
  });

  it("every route in the document is in the README's route table, so the two cannot drift apart", () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const listed = new Set([...readme.matchAll(/`(GET|POST|DELETE|PUT) (\/[^`\s]+)`/g)].map((m) => `${m[1]} ${m[2]}`));
    const missing = REST_ROUTES.map((r) => `${r.method} ${r.url}`).filter((r) => !listed.has(r));
    assert.deepEqual(missing, []);
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${p}`),
    );
    for (const own of ['GET /health', 'GET /openapi.json', 'POST /rpc/{operation}']) {
      assert.ok(documented.includes(own), `${own} is in the document`);
      assert.ok(listed.has(own), `${own} is in the README`);
    }
  });
});
