import { expect, test } from './support/test.js';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  buildReport,
  compareWithBaseline,
  loadQualityToolConfig,
  renderMarkdown,
  runQualityWorkflow,
  summariseExecutions,
  type QualityReport,
} from '../src/index.js';
import { createEvidenceRun } from '../src/run/evidenceRun.js';
import { MARKDOWN_BYTE_LIMIT } from '../src/report/renderers/markdown.js';
import { failedWhere } from '../src/report/renderers/presentation.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';
import { createPlaywrightProject, runPlaywright } from './support/playwrightProject.js';
import { generatedRecords, writeGeneratedRun } from './support/generatedRun.js';
import { createTemporaryFolder, pathExists, repositoryRoot, runProgram } from './support/runProgram.js';

// quality-summary.md: what a pull request's reader sees, and what GitHub
// shows on the run's page when GITHUB_STEP_SUMMARY is set.

async function fixtureMarkdown(): Promise<string> {
  const fileSystem = new MemoryFileSystem({
    'fixtures/quality-executions.json': await readFile(join(repositoryRoot, 'fixtures/quality-executions.json'), 'utf8'),
  });
  await runQualityWorkflow(
    loadQualityToolConfig({
      QE_ENVIRONMENT: 'local-example',
      QE_INPUT_PATH: 'fixtures/quality-executions.json',
      QE_OUTPUT_PATH: 'out/quality-summary.json',
    }),
    { fileSystem },
  );
  return fileSystem.files.get('out/quality-summary.md') ?? '';
}

function reportOf(records: readonly object[], environment = 'ci'): QualityReport {
  return buildReport(summariseExecutions(records as never, 750), { environment, slowResponseThresholdMs: 750 });
}

/** The body rows of the Markdown table under `### <heading>`, each as its cells (the header row left out). */
function tableRows(markdown: string, heading: string): string[][] {
  const section = markdown.split(`### ${heading}\n`)[1]?.split('\n### ')[0] ?? '';
  const lines = section.split('\n').filter((line) => line.startsWith('| ') || line.startsWith('|---'));
  return lines
    .filter((line, index) => !line.startsWith('|---') && !(lines[index + 1]?.startsWith('|---') ?? false))
    .map((line) => line.slice(2, -2).split(/ (?<!\\)\| /));
}

// The closing note of the Markdown, one line of it.
const percentilesNote =
  '<sub>Percentiles are exact, by nearest rank over every recorded time: p95 is the value at rank ⌈95 × n / 100⌉ of the n ' +
  'times sorted, always a time that was recorded. Tools that interpolate or use sketches (k6, Artillery, Gatling) can show ' +
  'other values, most of all on few samples.</sub>';

test('the fixture renders exactly this Markdown', async () => {
  expect(await fixtureMarkdown()).toBe(`## API quality evidence: \`local-example\`

❌ **1 failed call, a server error, no budgets set** · 3 calls · 1 server error · 1 failed · 2 slow (over 750 ms) · 0 with no response

Response time: p50 980 ms (n=3) · p95 1,210 ms (n=3) · p99 1,210 ms (n=3) · max 1,210 ms

- ✖ **1 server error (5xx or no response) on 1 endpoint**: \`POST /orders (503 ×1)\`

### Failed calls

The first failed calls of each endpoint, server errors first, with the test and line behind each.

| Endpoint | Status | Call | Time | Where |
|---|---|---|---:|---|
| \`POST /orders\` | 503 | \`POST /orders\` | 980 ms | \`executions[1] of fixtures/quality-executions.json, id exec-002\` |

### Endpoints

| Status | Endpoint | n | Failed | Statuses | Slow | p50 | p95 | p99 | Tests |
|---|---|---:|---:|---|---:|---:|---:|---:|---|
| ❌ failing | \`POST /orders\` | 1 | 1 | 503 ×1 | 1 | 980 ms | 980 ms | 980 ms |  |
| 🐢 slow | \`GET /invoices\` | 1 | 0 | 201 ×1 | 1 | 1,210 ms | 1,210 ms | 1,210 ms |  |
| ✅ ok | \`GET /orders\` | 1 | 0 | 200 ×1 | 0 | 120 ms | 120 ms | 120 ms |  |

### Slowest executions

| Endpoint | Status | Time | Where |
|---|---|---:|---|
| \`GET /invoices\` | 201 | 1,210 ms | \`executions[2] of fixtures/quality-executions.json, id exec-003\` |
| \`POST /orders\` | 503 | 980 ms | \`executions[1] of fixtures/quality-executions.json, id exec-002\` |
| \`GET /orders\` | 200 | 120 ms | \`executions[0] of fixtures/quality-executions.json, id exec-001\` |

${percentilesNote}
`);
});

test('labels with a pipe, backticks, markup or bidirectional controls stay inside their cell as code', () => {
  const labels = ['GET /a|b', 'GET /`tick`', 'GET /``double``x', 'GET /<b>bold</b>', 'GET /*not*_emphasis_[link](x)', 'GET /\u202eevil'];
  const markdown = renderMarkdown(reportOf(labels.map((endpoint) => ({ statusCode: 200, endpoint, responseTimeMs: 5 }))));
  const cells = tableRows(markdown, 'Endpoints').map((cells) => cells[1]);
  expect(cells.sort()).toStrictEqual(
    [
      '`GET /*not*_emphasis_[link](x)`',
      '`GET /<b>bold</b>`',
      '`GET /\\u202eevil`',
      '`GET /a\\|b`',
      '```GET /``double``x```',
      '`` GET /`tick` ``',
    ].sort(),
  );
  // Every table row keeps its eleven pipes: ten cells.
  for (const line of markdown.split('\n').filter((line) => line.startsWith('| ✅'))) expect(line.split(/(?<!\\)\|/)).toHaveLength(12);
});

test('a run that recorded no executions says so in words and shows no passing mark, even when its budgets hold', () => {
  const report = {
    ...reportOf([]),
    budgets: { passed: true, results: [{ budget: 'maxFailedExecutions', limit: 0, actual: 0, passed: true }] },
  };
  const markdown = renderMarkdown(report);
  expect(markdown.split('\n')[2]).toBe(
    '⚠️ **No executions were recorded: this run is no evidence of API quality** · 0 calls · 0 server errors · 0 ' +
      'failed · 0 slow (over 750 ms) · 0 with no response',
  );
  expect(markdown).not.toContain('✅');
  expect(markdown).toContain('No endpoint ran.');
});

test('a large run lists the 50 worst endpoints, failed first then by p95, and says how many more there are', () => {
  const report = reportOf(generatedRecords(64));
  const rows = tableRows(renderMarkdown(report), 'Endpoints');
  expect(rows).toHaveLength(50);
  const worst = [...report.endpoints]
    .sort(
      (a, b) =>
        b.failedExecutionCount - a.failedExecutionCount ||
        b.responseTimeMs.p95! - a.responseTimeMs.p95! ||
        (a.endpoint < b.endpoint ? -1 : 1),
    )
    .slice(0, 50);
  expect(rows.map((cells) => cells[1])).toStrictEqual(worst.map((endpoint) => `\`${endpoint.endpoint}\``));
  expect(renderMarkdown(report)).toContain(
    'The 50 worst endpoints (server errors first, then failed, then by p95) of 64: 14 more endpoints in `quality-summary.json`.',
  );
});

test('for a 50-endpoint run with budgets and a baseline, the Markdown agrees with the JSON', async () => {
  const run = await writeGeneratedRun(50);
  const markdown = await readFile(run.markdownPath, 'utf8');
  const ms = (value: number | null) => `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(value!)} ms`;
  const rows = tableRows(markdown, 'Endpoints');
  expect(rows).toHaveLength(50);
  for (const endpoint of run.report.endpoints) {
    const cells = rows.find((row) => row[1] === `\`${endpoint.endpoint}\``);
    const n = endpoint.executionCount;
    const statuses = [
      ...Object.entries(endpoint.statusCodes)
        .sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : 1))
        .map(([code, calls]) => `${code} ×${calls}`),
      ...(endpoint.noResponseCount > 0 ? [`no response ×${endpoint.noResponseCount}`] : []),
    ].join(', ');
    expect(cells?.slice(2), endpoint.endpoint).toStrictEqual([
      String(n),
      String(endpoint.failedExecutionCount),
      statuses,
      String(endpoint.slowExecutionCount),
      ...(['p50', 'p95', 'p99'] as const).map((name) => ms(endpoint.responseTimeMs[name])),
      '',
    ]);
  }
  const budgetRows = tableRows(markdown, 'Budgets');
  expect(budgetRows).toHaveLength(run.report.budgets!.results.length);
  expect(budgetRows[0]).toStrictEqual([
    '❌ fail',
    '`responseTimeMs.p95`',
    '`POST /service-01/items`',
    '≤ 100 ms',
    ms(run.report.endpoints.find((entry) => entry.endpoint === 'POST /service-01/items')!.responseTimeMs.p95),
  ]);
  const changes = tableRows(markdown, 'Changes against the baseline');
  expect(changes.length).toBeGreaterThan(0);
  // Regressions first.
  const kinds = changes.map((cells) => cells[0]!.replace(/^\S+ /, ''));
  const firstNonRegression = kinds.findIndex((kind) => !['newly failing', 'failing more', 'slower'].includes(kind));
  expect(
    kinds
      .slice(firstNonRegression === -1 ? kinds.length : firstNonRegression)
      .filter((kind) => ['newly failing', 'failing more', 'slower'].includes(kind)),
  ).toStrictEqual([]);
  expect(markdown).toContain(
    `executions ${run.report.baseline!.executionCount.before!.toLocaleString('en-US')} → ${run.report.executionCount.toLocaleString('en-US')}`,
  );
});

test('the failed calls name, for each failing endpoint, the status, the call and the test and line behind each; a flaky endpoint says so', () => {
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: 500 });
  const login = { title: 'auth.spec.ts › logs in', file: 'auth.spec.ts', line: 3, column: 1 };
  run.take({ endpoint: 'POST /login', statusCode: 503, responseTimeMs: 12 }, () => ({ kind: 'test', title: login.title, attempt: 1 }), {
    test: login,
    attempt: 1,
    retriedAway: true,
    testPassed: false,
    callLocation: { file: 'auth.spec.ts', line: 4, column: 20 },
  });
  run.take({ endpoint: 'POST /login', statusCode: 200, responseTimeMs: 9 }, () => ({ kind: 'test', title: login.title, attempt: 2 }), {
    test: login,
    attempt: 2,
    retriedAway: false,
    testPassed: true,
    callLocation: { file: 'auth.spec.ts', line: 4, column: 20 },
  });
  const markdown = renderMarkdown(run.finish({ tests: { total: 1, passed: 0, failed: 0, flaky: 1, skipped: 0 } }));
  expect(tableRows(markdown, 'Failed calls')).toStrictEqual([
    ['`POST /login` (flaky)', '503', '`POST /login`', '12 ms', '`auth.spec.ts:4 · auth.spec.ts › logs in (attempt 1)`'],
  ]);
  expect(tableRows(markdown, 'Endpoints')[0]?.slice(0, 5)).toStrictEqual(['⚠️ flaky', '`POST /login`', '2', '1', '200 ×1, 503 ×1']);
});

test("the failed calls list every endpoint's server errors before any client error: no deliberate 400 between two 500s", () => {
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: 500 });
  const products = { title: 'produtos.spec.ts › refuses a product in a cart', file: 'produtos.spec.ts', line: 8, column: 1 };
  const call = (endpoint: string, statusCode: number, line: number) => {
    run.take({ endpoint, statusCode, responseTimeMs: line }, () => ({ kind: 'test', title: products.title, attempt: 1 }), {
      test: products,
      attempt: 1,
      retriedAway: false,
      testPassed: true,
      callLocation: { file: 'produtos.spec.ts', line, column: 5 },
    });
  };
  call('DELETE /produtos/{_id}', 400, 10);
  call('DELETE /produtos/{_id}', 500, 11);
  call('PUT /usuarios/{_id}', 500, 12);
  const markdown = renderMarkdown(run.finish({ tests: { total: 1, passed: 1, failed: 0, flaky: 0, skipped: 0 } }));
  expect(tableRows(markdown, 'Failed calls').map((cells) => cells.slice(0, 3))).toStrictEqual([
    ['`DELETE /produtos/{_id}`', '500', '`DELETE /produtos/{_id}`'],
    ['`PUT /usuarios/{_id}`', '500', '`PUT /usuarios/{_id}`'],
    ['`DELETE /produtos/{_id}`', '400', '`DELETE /produtos/{_id}`'],
  ]);
});

test("an endpoint's row names the test whose call got a server error before the negative test with more 4xx", () => {
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: 500 });
  const negative = { title: 'carts.spec.ts › refuses a product in a cart', file: 'carts.spec.ts', line: 10, column: 1 };
  const cleanUp = { title: 'produtos.spec.ts › filters products', file: 'produtos.spec.ts', line: 6, column: 1 };
  for (const [test, statusCode] of [
    [negative, 400],
    [negative, 400],
    [cleanUp, 500],
  ] as const) {
    run.take(
      { endpoint: 'DELETE /produtos/{_id}', statusCode, responseTimeMs: 4 },
      () => ({ kind: 'test', title: test.title, attempt: 1 }),
      {
        test,
        attempt: 1,
        retriedAway: false,
        testPassed: true,
      },
    );
  }
  const markdown = renderMarkdown(run.finish({ tests: { total: 2, passed: 2, failed: 0, flaky: 0, skipped: 0 } }));
  expect(tableRows(markdown, 'Endpoints')[0]?.at(-1)).toBe('`produtos.spec.ts:6` ×1, `carts.spec.ts:10` ×2');
});

test(
  'endpoints too small to judge against the baseline are counted in one line, each named with its samples in a ' +
    'folded list, however far its p95 moved',
  () => {
    const run = (scale: number) =>
      reportOf(
        [5, 6, 7, 8, 9]
          .map((time) => ({ statusCode: 200, endpoint: 'GET /health', responseTimeMs: time * scale }))
          .concat([{ statusCode: 200, endpoint: 'DELETE /users/:id', responseTimeMs: 30 * scale }]),
      );
    const after = run(1.8);
    const markdown = renderMarkdown({ ...after, baseline: compareWithBaseline(after, run(1)) });
    expect(markdown).toContain('**vs base: 0 endpoints unchanged, 2 too few samples to judge**');
    expect(markdown).toContain(
      'No endpoint changed.\n\n<details><summary>2 endpoints with too few samples to judge (n before → after)</summary>\n\n' +
        '`DELETE /users/:id (1 → 1)`, `GET /health (5 → 5)`.\n\n</details>',
    );
  },
);

test("a failed call made in a client wrapper names the test's line and where the call was made; one made in the test names its own line", () => {
  const test_ = { title: 'booking.spec.ts › deletes a booking', file: 'tests/booking.spec.ts', line: 4, column: 1 };
  const base = { method: 'GET', path: '/booking/9', statusCode: 404, responseTimeMs: 3, test: test_, attempt: 1 };
  expect(failedWhere({ ...base, callLocation: { file: 'src/api/client.ts', line: 12, column: 27 } })).toBe(
    'tests/booking.spec.ts:4, call at src/api/client.ts:12 · booking.spec.ts › deletes a booking (attempt 1)',
  );
  expect(failedWhere({ ...base, callLocation: { file: 'tests/booking.spec.ts', line: 9, column: 5 } })).toBe(
    'tests/booking.spec.ts:9 · booking.spec.ts › deletes a booking (attempt 1)',
  );
  expect(
    failedWhere({ method: 'GET', path: '/a', errorCode: 'ECONNREFUSED', responseTimeMs: 1, id: 'x1', location: 'line 4 of b.ndjson' }),
  ).toBe('line 4 of b.ndjson, id x1');
});

test(`past its limit (256 KiB, a quarter of a job summary) the Markdown is cut to the headline, the comparison, budgets and \
the worst endpoints, and says what it left out and where the rest is`, () => {
  expect(MARKDOWN_BYTE_LIMIT).toBe(256 * 1024);
  // Labels of 200 characters: the full Markdown of 64 endpoints is over 12 KiB, so a 12 KiB limit cuts it.
  const long = 'x'.repeat(180);
  const report = reportOf(
    Array.from({ length: 64 }, (_, index) => ({
      statusCode: index % 7 === 0 ? 500 : 200,
      endpoint: `GET /${long}/${index}`,
      responseTimeMs: index,
    })),
  );
  expect(Buffer.byteLength(renderMarkdown(report))).toBeGreaterThan(12 * 1024);
  const markdown = renderMarkdown(report, { byteLimit: 12 * 1024 });
  expect(Buffer.byteLength(markdown)).toBeLessThanOrEqual(12 * 1024);
  expect(tableRows(markdown, 'Endpoints')).toHaveLength(20);
  expect(markdown).toContain(
    "✂️ This summary is cut to fit GitHub's job summary (over 12 KiB in full): " +
      'it keeps the headline, the comparison, the budgets and the worst endpoints, ' +
      'and leaves out the rest of the endpoints, the contract, the slowest executions and the lists. ' +
      'The whole summary is in `quality-summary.md`, every number in `quality-summary.json` and `quality-summary.html`.',
  );
  expect(markdown).not.toContain('### Slowest executions');
  expect(renderMarkdown(report)).not.toContain('✂️');
});

test.describe('the GitHub job summary', () => {
  // The compiled programs in child processes, and one Playwright run in a packed project (npm pack, once
  // per worker): 13 s measured on a loaded machine for that one; 90 s each.
  test.describe.configure({ timeout: 90_000 });

  test('the runner appends the Markdown to GITHUB_STEP_SUMMARY, keeping what other steps wrote', async () => {
    const folder = await createTemporaryFolder({ 'summary.md': '# Earlier step\n' });
    const outcome = await runProgram('scripts/startEnvironment.js', {
      env: {
        QE_ENVIRONMENT: 'ci',
        QE_INPUT_PATH: join(repositoryRoot, 'fixtures/quality-executions.json'),
        QE_OUTPUT_PATH: join(folder, 'out/quality-summary.json'),
        GITHUB_STEP_SUMMARY: join(folder, 'summary.md'),
      },
    });
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    const markdown = await readFile(join(folder, 'out/quality-summary.md'), 'utf8');
    expect(await readFile(join(folder, 'summary.md'), 'utf8')).toBe(`# Earlier step\n\n${markdown}`);
  });

  test('the command appends the Markdown, once per run, and --formats json writes neither the Markdown nor the summary', async () => {
    const folder = await createTemporaryFolder({ 'summary.md': 'before\n' });
    const summary = join(folder, 'summary.md');
    const run = (...args: string[]) =>
      runProgram('src/cli/main.js', {
        args: [join(repositoryRoot, 'fixtures/quality-executions.json'), '-o', join(folder, 'q.json'), ...args],
        env: { GITHUB_STEP_SUMMARY: summary },
      });
    expect((await run()).exitCode).toBe(0);
    expect((await run()).exitCode).toBe(0);
    const markdown = await readFile(join(folder, 'q.md'), 'utf8');
    expect(await readFile(summary, 'utf8')).toBe(`before\n\n${markdown}\n${markdown}`);
    await writeFile(summary, 'before\n');
    const jsonOnly = await createTemporaryFolder();
    const outcome = await runProgram('src/cli/main.js', {
      args: [join(repositoryRoot, 'fixtures/quality-executions.json'), '-o', join(jsonOnly, 'q.json'), '--formats', 'json'],
      env: { GITHUB_STEP_SUMMARY: summary },
    });
    expect(outcome.exitCode).toBe(0);
    expect([
      await pathExists(join(jsonOnly, 'q.json')),
      await pathExists(join(jsonOnly, 'q.md')),
      await pathExists(join(jsonOnly, 'q.html')),
    ]).toStrictEqual([true, false, false]);
    expect(await readFile(summary, 'utf8')).toBe('before\n');
  });

  test('a job summary that cannot be written is a warning: the report files are written and the exit code is the run’s', async () => {
    const folder = await createTemporaryFolder();
    const outcome = await runProgram('src/cli/main.js', {
      args: [join(repositoryRoot, 'fixtures/quality-executions.json'), '-o', join(folder, 'q.json')],
      env: { GITHUB_STEP_SUMMARY: join(folder, 'no-such-folder/summary.md') },
    });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stderr).toBe(
      'quality-evidence: warning: the job summary ($GITHUB_STEP_SUMMARY) could not be appended to: no such file or directory (ENOENT)\n',
    );
    expect(await pathExists(join(folder, 'q.html'))).toBe(true);
  });

  test('a failed run writes no report file and appends nothing', async () => {
    const folder = await createTemporaryFolder({ 'bad.json': '{"executions":[{"statusCode":99}]}', 'summary.md': 'before\n' });
    const outcome = await runProgram('src/cli/main.js', {
      args: [join(folder, 'bad.json'), '-o', join(folder, 'out/q.json')],
      env: { GITHUB_STEP_SUMMARY: join(folder, 'summary.md') },
    });
    expect(outcome.exitCode).toBe(65);
    expect(await pathExists(join(folder, 'out'))).toBe(false);
    expect(await readFile(join(folder, 'summary.md'), 'utf8')).toBe('before\n');
  });

  test('a real Playwright run with the reporter appends the Markdown and writes the three files', async () => {
    const project = await createPlaywrightProject({
      'playwright.config.ts': `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  reporter: [['quality-evidence/reporter', { outputFile: 'out/quality-summary.json', environment: 'pr-42' }]],
});
`,
      'tests/orders.spec.ts': `import { test } from '@playwright/test';
import { recordExecution } from 'quality-evidence/reporter';
test('orders', async () => {
  await recordExecution({ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 42 });
  await recordExecution({ statusCode: 500, endpoint: 'POST /orders', responseTimeMs: 910 });
});
`,
      'summary.md': '## Tests\n',
    });
    const outcome = await runPlaywright(project, ['test'], { GITHUB_STEP_SUMMARY: join(project, 'summary.md') });
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    const markdown = await readFile(join(project, 'out/quality-summary.md'), 'utf8');
    expect(markdown.split('\n')[0]).toBe('## API quality evidence: `pr-42`');
    expect(await readFile(join(project, 'summary.md'), 'utf8')).toBe(`## Tests\n\n${markdown}`);
    expect(await pathExists(join(project, 'out/quality-summary.html'))).toBe(true);
    // The one line at the end of the run names the three files.
    expect(outcome.stdout).toContain(
      'quality-evidence: 2 calls: 1 server error, 1 failed, 1 slow, 0 with no response; report written to out/quality-summary.json (also .md, .html)\n',
    );
  });
});

test('lists of endpoints stop at 50 and say how many more the report has', () => {
  const flakyEndpoints = Array.from({ length: 60 }, (_, index) => `GET /flaky-${String(index).padStart(2, '0')}`);
  const lines = renderMarkdown({ ...reportOf([{ statusCode: 200, endpoint: 'GET /a', responseTimeMs: 1 }]), flakyEndpoints }).split('\n');
  expect(lines.filter((line) => line.startsWith('- `GET /flaky-'))).toHaveLength(50);
  expect(lines).toContain('- … and 10 more in the report');
});

test('one test run in several Playwright projects is one place in the Tests cell, its calls added up', () => {
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: 500 });
  const call = (project: string, line: number, attempt = 1): void => {
    const test = { title: `${project} › candy.spec.ts › line ${line}`, file: 'candy.spec.ts', line, column: 1 };
    run.take({ endpoint: 'GET /api/candy', statusCode: 200, responseTimeMs: 10 }, () => ({ kind: 'test', title: test.title, attempt }), {
      test,
      attempt,
      retriedAway: false,
      testPassed: true,
    });
  };
  for (const project of ['chromium', 'firefox', 'webkit']) call(project, 3);
  call('chromium', 12);
  call('chromium', 12);
  for (const line of [20, 30]) call('chromium', line);
  const markdown = renderMarkdown(run.finish({ tests: { total: 6, passed: 6, failed: 0, flaky: 0, skipped: 0 } }));
  expect(tableRows(markdown, 'Endpoints')[0]?.[9]).toBe('`candy.spec.ts:3` ×3, `candy.spec.ts:12` ×2, `candy.spec.ts:20` ×1, +1 more');
});
