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
