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
    const bridge = createBridge({
      invoke: async (...args) => (calls.push(args), 'r'),
      on: () => undefined,
      removeListener: () => undefined,
    });
    assert.deepEqual(Object.keys(bridge).sort(), ['events', 'host', 'ops', 'vault']);
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

  it('forwards live events to one listener at a time, payload only', async () => {
    const listeners = new Map<string, Set<(event: unknown, payload: unknown) => void>>();
    const calls: unknown[][] = [];
    const bridge = createBridge({
      invoke: async (...args) => (calls.push(args), { ok: true }),
      on: (ch, l) => listeners.set(ch, (listeners.get(ch) ?? new Set()).add(l)),
      removeListener: (ch, l) => listeners.get(ch)?.delete(l),
    });
    const first: unknown[] = [];
    const second: unknown[] = [];
    await bridge.events.open({ authToken: 'tok', serviceId: 'svc' }, 41, (p) => first.push(p));
    await bridge.events.open({ authToken: 'tok' }, undefined, (p) => second.push(p));
    assert.equal(listeners.get(IPC.eventsPush)?.size, 1, 'reopening replaced the listener');
    for (const l of listeners.get(IPC.eventsPush)!) l({ sender: 'electron internals' }, { kind: 'end', reason: 'r' });
    assert.deepEqual([first, second], [[], [{ kind: 'end', reason: 'r' }]]);
    await bridge.events.close();
    assert.equal(listeners.get(IPC.eventsPush)?.size, 0);
    assert.deepEqual(calls, [[IPC.eventsOpen, { authToken: 'tok' }, 41], [IPC.eventsOpen, { authToken: 'tok' }, null], [IPC.eventsClose]]);
  });
});

describe('IPC registration', () => {
  function fakeIpc() {
    const handlers = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown>();
    return { handlers, ipcMain: { handle: (ch: string, fn: never) => handlers.set(ch, fn) } as unknown as IpcMain };
  }
  const event = (url: string | undefined, id = 7) =>
    ({ senderFrame: url === undefined ? null : { url }, sender: { id } }) as unknown as IpcMainInvokeEvent;

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
    assert.deepEqual(
      [...handlers.keys()].sort(),
      [IPC.vaultStatus, IPC.vaultSetup, IPC.vaultUnlock, IPC.eventsOpen, IPC.eventsClose, ...OP_CHANNELS].sort(),
    );

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

describe('IPC live events', () => {
  it("pushes a window's events to that window, replaces its stream on reopen and closes it when the window goes", async () => {
    const handlers = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown>();
    const ipcMain = { handle: (ch: string, fn: never) => handlers.set(ch, fn) } as unknown as IpcMain;
    const opened: { auth: unknown; last: unknown; closed: boolean; deliver: (e: unknown) => void }[] = [];
    const vault = {
      openEvents: (auth: unknown, last: unknown, deliver: (e: unknown) => void) => {
        const s = { auth, last, closed: false, deliver };
        opened.push(s);
        return { result: { ok: true }, stream: { close: () => (s.closed = true) } };
      },
    } as unknown as Vault;
    registerIpc(ipcMain, vault);
    const sent: unknown[][] = [];
    let onDestroyed: () => void = () => undefined;
    const sender = {
      id: 3,
      isDestroyed: () => false,
      send: (...a: unknown[]) => sent.push(a),
      once: (_: string, fn: () => void) => (onDestroyed = fn),
    };
    const ev = { senderFrame: { url: 'app://keystead/index.html' }, sender } as unknown as IpcMainInvokeEvent;
    await handlers.get(IPC.eventsOpen)!(ev, { authToken: 'tok', other: 1 }, 17);
    opened[0].deliver({ id: 18, type: 'block', data: { height: 2 } });
    assert.deepEqual(sent, [[IPC.eventsPush, { kind: 'event', event: { id: 18, type: 'block', data: { height: 2 } } }]]);
    await handlers.get(IPC.eventsOpen)!(ev, { authToken: 'tok' }, 'not a number');
    assert.deepEqual(
      opened.map((s) => [s.auth, s.last, s.closed]),
      [
        [{ authToken: 'tok', serviceId: undefined }, 17, true],
        [{ authToken: 'tok', serviceId: undefined }, undefined, false],
      ],
    );
    onDestroyed();
    assert.equal(opened[1].closed, true);
  });
});
