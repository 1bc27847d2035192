import assert from 'node:assert/strict';
import type { Headless } from './headless.js';
import { ADMIN, request } from './http.js';

/** A set-up organisation on a running instance: its admin's token and the serviceid enterprise routes need. */
export interface Org {
  host: Headless;
  auth: Record<string, string>;
  serviceid: string;
}

export async function setUpOrg(host: Headless): Promise<Org> {
  const s = await request(host.url, 'POST', '/api/v1/setup', { body: ADMIN });
  return { host, auth: { authToken: s.body.data.authToken }, serviceid: s.body.data.serviceId };
}

/** A request as the organisation's admin (token and serviceid added). */
export const orgCall = (o: Org, method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}) =>
  request(o.host.url, method, path, { ...opts, headers: { ...o.auth, serviceid: o.serviceid, ...opts.headers } });

/** Creates a wallet and returns its walletID. */
export async function createOrgWallet(o: Org, body: object): Promise<string> {
  const r = await orgCall(o, 'POST', '/v1/createWallet', { body });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.data.walletID;
}
