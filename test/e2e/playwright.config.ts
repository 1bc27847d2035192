import { defineConfig } from '@playwright/test';

// Debian's Chromium (never a downloaded browser); flags keep it off the network this machine lacks.
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../output/e2e-artifacts',
  timeout: 60_000,
  workers: 1,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['json', { outputFile: '../output/e2e-results.json' }]],
  use: {
    headless: true,
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
      ],
    },
  },
});
