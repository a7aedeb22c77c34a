import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { STRESS_SPECS, UNIT_SPECS } from './tests/support/lanes.js';

// Every spec is offline: no browser, no network beyond servers the specs start
// themselves on 127.0.0.1. The project's own reporter is registered too, so a
// test run writes this repository's quality evidence (dogfooding).
//
// Three lanes (tests/support/lanes.ts): `unit` needs nothing built; `e2e`
// and `stress` run the compiled programs, so they depend on `build`, which
// compiles `.build` when a source changed since the last build and skips it
// otherwise (scripts/build.mjs --if-changed).
export default defineConfig({
  testDir: './tests',
  globalSetup: './tests/support/globalSetup.ts',
  fullyParallel: true,
  // One worker per core (Playwright's default is half of them): a unit spec is
  // pure computation in its worker, and the e2e and stress specs mostly wait
  // on the one child process each starts, so more workers than cores would
  // only make the machine's other work, and their timings, slower.
  workers: availableParallelism(),
  forbidOnly: Boolean(process.env['CI']),
  reporter: [['list'], ['./reporter/index.ts', { outputFile: '.build/self-test/quality-summary.json', environment: 'self-test' }]],
  projects: [
    { name: 'build', testMatch: 'support/build.setup.ts' },
    { name: 'unit', testMatch: [...UNIT_SPECS] },
    { name: 'e2e', testMatch: '*.spec.ts', testIgnore: [...UNIT_SPECS, ...STRESS_SPECS], dependencies: ['build'] },
    { name: 'stress', testMatch: [...STRESS_SPECS], dependencies: ['build'] },
  ],
});
