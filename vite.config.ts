import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { CONTENT_SECURITY_POLICY, META_CONTENT_SECURITY_POLICY } from './shared/csp.js';

const root = path.dirname(fileURLToPath(import.meta.url));

/** The bundle carries the one policy in a <meta> tag too, for pages opened without our headers. */
const cspMeta: Plugin = {
  name: 'keystead-csp-meta',
  transformIndexHtml: () => [
    { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: META_CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' },
  ],
};

// The renderer is one static bundle, loaded by Electron from app:// and by the headless host at `/`.
export default defineConfig({
  plugins: [cspMeta],
  // The dev server sends the same policy as the desktop and the headless server.
  server: { headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY } },
  root: path.join(root, 'renderer'),
  base: './',
  publicDir: false,
  build: {
    outDir: path.join(root, 'dist', 'renderer'),
    emptyOutDir: true,
    // No source maps in the UI build: the desktop and the headless host serve exactly what users run.
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      // Mantine marks its modules "use client" for React Server Components; meaningless in a client bundle.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  oxc: { jsx: { runtime: 'automatic' } },
});
