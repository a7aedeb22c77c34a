import { historyText } from '../../src/history/historyFile.js';
import type { HistoryEndpoint, HistoryRun } from '../../src/history/historyLine.js';
import { bucketOf, HISTOGRAM_RELATIVE_ACCURACY } from '../../src/summary/latencyHistogram.js';
import { mulberry32, normal } from './latencyTrials.js';

/**
 * A history whose truth is known, for the history page's specs and its
 * benchmark (docs/dashboard.md): N runs × M endpoints, seeded (mulberry32),
 * so the same arguments give the same lines byte for byte.
 *
 * - Two environments: every fifth run (4, 9, 14, …) is `staging`, the others `production`.
 * - `GET /flaky-5`, `GET /flaky-20` and `GET /flaky-50` fail one call in 5%, 20% and 50% of
 *   runs, each failure made good by a retry (flakyFailedExecutionCount).
 * - `POST /orders` is a regression: every call fails from {@link SeededHistory.changeFrom} on.
 * - `GET /search` is a slow-down: its times are 3 times as long from the same run on.
 * - The other endpoints, `GET /service-K/items`, are steady: no failure.
 * - Every tenth run (0, 10, …) was judged against a contract; every seventh against budgets
 *   (they fail once the regression starts); every third names its report; runs 5, 15, … hold
 *   a test of `POST /orders`, failed once the regression starts.
 */
export interface SeededHistory {
  readonly runs: readonly HistoryRun[];
  /** The history file's text. */
  readonly text: string;
  /** The first run of the regression and the slow-down. */
  readonly changeFrom: number;
  /** The flaky endpoints' rates of failing runs. */
  readonly flakyRates: ReadonlyMap<string, number>;
}

export const FLAKY_RATES: ReadonlyMap<string, number> = new Map([
  ['GET /flaky-5', 0.05],
  ['GET /flaky-20', 0.2],
  ['GET /flaky-50', 0.5],
]);
export const REGRESSION = 'POST /orders';
export const SLOW_DOWN = 'GET /search';

/** The environment of run `index`. */
export function environmentOfRun(index: number): string {
  return index % 5 === 4 ? 'staging' : 'production';
}

/** The labels of the M endpoints, in the order every run lists them. */
export function seededLabels(endpointCount: number): string[] {
  const special = [...FLAKY_RATES.keys(), REGRESSION, SLOW_DOWN];
  if (endpointCount < special.length) throw new Error(`a seeded history has at least ${special.length} endpoints`);
  return [...special, ...Array.from({ length: endpointCount - special.length }, (_, index) => `GET /service-${index}/items`)];
}

export function seededHistory(runCount: number, endpointCount: number, seed = 1): SeededHistory {
  const random = mulberry32(seed);
  const labels = seededLabels(endpointCount);
  const changeFrom = Math.floor(runCount * 0.9);
  const runs = Array.from({ length: runCount }, (_, index): HistoryRun => {
    const changed = index >= changeFrom;
    const endpoints = labels.map((endpoint, position) => {
      const executionCount = 10 + ((position + index) % 5);
      const slower = endpoint === SLOW_DOWN && changed ? 3 : 1;
      const base = 20 * (1 + position / 20) * slower;
      const p50 = roundMs(base * Math.exp(0.05 * normal(random)));
      const p95 = roundMs(p50 * 1.8 * Math.exp(0.05 * normal(random)));
      const p99 = roundMs(p95 * 1.2);
      const rate = FLAKY_RATES.get(endpoint);
      const flaked = rate !== undefined && random() < rate;
      const failedExecutionCount = endpoint === REGRESSION && changed ? executionCount : flaked ? 1 : 0;
      return endpointOf(endpoint, executionCount, failedExecutionCount, flaked ? 1 : 0, p50, p95, p99);
    });
    const regressed = changed;
    const failedExecutionCount = endpoints.reduce((sum, entry) => sum + entry.failedExecutionCount, 0);
    return {
      time: new Date(Date.UTC(2026, 0, 1) + index * 3_600_000).toISOString(),
      commit: (0xc0ffee00 + Math.floor(index / 2)).toString(16).padEnd(40, '0'),
      branch: 'main',
      runId: String(9000 + index),
      environment: environmentOfRun(index),
      slowResponseThresholdMs: 750,
      executionCount: endpoints.reduce((sum, entry) => sum + entry.executionCount, 0),
      failedExecutionCount,
      slowExecutionCount: 0,
      noResponseCount: 0,
      serverErrorCount: 0,
      endpoints,
      ...(index % 10 === 0
        ? {
            contract: {
              operationCoveragePercent: 80 + (index % 20),
              responseCoveragePercent: 50,
              conditionCount: 40,
              coveredConditionCount: 20 + (index % 20),
              uncalledOperations: [],
            },
          }
        : {}),
      ...(index % 10 === 5
        ? {
            tests: [
              { file: 'orders.spec.ts', line: 3, title: 'orders › creates one', outcome: regressed ? 'failed' : 'passed', endpoints: [3] },
            ],
          }
        : {}),
      ...(index % 7 === 0 ? { budgetsPassed: !regressed } : {}),
      ...(index % 3 === 0 ? { reportUrl: `https://ci.example.com/runs/${9000 + index}/quality-summary.html` } : {}),
    };
  });
  return { runs, text: historyText(runs), changeFrom, flakyRates: FLAKY_RATES };
}

function endpointOf(
  endpoint: string,
  executionCount: number,
  failedExecutionCount: number,
  retried: number,
  p50: number,
  p95: number,
  p99: number,
): HistoryEndpoint {
  // Most calls at the p50, the rest at the p95: a small histogram whose counts add up to the calls.
  const low = bucketOf(p50);
  const high = bucketOf(p95);
  const bins: [number, number][] =
    low === high
      ? [[low, executionCount]]
      : [
          [low, executionCount - 1],
          [high, 1],
        ];
  return {
    endpoint,
    executionCount,
    failedExecutionCount,
    slowExecutionCount: 0,
    noResponseCount: 0,
    p50,
    p95,
    p99,
    latencyHistogram: { relativeAccuracy: HISTOGRAM_RELATIVE_ACCURACY, zeroCount: 0, bins },
    ...(retried > 0 ? { flakyFailedExecutionCount: retried } : {}),
  };
}

function roundMs(value: number): number {
  return Math.round(value * 1000) / 1000;
}
