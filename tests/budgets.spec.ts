import { expect, test } from './support/test.js';
import { buildReport, compareWithBaseline, evaluateBudgets, summariseExecutions, type Budgets, type QualityReport } from '../src/index.js';
import { formatBudgetResult } from '../src/report/renderers/terminal.js';
import { contradictionInVerdict } from '../src/evaluation/evaluateBudgets.js';
import { createEvidenceRun } from '../src/run/evidenceRun.js';
import { parseBudgets } from '../src/workflow/judgement.js';
import { thrownBy } from './support/failures.js';

// Quality budgets judged against a report: inclusive limits, missing evidence breaches.

function reportOf(records: readonly { endpoint: string; statusCode?: number; responseTimeMs: number }[]): QualityReport {
  const canonical = records.map(({ statusCode, ...rest }) =>
    statusCode === undefined ? { ...rest, errorCode: 'ECONNREFUSED' } : { ...rest, statusCode },
  );
  return buildReport(summariseExecutions(canonical, 100), { environment: 'ci', slowResponseThresholdMs: 100 });
}

// 10 calls to GET /orders/:id (20 to 200 ms), 1 of them failed, 5 slow; 1 call with no response to POST /orders.
const report = reportOf([
  ...Array.from({ length: 10 }, (_, index) => ({
    endpoint: 'GET /orders/:id',
    statusCode: index === 0 ? 500 : 200,
    responseTimeMs: (index + 1) * 20,
  })),
  { endpoint: 'POST /orders', responseTimeMs: 5 },
]);

function judge(budgets: Budgets, on: QualityReport = report) {
  return evaluateBudgets(on, budgets).results.map(({ budget, endpoint, limit, actual, passed }) => [
    budget,
    endpoint ?? '',
    limit,
    actual,
    passed,
  ]);
}

test.describe('each budget, held and breached, limits inclusive', () => {
  for (const [budgets, expected] of [
    [{ minExecutions: 11 }, [['minExecutions', '', 11, 11, true]]],
    [{ minExecutions: 12 }, [['minExecutions', '', 12, 11, false]]],
    [{ maxFailedExecutions: 2 }, [['maxFailedExecutions', '', 2, 2, true]]],
    [{ maxFailedExecutions: 1 }, [['maxFailedExecutions', '', 1, 2, false]]],
    [{ maxFailureRate: 2 / 11 }, [['maxFailureRate', '', 2 / 11, 2 / 11, true]]],
    [{ maxFailureRate: 0.18 }, [['maxFailureRate', '', 0.18, 2 / 11, false]]],
    [{ maxSlowExecutions: 5 }, [['maxSlowExecutions', '', 5, 5, true]]],
    [{ maxSlowExecutions: 4 }, [['maxSlowExecutions', '', 4, 5, false]]],
    [{ maxNoResponseCount: 1 }, [['maxNoResponseCount', '', 1, 1, true]]],
    [{ maxNoResponseCount: 0 }, [['maxNoResponseCount', '', 0, 1, false]]],
    [{ responseTimeMs: { p95: 200 } }, [['responseTimeMs.p95', '', 200, 200, true]]],
    [{ responseTimeMs: { p95: 199.9 } }, [['responseTimeMs.p95', '', 199.9, 200, false]]],
    [
      { responseTimeMs: { p50: 100, max: 200, mean: 100.5 } },
      [
        ['responseTimeMs.mean', '', 100.5, 100.455, true],
        ['responseTimeMs.p50', '', 100, 100, true],
        ['responseTimeMs.max', '', 200, 200, true],
      ],
    ],
  ] as const) {
    test(JSON.stringify(budgets), () => {
      expect(judge(budgets)).toStrictEqual(expected);
    });
  }
});

test('results come in a fixed order: the whole run, then endpoints by label', () => {
  const budgets: Budgets = {
    endpoints: { 'POST /orders': { maxNoResponseCount: 0 }, 'GET /orders/:id': { minExecutions: 5, responseTimeMs: { p99: 300 } } },
    responseTimeMs: { p99: 500 },
    minExecutions: 1,
  };
  expect(judge(budgets)).toStrictEqual([
    ['minExecutions', '', 1, 11, true],
    ['responseTimeMs.p99', '', 500, 200, true],
    ['minExecutions', 'GET /orders/:id', 5, 10, true],
    ['responseTimeMs.p99', 'GET /orders/:id', 300, 200, true],
    ['maxNoResponseCount', 'POST /orders', 0, 1, false],
  ]);
  expect(evaluateBudgets(report, budgets).passed).toBe(false);
});

test('a budget for an endpoint that did not run is breached: the evidence is missing', () => {
  expect(judge({ endpoints: { 'GET /invoices': { maxFailedExecutions: 0 } } })).toStrictEqual([
    ['maxFailedExecutions', 'GET /invoices', 0, null, false],
  ]);
});

test('a run that recorded nothing cannot pass minExecutions, and has no percentile to pass', () => {
  const empty = reportOf([]);
  expect(judge({ minExecutions: 1, maxFailedExecutions: 0, maxFailureRate: 0, responseTimeMs: { p95: 1000 } }, empty)).toStrictEqual([
    ['minExecutions', '', 1, 0, false],
    ['maxFailedExecutions', '', 0, 0, true],
    ['maxFailureRate', '', 0, null, false],
    ['responseTimeMs.p95', '', 1000, null, false],
  ]);
});

test.describe('maxP95IncreasePercent', () => {
  const runOf = (p95: number, count = 20) =>
    reportOf(Array.from({ length: count }, () => ({ endpoint: 'GET /orders/:id', statusCode: 200, responseTimeMs: p95 })));

  test('compares each endpoint with the baseline: 20% more holds a limit of 20, 20.5% does not', () => {
    const baseline = runOf(200);
    expect(judge({ maxP95IncreasePercent: 20 }, { ...runOf(240), baseline: compareWithBaseline(runOf(240), baseline) })).toStrictEqual([
      ['maxP95IncreasePercent', 'GET /orders/:id', 20, 20, true],
    ]);
    expect(judge({ maxP95IncreasePercent: 20 }, { ...runOf(241), baseline: compareWithBaseline(runOf(241), baseline) })).toStrictEqual([
      ['maxP95IncreasePercent', 'GET /orders/:id', 20, 20.5, false],
    ]);
  });

  test('an endpoint with too few samples to judge is listed with its verdict, and holds: a doubled p95 on 5 and 5 times is no evidence', () => {
    const current = runOf(400, 5);
    const judged = { ...current, baseline: compareWithBaseline(current, runOf(200, 5)) };
    expect(evaluateBudgets(judged, { maxP95IncreasePercent: 20 }).results).toStrictEqual([
      {
        budget: 'maxP95IncreasePercent',
        endpoint: 'GET /orders/:id',
        limit: 20,
        actual: 100,
        passed: true,
        latencyVerdict: 'tooFewSamples',
      },
    ]);
  });

  test('an endpoint whose change the test judges noise holds, whatever its p95 did', () => {
    const times = (tail: number) =>
      reportOf(
        [...Array.from({ length: 18 }, () => 100), tail, tail].map((responseTimeMs) => ({
          endpoint: 'GET /orders/:id',
          statusCode: 200,
          responseTimeMs,
        })),
      );
    const current = times(200);
    const judged = { ...current, baseline: compareWithBaseline(current, times(110)) };
    expect(evaluateBudgets(judged, { maxP95IncreasePercent: 20 }).results).toStrictEqual([
      { budget: 'maxP95IncreasePercent', endpoint: 'GET /orders/:id', limit: 20, actual: 81.82, passed: true, latencyVerdict: 'noChange' },
    ]);
  });

  test('every endpoint of the comparison is judged, an endpoint new in this run too (too few samples: the baseline has none)', () => {
    const current = reportOf([
      ...Array.from({ length: 20 }, () => ({ endpoint: 'GET /orders/:id', statusCode: 200, responseTimeMs: 300 })),
      { endpoint: 'GET /health', statusCode: 200, responseTimeMs: 5 },
    ]);
    const judged = { ...current, baseline: compareWithBaseline(current, runOf(200)) };
    expect(
      evaluateBudgets(judged, { maxP95IncreasePercent: 20 }).results.map(({ endpoint, passed, latencyVerdict }) => [
        endpoint,
        passed,
        latencyVerdict,
      ]),
    ).toStrictEqual([
      ['GET /health', true, 'tooFewSamples'],
      ['GET /orders/:id', false, 'slower'],
    ]);
  });

  test('without a comparison in the report it is breached', () => {
    expect(judge({ maxP95IncreasePercent: 20 })).toStrictEqual([['maxP95IncreasePercent', '', 20, null, false]]);
  });
});

test('a result reads as one line', () => {
  expect(formatBudgetResult({ budget: 'responseTimeMs.p95', endpoint: 'GET /orders/:id', limit: 500, actual: 612, passed: false })).toBe(
    'FAIL responseTimeMs.p95 of GET /orders/:id: 612 ms (limit ≤ 500 ms)',
  );
  expect(formatBudgetResult({ budget: 'minExecutions', limit: 100, actual: null, passed: false })).toBe(
    'FAIL minExecutions: no data (limit ≥ 100)',
  );
  expect(formatBudgetResult({ budget: 'maxFailedExecutions', limit: 0, actual: 0, passed: true })).toBe(
    'pass maxFailedExecutions: 0 (limit ≤ 0)',
  );
  // Each in its unit, formatted as every human rendering formats it.
  expect(formatBudgetResult({ budget: 'maxFailureRate', limit: 0.05, actual: 0.0625, passed: false })).toBe(
    'FAIL maxFailureRate: 6.25% (limit ≤ 5%)',
  );
  expect(formatBudgetResult({ budget: 'maxP95IncreasePercent', endpoint: 'GET /a', limit: 10, actual: 12.5, passed: false })).toBe(
    'FAIL maxP95IncreasePercent of GET /a: +12.5% (limit ≤ +10%)',
  );
  expect(formatBudgetResult({ budget: 'minExecutions', limit: 12000, actual: 1500, passed: false })).toBe(
    'FAIL minExecutions: 1,500 (limit ≥ 12,000)',
  );
});

test.describe('bad budgets files', () => {
  for (const [text, message] of [
    ['{ "maxFailedExecutions": -1 }', '  - maxFailedExecutions in "b.json": must be a whole number, 0 or more'],
    ['{ "maxFailureRate": 1.5 }', '  - maxFailureRate in "b.json": must be a rate from 0 to 1'],
    ['{ "maxFailures": 0 }', '  - maxFailures in "b.json": is not a budget'],
    ['{ "maxFailedExecution": 0 }', '  - maxFailedExecution in "b.json": is not a budget; did you mean "maxFailedExecutions"?'],
    ['{ "MINEXECUTIONS": 1 }', '  - MINEXECUTIONS in "b.json": is not a budget; did you mean "minExecutions"?'],
    [
      '{ "endpoints": { "GET /a": { "maxFailureRat": 0.1 } } }',
      '  - endpoints["GET /a"].maxFailureRat in "b.json": is not a budget; did you mean "maxFailureRate"?',
    ],
    [
      '{ "operations": { "getPet": { "maxSchemaViolation": 0 } } }',
      '  - operations.getPet.maxSchemaViolation in "b.json": is not a budget; did you mean "maxSchemaViolations"?',
    ],
    // An operation's budget, not an endpoint's: no suggestion from the wrong list.
    [
      '{ "endpoints": { "GET /a": { "maxSchemaViolation": 0 } } }',
      '  - endpoints["GET /a"].maxSchemaViolation in "b.json": is not a budget',
    ],
    ['{ "responseTimeMs": { "p97": 10 } }', '  - responseTimeMs.p97 in "b.json": is not a budget'],
    ['{ "endpoints": { "orders": {} } }', '  - endpoints.orders in "b.json": must be an endpoint label of the form "<METHOD> <path>"'],
    [
      '{ "endpoints": { "GET /a": { "responseTimeMs": { "p95": -5 } } } }',
      '  - endpoints["GET /a"].responseTimeMs.p95 in "b.json": must be a number of milliseconds, 0 or more',
    ],
    ['{ "minExecutions": 1,', '  - "b.json": is not well-formed JSON at line 1, column 22'],
    ['[]', '  - "b.json": must be a JSON object of budgets'],
  ] as const) {
    test(`${text} names the key and the file`, () => {
      expect((thrownBy(() => parseBudgets(text, 'b.json')) as Error).message).toBe(`invalid budgets:\n${message}`);
    });
  }
});

test.describe('countFlakyFailures', () => {
  // Two failed calls of GET /a: one from an attempt a retry made good (flaky), one from a test that failed for good.
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: 500 });
  const test1 = { title: 't1', file: 'a.spec.ts', line: 1, column: 1 };
  const test2 = { title: 't2', file: 'a.spec.ts', line: 9, column: 1 };
  run.take({ endpoint: 'GET /a', statusCode: 503, responseTimeMs: 5 }, () => ({ kind: 'test', title: 't1', attempt: 1 }), {
    test: test1,
    attempt: 1,
    retriedAway: true,
    testPassed: false,
  });
  run.take({ endpoint: 'GET /a', statusCode: 200, responseTimeMs: 5 }, () => ({ kind: 'test', title: 't1', attempt: 2 }), {
    test: test1,
    attempt: 2,
    retriedAway: false,
    testPassed: true,
  });
  run.take({ endpoint: 'GET /a', statusCode: 500, responseTimeMs: 5 }, () => ({ kind: 'test', title: 't2', attempt: 1 }), {
    test: test2,
    attempt: 1,
    retriedAway: false,
    testPassed: false,
  });
  const report = run.finish({ tests: { total: 2, passed: 0, failed: 1, flaky: 1, skipped: 0 } });

  test('by default flaky failures count, as they always did', () => {
    expect(judge({ maxFailedExecutions: 1, endpoints: { 'GET /a': { maxFailureRate: 0.5 } } }, report)).toStrictEqual([
      ['maxFailedExecutions', '', 1, 2, false],
      ['maxFailureRate', 'GET /a', 0.5, 2 / 3, false],
    ]);
  });

  test('false leaves them out of the failure budgets, run-wide and per endpoint, and the verdict says so', () => {
    const verdict = evaluateBudgets(report, {
      countFlakyFailures: false,
      maxFailedExecutions: 1,
      endpoints: { 'GET /a': { maxFailureRate: 0.5 } },
    });
    expect(verdict).toStrictEqual({
      passed: true,
      countFlakyFailures: false,
      results: [
        { budget: 'maxFailedExecutions', limit: 1, actual: 1, passed: true },
        { budget: 'maxFailureRate', endpoint: 'GET /a', limit: 0.5, actual: 1 / 3, passed: true },
      ],
    });
    expect(contradictionInVerdict({ ...report, budgets: verdict }, verdict)).toBeUndefined();
  });
});
