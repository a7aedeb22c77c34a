import fc from 'fast-check';
import { historyRunOf, reportUrlOf, runIdentityOf } from '../src/history/historyLine.js';
import { historyRunSchema, isHistoryRun } from '../src/history/historyLineSchema.js';
import { judgeReport } from '../src/evaluation/judgeReport.js';
import { buildQualityReport } from '../src/workflow/runQualityWorkflow.js';
import { propertyParameters } from './support/properties.js';
import { expect, test } from './support/test.js';

// The fast check of a history line is sound: it accepts a line only where the
// zod schema does (a line it refuses goes to the schema, for the verdict and
// the message). Checked on valid lines and on every kind of damage to one,
// what a run judged against a contract keeps of it included.

const validRun = {
  time: '2026-11-25T12:00:00.000Z',
  commit: 'abc1234',
  branch: 'main',
  runId: '1',
  environment: 'ci',
  slowResponseThresholdMs: 750,
  executionCount: 3,
  failedExecutionCount: 1,
  slowExecutionCount: 0,
  noResponseCount: 0,
  endpoints: [
    {
      endpoint: 'GET /orders',
      executionCount: 3,
      failedExecutionCount: 1,
      slowExecutionCount: 0,
      noResponseCount: 0,
      p50: 12.5,
      p95: 20,
      p99: 20,
      latencyHistogram: {
        relativeAccuracy: 0.01,
        zeroCount: 0,
        bins: [
          [127, 2],
          [151, 1],
        ],
      },
      conditionLists: [{ fingerprint: '3e776319db70d9cc', met: 'uxY=', metCounts: [1, 1, 1, 2, 1, 1, 1, 1, 1], outside: '' }],
      statuses: ['200', '503'],
      undeclaredStatuses: ['503'],
      schemaViolationCount: 1,
      flakyFailedExecutionCount: 1,
    },
  ],
  contract: {
    operationCoveragePercent: 50,
    responseCoveragePercent: null,
    conditionCount: 13,
    coveredConditionCount: 8,
    uncalledOperations: ['DELETE /orders/{id}'],
  },
  tests: [
    { file: 'orders.spec.ts', line: 3, title: 'orders.spec.ts › lists orders', outcome: 'flaky', endpoints: [0] },
    { file: 'orders.spec.ts', line: 9, title: 'orders.spec.ts › later', outcome: 'skipped' },
  ],
  budgetsPassed: false,
  reportUrl: 'https://ci.example/runs/1/quality-summary.html',
};

/** A value to put somewhere a line holds one: of every JSON type, and the edges of the rules. */
const anyValue = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.constantFrom(0, 1, -1, 0.5, 1.5, 2 ** 53, -0, 1e308),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string(),
  fc.constantFrom('', '2026-13-40T25:61:00Z', '2026-11-25T12:00:00Z', '__proto__'),
  fc.constant([]),
  fc.constant({}),
  fc.constant([1, 1]),
  fc.constant([0.5, 1]),
  fc.constant([1, 0]),
  fc.constantFrom('https://ci.example/r/1', 'javascript:alert(1)', 'https://a b', 'http://'),
  fc.constantFrom('uxY=', 'uxY', 'ux==', '3e776319db70d9cc', '3E776319DB70D9CC', '200', '099', 'GET /x'),
  fc.constant(['200']),
  fc.constant(['3e776319db70d9cc', 'x']),
);

/** Paths into the valid run: every field of the run, of its endpoint, of its histogram, and of a bin. */
const paths: readonly (readonly (string | number)[])[] = [
  ...Object.keys(validRun).map((key) => [key]),
  ...Object.keys(validRun.endpoints[0]!).map((key) => ['endpoints', 0, key]),
  ...['relativeAccuracy', 'zeroCount', 'bins'].map((key) => ['endpoints', 0, 'latencyHistogram', key]),
  ['endpoints', 0, 'latencyHistogram', 'bins', 0],
  ['endpoints', 0, 'latencyHistogram', 'bins', 0, 0],
  ['endpoints', 0, 'latencyHistogram', 'bins', 0, 1],
  ...['conditionLists', 'statuses', 'undeclaredStatuses'].map((key) => ['endpoints', 0, key, 0]),
  ...['fingerprint', 'met', 'metCounts', 'outside', 'extra'].map((key) => ['endpoints', 0, 'conditionLists', 0, key]),
  ['endpoints', 0, 'conditionLists', 0, 'metCounts', 0],
  ['endpoints', 0, 'conditionLists', 0, 'metCounts', 8],
  ...Object.keys(validRun.contract).map((key) => ['contract', key]),
  ['contract', 'uncalledOperations', 0],
  ...['file', 'line', 'title', 'outcome', 'endpoints', 'extra'].map((key) => ['tests', 0, key]),
  ['tests', 0, 'endpoints', 0],
  ['tests', 0, 'endpoints', 1],
  ['tests', 1, 'endpoints'],
  ['tests', 0],
  ['tests', 2],
  ['endpoints', 0],
  ['endpoints', 1],
  ['extra'],
  ['endpoints', 0, 'extra'],
  ['endpoints', 0, 'latencyHistogram', 'extra'],
];

function withValueAt(path: readonly (string | number)[], value: unknown, remove: boolean): unknown {
  const copy = JSON.parse(JSON.stringify(validRun)) as Record<string, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  // A removed array item goes as JSON would lose it, not as a hole (JSON.parse makes none).
  if (remove && Array.isArray(at) && typeof last === 'number') at.splice(last, 1);
  else if (remove) Reflect.deleteProperty(at, last);
  else at[last] = value;
  return copy;
}

test('a valid line passes the fast check and the schema', () => {
  expect(isHistoryRun(validRun)).toBe(true);
  expect(historyRunSchema.safeParse(validRun).success).toBe(true);
});

test('whatever one field is changed to, or removed, the fast check accepts the line only where the schema does', () => {
  fc.assert(
    fc.property(fc.constantFrom(...paths), anyValue, fc.boolean(), (path, value, remove) => {
      const line = withValueAt(path, value, remove);
      if (isHistoryRun(line)) expect(historyRunSchema.safeParse(line).success).toBe(true);
    }),
    propertyParameters(2_000),
  );
});

test('a "__proto__" key, as JSON.parse makes it, is refused by both', () => {
  const line = JSON.parse(JSON.stringify(validRun).replace('"endpoint":', '"__proto__":{},"endpoint":')) as unknown;
  expect(isHistoryRun(line)).toBe(false);
  expect(historyRunSchema.safeParse(line).success).toBe(false);
});

test('a line keeps the failed executions a retry made good where some were, and leaves the count out where none were', () => {
  const { report } = buildQualityReport(
    {
      executions: [
        { endpoint: 'GET /orders', statusCode: 503, responseTimeMs: 4 },
        { endpoint: 'GET /users', statusCode: 503, responseTimeMs: 4 },
      ],
    },
    { environment: 'ci', slowResponseThresholdMs: 750 },
  );
  // As the reporter counts them: the failed call to /orders came from an attempt that a retry made good.
  const endpoints = report.endpoints.map((entry) => ({ ...entry, flakyFailedExecutionCount: entry.endpoint === 'GET /orders' ? 1 : 0 }));
  const line = historyRunOf({ ...report, endpoints }, runIdentityOf(0, {}));
  expect(line.endpoints.map((entry) => [entry.endpoint, entry.flakyFailedExecutionCount])).toEqual([
    ['GET /orders', 1],
    ['GET /users', undefined],
  ]);
  expect(Object.hasOwn(line.endpoints[1]!, 'flakyFailedExecutionCount')).toBe(false);
  expect(isHistoryRun(JSON.parse(JSON.stringify(line)))).toBe(true);
});

test(`a line the reporter writes holds every test of the run: its file, line, title and outcome (a pass on a retry flaky, pending \
skipped, an interrupted test left out), and the endpoints its calls reached as positions in the line's endpoints`, () => {
  const { report } = buildQualityReport(
    {
      executions: [
        { endpoint: 'GET /orders', statusCode: 200, responseTimeMs: 4 },
        { endpoint: 'GET /users', statusCode: 503, responseTimeMs: 4 },
      ],
    },
    { environment: 'ci', slowResponseThresholdMs: 750 },
  );
  const test = { file: 'orders.spec.ts', durationMs: 1, suite: ['orders.spec.ts'], retries: 0 };
  const line = historyRunOf(report, runIdentityOf(0, {}), [
    {
      ...test,
      line: 3,
      name: 'orders.spec.ts › lists',
      status: 'passed',
      flaky: false,
      endpoints: ['GET /users', 'GET /orders', 'GET /users'],
    },
    { ...test, line: 9, name: 'orders.spec.ts › retried', status: 'passed', flaky: true, endpoints: ['GET /users'] },
    { ...test, line: 12, name: 'orders.spec.ts › broken', status: 'failed', flaky: false, endpoints: ['GET /users'] },
    { ...test, line: 20, name: 'orders.spec.ts › later', status: 'skipped', flaky: false },
    { ...test, line: 24, name: 'orders.spec.ts › fixme', status: 'pending', flaky: false, endpoints: [] },
    { ...test, line: 30, name: 'orders.spec.ts › cut short', status: 'other', flaky: false, endpoints: ['GET /orders'] },
  ]);
  expect(JSON.stringify(line.tests)).toBe(
    '[{"file":"orders.spec.ts","line":3,"title":"orders.spec.ts › lists","outcome":"passed","endpoints":[0,1]},' +
      '{"file":"orders.spec.ts","line":9,"title":"orders.spec.ts › retried","outcome":"flaky","endpoints":[1]},' +
      '{"file":"orders.spec.ts","line":12,"title":"orders.spec.ts › broken","outcome":"failed","endpoints":[1]},' +
      '{"file":"orders.spec.ts","line":20,"title":"orders.spec.ts › later","outcome":"skipped"},' +
      '{"file":"orders.spec.ts","line":24,"title":"orders.spec.ts › fixme","outcome":"skipped"}]',
  );
  expect(line.endpoints.map(({ endpoint }) => endpoint)).toEqual(['GET /orders', 'GET /users']);
  expect(isHistoryRun(JSON.parse(JSON.stringify(line)))).toBe(true);
});

test("a line without the run's tests (the command's, from record files) has no tests field", () => {
  const { report } = buildQualityReport(
    { executions: [{ endpoint: 'GET /orders', statusCode: 200, responseTimeMs: 4 }] },
    { environment: 'ci', slowResponseThresholdMs: 750 },
  );
  expect(Object.hasOwn(historyRunOf(report, runIdentityOf(0, {})), 'tests')).toBe(false);
});

test("a test's endpoint past the line's endpoints, or out of order, is refused by both checks, naming the field", () => {
  for (const endpoints of [[1], [0, 0]]) {
    const line = { ...validRun, tests: [{ file: 'a.spec.ts', line: 1, title: 'a', outcome: 'passed', endpoints }] };
    expect(isHistoryRun(line)).toBe(false);
    const parsed = historyRunSchema.safeParse(line);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map(({ path }) => path)).toEqual([['tests', 0, 'endpoints']]);
  }
});

test("a line says whether the run's budgets held only when it was judged against budgets", () => {
  const executions = [{ endpoint: 'GET /x', statusCode: 200, responseTimeMs: 5 }];
  const settings = { environment: 'ci', slowResponseThresholdMs: 750 };
  const identity = runIdentityOf(0, {});
  expect(historyRunOf(buildQualityReport({ executions }, settings).report, identity)).not.toHaveProperty('budgetsPassed');
  const report = buildQualityReport({ executions: [...executions, { ...executions[0]!, statusCode: 500 }] }, settings).report;
  const held = judgeReport(report, { budgets: { maxFailedExecutions: 1 } });
  const broken = judgeReport(report, { budgets: { maxFailedExecutions: 0 } });
  expect([historyRunOf(held, identity).budgetsPassed, historyRunOf(broken, identity).budgetsPassed]).toEqual([true, false]);
});

test("a line names the run's report by the reportUrl setting, else by the CI run's page, and only by an http or https URL", () => {
  const github = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/shop', GITHUB_RUN_ID: '42' };
  expect(reportUrlOf('https://reports.example/42.html', github)).toBe('https://reports.example/42.html');
  expect(reportUrlOf(undefined, github)).toBe('https://github.com/acme/shop/actions/runs/42');
  expect(reportUrlOf(undefined, { CI_PIPELINE_URL: 'https://gitlab.example/acme/shop/-/pipelines/7' })).toBe(
    'https://gitlab.example/acme/shop/-/pipelines/7',
  );
  expect(reportUrlOf(undefined, { GITHUB_REPOSITORY: 'acme/shop', GITHUB_RUN_ID: '42' })).toBeUndefined();
  expect(reportUrlOf(undefined, { CI_PIPELINE_URL: 'javascript:alert(1)' })).toBeUndefined();
  expect(reportUrlOf(undefined, {})).toBeUndefined();
  const line = historyRunOf(
    buildQualityReport(
      { executions: [{ endpoint: 'GET /x', statusCode: 200, responseTimeMs: 5 }] },
      {
        environment: 'ci',
        slowResponseThresholdMs: 750,
      },
    ).report,
    runIdentityOf(0, {}),
    undefined,
    'https://reports.example/42.html',
  );
  expect(line.reportUrl).toBe('https://reports.example/42.html');
  expect(isHistoryRun(line)).toBe(true);
});
