import type { KeysteadBridge } from '../../shared/bridge.js';
import type { KeysteadClient } from './client.js';
import { createHttpClient } from './http.js';
import { createIpcClient } from './ipc.js';

declare global {
  interface Window {
    keystead?: KeysteadBridge;
  }
}

/** Chosen once at start: the preload bridge when Electron provided one, else HTTP to our own origin. */
export function chooseClient(): KeysteadClient {
  return window.keystead ? createIpcClient(window.keystead) : createHttpClient();
}
