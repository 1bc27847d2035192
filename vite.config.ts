import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));

// The renderer is one static bundle, loaded by Electron from app:// and by the headless host at `/`.
export default defineConfig({
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
