import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startRuntime } from '../../main/host/runtime.js';
import { ApiError } from '../../renderer/api/client.js';
import { createHttpClient } from '../../renderer/api/http.js';
import { createSessionStore } from '../../renderer/state/session.js';
import { OPERATIONS } from '../../shared/operations.js';
import { ADMIN } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

function memoryStorage() {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
    m,
  };
}

describe('renderer session store over the HTTP client, against a real server', async () => {
  const runtime = await startRuntime({
    dataDir: tempDir(),
    password: 'pw',
    port: 0,
    network: 'local',
    version: '9.9.9',
    sessionTtlSeconds: 3600,
  });
  after(() => runtime.close());
  const client = createHttpClient(runtime.url, () => runtime.url);

  it('walks first run → ready → logout → login, and a restart of the page resumes the session', async () => {
    const storage = memoryStorage();
    const store = createSessionStore(client, storage);
    await store.getState().start();
    assert.equal(store.getState().phase, 'firstRun');
    assert.equal(store.getState().version, '9.9.9');

    await store.getState().setup(ADMIN);
    assert.equal(store.getState().phase, 'ready');
    assert.equal(store.getState().me?.organisation, 'Acme Ltd');
    assert.equal(store.getState().role(), 'admin');
    assert.ok(storage.m.get('keystead.authToken'));

    const reloaded = createSessionStore(client, storage);
    await reloaded.getState().start();
    assert.equal(reloaded.getState().phase, 'ready', 'the saved token resumes the session');

    await store.getState().logout();
    assert.equal(store.getState().phase, 'login');
    assert.equal(storage.m.size, 0);
    const third = createSessionStore(client, storage);
    await third.getState().start();
    assert.equal(third.getState().phase, 'login');

    await assert.rejects(
      third.getState().login(ADMIN.email, 'wrong-pass-1'),
      (e: ApiError) => e.code === 'INVALID_CREDENTIALS' && e.kind === 'unauthenticated',
    );
    await third.getState().login(ADMIN.email, ADMIN.password);
    assert.equal(third.getState().phase, 'ready');
  });

  it('a revoked token sends the user back to login', async () => {
    const store = createSessionStore(client, null);
    await store.getState().start();
    await store.getState().login(ADMIN.email, ADMIN.password);
    await client.call(OPERATIONS.logout, {}, { authToken: store.getState().authToken! });
    await assert.rejects(store.getState().call(OPERATIONS.me, {}), (e: ApiError) => e.kind === 'unauthenticated');
    assert.equal(store.getState().phase, 'login');
  });

  it('reports an unreachable server', async () => {
    const store = createSessionStore(
      createHttpClient('http://127.0.0.1:1', () => ''),
      null,
    );
    await store.getState().start();
    assert.equal(store.getState().phase, 'unreachable');
    assert.match(store.getState().startError!, /Cannot reach/);
  });
});
