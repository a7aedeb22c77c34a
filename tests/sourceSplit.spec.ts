import { mergeReports } from '../src/run/mergeReports.js';
import { qualityReportSchema, type QualityReport } from '../src/report/qualityReport.js';
import { ExecutionAccumulator } from '../src/summary/executionAccumulator.js';
import { HistogramCounts, type LatencyHistogram } from '../src/summary/latencyHistogram.js';
import { buildQualityReport } from '../src/workflow/runQualityWorkflow.js';
import { mulberry32 } from './support/latencyTrials.js';
import { expect, test } from './support/test.js';

// The report split by source: each source's share reads as a report of its
// records alone would, however the records are cut into parts.

interface Execution {
  readonly endpoint: string;
  readonly statusCode?: number;
  readonly errorCode?: string;
  readonly responseTimeMs: number;
  readonly source?: 'api' | 'browser';
}

/** Seeded executions over 6 endpoints, about a third from a browser (some saying `api` outright), some failing, some with no response. */
function executionsOf(seed: number, count: number): Execution[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, () => {
    const endpoint = ['GET /orders', 'POST /orders', 'GET /orders/:id', 'GET /settings', 'DELETE /orders/:id', 'GET /health'][
      Math.floor(random() * 6)
    ]!;
    const roll = random();
    const outcome = roll < 0.05 ? { errorCode: 'ECONNREFUSED' } : { statusCode: roll < 0.2 ? 500 : 200 };
    const from = random();
    const source = from < 0.35 ? { source: 'browser' as const } : from < 0.5 ? { source: 'api' as const } : {};
    return { endpoint, ...outcome, responseTimeMs: Math.round(random() * 900_000) / 1000, ...source };
  });
}

/** The histogram of every time of a report: its endpoints' merged. */
function histogramOf(report: QualityReport): LatencyHistogram {
  const counts = new HistogramCounts();
  for (const entry of report.endpoints) counts.merge(entry.latencyHistogram);
  return counts.result();
}

const context = { environment: 'ci', slowResponseThresholdMs: 600 };
const reportOf = (executions: readonly Execution[]): QualityReport => buildQualityReport({ executions }, context).report;

test('each source reads as a report of its own records: counts, endpoints and exact percentiles', () => {
  const executions = executionsOf(7, 600);
  const report = reportOf(executions);
  const browserOnly = reportOf(executions.filter((execution) => execution.source === 'browser'));
  const apiOnly = reportOf(executions.filter((execution) => execution.source !== 'browser'));
  for (const [source, alone] of [
    ['browser', browserOnly],
    ['api', apiOnly],
  ] as const) {
    expect(report.sources?.[source]).toStrictEqual({
      executionCount: alone.executionCount,
      failedExecutionCount: alone.failedExecutionCount,
      noResponseCount: alone.noResponseCount,
      slowExecutionCount: alone.slowExecutionCount,
      endpointCount: alone.endpoints.length,
      responseTimeMs: alone.responseTimeMs,
      latencyHistogram: histogramOf(alone),
    });
  }
  for (const entry of report.endpoints) {
    const browser = browserOnly.endpoints.find((other) => other.endpoint === entry.endpoint);
    const api = apiOnly.endpoints.find((other) => other.endpoint === entry.endpoint);
    expect(entry.sources).toStrictEqual({
      api: { executionCount: api?.executionCount ?? 0, failedExecutionCount: api?.failedExecutionCount ?? 0 },
      browser: { executionCount: browser?.executionCount ?? 0, failedExecutionCount: browser?.failedExecutionCount ?? 0 },
    });
  }
  expect(qualityReportSchema.safeParse(report).success).toBe(true);
});

test('a run with no browser record says nothing of sources, even when records say "api"', () => {
  const report = reportOf(executionsOf(3, 50).map((execution) => ({ ...execution, source: 'api' as const })));
  expect(report.sources).toBeUndefined();
  expect(report.endpoints.some((entry) => entry.sources !== undefined)).toBe(false);
});

test("the browser's failed and slowest calls say so; an API client's say nothing", () => {
  const report = reportOf([
    { endpoint: 'GET /orders', statusCode: 500, responseTimeMs: 900, source: 'browser' },
    { endpoint: 'GET /orders', statusCode: 503, responseTimeMs: 800 },
  ]);
  expect(report.endpoints[0]!.failedExecutions?.map((execution) => execution.source)).toEqual(['browser', undefined]);
  expect(report.slowestExecutions.map((execution) => execution.source)).toEqual(['browser', undefined]);
});

test('counted in parts and merged, as a worker thread hands its part over, the split is the one counted whole', () => {
  const executions = executionsOf(11, 400);
  const whole = new ExecutionAccumulator(600);
  const parts = [new ExecutionAccumulator(600), new ExecutionAccumulator(600), new ExecutionAccumulator(600)];
  executions.forEach((execution, index) => {
    for (const accumulator of [whole, parts[index % 3]!]) {
      const slot = accumulator.slot(execution.endpoint);
      const failed = accumulator.addToSlot(slot, execution.statusCode ?? execution.errorCode!, execution.responseTimeMs);
      if (execution.source === 'browser')
        accumulator.addBrowserExecution(slot, failed, execution.statusCode === undefined, execution.responseTimeMs);
    }
  });
  const merged = new ExecutionAccumulator(600);
  for (const part of parts) merged.merge(structuredClone(part.toData({ sorted: true })));
  expect(merged.result().sources).toStrictEqual(whole.result().sources);
  expect(merged.result().endpoints.map((entry) => entry.sources)).toStrictEqual(whole.result().endpoints.map((entry) => entry.sources));
});

test('merged reports add each source exactly, and a report without sources adds as API clients', () => {
  const executions = executionsOf(5, 300);
  const withBrowser = reportOf(executions.slice(0, 200));
  const apiOnly = reportOf(executions.slice(200).map(({ source: _source, ...execution }) => execution));
  const merged = mergeReports([
    { report: withBrowser, path: 'a.json' },
    { report: apiOnly, path: 'b.json' },
  ]);
  const whole = reportOf([...executions.slice(0, 200), ...executions.slice(200).map(({ source: _source, ...execution }) => execution)]);
  for (const source of ['api', 'browser'] as const) {
    const { responseTimeMs, latencyHistogram, ...counts } = merged.sources![source];
    const { responseTimeMs: exact, latencyHistogram: exactHistogram, ...exactCounts } = whole.sources![source];
    expect(counts).toStrictEqual(exactCounts);
    expect(latencyHistogram).toStrictEqual(exactHistogram);
    expect(responseTimeMs.source).toBe('histogram');
    expect(Math.abs(responseTimeMs.p95! - exact.p95!)).toBeLessThanOrEqual(exact.p95! * 0.01 + 0.001);
  }
  expect(merged.endpoints.map((entry) => [entry.endpoint, entry.sources])).toStrictEqual(
    whole.endpoints.map((entry) => [entry.endpoint, entry.sources]),
  );
  expect(qualityReportSchema.safeParse(merged).success).toBe(true);
});
