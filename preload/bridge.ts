import { IPC, type CallAuth, type EventPush, type KeysteadBridge, type OpsBridge } from '../shared/bridge.js';
import { OPERATION_NAMES } from '../shared/operations.js';

/** The slice of ipcRenderer the bridge needs; a fake in tests, Electron's in the preload. */
export interface RendererIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  /** Listens on one channel; the listener gets Electron's event object first, which is never passed on. */
  on(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
}

/**
 * Builds the object the renderer sees. Every function is bound to exactly one channel; no channel name
 * is ever taken from the renderer, and no Electron object is handed out.
 */
export function createBridge(ipc: RendererIpc): KeysteadBridge {
  const ops = {} as Record<string, (input: unknown, auth?: CallAuth) => Promise<unknown>>;
  for (const name of OPERATION_NAMES) {
    const channel = IPC.op(name);
    ops[name] = (input, auth) => ipc.invoke(channel, input ?? {}, { authToken: auth?.authToken, serviceId: auth?.serviceId });
  }
  const vault: KeysteadBridge['vault'] = {
    status: () => ipc.invoke(IPC.vaultStatus) as ReturnType<KeysteadBridge['vault']['status']>,
    setup: (input) => ipc.invoke(IPC.vaultSetup, input) as ReturnType<KeysteadBridge['vault']['setup']>,
    unlock: (input) => ipc.invoke(IPC.vaultUnlock, input) as ReturnType<KeysteadBridge['vault']['unlock']>,
  };
  // One listener at a time, on the one push channel; only the payload reaches the renderer.
  let forward: ((event: unknown, payload: unknown) => void) | null = null;
  const stopForwarding = () => {
    if (forward) ipc.removeListener(IPC.eventsPush, forward);
    forward = null;
  };
  const events: KeysteadBridge['events'] = {
    open(auth, lastEventId, listener) {
      stopForwarding();
      forward = (_event, payload) => listener(payload as EventPush);
      ipc.on(IPC.eventsPush, forward);
      return ipc.invoke(IPC.eventsOpen, { authToken: auth?.authToken }, typeof lastEventId === 'number' ? lastEventId : null) as ReturnType<
        KeysteadBridge['events']['open']
      >;
    },
    async close() {
      stopForwarding();
      await ipc.invoke(IPC.eventsClose);
    },
  };
  return Object.freeze({
    host: 'desktop' as const,
    vault: Object.freeze(vault),
    ops: Object.freeze(ops) as unknown as OpsBridge,
    events: Object.freeze(events),
  });
}
