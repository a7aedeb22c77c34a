import { commentMarker, COMMENT_LIMIT_CHARACTERS, renderComment } from '../src/report/comment/renderComment.js';
import type { ComparedReport } from '../src/report/comment/commentFindings.js';
import { baselineComparisonSchema, type ContractComparison } from '../src/report/verdictSchemas.js';
import { apiCalls, compared, reportOf, type CallSeries } from './support/comparedReports.js';
import { expect, test } from './support/test.js';

// The pull-request comment as `quality-evidence comment` writes it
// (src/report/comment/renderComment.ts), from reports compared with their
// base by the package's own comparison.

const slowerAndFailing = compared(reportOf(apiCalls({ slowdown: 1.5, failing: 3 })), reportOf(apiCalls()));
const options = { environment: 'staging', artifactsUrl: 'https://github.example/owner/repo/actions/runs/4242' };

/** A contract comparison where nothing changed, to change one field of: coverage as in the base. */
const heldContract: ContractComparison = {
  operationCoveragePercent: { before: 70.59, after: 70.59 },
  responseCoveragePercent: { before: 50, after: 50 },
  newlyExercisedOperations: [],
  newlyExercisedOperationCount: 0,
  noLongerExercisedOperations: [],
  noLongerExercisedOperationCount: 0,
  newUndeclaredStatuses: [],
  newUndeclaredStatusCount: 0,
  schemaViolationChanges: [],
  schemaViolationChangeCount: 0,
};

/** `report` with this contract comparison in its baseline section, checked against the report's schema. */
function withContract(report: ComparedReport, changes: Partial<ContractComparison>): ComparedReport {
  const baseline = baselineComparisonSchema.parse({ ...report.baseline, contract: { ...heldContract, ...changes } });
  return { ...report, baseline };
}

/** The rows of the table of statuses and the contract, in the order shown. */
function statusAndContractRows(body: string): string[] {
  const lines = body.split('\n');
  return lines
    .filter((line, index) => /^\| (🔺|🔻) /.test(line) && lines.slice(0, index).includes('| Change | Endpoint or operation | What |'))
    .filter((line) => line.split(' | ').length === 3);
}

/** `count` endpoints of 30 calls each, `GET /e0` on, each time scaled by `scale(index)`. */
function manyEndpoints(count: number, scale: (index: number) => number, from = 0): CallSeries[] {
  return Array.from({ length: count }, (_, offset) => ({
    endpoint: `GET /endpoint/${String(from + offset).padStart(5, '0')}/items`,
    count: 30,
    time: (call: number) => Math.round((20 + (call % 10)) * scale(from + offset) * 10) / 10,
  }));
}

test('the first line is the marker of the environment, URI-encoded so that no name can end the HTML comment or break the line', () => {
  expect(commentMarker('staging')).toBe('<!-- quality-evidence:staging -->');
  expect(commentMarker('eu west -->\nx')).toBe('<!-- quality-evidence:eu%20west%20--%3E%0Ax -->');
  const long = commentMarker('e'.repeat(100_000));
  expect(long).toMatch(/^<!-- quality-evidence:e{100}~[0-9a-f]{8} -->$/);
  expect(commentMarker(`${'e'.repeat(99_999)}f`)).not.toBe(long);
  expect(renderComment(slowerAndFailing, options).body.split('\n')[0]).toBe('<!-- quality-evidence:staging -->');
});

test('regressions come first, each with p50 and p95 before and after, n on each side and the failed statuses; then what held, folded', () => {
  const { body, nothingToReport } = renderComment(slowerAndFailing, options);
  expect(nothingToReport).toBe(false);
  expect(body).toContain('**vs base: 1 endpoint slower, 1 newly failing, 1 with new statuses, 1 unchanged, 1 too few samples to judge**');
  const rows = body.split('\n').filter((line) => line.startsWith('| 🔺'));
  expect(rows).toEqual([
    '| 🔺 newly failing | `POST /orders` | 64 ms (0%) | 69 ms → 69 ms (0%) | 100 → 100 | 0 → 3 (0% → 3%): `500` ×3 |  |',
    '| 🔺 slower | `GET /orders` | 73.5 ms (+50%) | 58 ms → 87 ms (+50%) | 200 → 200 | 0 → 0 (0% → 0%) |  |',
    '| 🔺 new statuses | `POST /orders` | `500` |',
  ]);
  const order = ['#### Regressions (3)', '<details>', '| `GET /health` | too few samples |', '| `GET /users` | unchanged |', '</details>'];
  expect(order.map((text) => body.indexOf(text))).toEqual([...order.map((text) => body.indexOf(text))].sort((a, b) => a - b));
  expect(body).not.toContain('#### Improvements');
  expect(body).toContain("among [the run's artifacts](https://github.example/owner/repo/actions/runs/4242).");
});

test("under the title, the run's own numbers, its server errors by endpoint and its failed tests by name, then the comparison", () => {
  const report = structuredClone(slowerAndFailing);
  const failed = { title: 'orders.spec.ts › creates an order', file: 'tests/orders.spec.ts', line: 7, column: 1 };
  const failedTests = [
    { ...failed, endpoints: [{ endpoint: 'POST /orders', calls: 2, failedCalls: 1, serverErrorCalls: 1 }], endpointCount: 1 },
  ];
  const withTests = {
    ...report,
    tests: { total: 12, passed: 11, failed: 1, flaky: 0, skipped: 0 },
    failedTests,
    passingTestFailureCount: 2,
  };
  const lines = renderComment(withTests, options).body.split('\n');
  expect(lines.slice(1, 9)).toEqual([
    '### API changes against the base · `staging`',
    '',
    '**This run**: 503 calls · 3 server errors · 3 failed · 0 slow · 0 with no response · 2 failed calls in tests that passed · ' +
      '12 tests: 11 passed, 1 failed, 0 flaky, 0 skipped',
    '',
    '- ✖ **3 server errors (5xx or no response) on 1 endpoint**: `POST /orders (500 ×3)`',
    '- ✖ **1 failed test**: `tests/orders.spec.ts:7 · orders.spec.ts › creates an order`',
    '',
    '**vs base: 1 endpoint slower, 1 newly failing, 1 with new statuses, 1 unchanged, 1 too few samples to judge**',
  ]);
  expect(lines[10]).toMatch(
    /^Compared with the baseline report .* · executions 503 → 503 · server errors 0 → 3 · failed 0 → 3 · slow 0 → 0$/,
  );
  expect(lines.indexOf('#### Regressions (3)')).toBe(12);
});

test('improvements follow the regressions', () => {
  const base = reportOf([...apiCalls({ slowdown: 1.5 }), { endpoint: 'GET /slow', count: 200, time: (index) => 100 + (index % 20) }]);
  const head = reportOf([...apiCalls({ failing: 2 }), { endpoint: 'GET /slow', count: 200, time: (index) => 150 + (index % 20) }]);
  const { body } = renderComment(compared(head, base), options);
  expect(body.indexOf('#### Regressions (3)')).toBeLessThan(body.indexOf('#### Improvements (1)'));
  expect(body).toContain('| 🔻 faster | `GET /orders` |');
});

test('the tests behind a newly failing endpoint are named with their file and line, three at most', () => {
  const report = structuredClone(slowerAndFailing);
  const orders = report.endpoints.find((endpoint) => endpoint.endpoint === 'POST /orders')!;
  orders.tests = [1, 2, 3, 4].map((line) => ({
    title: `orders.spec.ts › creates order ${line}`,
    file: 'tests/orders.spec.ts',
    line,
    column: 1,
    calls: 25,
    failedCalls: line === 4 ? 0 : 1,
  }));
  orders.testCount = 4;
  const row = renderComment(report, options)
    .body.split('\n')
    .find((line) => line.startsWith('| 🔺 newly failing'));
  expect(row?.split(' | ').at(-1)).toBe(
    '`orders.spec.ts › creates order 1 (tests/orders.spec.ts:1)`<br>`orders.spec.ts › creates order 2 (tests/orders.spec.ts:2)`<br>' +
      '`orders.spec.ts › creates order 3 (tests/orders.spec.ts:3)` |',
  );
});

test('nothing to report means no regression and no improvement: a new endpoint alone makes no comment, and is listed', () => {
  const head = reportOf([...apiCalls(), { endpoint: 'GET /new', count: 50, time: () => 10 }]);
  const rendered = renderComment(compared(head, reportOf(apiCalls())), options);
  expect(rendered.nothingToReport).toBe(true);
  expect(rendered.body).toContain(
    'Nothing to report: no endpoint got slower, started failing, failed more, got a new status or became flaky, ' +
      'and none got faster, recovered or stopped being flaky.',
  );
  expect(rendered.body).toContain('| • new | `GET /new` |');
});

test('the base commit is named when the baseline came from the history', () => {
  const report = structuredClone(slowerAndFailing);
  report.baseline.run = { time: '2025-01-02T03:04:05.000Z', commit: '0123456789abcdef0123456789abcdef01234567', branch: 'main' };
  expect(renderComment(report, options).body).toContain(
    'Compared with the base commit `0123456789ab` (branch `main`, run of 2025-01-02T03:04:05.000Z) · executions 503 → 503',
  );
});

test('3,000 slower endpoints and 3,000 faster ones fit in GitHub’s 65,536 characters, regressions first, saying what was left out and where', () => {
  const base = reportOf([...manyEndpoints(3000, () => 1), ...manyEndpoints(3000, () => 2, 3000), ...manyEndpoints(500, () => 1, 6000)]);
  const head = reportOf([...manyEndpoints(3000, () => 2), ...manyEndpoints(3000, () => 1, 3000), ...manyEndpoints(500, () => 1, 6000)]);
  const rendered = renderComment(compared(head, base), options);
  expect(rendered.findings.regressions).toHaveLength(3000);
  expect(rendered.findings.improvements).toHaveLength(3000);
  expect(rendered.body.length).toBeLessThanOrEqual(COMMENT_LIMIT_CHARACTERS);
  expect(rendered.body.length).toBeGreaterThan(COMMENT_LIMIT_CHARACTERS - 1000);
  const shown = rendered.body.split('\n').filter((line) => line.startsWith('| 🔺')).length;
  expect(shown).toBeGreaterThan(200);
  expect(rendered.body).not.toContain('#### Improvements');
  expect(rendered.body).not.toContain('<details>');
  expect(rendered.leftOut).toBe(3000 - shown + 3000 + 500);
  expect(rendered.body).toContain(
    `**Left out to stay within GitHub's 65,536 characters for a comment:** ${(3000 - shown).toLocaleString('en-US')} endpoint regressions, ` +
      "3,000 endpoint improvements, 500 endpoints that held. They are in the report's `baseline` section, among " +
      "[the run's artifacts](https://github.example/owner/repo/actions/runs/4242).",
  );
});

test('every report fits any limit it is given: the body is never longer, and what is left out is counted', () => {
  for (const limit of [1500, 2000, 3000]) {
    const rendered = renderComment(slowerAndFailing, { ...options, limitCharacters: limit });
    expect(rendered.body.length).toBeLessThanOrEqual(limit);
  }
  const tight = renderComment(slowerAndFailing, { ...options, limitCharacters: 1500 });
  expect(tight.leftOut).toBeGreaterThan(0);
  expect(tight.body).toContain('**Left out to stay within');
});

test('an endpoint’s new statuses and newly flaky endpoints are regressions, named with their statuses; no longer flaky is an improvement', () => {
  const report = structuredClone(slowerAndFailing);
  report.baseline.endpoints.find((entry) => entry.endpoint === 'GET /users')!.flakiness = 'newlyFlaky';
  report.baseline.endpoints.find((entry) => entry.endpoint === 'GET /health')!.flakiness = 'noLongerFlaky';
  const orders = report.baseline.endpoints.find((entry) => entry.endpoint === 'GET /orders')!;
  orders.newStatuses = ['400', '401', '402', '403', '404', '405', '406', '407', '408', '409'];
  orders.newStatusCount = 12;
  const { body, findings } = renderComment(report, options);
  expect(statusAndContractRows(body)).toEqual([
    '| 🔺 new statuses | `GET /orders` | `400`, `401`, `402`, `403`, `404`, `405`, `406`, `407`, `408`, `409` and 2 more |',
    '| 🔺 new statuses | `POST /orders` | `500` |',
    '| 🔺 newly flaky | `GET /users` |  |',
    '| 🔻 no longer flaky | `GET /health` |  |',
  ]);
  expect([findings.statusAndContractRegressions.length, findings.statusAndContractImprovements.length]).toEqual([3, 1]);
  expect(body).toContain('#### Regressions (5)');
  expect(body).toContain('#### Improvements (1)');
  expect(body.indexOf('| 🔺 newly flaky')).toBeLessThan(body.indexOf('#### Improvements (1)'));
});

// New undeclared statuses, more bodies off their schema, operations no longer exercised, coverage down; fewer bodies, newly exercised, coverage up.
test('the contract’s changes are regressions and improvements, each operation named, in the order of the issue', () => {
  const report = withContract(compared(reportOf(apiCalls()), reportOf(apiCalls())), {
    operationCoveragePercent: { before: 70.59, after: 76.47 },
    responseCoveragePercent: { before: 52.63, after: 50 },
    newlyExercisedOperations: ['GET /users/{id}'],
    newlyExercisedOperationCount: 1,
    noLongerExercisedOperations: ['DELETE /orders/{id}'],
    noLongerExercisedOperationCount: 1,
    newUndeclaredStatuses: [
      { operation: 'POST /orders', status: '409' },
      { operation: 'POST /orders', status: '500' },
    ],
    newUndeclaredStatusCount: 2,
    schemaViolationChanges: [
      { operation: 'GET /orders', schemaViolationCount: { before: 0, after: 4 } },
      { operation: 'GET /orders/{id}', schemaViolationCount: { before: null, after: 1 } },
      { operation: 'GET /users', schemaViolationCount: { before: 2, after: 0 } },
    ],
    schemaViolationChangeCount: 3,
  });
  const { body, nothingToReport } = renderComment(report, options);
  expect(nothingToReport).toBe(false);
  expect(statusAndContractRows(body)).toEqual([
    '| 🔺 new undeclared status | `POST /orders` | `409` |',
    '| 🔺 new undeclared status | `POST /orders` | `500` |',
    '| 🔺 more bodies off their schema | `GET /orders` | 0 → 4 |',
    '| 🔺 more bodies off their schema | `GET /orders/{id}` | – → 1 |',
    '| 🔺 no longer exercised | `DELETE /orders/{id}` |  |',
    '| 🔺 coverage down | responses | 52.63% → 50% |',
    '| 🔻 fewer bodies off their schema | `GET /users` | 2 → 0 |',
    '| 🔻 newly exercised | `GET /users/{id}` |  |',
    '| 🔻 coverage up | operations | 70.59% → 76.47% |',
  ]);
  const order = ['#### Regressions (6)', '| 🔺 coverage down', '#### Improvements (3)', '| 🔻 coverage up', '<details>'];
  expect(order.map((text) => body.indexOf(text))).toEqual([...order.map((text) => body.indexOf(text))].sort((a, b) => a - b));
  expect(body).not.toContain('| Change | Endpoint | p50 now (change)');
});

test('with a contract in the comparison, a line under the base gives operation and response coverage before → after; without, none', () => {
  const report = withContract(slowerAndFailing, { operationCoveragePercent: { before: null, after: 76.47 } });
  const lines = renderComment(report, options).body.split('\n');
  const base = lines.findIndex((line) => line.startsWith('Compared with the baseline report'));
  expect(lines.slice(base + 1, base + 3)).toEqual(['', '**Contract**: operations covered – → 76.47% · responses covered 50% → 50%']);
  expect(renderComment(slowerAndFailing, options).body).not.toContain('**Contract**');
});

test('a new undeclared status alone is something to report; a contract that held is not, and the comment says it held', () => {
  const quiet = compared(reportOf(apiCalls()), reportOf(apiCalls()));
  const undeclared = renderComment(
    withContract(quiet, { newUndeclaredStatuses: [{ operation: 'GET /users', status: '418' }], newUndeclaredStatusCount: 1 }),
    options,
  );
  expect([undeclared.nothingToReport, undeclared.body.includes('Nothing to report')]).toEqual([false, false]);
  expect(undeclared.body).toContain('#### Regressions (1)');
  for (const changes of [
    { noLongerExercisedOperations: ['GET /users'], noLongerExercisedOperationCount: 1 },
    { newlyExercisedOperations: ['GET /users'], newlyExercisedOperationCount: 1 },
    { schemaViolationChanges: [{ operation: 'GET /users', schemaViolationCount: { before: 1, after: 0 } }], schemaViolationChangeCount: 1 },
    { responseCoveragePercent: { before: 50, after: 55 } },
  ])
    expect(renderComment(withContract(quiet, changes), options).nothingToReport, JSON.stringify(changes)).toBe(false);
  const held = renderComment(withContract(quiet, {}), options);
  expect(held.nothingToReport).toBe(true);
  expect(held.body).toContain(
    'Nothing to report: no endpoint got slower, started failing, failed more, got a new status or became flaky, ' +
      'and none got faster, recovered or stopped being flaky. The contract held: no operation newly exercised or no longer, ' +
      'no status newly undeclared, no more or fewer bodies off their schema, no coverage up or down.',
  );
});

test('entries the report counted and did not list are one row that counts them, and the heading counts them too', () => {
  const quiet = compared(reportOf(apiCalls()), reportOf(apiCalls()));
  const operations = Array.from({ length: 100 }, (_, index) => `GET /things/${index}`);
  const capped = withContract(quiet, {
    newUndeclaredStatuses: operations.map((operation) => ({ operation, status: '500' })),
    newUndeclaredStatusCount: 250,
    newlyExercisedOperations: operations,
    newlyExercisedOperationCount: 101,
  });
  const { body } = renderComment(capped, options);
  const rows = statusAndContractRows(body);
  expect(rows.filter((line) => !line.includes('`GET /things/'))).toEqual([
    "| 🔺 new undeclared status | 150 more | counted in the report's `baseline.contract`, which lists the first 100 |",
    "| 🔻 newly exercised | 1 more | counted in the report's `baseline.contract`, which lists the first 100 |",
  ]);
  expect(body).toContain('#### Regressions (250)');
  expect(body).toContain('#### Improvements (101)');
});

test('bodies off their schema the report did not list are improvements when the last it listed is a decrease, else more or fewer, a regression', () => {
  const quiet = compared(reportOf(apiCalls()), reportOf(apiCalls()));
  const listed = (last: { before: number; after: number }) =>
    Array.from({ length: 100 }, (_, index) => ({
      operation: `GET /things/${index}`,
      schemaViolationCount: index === 99 ? last : { before: 0, after: 200 - index },
    }));
  const lastRow = (last: { before: number; after: number }) =>
    statusAndContractRows(
      renderComment(withContract(quiet, { schemaViolationChanges: listed(last), schemaViolationChangeCount: 107 }), options).body,
    ).filter((line) => !line.includes('`GET /things/'));
  expect(lastRow({ before: 3, after: 1 })).toEqual([
    "| 🔻 fewer bodies off their schema | 7 more | counted in the report's `baseline.contract`, which lists the first 100 |",
  ]);
  expect(lastRow({ before: 0, after: 1 })).toEqual([
    "| 🔺 bodies off their schema changed | 7 more | more or fewer; counted in the report's `baseline.contract`, which lists the first 100 |",
  ]);
});

test('every contract list full, alone or after 3,000 slower endpoints, fits in GitHub’s 65,536 characters, regressions kept first and in order', () => {
  // Labels near the 200 characters a rendering shows, so that the contract's lists alone do not fit.
  const operations = Array.from({ length: 100 }, (_, index) => `GET /${'a-long-path-segment/'.repeat(9)}${index}/{id}`);
  const contract = {
    operationCoveragePercent: { before: 80, after: 40 },
    newUndeclaredStatuses: operations.map((operation) => ({ operation, status: '503' })),
    newUndeclaredStatusCount: 5000,
    schemaViolationChanges: operations.map((operation) => ({ operation, schemaViolationCount: { before: 0, after: 3 } })),
    schemaViolationChangeCount: 100,
    noLongerExercisedOperations: operations,
    noLongerExercisedOperationCount: 100,
    newlyExercisedOperations: operations,
    newlyExercisedOperationCount: 100,
  };
  const alone = withContract(compared(reportOf(apiCalls()), reportOf(apiCalls())), contract);
  const everyRow = statusAndContractRows(renderComment(alone, { ...options, limitCharacters: 10_000_000 }).body);
  // 100 new undeclared statuses and a row of the 4,900 not listed, 100 more bodies off their schema, 100 no longer exercised, coverage down.
  expect(everyRow.filter((line) => line.startsWith('| 🔺')).length).toBe(302);
  const rendered = renderComment(alone, options);
  expect(rendered.body.length).toBeLessThanOrEqual(COMMENT_LIMIT_CHARACTERS);
  expect(rendered.body.length).toBeGreaterThan(COMMENT_LIMIT_CHARACTERS - 1000);
  const shown = statusAndContractRows(rendered.body);
  expect(shown.length).toBeGreaterThan(101);
  expect(shown.length).toBeLessThan(302);
  expect(shown).toEqual(everyRow.slice(0, shown.length));
  expect(rendered.body).toContain('#### Regressions (5,201)');
  expect(rendered.body).not.toContain('#### Improvements');
  const leftOutRegressions = 5201 - (shown.length + 4899);
  expect(leftOutRegressions).toBeGreaterThan(10);
  expect(rendered.leftOut).toBe(leftOutRegressions + 100 + 4);
  expect(rendered.body).toContain(
    `**Left out to stay within GitHub's 65,536 characters for a comment:** ${leftOutRegressions.toLocaleString('en-US')} ` +
      "status or contract regressions, 100 status or contract improvements, 4 endpoints that held. They are in the report's `baseline` section, among " +
      "[the run's artifacts](https://github.example/owner/repo/actions/runs/4242).",
  );

  // As many faster as slower, and some unchanged: no shift of the whole run to take out.
  const slower = compared(
    reportOf([...manyEndpoints(3000, () => 2), ...manyEndpoints(3000, () => 1, 3000), ...manyEndpoints(500, () => 1, 6000)]),
    reportOf([...manyEndpoints(3000, () => 1), ...manyEndpoints(3000, () => 2, 3000), ...manyEndpoints(500, () => 1, 6000)]),
  );
  const after = renderComment(withContract(slower, contract), options);
  expect(after.body.length).toBeLessThanOrEqual(COMMENT_LIMIT_CHARACTERS);
  expect(after.body).toContain('#### Regressions (8,201)');
  expect(statusAndContractRows(after.body)).toEqual([]);
  const endpointRows = after.body.split('\n').filter((line) => line.startsWith('| 🔺 slower |')).length;
  expect(endpointRows).toBeGreaterThan(200);
  expect(after.leftOut).toBe(3000 - endpointRows + 5201 + 3000 + 100 + 500);
  expect(after.body).toContain(
    `**Left out to stay within GitHub's 65,536 characters for a comment:** ${(3000 - endpointRows).toLocaleString('en-US')} endpoint regressions, ` +
      '5,201 status or contract regressions, 3,000 endpoint improvements, 100 status or contract improvements, 500 endpoints that held.',
  );
});
