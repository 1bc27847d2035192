import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { canCall, OPERATION_NAMES, OPERATIONS, type OperationName } from '../../shared/operations.js';
import { ROLES, type Role } from '../../shared/roles.js';
import { REST_ROUTES } from '../../main/server/routes.js';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';
import { untilValue } from '../helpers/until.js';

const PASSWORD = 'role-password-1';

describe('permission matrix: every operation as every role, over real HTTP', () => {
  let host: Headless;
  let serviceId = '';
  const tokens = {} as Record<Role, string>;
  const emails = {} as Record<Role, string>;

  const login = async (role: Role) => {
    const r = await request(host.url, 'POST', '/api/v1/login', {
      body: { email: emails[role], password: role === 'admin' ? ADMIN.password : PASSWORD },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data.authToken as string;
  };

  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw' });
    const setup = await request(host.url, 'POST', '/api/v1/setup', { body: ADMIN });
    serviceId = setup.body.data.serviceId;
    tokens.admin = setup.body.data.authToken;
    emails.admin = ADMIN.email;
    for (const role of ROLES.filter((r) => r !== 'admin')) {
      emails[role] = `${role}@acme.io`;
      const r = await request(host.url, 'POST', '/api/v1/createUser', {
        body: { email: emails[role], password: PASSWORD, role, firstName: role, lastName: 'Test', title: '' },
        headers: { authToken: tokens.admin, serviceid: serviceId },
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      tokens[role] = await login(role);
    }
  });
  after(() => host.stop());

  let leavers = 0;
  /** A throwaway user of the role, signed in: deleting one's account must not end the shared users. */
  async function throwawayUser(role: Role): Promise<string> {
    const email = `leaver-${role}-${++leavers}@acme.io`;
    const r = await request(host.url, 'POST', '/api/v1/createUser', {
      body: { email, password: PASSWORD, role, firstName: role, lastName: 'Leaver', title: '' },
      headers: { authToken: tokens.admin, serviceid: serviceId },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const session = await request(host.url, 'POST', '/api/v1/login', { body: { email, password: PASSWORD } });
    return session.body.data.authToken as string;
  }

  /** Calls as the role. Logout would end the shared session, and deleting one's account the user: they get throwaway ones. */
  async function callAs(role: Role, op: OperationName, method: string, url: string) {
    const authToken = op === 'logout' ? await login(role) : op === 'deleteAccount' ? await throwawayUser(role) : tokens[role];
    return request(host.url, method, url, { headers: { authToken, serviceid: serviceId }, ...(method === 'GET' ? {} : { body: {} }) });
  }

  /** Operations open to everyone whose answer is always a refusal that says why (the public service's sign-up and e-mail reset). */
  const ALWAYS_REFUSED: Partial<Record<OperationName, string>> = {
    signUp: 'SIGN_UP_CLOSED',
    requestPasswordReset: 'PASSWORD_RESET_BY_ADMIN',
  };

  function check(op: OperationName, role: Role, r: { status: number; body: any }, where: string) {
    const refusal = ALWAYS_REFUSED[op];
    if (refusal) {
      assert.equal(r.status, 403, where);
      assert.equal(r.body.data.code, refusal, where);
    } else if (canCall(role, op)) {
      // A step-up (the account password again) is not a refusal of the role.
      const stepUp = r.status === 403 && r.body.data.code === 'PASSWORD_REQUIRED';
      assert.ok(
        stepUp || ![401, 403].includes(r.status),
        `${where} as ${role} should be allowed, got ${r.status} ${JSON.stringify(r.body)}`,
      );
    } else {
      assert.equal(r.status, 403, `${where} as ${role} should be refused, got ${r.status} ${JSON.stringify(r.body)}`);
      assert.equal(r.body.data.code, 'ROLE_FORBIDDEN', where);
    }
  }

  it('the UI RPC enforces the table for every operation', async () => {
    for (const op of OPERATION_NAMES) {
      for (const role of ROLES) check(op, role, await callAs(role, op, 'POST', `/rpc/${op}`), `rpc ${op}`);
    }
  });

  it('every REST route enforces the table', async () => {
    for (const route of REST_ROUTES) {
      for (const role of ROLES)
        check(route.op, role, await callAs(role, route.op, route.method, route.url), `${route.method} ${route.url}`);
    }
  });

  it("the spec's role rules hold exactly", () => {
    const allowed = (op: OperationName) => ROLES.filter((r) => canCall(r, op));
    for (const op of ['createUser', 'updateUser', 'deleteUser'] as const) assert.deepEqual(allowed(op), ['admin']);
  });

  it('every authenticated operation answers 401 without credentials', async () => {
    for (const op of OPERATION_NAMES) {
      // The offline toolchain's utilities run without credentials (rate-limited per client).
      if (OPERATIONS[op].access === 'public' || OPERATIONS[op].credentialsOptional) continue;
      const r = await request(host.url, 'POST', `/rpc/${op}`, { body: {} });
      assert.equal(r.status, 401, op);
      assert.equal(r.body.data.code, 'UNAUTHORIZED', op);
    }
  });

  it('enterprise operations refuse a missing or wrong serviceid', async () => {
    for (const op of OPERATION_NAMES.filter((o) => 'enterprise' in OPERATIONS[o] && OPERATIONS[o].enterprise)) {
      for (const serviceid of [undefined, 'not-our-service']) {
        const headers: Record<string, string> = { authToken: tokens.admin };
        if (serviceid) headers.serviceid = serviceid;
        const r = await request(host.url, 'POST', `/rpc/${op}`, { body: {}, headers });
        assert.equal(r.status, 403, `${op} with serviceid ${serviceid}`);
        assert.equal(r.body.data.code, 'SERVICE_MISMATCH');
      }
    }
  });

  it('a deleted user is refused at once (401) on token and key', async () => {
    const admin = { authToken: tokens.admin, serviceid: serviceId };
    const created = await request(host.url, 'POST', '/api/v1/createUser', {
      body: { email: 'leaver@acme.io', password: PASSWORD, role: 'operator', firstName: 'L', lastName: 'L', title: '' },
      headers: admin,
    });
    const uid = created.body.data.uid;
    const session = await request(host.url, 'POST', '/api/v1/login', { body: { email: 'leaver@acme.io', password: PASSWORD } });
    const token = session.body.data.authToken;
    const key = await request(host.url, 'POST', '/api/v1/apiKeys', {
      body: { label: 'cron' },
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(key.status, 200);
    const byKey = { uid, apikey: key.body.data.apiKey };
    assert.equal((await request(host.url, 'GET', '/api/v1/me', { headers: byKey })).status, 200);
    const del = await request(host.url, 'POST', '/api/v1/deleteUser', { body: { userId: uid }, headers: admin });
    assert.deepEqual(del.body.data, { status: 'success', msg: 'User deleted successfully.', userId: uid });
    for (const headers of [{ authToken: token }, byKey]) {
      const r = await request(host.url, 'GET', '/api/v1/me', { headers });
      assert.equal(r.status, 401);
      assert.equal(r.body.data.code, 'INVALID_CREDENTIALS');
    }
  });

  it('the audit log records the actions, readable over REST with paging', async () => {
    const r = await request(host.url, 'GET', '/api/v1/audit?limit=5', { headers: { authToken: tokens.admin, serviceid: serviceId } });
    assert.equal(r.status, 200);
    assert.equal(r.body.data.entries.length, 5);
    assert.equal(r.body.data.entries[0].action, 'deleteUser');
    assert.equal(typeof r.body.data.meta.nextPageToken, 'number');
    const bad = await request(host.url, 'GET', '/api/v1/audit?limit=abc', { headers: { authToken: tokens.admin, serviceid: serviceId } });
    assert.equal(bad.status, 400);
  });
});

describe('token lifetime over HTTP', () => {
  it('an expired token answers 401 TOKEN_EXPIRED, and never before its expiresAt', async () => {
    const host = await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--session-ttl', '1'] });
    try {
      const s = await request(host.url, 'POST', '/api/v1/setup', { body: ADMIN });
      const expiresAt = Date.parse(s.body.data.expiresAt);
      // The host is another process on the real clock, so the test asks until the token runs out rather than
      // moving time (the engine's own tests do that). Host and test read the same clock: an answer that came back
      // before expiresAt was given before it, so it must be a 200; the refusal can only come back after it.
      const ask = async () => {
        const r = await request(host.url, 'GET', '/api/v1/me', { headers: { authToken: s.body.data.authToken } });
        const answeredAt = Date.now();
        const early = expiresAt - answeredAt;
        if (early > 0) assert.equal(r.status, 200, `refused ${early} ms before expiresAt: ${JSON.stringify(r.body)}`);
        return { status: r.status, code: r.body.data.code as string | undefined, answeredAt };
      };
      const refused = await untilValue('the token to expire', ask, (a) => a.status !== 200, 10_000);
      assert.deepEqual([refused.status, refused.code], [401, 'TOKEN_EXPIRED']);
      assert.ok(refused.answeredAt >= expiresAt, `refused ${expiresAt - refused.answeredAt} ms before expiresAt`);
    } finally {
      await host.stop();
    }
  });
});
