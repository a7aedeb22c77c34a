import { expect, test } from './support/test.js';
import { Readable } from 'node:stream';
import { runCommand } from '../src/cli/runCommand.js';
import { exitCodeFor } from '../src/cli/exitCodes.js';
import type { CommandContext } from '../src/cli/summariseCommand.js';
import {
  buildReport,
  compareWithBaseline,
  evaluateBudgets,
  parseReport,
  renderHtml,
  renderMarkdown,
  renderTerminal,
  summariseExecutions,
  type QualityReport,
} from '../src/index.js';
import { formatHeadline } from '../src/report/renderers/terminal.js';
import { resolveSettings } from '../src/config/resolveSettings.js';
import { optionSettings } from '../src/config/settingsSources.js';
import { parseBudgets } from '../src/workflow/judgement.js';
import { thrownBy } from './support/failures.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';

// Budgets and baselines are read as strictly as inputs: every key is a label or
// refused, zero budgets never pass for a judgement, a baseline's labels are plain
// data; and `check` gates on a recorded verdict only when it agrees with its report.

/** Runs the command in this process on files in memory: its exit code and what it printed. */
async function command(
  args: readonly string[],
  files: Readonly<Record<string, string>>,
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const context: CommandContext = {
    args,
    env: {},
    fileSystem: new MemoryFileSystem(files),
    stdin: Readable.from([]),
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    programName: 'quality-evidence',
  };
  try {
    return { exitCode: await runCommand(context), stdout, stderr };
  } catch (error) {
    return { exitCode: exitCodeFor(error), stdout, stderr: `${(error as Error).message}\n` };
  }
}

const record = (endpoint: string, statusCode: number, responseTimeMs: number) => ({ statusCode, endpoint, responseTimeMs });
// GET /orders 200 in 120 ms, POST /orders 500 in 900 ms: one failed execution.
const RECORDS = JSON.stringify({ executions: [record('GET /orders', 200, 120), record('POST /orders', 500, 900)] });

function reportOf(records: readonly { endpoint: string; statusCode: number; responseTimeMs: number }[]): QualityReport {
  return buildReport(summariseExecutions(records, 750), { environment: 'ci', slowResponseThresholdMs: 750 });
}

test.describe('budget keys that are not endpoint labels are refused, with the file and the key', () => {
  for (const [text, message] of [
    // zod passes over a "__proto__" key without a word: it would have held, judging nothing.
    [
      '{ "endpoints": { "__proto__": { "maxFailedExecutions": 0 } } }',
      '  - endpoints.__proto__ in "b.json": must be an endpoint label of the form "<METHOD> <path>"',
    ],
    [
      '{ "endpoints": { "GET /a": {}, "__proto__": {} } }',
      '  - endpoints.__proto__ in "b.json": must be an endpoint label of the form "<METHOD> <path>"',
    ],
    [
      '{ "endpoints": { "constructor": {} } }',
      '  - endpoints.constructor in "b.json": must be an endpoint label of the form "<METHOD> <path>"',
    ],
    ['{ "__proto__": { "maxFailedExecutions": 0 } }', '  - __proto__ in "b.json": is not a budget'],
    ['{ "responseTimeMs": { "__proto__": 5 } }', '  - responseTimeMs.__proto__ in "b.json": is not a budget'],
    // Two keys that are one endpoint once normalised, as records' labels are.
    [
      '{ "endpoints": { "get /a": { "maxFailedExecutions": 0 }, "GET  /a": { "maxFailedExecutions": 3 } } }',
      '  - endpoints["GET  /a"] in "b.json": is the endpoint "GET /a", as "get /a" is: give each endpoint its budgets once',
    ],
  ] as const) {
    test(text, () => {
      expect((thrownBy(() => parseBudgets(text, 'b.json')) as Error).message).toBe(`invalid budgets:\n${message}`);
    });
  }

  test('the command exits 78 before anything is written', async () => {
    const outcome = await command(['in.json', '--budgets', 'b.json', '-o', 'out/q.json'], {
      'in.json': RECORDS,
      'b.json': '{ "endpoints": { "__proto__": { "maxFailedExecutions": 0 } } }',
    });
    expect([outcome.exitCode, outcome.stdout, outcome.stderr]).toStrictEqual([
      78,
      '',
      'invalid budgets:\n  - endpoints.__proto__ in "b.json": must be an endpoint label of the form "<METHOD> <path>"\n',
    ]);
  });

  test('the reporter option budgets (an object) is refused the same way', () => {
    const budgets = JSON.parse('{ "endpoints": { "__proto__": { "maxFailedExecutions": 0 } } }') as unknown;
    const source = optionSettings({ budgets }, { owner: 'quality-evidence/reporter', base: '.' });
    expect((thrownBy(() => resolveSettings([source], { defaults: { environment: 'local' } })) as Error).message).toBe(
      'invalid configuration:\n  - option budgets.endpoints.__proto__: must be an endpoint label of the form "<METHOD> ' +
        '<path>"; got {"maxFailedExecutions":0} (an object)',
    );
  });
});

test('budget endpoint keys are normalised as records\u2019 labels are: "get  /orders" judges GET /orders', () => {
  const report = reportOf([record('GET /orders', 500, 10)]);
  expect(evaluateBudgets(report, { endpoints: { 'get  /orders ': { maxFailedExecutions: 0 } } }).results).toStrictEqual([
    { budget: 'maxFailedExecutions', endpoint: 'GET /orders', limit: 0, actual: 1, passed: false },
  ]);
});

test.describe('zero budgets ({}) judge nothing: no rendering shows a pass mark for them', () => {
  // One failed execution of two, judged by budgets that set no limit.
  const report: QualityReport = {
    ...reportOf([record('GET /orders', 200, 120), record('POST /orders', 500, 900)]),
    budgets: evaluateBudgets(reportOf([]), {}),
  };
  const clean: QualityReport = { ...reportOf([record('GET /orders', 200, 120)]), budgets: { passed: true, results: [] } };

  test('the verdict is passed, with no results: no limit is breached', () => {
    expect(evaluateBudgets(report, {})).toStrictEqual({ passed: true, results: [] });
  });

  test('Markdown', () => {
    expect(renderMarkdown(report).split('\n')[2]).toBe(
      '❌ **1 failed call, a server error, and the budgets set no limit** · 2 calls · 1 server error · 1 failed · 1 slow (over 750 ms) · 0 with no response',
    );
    expect(renderMarkdown(clean).split('\n')[2]).toBe(
      '⚠️ **No failed calls, but the budgets set no limit** · 1 call · 0 server errors · 0 failed · 0 slow (over 750 ms) · 0 with no response',
    );
    expect(renderMarkdown(clean)).toContain('### Budgets\n\nThe budgets set no limit.\n');
  });

  test('HTML', () => {
    expect(renderHtml(report)).toContain(
      '<p class="verdict bad" data-verdict="failed"><span aria-hidden="true">✖</span> 1 failed call, a server error, and the budgets set no limit</p>',
    );
    expect(renderHtml(clean)).toContain(
      '<p class="verdict warn" data-verdict="no-budgets"><span aria-hidden="true">⚠</span> No failed calls, but the budgets set no limit</p>',
    );
  });

  test('the terminal and the closing line', () => {
    expect(renderTerminal(clean, { files: [] }).split('\n')[1]).toBe('! no failed calls, but the budgets set no limit');
    expect(renderTerminal(report, { files: [] }).split('\n')[1]).toBe('✖ 1 failed call, a server error, and the budgets set no limit');
    expect(formatHeadline(clean, ['q.json'])).toBe(
      'quality-evidence: 1 call: 0 server errors, 0 failed, 0 slow, 0 with no response; budgets: none, as the budgets set no limit; report written to q.json',
    );
  });

  test("check's output", async () => {
    const outcome = await command(['check', 'q.json', '--budgets', 'b.json'], { 'q.json': JSON.stringify(report), 'b.json': '{}' });
    expect(outcome).toStrictEqual({
      exitCode: 0,
      stdout: 'quality-evidence check: the budgets set no limit: nothing was judged\n',
      stderr: '',
    });
  });
});

test('a run without budgets whose calls all passed and a test failed on its own assertion gets no passing mark: the failed tests are said', () => {
  const report: QualityReport = {
    ...reportOf([record('GET /orders', 200, 120)]),
    tests: { total: 3, passed: 2, failed: 1, flaky: 0, skipped: 0 },
  };
  expect(renderMarkdown(report).split('\n')[2]).toBe(
    '❌ **No failed calls, but 1 test failed; no budgets set** · 1 call · 0 server errors · 0 failed · 0 slow (over 750 ms) · 0 with no response',
  );
  expect(renderTerminal(report, { files: [] }).split('\n')[1]).toBe('✖ no failed calls, but 1 test failed; no budgets set');
});

test.describe('a baseline whose endpoints are named like Object.prototype\u2019s properties is compared like any other', () => {
  // A report is any JSON: labels "__proto__" and "toString" are data, not properties to look up.
  const entry = (endpoint: string, failed: number) => ({
    endpoint,
    executionCount: 2,
    failedExecutionCount: failed,
    expectedErrorCount: 0,
    slowExecutionCount: 0,
    noResponseCount: 0,
    statusCodes: failed === 0 ? { '200': 2 } : { '200': 1, '500': 1 },
    responseTimeMs: { min: 1, mean: 1, p50: 1, p90: 1, p95: 1, p99: 1, max: 1 },
  });
  const reportText = (failed: number) =>
    '{"schemaVersion":1,"environment":"ci","slowResponseThresholdMs":750,"executionCount":4,' +
    `"failedExecutionCount":${2 * failed},"slowExecutionCount":0,` +
    `"failureCountByEndpoint":${failed === 0 ? '{}' : `{"__proto__":${failed},"toString":${failed}}`},` +
    '"slowEndpoints":[],"noResponseCount":0,"noResponseEndpoints":[],"expectedErrorCount":0,' +
    '"statusCodes":{},"responseTimeMs":{"min":1,"mean":1,"p50":1,"p90":1,"p95":1,"p99":1,"max":1},' +
    `"endpoints":${JSON.stringify([entry('__proto__', failed), entry('toString', failed)])},"slowestExecutions":[]}`;
  const failing = () => parseReport(reportText(1), 'failing.json');
  const passing = () => parseReport(reportText(0), 'passing.json');

  test('a failure count under "__proto__" is read', () => {
    expect(Object.entries(failing().failureCountByEndpoint)).toStrictEqual([
      ['toString', 1],
      ['__proto__', 1],
    ]);
  });

  test('both recover', () => {
    expect(compareWithBaseline(passing() as QualityReport, failing()).recoveredEndpoints).toStrictEqual(['__proto__', 'toString']);
  });

  test('both fail anew', () => {
    expect(compareWithBaseline(failing() as QualityReport, passing()).newlyFailingEndpoints).toStrictEqual(['__proto__', 'toString']);
  });
});

test.describe('check refuses a recorded verdict that contradicts its report (65): it gates on nothing it cannot trust', () => {
  // GET /orders 200 in 120 ms, POST /orders 500 in 900 ms, judged by { maxFailedExecutions: 0, endpoints: { "GET /orders": {
  // responseTimeMs: { p95: 200 } } } }.
  const judged = (): QualityReport => {
    const report = reportOf([record('GET /orders', 200, 120), record('POST /orders', 500, 900)]);
    return {
      ...report,
      budgets: evaluateBudgets(report, { maxFailedExecutions: 0, endpoints: { 'GET /orders': { responseTimeMs: { p95: 200 } } } }),
    };
  };
  const checked = (report: QualityReport) => command(['check', 'q.json'], { 'q.json': JSON.stringify(report) });

  test('a verdict that agrees is used as recorded', async () => {
    expect(await checked(judged())).toStrictEqual({
      exitCode: 1,
      stdout:
        'FAIL maxFailedExecutions: 1 (limit ≤ 0)\npass responseTimeMs.p95 of GET /orders: 120 ms (limit ≤ 200 ms)\n' +
        'quality-evidence check: 1 of 2 budgets breached\n',
      stderr: '',
    });
  });

  for (const [name, edit, reason] of [
    [
      'passed: true beside a failed result',
      (report: QualityReport) => ({ ...report, budgets: { ...report.budgets!, passed: true } }),
      'budgets.passed is true, but 1 of its 2 results failed',
    ],
    [
      'a result marked passed whose value breaches its limit',
      (report: QualityReport) => ({
        ...report,
        budgets: { passed: true, results: report.budgets!.results.map((result) => ({ ...result, passed: true })) },
      }),
      'budgets.results[0] ("maxFailedExecutions") records passed: true, but 1 does not hold its limit 0',
    ],
    [
      'a measured value that is not the report\u2019s',
      (report: QualityReport) => ({
        ...report,
        budgets: { passed: true, results: [{ ...report.budgets!.results[0]!, actual: 0, passed: true }, report.budgets!.results[1]!] },
      }),
      'budgets.results[0] ("maxFailedExecutions") records 0 as measured, where the report\'s own numbers give 1',
    ],
    [
      'an endpoint budget measured on an endpoint the report does not have',
      (report: QualityReport) => ({
        ...report,
        budgets: { passed: true, results: [{ budget: 'minExecutions', endpoint: 'GET /health', limit: 1, actual: 1, passed: true }] },
      }),
      'budgets.results[0] ("minExecutions" of "GET /health") records 1 as measured, where the report\'s own numbers give null',
    ],
    [
      'a result that is no budget',
      (report: QualityReport) => ({
        ...report,
        budgets: { passed: true, results: [{ budget: 'maxHappiness', limit: 1, actual: 1, passed: true }] },
      }),
      'budgets.results[0] ("maxHappiness") is not a budget',
    ],
  ] as const) {
    test(name, async () => {
      expect(await checked(edit(judged()))).toStrictEqual({
        exitCode: 65,
        stdout: '',
        stderr: `the report "q.json" holds a budget verdict that contradicts it: ${reason}\n`,
      });
    });
  }

  test('a report older than the per-endpoint statistics has its verdict judged, not measured again', async () => {
    const older: Partial<QualityReport> = judged();
    delete older.endpoints;
    delete older.responseTimeMs;
    expect(await command(['check', 'q.json'], { 'q.json': JSON.stringify(older) })).toMatchObject({ exitCode: 1, stderr: '' });
    const contradicting = { ...older, budgets: { ...older.budgets!, passed: true } };
    expect(await command(['check', 'q.json'], { 'q.json': JSON.stringify(contradicting) })).toMatchObject({ exitCode: 65 });
  });

  test('with --budgets the report is judged afresh, whatever it recorded', async () => {
    const report = judged();
    const outcome = await command(['check', 'q.json', '--budgets', 'b.json'], {
      'q.json': JSON.stringify({ ...report, budgets: { ...report.budgets!, passed: true } }),
      'b.json': '{ "maxFailedExecutions": 1 }',
    });
    expect(outcome).toStrictEqual({
      exitCode: 0,
      stdout: 'pass maxFailedExecutions: 1 (limit ≤ 1)\nquality-evidence check: the budget holds\n',
      stderr: '',
    });
  });
});
