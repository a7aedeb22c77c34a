import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPlaywrightProject, runPlaywright } from './support/playwrightProject.js';
import { createTemporaryFolder, runProgram } from './support/runProgram.js';
import { readReport } from './support/reports.js';
import { expect, test } from './support/test.js';

// Flakiness across runs, end to end: real Playwright runs with retries appended to one history; the report of
// the last is scored over the earlier runs and itself (docs/history.md, "In the report").

// Three Playwright runs of a packed project (about 20 s each on a loaded machine): 300 s.
test.describe.configure({ timeout: 300_000 });

const config = `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  workers: 1,
  retries: 1,
  reporter: [['quality-evidence/reporter', { outputFile: 'out/q.json', historyPath: 'out/history.jsonl', quiet: true }]],
});
`;

// The second test fails its first attempt when FLAKE is 1, and passes on its retry.
const spec = `import { test, expect } from '@playwright/test';
import { recordExecution } from 'quality-evidence/reporter';
test('lists invoices', async () => {
  await recordExecution({ statusCode: 200, endpoint: 'GET /invoices', responseTimeMs: 9 });
});
test('lists orders', async ({}, testInfo) => {
  const flaky = process.env.FLAKE === '1' && testInfo.retry === 0;
  await recordExecution({ statusCode: flaky ? 503 : 200, endpoint: 'GET /orders', responseTimeMs: 12 });
  expect(flaky).toBe(false);
});
`;

test('a test that failed its first attempt and passed on a retry in one of three runs makes its endpoint and itself flaky: 1 of 3 runs', async () => {
  const project = await createPlaywrightProject({ 'playwright.config.ts': config, 'tests/orders.spec.ts': spec });
  const commit = { GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567' };
  for (const flake of ['0', '1', '0']) {
    const run = await runPlaywright(project, ['test'], { ...commit, FLAKE: flake });
    expect([run.exitCode, run.stderr]).toStrictEqual([0, '']);
  }
  const report = await readReport(join(project, 'out/q.json'));
  const flakiness = (endpoint: string) => report.endpoints.find((entry) => entry.endpoint === endpoint)?.history?.flakiness;
  expect(flakiness('GET /orders')).toStrictEqual({
    score: 0.3333,
    runCount: 3,
    flakyRunCount: 1,
    retriedRunCount: 1,
    flipFlopRunCount: 0,
    failedRunCount: 1,
    state: 'flaky',
    trend: 'stable',
  });
  expect(flakiness('GET /invoices')).toMatchObject({ score: 0, runCount: 3, flakyRunCount: 0, failedRunCount: 0, state: 'steady' });
  expect(report.history?.flakiness).toStrictEqual({
    lastRuns: 30,
    runCount: 3,
    testsScored: true,
    flakyEndpoints: ['GET /orders'],
    failingEndpoints: [],
    flakyTests: [
      {
        file: 'orders.spec.ts',
        line: 6,
        title: 'orders.spec.ts › lists orders',
        score: 0.3333,
        runCount: 3,
        flakyRunCount: 1,
        trend: 'stable',
      },
    ],
    flakyTestCount: 1,
  });
  // This run, not flaky itself, says nothing of flakiness within the run: only across runs.
  expect(report.flakyEndpoints).toStrictEqual([]);
  const markdown = await readFile(join(project, 'out/q.md'), 'utf8');
  expect(markdown).toContain(
    '- `GET /orders`: 1 of 3 runs flaky (33%), stable\n- test `orders.spec.ts:6 › orders.spec.ts › lists orders`: 1 of 3 runs flaky (33%), stable',
  );
});

test('with dashboardPath the reporter writes the history page beside its report, the flaky test on it, and the report links to it', async () => {
  const withPage = config.replace('quiet: true }', "dashboardPath: 'out/history.html', quiet: true }");
  const project = await createPlaywrightProject({ 'playwright.config.ts': withPage, 'tests/orders.spec.ts': spec });
  for (const flake of ['1', '0']) {
    const run = await runPlaywright(project, ['test'], { FLAKE: flake });
    expect([run.exitCode, run.stderr]).toStrictEqual([0, '']);
  }
  const page = await readFile(join(project, 'out/history.html'), 'utf8');
  expect(page.match(/<tr [^>]*data-run="\d+"/g)).toHaveLength(2);
  expect([...page.matchAll(/<tr data-test="([^"]+)" data-state="(\w+)">/g)].map(([, place, state]) => `${place} ${state}`)).toStrictEqual([
    'orders.spec.ts:6 flaky',
  ]);
  expect(await readFile(join(project, 'out/q.html'), 'utf8')).toContain(
    '<a href="history.html" data-field="dashboard">the history page</a>',
  );
});

test.describe('the command', () => {
  const records = (status: number) => `${JSON.stringify({ endpoint: 'GET /orders', statusCode: status, responseTimeMs: 12 })}\n`;

  test('--flakiness-runs is the window: of a failure, a pass and a failure of one commit, the last two runs hold one flip-flop', async () => {
    const folder = await createTemporaryFolder({ 'fail.ndjson': records(503), 'pass.ndjson': records(200) }, 'flakiness');
    const commit = { GITHUB_SHA: 'abcdef0123456789abcdef0123456789abcdef01' };
    for (const input of ['fail.ndjson', 'pass.ndjson', 'fail.ndjson', 'pass.ndjson']) {
      const run = await runProgram('src/cli/main.js', {
        cwd: folder,
        args: [input, '--history', 'h.jsonl', '--flakiness-runs', '2', '--output', 'q.json', '--quiet'],
        env: commit,
      });
      expect([run.exitCode, run.stderr]).toStrictEqual([0, '']);
    }
    const report = await readReport(join(folder, 'q.json'));
    expect(report.endpoints[0]?.history?.flakiness).toMatchObject({ runCount: 2, flakyRunCount: 1, flipFlopRunCount: 1, state: 'flaky' });
    expect(report.history?.flakiness).toMatchObject({ lastRuns: 2, runCount: 2, testsScored: false, flakyEndpoints: ['GET /orders'] });
  });

  test('a flakiness window out of 1 to 1,000 exits 78 naming the flag or the variable, never the value', async () => {
    const folder = await createTemporaryFolder({ 'in.ndjson': records(200) }, 'flakiness');
    const flag = await runProgram('src/cli/main.js', { cwd: folder, args: ['in.ndjson', '--history', 'h.jsonl', '--flakiness-runs', '0'] });
    expect([flag.exitCode, flag.stderr]).toStrictEqual([
      78,
      'quality-evidence: invalid configuration:\n  - --flakiness-runs: must be a whole number of runs from 1 to 1000\n',
    ]);
    const variable = await runProgram('src/cli/main.js', {
      cwd: folder,
      args: ['in.ndjson', '--history', 'h.jsonl'],
      env: { QE_FLAKINESS_RUNS: 'sk-live-secret' },
    });
    expect(variable.exitCode).toBe(78);
    expect(variable.stderr).toContain('QE_FLAKINESS_RUNS: must be a whole number of runs from 1 to 1000');
    expect(variable.stderr).not.toContain('sk-live-secret');
  });
});
