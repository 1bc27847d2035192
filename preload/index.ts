import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './bridge.js';

// Sandboxed preload: expose the named bridge and nothing else (never ipcRenderer itself).
contextBridge.exposeInMainWorld('keystead', createBridge(ipcRenderer));
