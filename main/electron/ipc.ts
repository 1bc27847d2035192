import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { IPC } from '../../shared/bridge.js';
import { OPERATION_NAMES } from '../../shared/operations.js';
import type { Vault } from '../host/vault.js';
import { isTrustedSender } from './hardening.js';

/** One handler per bridge function; each checks that the sender is our own bundle before anything else. */
export function registerIpc(ipcMain: IpcMain, vault: Vault): void {
  const guarded =
    <A extends unknown[], R>(fn: (event: IpcMainInvokeEvent, ...args: A) => R) =>
    (event: IpcMainInvokeEvent, ...args: A): R => {
      if (!isTrustedSender(event.senderFrame?.url)) throw new Error('IPC refused: untrusted sender');
      return fn(event, ...args);
    };

  ipcMain.handle(IPC.vaultStatus, guarded(() => vault.status()));
  ipcMain.handle(IPC.vaultSetup, guarded((_e, input: unknown) => vault.setup(input)));
  ipcMain.handle(IPC.vaultUnlock, guarded((_e, input: { email: string; password: string }) => vault.unlock(input)));
  for (const name of OPERATION_NAMES) {
    ipcMain.handle(
      IPC.op(name),
      guarded((event, input: unknown, authToken: unknown) =>
        vault.execute(name, input, typeof authToken === 'string' ? authToken : undefined, `ipc:${event.sender.id}`),
      ),
    );
  }
}
