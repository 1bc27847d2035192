import type { Credentials } from '../../main/engine/context.js';
import { meta, testEngine, type TestEngine } from './engine.js';
import { ADMIN } from './http.js';

/** An engine with a set-up organisation: its admin, and a way to add a user of a role and log them in. */
export interface EngineOrg {
  t: TestEngine;
  admin: Credentials;
  userWithRole(email: string, role: string): Promise<Credentials>;
}

export async function setUpEngineOrg(): Promise<EngineOrg> {
  const t = testEngine();
  const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
  const admin = { authToken: s.authToken, serviceId: s.serviceId };
  return {
    t,
    admin,
    async userWithRole(email, role) {
      await t.engine.execute('createUser', { email, password: 'user-password-1', role }, admin, meta);
      const l = (await t.engine.execute('login', { email, password: 'user-password-1' }, {}, meta)).output;
      return { authToken: l.authToken, serviceId: l.serviceId };
    },
  };
}

/** An operation's output, or the domain error's code and message: for asserting a refusal. */
export async function attempt<T>(
  p: Promise<{ output: T }>,
): Promise<{ ok: true; output: T } | { ok: false; code: string; message: string }> {
  try {
    return { ok: true, output: (await p).output };
  } catch (e) {
    const err = e as { code?: string; message: string };
    return { ok: false, code: err.code ?? 'THROWN', message: err.message };
  }
}
