/**
 * End-to-end tests. The renderer runs in Debian's Chromium against the browser host (each test
 * starts its own host on a free port; see test/e2e/fixtures/host.ts), so they run where no
 * Electron binary can be downloaded. Electron specs (electron-*.spec.ts) skip themselves when
 * the binary is missing.
 */
import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './test/e2e/fixtures/paths.ts';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/e2e/fixtures/global-setup.ts',
  // Overridable so two runs in one working tree do not clear each other's traces.
  outputDir: process.env.LODSMITH_E2E_OUTPUT ?? 'test-results',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: process.env.CI ? 2 : undefined,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    viewport: { width: 1400, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
