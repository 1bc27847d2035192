import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { IPC, type CallAuth, type EventPush } from '../../shared/bridge.js';
import { OPERATION_NAMES } from '../../shared/operations.js';
import type { Vault } from '../host/vault.js';
import { isTrustedSender } from './hardening.js';

/** Takes only the two known string fields from whatever the renderer sent. */
export function authFrom(value: unknown): CallAuth {
  if (value === null || typeof value !== 'object') return {};
  const { authToken, serviceId } = value as Record<string, unknown>;
  return {
    authToken: typeof authToken === 'string' ? authToken : undefined,
    serviceId: typeof serviceId === 'string' ? serviceId : undefined,
  };
}

/** One handler per bridge function; each checks that the sender is our own bundle before anything else. */
export function registerIpc(ipcMain: IpcMain, vault: Vault): void {
  const guarded =
    <A extends unknown[], R>(fn: (event: IpcMainInvokeEvent, ...args: A) => R) =>
    (event: IpcMainInvokeEvent, ...args: A): R => {
      if (!isTrustedSender(event.senderFrame?.url)) throw new Error('IPC refused: untrusted sender');
      return fn(event, ...args);
    };

  ipcMain.handle(
    IPC.vaultStatus,
    guarded(() => vault.status()),
  );
  ipcMain.handle(
    IPC.vaultSetup,
    guarded((_e, input: unknown) => vault.setup(input)),
  );
  ipcMain.handle(
    IPC.vaultUnlock,
    guarded((_e, input: { email: string; password: string }) => vault.unlock(input)),
  );
  // One live event stream per window, pushed on IPC.eventsPush; closed when the window goes away.
  const streams = new Map<number, { close(): void }>();
  const closeStream = (id: number) => {
    streams.get(id)?.close();
    streams.delete(id);
  };
  ipcMain.handle(
    IPC.eventsOpen,
    guarded((event, auth: unknown, lastEventId: unknown) => {
      const sender = event.sender;
      closeStream(sender.id);
      const push = (payload: EventPush) => {
        if (!sender.isDestroyed()) sender.send(IPC.eventsPush, payload);
      };
      const from = typeof lastEventId === 'number' && Number.isSafeInteger(lastEventId) ? lastEventId : undefined;
      const { result, stream } = vault.openEvents(
        authFrom(auth),
        from,
        (e) => push({ kind: 'event', event: e }),
        (reason) => push({ kind: 'end', reason }),
      );
      if (stream) {
        streams.set(sender.id, stream);
        sender.once('destroyed', () => closeStream(sender.id));
      }
      return result;
    }),
  );
  ipcMain.handle(
    IPC.eventsClose,
    guarded((event) => closeStream(event.sender.id)),
  );
  for (const name of OPERATION_NAMES) {
    ipcMain.handle(
      IPC.op(name),
      guarded((event, input: unknown, auth: unknown) => vault.execute(name, input, authFrom(auth), `ipc:${event.sender.id}`)),
    );
  }
}
