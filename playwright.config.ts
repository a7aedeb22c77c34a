import { defineConfig } from '@playwright/test';

// Every spec is offline: no browser, no network beyond servers the specs start
// themselves on 127.0.0.1. The project's own reporter is registered too, so a
// test run writes this repository's quality evidence (dogfooding).
export default defineConfig({
  testDir: './tests',
  globalSetup: './tests/support/globalSetup.ts',
  fullyParallel: true,
  forbidOnly: Boolean(process.env['CI']),
  reporter: [['list'], ['./reporter/index.ts', { outputFile: '.build/self-test/quality-summary.json', environment: 'self-test' }]],
});
