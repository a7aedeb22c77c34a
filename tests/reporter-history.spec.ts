import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPlaywrightProject, runPlaywright } from './support/playwrightProject.js';
import { readReport } from './support/reports.js';
import { expect, test } from './support/test.js';

// A run of part of a suite (a --grep, a file filter, --only-changed, --last-failed, a shard) calls only some
// endpoints: appended to the history, it would thin the range of every other one. The reporter judges it against
// the history, appends it only when asked (historyPartialRuns), and says so.

// Four Playwright runs of a packed project (about 20 s each on a loaded machine): 300 s.
test.describe.configure({ timeout: 300_000 });

const config = `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  workers: 1,
  reporter: [['quality-evidence/reporter', { outputFile: 'out/q.json', historyPath: 'out/history.jsonl', quiet: true }]],
});
`;

const spec = `import { test } from '@playwright/test';
import { recordExecution } from 'quality-evidence/reporter';
test('lists orders', async () => {
  await recordExecution({ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 12 });
});
test('lists invoices', async () => {
  await recordExecution({ statusCode: 200, endpoint: 'GET /invoices', responseTimeMs: 9 });
});
`;

const WARNING_END =
  'it is judged against the history file "out/history.jsonl" and not appended to it, so that it does not thin the range of every endpoint it did not call; ' +
  'historyPartialRuns: true (QE_HISTORY_PARTIAL_RUNS=true) appends such runs too\n';

/** The runs the history file holds (its lines after the header). */
async function historyRuns(project: string): Promise<number> {
  return (await readFile(join(project, 'out/history.jsonl'), 'utf8')).trimEnd().split('\n').length - 1;
}

test('a run of part of the suite is judged against the history, not appended to it, and says why; historyPartialRuns appends it', async () => {
  const project = await createPlaywrightProject({ 'playwright.config.ts': config, 'tests/orders.spec.ts': spec });
  const whole = await runPlaywright(project, ['test']);
  expect([whole.exitCode, whole.stderr]).toStrictEqual([0, '']);
  expect(await historyRuns(project)).toBe(1);

  const grep = await runPlaywright(project, ['test', '--grep', 'orders']);
  expect(grep.exitCode).toBe(0);
  expect(grep.stderr).toBe(`quality-evidence reporter: warning: this run is of part of the suite (--grep): ${WARNING_END}`);
  expect(await historyRuns(project)).toBe(1);
  // Judged against the run before it all the same.
  expect((await readReport(join(project, 'out/q.json'))).history?.runCount).toBe(1);

  const file = await runPlaywright(project, ['test', 'tests/orders.spec.ts:3']);
  expect(file.stderr).toBe(
    `quality-evidence reporter: warning: this run is of part of the suite (a file filter (tests/orders.spec.ts:3)): ${WARNING_END}`,
  );
  expect(await historyRuns(project)).toBe(1);

  const asked = await runPlaywright(project, ['test', '--grep', 'orders'], { QE_HISTORY_PARTIAL_RUNS: 'true' });
  expect([asked.exitCode, asked.stderr]).toStrictEqual([0, '']);
  expect(await historyRuns(project)).toBe(2);
});

test(`the line a Playwright run appends holds every test: its file, line, title and outcome, and the endpoints its calls \
reached as positions in the line's endpoints`, async () => {
  const retried = `import { test, expect } from '@playwright/test';
import { recordExecution } from 'quality-evidence/reporter';
test('lists orders', async () => {
  await recordExecution({ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 12 });
  await recordExecution({ statusCode: 200, endpoint: 'GET /invoices', responseTimeMs: 9 });
});
test('retried', async ({}, testInfo) => {
  await recordExecution({ statusCode: testInfo.retry === 0 ? 503 : 200, endpoint: 'GET /orders', responseTimeMs: 5 });
  expect(testInfo.retry).toBe(1);
});
test('broken', async () => {
  await recordExecution({ statusCode: 500, endpoint: 'GET /invoices', responseTimeMs: 5 });
  expect(1).toBe(2);
});
test.skip('later', async () => {});
`;
  const project = await createPlaywrightProject({
    'playwright.config.ts': config.replace('workers: 1,', 'workers: 1,\n  retries: 1,'),
    'tests/orders.spec.ts': retried,
  });
  const run = await runPlaywright(project, ['test']);
  expect(run.exitCode).toBe(1);
  const line = JSON.parse((await readFile(join(project, 'out/history.jsonl'), 'utf8')).trimEnd().split('\n')[1]!) as {
    endpoints: { endpoint: string }[];
    tests: unknown;
  };
  expect(line.endpoints.map(({ endpoint }) => endpoint)).toStrictEqual(['GET /invoices', 'GET /orders']);
  expect(line.tests).toStrictEqual([
    { file: 'orders.spec.ts', line: 3, title: 'orders.spec.ts › lists orders', outcome: 'passed', endpoints: [0, 1] },
    { file: 'orders.spec.ts', line: 7, title: 'orders.spec.ts › retried', outcome: 'flaky', endpoints: [1] },
    { file: 'orders.spec.ts', line: 11, title: 'orders.spec.ts › broken', outcome: 'failed', endpoints: [0] },
    { file: 'orders.spec.ts', line: 15, title: 'orders.spec.ts › later', outcome: 'skipped' },
  ]);
});
