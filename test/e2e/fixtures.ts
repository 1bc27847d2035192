import { test as base } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startHeadless, type Headless } from '../helpers/headless.js';

/** Each test gets its own headless Keystead (fresh encrypted data dir, free port) and a page pointed at it. */
export const test = base.extend<{ keystead: Headless }>({
  keystead: async ({}, use) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'keystead-e2e-'));
    const host = await startHeadless({ dataDir, password: 'e2e-db-password' });
    await use(host);
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  },
  baseURL: async ({ keystead }, use) => use(keystead.url),
});

export { expect } from '@playwright/test';

export const SCREENSHOTS = path.resolve(import.meta.dirname ?? __dirname, '..', 'output', 'screenshots');
