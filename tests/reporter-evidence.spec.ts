import { expect, test } from './support/test.js';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPlaywrightProject, runPlaywright } from './support/playwrightProject.js';
import { childEnvironment, type ProgramOutcome } from './support/runProgram.js';
import { readReport } from './support/reports.js';

// The reporter's evidence people act on: expected statuses from test
// annotations, flaky endpoints, budgets that fail the run, and `check` on a
// report merged from shards.
// A Playwright run of its own in each test or hook (a few seconds of CPU; 8 to 27 s measured on a loaded machine):
// 90 s each; the tests that run more set their own.
test.describe.configure({ timeout: 90_000 });

function configWith(reporterOptions: string): string {
  return `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  retries: 1,
  reporter: [['list'], ['quality-evidence/reporter', ${reporterOptions}]],
});
`;
}

function runCommand(project: string, args: readonly string[]): Promise<ProgramOutcome> {
  return new Promise((done) => {
    execFile(
      join(project, 'node_modules/.bin/quality-evidence'),
      args,
      { cwd: project, env: childEnvironment() },
      (error, stdout, stderr) => {
        done({ exitCode: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      },
    );
  });
}

const negativeSpec = `import { test, expect } from '@playwright/test';
import { recordExecution } from 'quality-evidence/reporter';

test('deleting without a token answers 403', { annotation: { type: 'expected-status', description: '403' } }, async () => {
  await recordExecution({ statusCode: 201, endpoint: 'POST /booking', responseTimeMs: 5 });
  await recordExecution({ statusCode: 403, endpoint: 'DELETE /booking/1', responseTimeMs: 5 });
  await recordExecution({ statusCode: 500, endpoint: 'DELETE /booking/1', responseTimeMs: 5 });
});

test('a deleted booking answers 404', async () => {
  test.info().annotations.push({ type: 'expected-status', description: '404' });
  await recordExecution({ statusCode: 404, endpoint: 'GET /booking/1', responseTimeMs: 5 });
});

test('a record says what it expects', async () => {
  await recordExecution({ statusCode: 409, endpoint: 'POST /booking', responseTimeMs: 5, expectedStatuses: '409' });
});

test('an unexpected 404 still fails', async () => {
  await recordExecution({ statusCode: 404, endpoint: 'GET /booking/2', responseTimeMs: 5 });
});
`;

test('negative tests declared expected are no failures, their other calls keep the usual rule, and their statuses still show', async () => {
  const project = await createPlaywrightProject({
    'playwright.config.ts': configWith(`{ outputFile: 'out/q.json' }`),
    'tests/negative.spec.ts': negativeSpec,
  });

  const outcome = await runPlaywright(project, ['test']);

  expect(outcome.exitCode, outcome.stdout).toBe(0);
  const report = await readReport(join(project, 'out/q.json'));
  expect({
    failedExecutionCount: report.failedExecutionCount,
    expectedErrorCount: report.expectedErrorCount,
    statusCodes: report.statusCodes,
    failureCountByEndpoint: report.failureCountByEndpoint,
  }).toStrictEqual({
    failedExecutionCount: 2,
    expectedErrorCount: 3,
    statusCodes: { '201': 1, '403': 1, '404': 2, '409': 1, '500': 1 },
    failureCountByEndpoint: { 'DELETE /booking/1': 1, 'GET /booking/2': 1 },
  });
});

test('a malformed expected-status annotation stops the report, naming the test', async () => {
  const project = await createPlaywrightProject({
    'playwright.config.ts': configWith(`{ outputFile: 'out/q.json' }`),
    'tests/bad.spec.ts': `import { test } from '@playwright/test';
import { recordExecution } from 'quality-evidence/reporter';
test('odd', { annotation: { type: 'expected-status', description: '4xx' } }, async () => {
  await recordExecution({ statusCode: 404, endpoint: 'GET /x', responseTimeMs: 5 });
});
`,
  });

  const outcome = await runPlaywright(project, ['test']);

  expect(outcome.exitCode).toBe(1);
  expect(outcome.stderr).toContain(
    'quality-evidence reporter: no report was written: invalid configuration:\n' +
      '  - the "expected-status" annotation of test "bad.spec.ts › odd": is neither a status code nor a range such as ' +
      '200-299\n',
  );
});

test('flaky endpoints: failed only in attempts that a retry made good', async () => {
  const project = await createPlaywrightProject({
    'playwright.config.ts': configWith(`{ outputFile: 'out/q.json' }`),
    'tests/flaky.spec.ts': `import { test, expect } from '@playwright/test';
import { recordExecution } from 'quality-evidence/reporter';

test('passes on its retry', async ({}, testInfo) => {
  await recordExecution({ statusCode: testInfo.retry === 0 ? 503 : 200, endpoint: 'GET /stock', responseTimeMs: 5 });
  await recordExecution({ statusCode: testInfo.retry === 0 ? 500 : 200, endpoint: 'GET /prices', responseTimeMs: 5 });
  expect(testInfo.retry).toBe(1);
});

test('always fails', async () => {
  await recordExecution({ statusCode: 500, endpoint: 'GET /prices', responseTimeMs: 5 });
  expect(1).toBe(2);
});
`,
  });

  await runPlaywright(project, ['test']);

  const report = await readReport(join(project, 'out/q.json'));
  expect([report.flakyEndpoints, report.failureCountByEndpoint]).toStrictEqual([['GET /stock'], { 'GET /prices': 3, 'GET /stock': 1 }]);
});

test('a breached budget fails a run whose tests pass, says why on stderr, and the report is written', async () => {
  const project = await createPlaywrightProject({
    'playwright.config.ts': configWith(
      `{ outputFile: 'out/q.json', budgets: { maxFailedExecutions: 0, endpoints: { 'GET /orders': { responseTimeMs: { p95: 100 } } } } }`,
    ),
    'tests/orders.spec.ts': `import { test } from '@playwright/test';
import { recordExecution } from 'quality-evidence/reporter';
test('orders', async () => {
  await recordExecution({ statusCode: 500, endpoint: 'GET /orders', responseTimeMs: 250 });
});
`,
  });

  const outcome = await runPlaywright(project, ['test']);

  expect(outcome.exitCode).toBe(1);
  // The test passed with a 500: the hint says it stays a failure (never to declare it expected), once, before the breaches.
  expect(outcome.stderr).toBe(
    'quality-evidence reporter: 1 server error (5xx or no response, 1 endpoint) came from tests that passed: GET /orders: ' +
      '500 ×1, first at orders.spec.ts:3 · orders.spec.ts › orders (attempt 1). In a set-up or clean-up call as often as not: ' +
      'a passing test does not make a server error right, and it stays a failure\n' +
      'quality-evidence reporter: 2 of 2 budgets breached:\n' +
      '  FAIL maxFailedExecutions: 1 (limit ≤ 0)\n' +
      '  FAIL responseTimeMs.p95 of GET /orders: 250 ms (limit ≤ 100 ms)\n',
  );
  expect((await readReport(join(project, 'out/q.json'))).budgets?.passed).toBe(false);
});

test('budgets that hold leave a passing run passing', async () => {
  const project = await createPlaywrightProject({
    'playwright.config.ts': configWith(`{ outputFile: 'out/q.json', budgets: { minExecutions: 1 } }`),
    'tests/orders.spec.ts': `import { test } from '@playwright/test';
import { recordExecution } from 'quality-evidence/reporter';
test('orders', async () => {
  await recordExecution({ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 25 });
});
`,
  });

  const outcome = await runPlaywright(project, ['test']);

  expect([outcome.exitCode, outcome.stderr]).toStrictEqual([0, '']);
  expect((await readReport(join(project, 'out/q.json'))).budgets).toStrictEqual({
    passed: true,
    results: [{ budget: 'minExecutions', limit: 1, actual: 1, passed: true }],
  });
});

test('check gates a report merged from shards, whose merge-reports exit status ignores reporters', async () => {
  // Three Playwright runs (two shards, the merge) and check: 21 s measured on a loaded machine.
  test.setTimeout(240_000);
  const project = await createPlaywrightProject({
    'playwright.config.ts': configWith(`{ outputFile: 'out/q.json' }`),
    'budgets.json': '{ "maxFailedExecutions": 0 }',
    'tests/a.spec.ts': `import { test } from '@playwright/test';
import { recordExecution } from 'quality-evidence/reporter';
test('a', async () => { await recordExecution({ statusCode: 200, endpoint: 'GET /a', responseTimeMs: 5 }); });
`,
    'tests/b.spec.ts': `import { test } from '@playwright/test';
import { recordExecution } from 'quality-evidence/reporter';
test('b', async () => { await recordExecution({ statusCode: 502, endpoint: 'GET /b', responseTimeMs: 5 }); });
`,
  });
  for (const shard of [1, 2]) {
    await runPlaywright(project, ['test', `--shard=${shard}/2`, '--reporter=blob'], {
      PLAYWRIGHT_BLOB_OUTPUT_FILE: `blobs/report-${shard}.zip`,
    });
  }

  const merged = await runPlaywright(project, ['merge-reports', '--reporter', 'quality-evidence/reporter', './blobs'], {
    QE_OUTPUT_PATH: 'out/merged.json',
  });
  const check = await runCommand(project, ['check', 'out/merged.json', '--budgets', 'budgets.json']);

  expect(merged.exitCode).toBe(0);
  expect(check).toStrictEqual({
    exitCode: 1,
    stdout: 'FAIL maxFailedExecutions: 1 (limit ≤ 0)\nquality-evidence check: 1 of 1 budget breached\n',
    stderr: '',
  });
});

const steadySpec = `import { test } from '@playwright/test';
import { recordExecution } from 'quality-evidence/reporter';

test('orders', async () => {
  for (let call = 0; call < 10; call++) {
    await recordExecution({ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 40 + call * Number(process.env.FACTOR ?? '1') });
  }
});
`;

test(`with historyPath, each run is appended to the history with CI's names for it, and judged against the runs before it; the \
closing line names the file`, async () => {
  // Eight Playwright runs: about 18 s of CPU, over 90 s on a loaded machine.
  test.setTimeout(360_000);
  const project = await createPlaywrightProject({
    'playwright.config.ts': configWith(`{ outputFile: 'out/q.json', historyPath: 'out/history.jsonl' }`),
    'tests/orders.spec.ts': steadySpec,
  });
  for (let run = 1; run <= 6; run++) {
    const outcome = await runPlaywright(project, ['test'], {
      GITHUB_SHA: `c0ffee${run}`,
      GITHUB_REF_NAME: 'main',
      GITHUB_RUN_ID: String(run),
    });
    expect(outcome.exitCode, outcome.stdout).toBe(0);
    expect(outcome.stdout).toContain('out/history.jsonl');
  }
  const slower = await runPlaywright(project, ['test'], {
    FACTOR: '20',
    GITHUB_SHA: 'c0ffee7',
    GITHUB_REF_NAME: 'main',
    GITHUB_RUN_ID: '7',
  });
  expect(slower.exitCode, slower.stdout).toBe(0);
  const report = await readReport(join(project, 'out/q.json'));
  expect(report.history).toMatchObject({ runCount: 6, aboveRangeEndpoints: ['GET /orders'] });
  expect(report.endpoints[0]?.history?.trend).toBe('aboveRange');
  const runs = (await readFile(join(project, 'out/history.jsonl'), 'utf8'))
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as { runId: string; commit: string; branch: string });
  expect(runs.map(({ runId, commit, branch }) => `${runId} ${commit} ${branch}`)).toEqual([
    '1 c0ffee1 main',
    '2 c0ffee2 main',
    '3 c0ffee3 main',
    '4 c0ffee4 main',
    '5 c0ffee5 main',
    '6 c0ffee6 main',
    '7 c0ffee7 main',
  ]);
});
