import { IPC, type CallAuth, type KeysteadBridge, type OpsBridge } from '../shared/bridge.js';
import { OPERATION_NAMES } from '../shared/operations.js';

/** The slice of ipcRenderer the bridge needs; a fake in tests, Electron's in the preload. */
export interface InvokeOnly {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
}

/**
 * Builds the object the renderer sees. Every function is bound to exactly one channel; no channel name
 * is ever taken from the renderer, and no Electron object is handed out.
 */
export function createBridge(ipc: InvokeOnly): KeysteadBridge {
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
  return Object.freeze({ host: 'desktop' as const, vault: Object.freeze(vault), ops: Object.freeze(ops) as unknown as OpsBridge });
}
