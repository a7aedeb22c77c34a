import { expect, test } from './support/test.js';
import { buildReport, compareWithBaseline, formatReport, InputSyntaxError, parseReport, ReportFormatError, summariseExecutions, type QualityReport } from '../src/index.js';
import { changePercent } from '../src/evaluation/baseline.js';
import { thrownBy } from './support/failures.js';

// The comparison of a run with a baseline report (main's artifact).

function reportOf(environment: string, records: readonly [string, number, number][]): QualityReport {
  return buildReport(
    summariseExecutions(
      records.map(([endpoint, statusCode, responseTimeMs]) => ({ endpoint, statusCode, responseTimeMs })),
      100,
    ),
    { environment, slowResponseThresholdMs: 100 },
  );
}

const main = reportOf('main', [
  ['GET /a', 500, 10],
  ['GET /b', 200, 10],
  ['GET /c', 200, 200],
  ['GET /gone', 200, 10],
  ['GET /d', 200, 50],
]);
const branch = reportOf('branch', [
  ['GET /a', 200, 10],
  ['GET /b', 503, 10],
  ['GET /c', 200, 300],
  ['GET /d', 200, 500],
  ['GET /new', 404, 10],
]);
const comparison = compareWithBaseline(branch, main);

test('the totals as before and after pairs', () => {
  expect([comparison.environment, comparison.executionCount, comparison.failedExecutionCount, comparison.slowExecutionCount]).toStrictEqual([
    { before: 'main', after: 'branch' },
    { before: 5, after: 5 },
    { before: 1, after: 2 },
    { before: 1, after: 2 },
  ]);
});

test('each list names its endpoints', () => {
  expect({
    newlyFailingEndpoints: comparison.newlyFailingEndpoints,
    recoveredEndpoints: comparison.recoveredEndpoints,
    newlySlowEndpoints: comparison.newlySlowEndpoints,
    newEndpoints: comparison.newEndpoints,
    missingEndpoints: comparison.missingEndpoints,
  }).toStrictEqual({
    newlyFailingEndpoints: ['GET /b', 'GET /new'],
    recoveredEndpoints: ['GET /a'],
    newlySlowEndpoints: ['GET /d'],
    newEndpoints: ['GET /new'],
    missingEndpoints: ['GET /gone'],
  });
});

test('each endpoint of the run gets its p95 change in percent, and its counts before and after', () => {
  expect(comparison.endpoints.find((entry) => entry.endpoint === 'GET /c')).toStrictEqual({
    endpoint: 'GET /c',
    executionCount: { before: 1, after: 1 },
    p95: { before: 200, after: 300, changePercent: 50 },
    failedExecutionCount: { before: 0, after: 0 },
  });
  expect(comparison.endpoints.find((entry) => entry.endpoint === 'GET /new')).toStrictEqual({
    endpoint: 'GET /new',
    executionCount: { before: null, after: 1 },
    p95: { before: null, after: 10, changePercent: null },
    failedExecutionCount: { before: null, after: 1 },
  });
});

test('the percentage is rounded to 2 decimals; from 0 it is 0 or null', () => {
  expect([changePercent(300, 400), changePercent(400, 300), changePercent(0, 0), changePercent(0, 5), changePercent(null, 5)]).toStrictEqual([33.33, -25, 0, null, null]);
});

test.describe('reading a baseline', () => {
  test("a report of this tool is read back as it was written", () => {
    expect(parseReport(formatReport(main), 'main.json')).toStrictEqual(main);
  });

  test('a file that is not a report of this tool is refused, naming it', () => {
    const error = thrownBy(() => parseReport('{ "stats": { "expected": 3 } }', 'results.json'));
    expect(error).toBeInstanceOf(ReportFormatError);
    expect((error as Error).message).toBe('the baseline report "results.json" is not a quality-summary.json written by quality-evidence (at schemaVersion: Invalid input: expected 1)');
  });

  test('a report of another schemaVersion is refused, naming both versions', () => {
    expect((thrownBy(() => parseReport('{ "schemaVersion": 2 }', 'main.json')) as Error).message).toBe(
      'the baseline report "main.json" is a report of schemaVersion 2; this version of quality-evidence reads schemaVersion 1',
    );
  });

  test('a file that is not JSON is a syntax error naming the file', () => {
    const error = thrownBy(() => parseReport('{', 'main.json'));
    expect(error).toBeInstanceOf(InputSyntaxError);
    expect((error as Error).message).toContain('main.json');
  });
});
