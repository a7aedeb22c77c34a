import { defineConfig } from '@playwright/test';

// Every spec is offline: no browser, no network beyond servers the specs start
// themselves on 127.0.0.1.
export default defineConfig({
  testDir: './tests',
  globalSetup: './tests/support/globalSetup.ts',
  fullyParallel: true,
  forbidOnly: Boolean(process.env['CI']),
  reporter: [['list']],
});
