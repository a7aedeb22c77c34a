import { expect, test } from './support/test.js';
import { buildReport, renderTerminal, summariseExecutions } from '../src/index.js';
import { formatHeadline } from '../src/report/renderers/terminal.js';
import { generatedRecords } from './support/generatedRun.js';

// What people see in a terminal: the command's short summary and the line a run ends with.

const fixture = [
  { id: 'exec-001', statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 120 },
  { id: 'exec-002', statusCode: 503, endpoint: 'POST /orders', responseTimeMs: 980 },
  { id: 'exec-003', statusCode: 201, endpoint: 'GET /invoices', responseTimeMs: 1210 },
];

const reportOf = (records: readonly object[]) =>
  buildReport(summariseExecutions(records as never, 750), { environment: 'local-example', slowResponseThresholdMs: 750 });

test('the terminal summary of the fixture: verdict, numbers, percentiles with their count, worst endpoints, files', () => {
  expect(
    renderTerminal(reportOf(fixture), {
      files: ['.build/quality-summary.json', '.build/quality-summary.md', '.build/quality-summary.html'],
    }),
  ).toBe(
    [
      'quality-evidence · local-example',
      '✖ 1 failed call, a server error, no budgets set',
      '3 calls · 1 server error · 1 failed · 2 slow (over 750 ms) · 0 with no response',
      'p50 980 ms (n=3) · p95 1,210 ms (n=3) · p99 1,210 ms (n=3)',
      '',
      'Worst endpoints (server errors first, then failed, then by p95; percentiles by nearest rank):',
      '  ✖ POST /orders     1 failed  p95 980 ms (n=1)  failing  503 ×1',
      '  ▲ GET /invoices    0 failed  p95 1,210 ms (n=1)  slow  201 ×1',
      '  ✔ GET /orders      0 failed  p95 120 ms (n=1)  ok  200 ×1',
      '',
      'Report: .build/quality-summary.json',
      'Also:   .build/quality-summary.md, .build/quality-summary.html',
      '',
    ].join('\n'),
  );
});

test("a Playwright run's summary says its tests, and names the failed ones by file, line and title, five at most", () => {
  const failed = (line: number) => ({
    title: `orders.spec.ts › case ${line}`,
    file: 'orders.spec.ts',
    line,
    column: 1,
    endpoints: [],
    endpointCount: 0,
  });
  const report = {
    ...reportOf(fixture),
    tests: { total: 12, passed: 5, failed: 7, flaky: 0, skipped: 0 },
    failedTests: [3, 9, 14, 20, 31, 40].map(failed),
  };
  const lines = renderTerminal(report, { files: [] }).split('\n');
  const at = lines.indexOf('Tests: 12 tests: 5 passed, 7 failed, 0 flaky, 0 skipped');
  expect(at).toBe(4);
  expect(lines.slice(at + 1, at + 7)).toStrictEqual([
    '  ✖ orders.spec.ts:3 · orders.spec.ts › case 3',
    '  ✖ orders.spec.ts:9 · orders.spec.ts › case 9',
    '  ✖ orders.spec.ts:14 · orders.spec.ts › case 14',
    '  ✖ orders.spec.ts:20 · orders.spec.ts › case 20',
    '  ✖ orders.spec.ts:31 · orders.spec.ts › case 31',
    '  … and 2 more failed tests',
  ]);
});

test('the line a run ends with says how many of its failed calls a retry of the same test made good', () => {
  const report = { ...reportOf(fixture), flakyFailedExecutionCount: 1 };
  expect(formatHeadline(report, ['q.json'])).toContain(
    '3 calls: 1 server error, 1 failed (1 made good by a retry), 2 slow, 0 with no response;',
  );
  expect(formatHeadline(reportOf(fixture), ['q.json'])).toContain('3 calls: 1 server error, 1 failed, 2 slow, 0 with no response;');
});

test('the terminal lists the 10 worst endpoints and says how many more there are', () => {
  const lines = renderTerminal(reportOf(generatedRecords(25)), { files: ['q.json'] }).split('\n');
  expect(lines.filter((line) => /^ {2}[✖▲✔] /.test(line))).toHaveLength(10);
  expect(lines).toContain('  … and 15 more in the report');
});

test('labels reach the terminal with control and bidirectional characters escaped, never raw', () => {
  const output = renderTerminal(reportOf([{ statusCode: 200, endpoint: 'GET /\u202eabc\u0085\u001b[31m', responseTimeMs: 1 }]), {
    files: ['q.json'],
  });
  expect(output).toContain('GET /\\u202eabc\\u0085\\u001b[31m');
  // eslint-disable-next-line no-control-regex -- the point: no raw control or bidi character
  expect(output).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u0080-\u009f\u202a-\u202e\u2066-\u2069]/);
});

test('the line a run ends with gives the budget verdict when there are budgets, and the other files by extension', () => {
  const report = {
    ...reportOf(fixture),
    budgets: {
      passed: false,
      results: [
        { budget: 'maxFailedExecutions', limit: 0, actual: 1, passed: false },
        { budget: 'minExecutions', limit: 1, actual: 3, passed: true },
      ],
    },
  };
  expect(formatHeadline(report, ['out/q.json', 'out/q.md', 'out/q.html'])).toBe(
    'quality-evidence: 3 calls: 1 server error, 1 failed, 2 slow, 0 with no response; budgets: 1 of 2 budgets ' +
      'breached; report written to out/q.json (also .md, .html)',
  );
  expect(formatHeadline(reportOf(fixture), ['out/q.json'])).toBe(
    'quality-evidence: 3 calls: 1 server error, 1 failed, 2 slow, 0 with no response; report written to out/q.json',
  );
});
