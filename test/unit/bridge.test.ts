import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { registerIpc } from '../../main/electron/ipc.js';
import type { Vault } from '../../main/host/vault.js';
import { createBridge } from '../../preload/bridge.js';
import { IPC, OP_CHANNELS } from '../../shared/bridge.js';
import { OPERATION_NAMES } from '../../shared/operations.js';

describe('preload bridge', () => {
  it('exposes exactly the named operations and vault functions, each bound to its own channel', async () => {
    const calls: unknown[][] = [];
    const bridge = createBridge({ invoke: async (...args) => (calls.push(args), 'r') });
    assert.deepEqual(Object.keys(bridge).sort(), ['host', 'ops', 'vault']);
    assert.deepEqual(Object.keys(bridge.ops).sort(), [...OPERATION_NAMES].sort());
    assert.deepEqual(Object.keys(bridge.vault).sort(), ['setup', 'status', 'unlock']);
    assert.ok(Object.isFrozen(bridge) && Object.isFrozen(bridge.ops) && Object.isFrozen(bridge.vault));
    await bridge.ops.me({}, { authToken: 'tok', serviceId: 'svc' });
    await bridge.ops.login({ email: 'a@b.co', password: 'x' });
    await bridge.vault.status();
    assert.deepEqual(calls, [
      [IPC.op('me'), {}, { authToken: 'tok', serviceId: 'svc' }],
      [IPC.op('login'), { email: 'a@b.co', password: 'x' }, { authToken: undefined, serviceId: undefined }],
      [IPC.vaultStatus],
    ]);
    // No generic passthrough: nothing accepts a channel name.
    for (const fn of Object.values(bridge.ops)) assert.ok(fn.length <= 2);
    assert.equal((bridge as unknown as Record<string, unknown>).invoke, undefined);
  });
});

describe('IPC registration', () => {
  function fakeIpc() {
    const handlers = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown>();
    return { handlers, ipcMain: { handle: (ch: string, fn: never) => handlers.set(ch, fn) } as unknown as IpcMain };
  }
  const event = (url: string | undefined, id = 7) => ({ senderFrame: url === undefined ? null : { url }, sender: { id } }) as unknown as IpcMainInvokeEvent;

  it('registers one handler per bridge channel and refuses untrusted senders', async () => {
    const seen: unknown[][] = [];
    const vault = {
      status: () => ({ exists: true }),
      setup: async (i: unknown) => (seen.push(['setup', i]), { ok: true }),
      unlock: async (i: unknown) => (seen.push(['unlock', i]), { ok: true }),
      execute: async (...args: unknown[]) => (seen.push(['execute', ...args]), { ok: true }),
    } as unknown as Vault;
    const { handlers, ipcMain } = fakeIpc();
    registerIpc(ipcMain, vault);
    assert.deepEqual([...handlers.keys()].sort(), [IPC.vaultStatus, IPC.vaultSetup, IPC.vaultUnlock, ...OP_CHANNELS].sort());

    const trusted = event('app://keystead/index.html');
    assert.deepEqual(await handlers.get(IPC.vaultStatus)!(trusted), { exists: true });
    await handlers.get(IPC.op('me'))!(trusted, {}, { authToken: 'tok', serviceId: 'svc', extra: 'dropped' });
    await handlers.get(IPC.op('me'))!(trusted, {}, 'not an object');
    await handlers.get(IPC.op('me'))!(trusted, {}, { authToken: 42 });
    assert.deepEqual(seen, [
      ['execute', 'me', {}, { authToken: 'tok', serviceId: 'svc' }, 'ipc:7'],
      ['execute', 'me', {}, {}, 'ipc:7'],
      ['execute', 'me', {}, { authToken: undefined, serviceId: undefined }, 'ipc:7'],
    ]);
    for (const url of ['https://evil.com/', 'app://other/', undefined, 'file:///index.html']) {
      for (const ch of handlers.keys()) assert.throws(() => handlers.get(ch)!(event(url), {}), /untrusted sender/, `${ch} from ${url}`);
    }
    assert.equal(seen.length, 3, 'nothing reached the vault from untrusted senders');
  });
});
