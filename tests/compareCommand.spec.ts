import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatReport, parseReport, type QualityReport } from '../src/index.js';
import { createEvidenceRun } from '../src/run/evidenceRun.js';
import { EXPORT_SETTING_KEYS } from '../src/config/settings.js';
import { settingHelpLines } from '../src/cli/settingsHelp.js';
import { createTemporaryFolder, runProgram } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// `quality-evidence compare BASE HEAD --output FILE`: HEAD's report with its
// baseline section computed against BASE, from the two reports alone, byte
// for byte what a run of HEAD's records with --baseline BASE writes; and
// each way it is misused, with the exit code `check` gives it, before
// anything is written.

const COMMAND = 'src/cli/main.js';

// A small contract: GET /orders declares 200 only, so a 503 is undeclared; DELETE declares 204.
const OPENAPI = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'orders', version: '1' },
  paths: {
    '/orders': {
      get: { operationId: 'listOrders', responses: { 200: { description: 'ok' } } },
      post: { operationId: 'addOrder', responses: { 201: { description: 'created' }, 400: { description: 'bad' } } },
    },
    '/orders/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: { operationId: 'getOrder', responses: { 200: { description: 'ok' }, 404: { description: 'none' } } },
      delete: { operationId: 'deleteOrder', responses: { 204: { description: 'gone' } } },
    },
  },
});

/** `count` calls of an endpoint, times spread over 100 to 149 ms and scaled, each with the status `statusOf` gives its index. */
function calls(endpoint: string, count: number, scale = 1, statusOf: (index: number) => number = () => 200): object[] {
  return Array.from({ length: count }, (_, index) => ({
    endpoint,
    statusCode: statusOf(index),
    responseTimeMs: Math.round(scale * (100 + ((index * 37) % 50)) * 10) / 10,
  }));
}

// Main: every operation called. The branch: GET /orders 50% slower with an undeclared 503, a 502 on GET /orders/{id},
// POST /orders no longer called, and a new endpoint.
const BASE_RECORDS = [
  ...calls('GET /orders', 40),
  ...calls('POST /orders', 20, 1, () => 201),
  ...calls('GET /orders/17', 20),
  ...calls('DELETE /orders/17', 6, 1, () => 204),
];
const HEAD_RECORDS = [
  ...calls('GET /orders', 40, 1.5, (index) => (index === 3 ? 503 : 200)),
  ...calls('GET /orders/17', 20, 1, (index) => (index === 0 ? 502 : 200)),
  ...calls('DELETE /orders/17', 6, 1, () => 204),
  ...calls('GET /health', 8),
];

/** Runs the command in `folder`. */
function command(folder: string, args: readonly string[]) {
  return runProgram(COMMAND, { cwd: folder, args: [...args] });
}

/** A folder with base.json and head.json, reports of the two runs' records judged against the contract, and their records. */
async function twoReports(extraArgs: readonly string[] = []): Promise<string> {
  const folder = await createTemporaryFolder(
    {
      'openapi.json': OPENAPI,
      'base-records.json': JSON.stringify({ executions: BASE_RECORDS }),
      'head-records.json': JSON.stringify({ executions: HEAD_RECORDS }),
    },
    'compare',
  );
  for (const [records, report, environment] of [
    ['base-records.json', 'base.json', 'main'],
    ['head-records.json', 'head.json', 'pull-request'],
  ] as const) {
    const outcome = await command(folder, [
      records,
      '--environment',
      environment,
      '--openapi',
      'openapi.json',
      '--output',
      report,
      '--formats',
      'json',
      '--quiet',
      ...extraArgs,
    ]);
    expect(outcome).toStrictEqual({ exitCode: 0, stdout: '', stderr: '' });
  }
  return folder;
}

/** The three files of a report folder, by name. */
async function reportFiles(folder: string): Promise<Record<string, string>> {
  const names = ['quality-summary.json', 'quality-summary.md', 'quality-summary.html'];
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await readFile(join(folder, name), 'utf8')] as const)));
}

test(`compare, given the document, writes what a run of HEAD’s records with --baseline BASE writes, byte for byte: the JSON, the \
Markdown and the page`, async () => {
  const folder = await twoReports();
  const run = await command(folder, [
    'head-records.json',
    '--environment',
    'pull-request',
    '--openapi',
    'openapi.json',
    '--baseline',
    'base.json',
    '--output',
    'run/quality-summary.json',
    '--quiet',
  ]);
  const compared = await command(folder, [
    'compare',
    'base.json',
    'head.json',
    '--openapi',
    'openapi.json',
    '--output',
    'compared/quality-summary.json',
    '--quiet',
  ]);

  expect([run, compared]).toStrictEqual([
    { exitCode: 0, stdout: '', stderr: '' },
    { exitCode: 0, stdout: '', stderr: '' },
  ]);
  expect(await reportFiles(join(folder, 'compared'))).toStrictEqual(await reportFiles(join(folder, 'run')));
  // What the comparison found, so that the equality above is of a comparison with something in it.
  const { baseline } = JSON.parse(await readFile(join(folder, 'compared/quality-summary.json'), 'utf8')) as QualityReport;
  expect([
    baseline?.slowerEndpoints,
    baseline?.newEndpoints,
    baseline?.contract?.noLongerExercisedOperations,
    baseline?.contract?.newUndeclaredStatuses,
    baseline?.contract?.noLongerMetConditions,
  ]).toStrictEqual([
    ['GET /orders'],
    ['GET /health'],
    ['POST /orders'],
    [
      { operation: 'GET /orders', status: '503' },
      { operation: 'GET /orders/{id}', status: '502' },
    ],
    [{ operation: 'POST /orders', condition: { kind: 'status', where: '#/paths/~1orders/post/responses/201', status: '201' } }],
  ]);
});

test(`without the document, compare compares the conditions' coverage and lists none of them (the report's contract section \
names no condition met)`, async () => {
  const folder = await twoReports();
  const outcome = await command(folder, ['compare', 'base.json', 'head.json', '--output', 'compared.json', '--formats', 'json', '--quiet']);

  expect(outcome).toStrictEqual({ exitCode: 0, stdout: '', stderr: '' });
  const { baseline } = JSON.parse(await readFile(join(folder, 'compared.json'), 'utf8')) as QualityReport;
  // 8 conditions: the statuses each operation declares (1, 2, 2, 1) and the path parameter id of the two with one. BASE met all
  // but POST's 400 and GET /orders/{id}'s 404: 6 of 8; HEAD no longer POST's 201 either (it never called POST): 5 of 8.
  expect(baseline?.contract?.conditionCoveragePercent).toStrictEqual({ before: 75, after: 62.5 });
  expect(Object.keys(baseline?.contract ?? {}).filter((key) => key.includes('Met') || key.startsWith('conditionList'))).toStrictEqual([]);
});

test('a baseline section HEAD holds, against another report, is replaced by the comparison with BASE', async () => {
  const folder = await twoReports();
  await writeFile(join(folder, 'other-records.json'), JSON.stringify({ executions: calls('GET /orders', 40, 3) }));
  expect((await command(folder, ['other-records.json', '--output', 'other.json', '--formats', 'json', '--quiet'])).exitCode).toBe(0);
  const judgedAgainstOther = await command(folder, [
    'head-records.json',
    '--environment',
    'pull-request',
    '--openapi',
    'openapi.json',
    '--baseline',
    'other.json',
    '--output',
    'head-other.json',
    '--formats',
    'json',
    '--quiet',
  ]);
  expect(judgedAgainstOther.exitCode).toBe(0);

  const fromPlain = await command(folder, ['compare', 'base.json', 'head.json', '-o', 'a/q.json', '--formats', 'json', '--quiet']);
  const fromJudged = await command(folder, ['compare', 'base.json', 'head-other.json', '-o', 'b/q.json', '--formats', 'json', '--quiet']);

  expect([fromPlain.exitCode, fromJudged.exitCode]).toStrictEqual([0, 0]);
  expect(await readFile(join(folder, 'b/q.json'), 'utf8')).toBe(await readFile(join(folder, 'a/q.json'), 'utf8'));
});

test(`a report of the Playwright reporter (its tests, flaky endpoints, keys in its own order): \
compare writes what its run with the baseline writes`, async () => {
  const login = { title: 'auth.spec.ts › logs in', file: 'auth.spec.ts', line: 3, column: 1 };
  const facts = { tests: { total: 1, passed: 1, failed: 0, flaky: 1, skipped: 0 } };
  /** A reporter's run: a flaky login (503 on attempt 1, made good by attempt 2) when `flaky`, and 30 listings. */
  const reporterRun = (flaky: boolean, judgement?: { baseline: ReturnType<typeof parseReport> }) => {
    const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: 500 }, { judgement });
    const origin = (attempt: number, passed: boolean) => ({ test: login, attempt, retriedAway: !passed, testPassed: passed });
    run.take(
      { endpoint: 'POST /login', statusCode: flaky ? 503 : 200, responseTimeMs: 12 },
      () => ({ kind: 'test', title: login.title, attempt: 1 }),
      {
        ...origin(1, !flaky),
        callLocation: { file: 'auth.spec.ts', line: 4, column: 20 },
      },
    );
    if (flaky)
      run.take(
        { endpoint: 'POST /login', statusCode: 200, responseTimeMs: 9 },
        () => ({ kind: 'test', title: login.title, attempt: 2 }),
        origin(2, true),
      );
    for (const record of calls('GET /orders', 30))
      run.take(record, () => ({ kind: 'test', title: login.title, attempt: 1 }), origin(1, true));
    return run.finish({ ...facts, playwrightHtmlReport: 'playwright-report/index.html' });
  };
  const baseText = formatReport(reporterRun(false));
  const folder = await createTemporaryFolder({ 'base.json': baseText, 'head.json': formatReport(reporterRun(true)) }, 'compare');
  const expected = formatReport(reporterRun(true, { baseline: parseReport(baseText, 'base.json') }));

  const outcome = await command(folder, ['compare', 'base.json', 'head.json', '--output', 'compared.json', '--formats', 'json', '--quiet']);

  expect(outcome).toStrictEqual({ exitCode: 0, stdout: '', stderr: '' });
  const written = await readFile(join(folder, 'compared.json'), 'utf8');
  expect(written).toBe(expected);
  expect((JSON.parse(written) as QualityReport).baseline?.endpoints.find((entry) => entry.endpoint === 'POST /login')?.flakiness).toBe(
    'newlyFlaky',
  );
});

test('--export writes the compared run for another tool, and the job summary gets its Markdown, as every run’s', async () => {
  const folder = await twoReports();
  const outcome = await runProgram(COMMAND, {
    cwd: folder,
    args: ['compare', 'base.json', 'head.json', '-o', 'out/q.json', '--export', 'ctrf=out/ctrf.json', '--quiet'],
    env: { GITHUB_STEP_SUMMARY: join(folder, 'summary.md') },
  });

  expect(outcome).toStrictEqual({ exitCode: 0, stdout: '', stderr: '' });
  expect(await readFile(join(folder, 'summary.md'), 'utf8')).toContain((await readFile(join(folder, 'out/q.md'), 'utf8')).trim());
  const ctrf = JSON.parse(await readFile(join(folder, 'out/ctrf.json'), 'utf8')) as { results: { tool: { name: string } } };
  expect(ctrf.results.tool.name).toBe('quality-evidence');
});

test('compare takes every setting the exports read, by its flag and its variable, as check does', async () => {
  const folder = await twoReports();
  const outcome = await runProgram(COMMAND, {
    cwd: folder,
    args: ['compare', 'base.json', 'head.json', '-o', 'out/q.json', '--export', 'prometheus=out/metrics.prom', '--quiet'],
    env: { QE_SERVICE_NAME: 'orders-api' },
  });
  expect(outcome).toStrictEqual({ exitCode: 0, stdout: '', stderr: '' });
  expect(await readFile(join(folder, 'out/metrics.prom'), 'utf8')).toContain('service="orders-api"');
  const flag = await runProgram(COMMAND, {
    cwd: folder,
    args: ['compare', 'base.json', 'head.json', '-o', 'out/q.json', '--export', 'prometheus=out/metrics.prom', '--service-name', 'cart'],
    env: { QE_SERVICE_NAME: 'orders-api', QE_QUIET: 'true' },
  });
  expect(flag).toStrictEqual({ exitCode: 0, stdout: '', stderr: '' });
  expect(await readFile(join(folder, 'out/metrics.prom'), 'utf8')).toContain('service="cart"');
});

test.describe('budgets', () => {
  test('--budgets judges the compared report as a run with the same budgets and baseline does: a breach exits 1, the report written', async () => {
    const folder = await twoReports();
    await writeFile(join(folder, 'budgets.json'), JSON.stringify({ maxP95IncreasePercent: 10, maxFailedExecutions: 5 }));
    const run = await command(folder, [
      'head-records.json',
      '--environment',
      'pull-request',
      '--openapi',
      'openapi.json',
      '--baseline',
      'base.json',
      '--budgets',
      'budgets.json',
      '--output',
      'run.json',
      '--formats',
      'json',
      '--quiet',
    ]);
    const compared = await command(folder, [
      'compare',
      'base.json',
      'head.json',
      '--openapi',
      'openapi.json',
      '--budgets',
      'budgets.json',
      '-o',
      'compared.json',
      '--formats',
      'json',
      '-q',
    ]);

    expect([compared.exitCode, compared.stderr]).toStrictEqual([run.exitCode, run.stderr]);
    expect(compared.exitCode).toBe(1);
    expect(await readFile(join(folder, 'compared.json'), 'utf8')).toBe(await readFile(join(folder, 'run.json'), 'utf8'));
  });

  test('without --budgets, the verdict HEAD recorded is kept and gated on: a breach exits 1, naming it', async () => {
    const folder = await twoReports();
    await writeFile(join(folder, 'budgets.json'), JSON.stringify({ maxFailedExecutions: 0 }));
    const judged = [
      'head-records.json',
      '--environment',
      'pull-request',
      '--budgets',
      'budgets.json',
      '-o',
      'judged.json',
      '--formats',
      'json',
      '-q',
    ];
    expect((await command(folder, judged)).exitCode).toBe(1);

    const outcome = await command(folder, ['compare', 'base.json', 'judged.json', '-o', 'compared.json', '--formats', 'json', '-q']);

    expect(outcome).toStrictEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'quality-evidence: 1 of 1 budget breached:\n  FAIL maxFailedExecutions: 2 (limit ≤ 0)\n',
    });
    expect((JSON.parse(await readFile(join(folder, 'compared.json'), 'utf8')) as QualityReport).budgets?.passed).toBe(false);
  });

  test(`without --budgets, a recorded verdict of maxP95IncreasePercent, judged against HEAD’s own baseline, is refused (64): \
only the budgets can judge it again`, async () => {
    const folder = await twoReports();
    await writeFile(join(folder, 'budgets.json'), JSON.stringify({ maxP95IncreasePercent: 10 }));
    const judged = [
      'head-records.json',
      '--baseline',
      'base.json',
      '--budgets',
      'budgets.json',
      '-o',
      'judged.json',
      '--formats',
      'json',
      '-q',
    ];
    expect((await command(folder, judged)).exitCode).toBe(1);

    const outcome = await command(folder, ['compare', 'base.json', 'judged.json', '-o', 'compared.json']);

    expect(outcome).toStrictEqual({
      exitCode: 64,
      stdout: '',
      stderr:
        'quality-evidence: the report "judged.json" records a verdict of maxP95IncreasePercent, judged against its own baseline, which BASE replaces: ' +
        'name the budgets file with --budgets to judge it against BASE; see quality-evidence compare --help\n',
    });
    expect(await readdir(folder)).not.toContain('compared.json');
  });
});

test.describe('misuse: the exit code check gives it, one line naming what is wrong, nothing written', () => {
  const cases: { name: string; args: string[]; exitCode: number; stderr: string; prepare?: (folder: string) => Promise<void> }[] = [
    {
      name: 'no --output is a usage error (64)',
      args: ['compare', 'base.json', 'head.json'],
      exitCode: 64,
      stderr:
        "quality-evidence: compare writes HEAD's report, compared with BASE, where --output names: name a file; see quality-evidence compare --help\n",
    },
    {
      name: 'one report is a usage error (64)',
      args: ['compare', 'base.json', '--output', 'out.json'],
      exitCode: 64,
      stderr: 'quality-evidence: compare takes two reports, BASE and HEAD (got 1); see quality-evidence compare --help\n',
    },
    {
      name: 'an unknown flag is a usage error (64)',
      args: ['compare', 'base.json', 'head.json', '--output', 'out.json', '--baseline', 'x.json'],
      exitCode: 64,
      stderr: "quality-evidence: Unknown option '--baseline'; see quality-evidence compare --help\n",
    },
    {
      name: 'a missing BASE is 66',
      args: ['compare', 'none.json', 'head.json', '--output', 'out.json'],
      exitCode: 66,
      stderr: 'quality-evidence: cannot read the baseline report "none.json": no such file or directory (ENOENT)\n',
    },
    {
      name: 'a missing HEAD is 66',
      args: ['compare', 'base.json', 'none.json', '--output', 'out.json'],
      exitCode: 66,
      stderr: 'quality-evidence: cannot read the report "none.json": no such file or directory (ENOENT)\n',
    },
    {
      name: 'a BASE that is not a report is 65',
      args: ['compare', 'base-records.json', 'head.json', '--output', 'out.json'],
      exitCode: 65,
      stderr:
        'quality-evidence: the baseline report "base-records.json" is not a quality-summary.json written by ' +
        'quality-evidence (at schemaVersion: Invalid option: expected one of 1|2)\n',
    },
    {
      name: 'a HEAD that is not a report is 65',
      args: ['compare', 'base.json', 'head-records.json', '--output', 'out.json'],
      exitCode: 65,
      stderr:
        'quality-evidence: the report "head-records.json" is not a quality-summary.json written by quality-evidence ' +
        '(at schemaVersion: Invalid option: expected one of 1|2)\n',
    },
    {
      name: 'a HEAD of an earlier version, without latency histograms, is 65',
      prepare: async (folder) => {
        const report = JSON.parse(await readFile(join(folder, 'head.json'), 'utf8')) as { endpoints: Record<string, unknown>[] };
        // Written before histograms, and before the times by status (0.2) that take them.
        for (const entry of report.endpoints) {
          delete entry['latencyHistogram'];
          delete entry['latencyByStatus'];
        }
        await writeFile(join(folder, 'older.json'), JSON.stringify({ ...report, schemaVersion: 1 }));
      },
      args: ['compare', 'base.json', 'older.json', '--output', 'out.json'],
      exitCode: 65,
      stderr:
        'quality-evidence: the report "older.json" is not a complete report of this version of quality-evidence (at ' +
        'endpoints[0].latencyHistogram: Invalid input: expected object, received undefined): compare takes reports ' +
        'written by this version\n',
    },
    {
      name: 'a HEAD whose parts do not add up is 65',
      prepare: async (folder) => {
        const report = JSON.parse(await readFile(join(folder, 'head.json'), 'utf8')) as { endpoints: { executionCount: number }[] };
        report.endpoints[0]!.executionCount += 1;
        await writeFile(join(folder, 'edited.json'), JSON.stringify(report));
      },
      args: ['compare', 'base.json', 'edited.json', '--output', 'out.json'],
      exitCode: 65,
      stderr: '',
    },
    {
      name: 'the output path BASE is refused (73): it is a report compare reads',
      args: ['compare', 'base.json', 'head.json', '--output', 'base.json'],
      exitCode: 73,
      stderr:
        'quality-evidence: cannot write the report: the output path is the baseline report "base.json", which this run ' +
        'reads: writing the report there would destroy it\n',
    },
    {
      name: 'the output path HEAD is refused (73), however it is spelled',
      args: ['compare', 'base.json', 'head.json', '--output', './head.json'],
      exitCode: 73,
      stderr:
        'quality-evidence: cannot write the report: the output path is the report "head.json", which this run reads: ' +
        'writing the report there would destroy it\n',
    },
    {
      name: 'a significance level that is no probability is 78',
      args: ['compare', 'base.json', 'head.json', '--output', 'out.json', '--significance-level', '2'],
      exitCode: 78,
      stderr:
        'quality-evidence: invalid configuration:\n  - --significance-level: must be a probability above 0 and at most 0.5, such as 0.01\n',
    },
  ];
  for (const { name, args, exitCode, stderr, prepare } of cases) {
    test(name, async () => {
      const folder = await twoReports();
      await prepare?.(folder);
      const before = await readdir(folder);

      const outcome = await command(folder, args);

      expect([outcome.exitCode, outcome.stdout]).toStrictEqual([exitCode, '']);
      if (stderr === '') expect(outcome.stderr).toMatch(/^quality-evidence: the report "edited\.json" does not add up \(at endpoints\[0\]/);
      else expect(outcome.stderr).toBe(stderr);
      expect(await readdir(folder)).toStrictEqual(before);
    });
  }
});

test('--help prints the usage and exits 0', async () => {
  const outcome = await command(await createTemporaryFolder({}, 'compare'), ['compare', '--help']);
  expect([outcome.exitCode, outcome.stdout.split('\n')[0], outcome.stderr]).toStrictEqual([
    0,
    'Usage: quality-evidence compare <BASE.json> <HEAD.json> --output <file> [options]',
    '',
  ]);
});

test('--help lists the settings compare takes, every one the exports read among them, each line made from its row', async () => {
  const { stdout } = await command(await createTemporaryFolder({}, 'compare'), ['compare', '--help']);
  expect(stdout).toContain(`${settingHelpLines(['formats', 'significanceLevel', 'traceUrlTemplate'])}\n  --budgets <file>`);
  expect(stdout).toContain(`${settingHelpLines([...EXPORT_SETTING_KEYS, 'quiet'])}\n  --json`);
  expect(stdout).toContain('  -o, --output <file>                  where the compared report goes (required; never BASE or HEAD)\n');
});
