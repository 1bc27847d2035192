import { runDesktop } from './electron/app.js';

// Desktop entry (`npm start`): Electron main process = engine + local API + one hardened window.
runDesktop();
