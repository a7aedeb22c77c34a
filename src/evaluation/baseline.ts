import type { QualityReport } from '../report/qualityReport.js';
import type { BaselineComparison, FlakinessChange } from '../report/verdictSchemas.js';
import { NEW_STATUS_LIMIT } from '../report/reportLimits.js';
import { compareCodeUnits } from '../compareCodeUnits.js';
import { DEFAULT_SIGNIFICANCE_LEVEL, runShiftOf, shiftPercent, smallestPValue, testLatencyChange } from './latencyChange.js';
import { histogramCount, type LatencyHistogram } from '../summary/latencyHistogram.js';
import type { ComparedRun } from '../history/historyBaseline.js';
import { compareContracts } from './contractComparison.js';
import { compareConditions } from './conditionComparison.js';
import type { Contract } from '../contract/contract.js';
import { newlyFlakyOf } from './flakinessAcrossRuns.js';

/** How a comparison judges latency (the significance level of its test, see latencyChange.ts), and the document its conditions are of. */
export interface ComparisonOptions {
  readonly significanceLevel?: number | undefined;
  /** The contract the report was judged against: with it, the conditions newly met and no longer met are listed (compareConditions). */
  readonly contract?: Contract | undefined;
}

/**
 * Compares a report with a baseline report (for example main's artifact).
 * Each endpoint's latency change is judged by a significance test over the
 * two latency histograms (slower, faster, noChange, tooFewSamples); an
 * endpoint the baseline does not have, or whose entry has no histogram (a
 * report of an earlier version), has too few samples to judge. Failures
 * compare as rates per execution, so that a retry, which repeats calls,
 * does not read as failing more. Each endpoint also says the statuses it
 * got that the baseline never did, and how its flakiness changed, where
 * the baseline says; with a contract section in both reports, the
 * comparison says what the run did to the contract (compareContracts), and
 * with the document too, which conditions it newly met and no longer met.
 * It reads the reports alone (histograms, counts, the contract sections)
 * and the document: `quality-evidence compare` given the same document
 * gives what a run with the baseline gives.
 */
export function compareWithBaseline(
  report: QualityReport,
  baseline: ComparedRun,
  { significanceLevel = DEFAULT_SIGNIFICANCE_LEVEL, contract }: ComparisonOptions = {},
): BaselineComparison {
  const beforeEndpoints = new Map((baseline.endpoints ?? []).map((entry) => [entry.endpoint, entry]));
  const afterEndpoints = new Map(report.endpoints.map((entry) => [entry.endpoint, entry]));
  // Sets and Maps, never a property lookup: an endpoint may be named "toString" or "__proto__".
  const failedBefore = new Set(Object.keys(baseline.failureCountByEndpoint));
  const failedAfter = new Set(Object.keys(report.failureCountByEndpoint));
  const slowBefore = new Set(baseline.slowEndpoints);
  const flakiness = flakinessOf(report.flakyEndpoints, baseline.flakyEndpoints);
  const sorted = (labels: Iterable<string>): string[] => [...labels].sort(compareCodeUnits);
  // The shift the whole run shares, taken out before each endpoint is judged (see runShiftOf).
  const runShift = runShiftOf(
    report.endpoints.map((entry) => {
      const before = beforeEndpoints.get(entry.endpoint);
      const histogram = before?.latencyHistogram;
      const testable =
        comparable(histogram, entry.latencyHistogram) &&
        smallestPValue(histogramCount(histogram), histogramCount(entry.latencyHistogram)) < significanceLevel;
      return { p50Before: before?.responseTimeMs.p50 ?? null, p50After: entry.responseTimeMs.p50, testable };
    }),
  );
  const endpoints = report.endpoints.map((entry) => {
    const before = beforeEndpoints.get(entry.endpoint);
    const p95Before = before?.responseTimeMs.p95 ?? null;
    const p95After = entry.responseTimeMs.p95;
    const p95Change = changePercent(p95Before, p95After);
    const histogram = before?.latencyHistogram;
    const test = comparable(histogram, entry.latencyHistogram)
      ? testLatencyChange(histogram, entry.latencyHistogram, significanceLevel, runShift)
      : undefined;
    return {
      endpoint: entry.endpoint,
      executionCount: { before: before?.executionCount ?? null, after: entry.executionCount },
      p95: { before: p95Before, after: p95After, changePercent: p95Change },
      failedExecutionCount: { before: before?.failedExecutionCount ?? null, after: entry.failedExecutionCount },
      failureRate: { before: before === undefined ? null : rateOf(before), after: rateOf(entry) },
      latencyVerdict: test?.verdict ?? 'tooFewSamples',
      latencyTest: {
        method: 'mannWhitneyU' as const,
        significanceLevel,
        nBefore: test?.samplesBefore ?? 0,
        nAfter: test?.samplesAfter ?? entry.executionCount,
        p50ChangePercent: changePercent(before?.responseTimeMs.p50 ?? null, entry.responseTimeMs.p50),
        p95ChangePercent: p95Change,
        pValue: test?.pValue ?? null,
        runShiftPercent: shiftPercent(runShift),
      },
      ...newStatusesOf(entry.statusCodes, before?.statusCodes),
      ...flakiness(entry.endpoint),
    };
  });
  const latencyVerdictCounts = { slower: 0, faster: 0, noChange: 0, tooFewSamples: 0 };
  for (const { latencyVerdict } of endpoints) latencyVerdictCounts[latencyVerdict]++;
  return {
    environment: { before: baseline.environment, after: report.environment },
    ...(baseline.run === undefined ? {} : { run: { ...baseline.run } }),
    executionCount: { before: baseline.executionCount, after: report.executionCount },
    failedExecutionCount: { before: baseline.failedExecutionCount, after: report.failedExecutionCount },
    serverErrorCount: { before: baseline.serverErrorCount ?? null, after: report.serverErrorCount ?? null },
    slowExecutionCount: { before: baseline.slowExecutionCount, after: report.slowExecutionCount },
    endpoints,
    significanceLevel,
    runShiftPercent: shiftPercent(runShift),
    latencyVerdictCounts,
    slowerEndpoints: endpoints.filter((entry) => entry.latencyVerdict === 'slower').map((entry) => entry.endpoint),
    newlyFailingEndpoints: sorted([...failedAfter].filter((endpoint) => !failedBefore.has(endpoint))),
    recoveredEndpoints: sorted([...failedBefore].filter((endpoint) => !failedAfter.has(endpoint))),
    newlySlowEndpoints: sorted(report.slowEndpoints.filter((endpoint) => !slowBefore.has(endpoint))),
    newEndpoints:
      baseline.endpoints === undefined ? [] : sorted([...afterEndpoints.keys()].filter((endpoint) => !beforeEndpoints.has(endpoint))),
    missingEndpoints: sorted([...beforeEndpoints.keys()].filter((endpoint) => !afterEndpoints.has(endpoint))),
    ...(report.contract === undefined || baseline.contract === undefined
      ? {}
      : {
          contract: {
            ...compareContracts(report.contract, baseline.contract),
            ...(contract === undefined ? {} : compareConditions(report, contract, baseline)),
          },
        }),
    ...newlyFlakyOf(report, baseline),
  };
}

/**
 * The status codes an endpoint's calls got now and never in the baseline,
 * ascending, at most NEW_STATUS_LIMIT, and how many; nothing when the
 * baseline has no status codes of it (it did not run it, or it is a run of
 * the history file, whose lines keep no counts of them: only an operation's
 * statuses seen, for its conditions).
 */
function newStatusesOf(
  after: Readonly<Record<string, number>>,
  before: Readonly<Record<string, number>> | undefined,
): { newStatuses?: string[]; newStatusCount?: number } {
  if (before === undefined) return {};
  const known = new Set(Object.keys(before));
  const statuses = Object.keys(after)
    .filter((status) => !known.has(status))
    .sort();
  return { newStatuses: statuses.slice(0, NEW_STATUS_LIMIT), newStatusCount: statuses.length };
}

/**
 * Each endpoint's change of flakiness, when both reports say which
 * endpoints are flaky (those of the Playwright reporter do, an empty list
 * included); nothing for an endpoint flaky in neither.
 */
function flakinessOf(
  after: readonly string[] | undefined,
  before: readonly string[] | undefined,
): (endpoint: string) => { flakiness?: FlakinessChange } {
  if (after === undefined || before === undefined) return () => ({});
  const flakyAfter = new Set(after);
  const flakyBefore = new Set(before);
  return (endpoint) => {
    const now = flakyAfter.has(endpoint);
    const then = flakyBefore.has(endpoint);
    if (now) return { flakiness: then ? 'stillFlaky' : 'newlyFlaky' };
    return then ? { flakiness: 'noLongerFlaky' } : {};
  };
}

/**
 * Whether two histograms can be tested against each other: both there, of
 * one relative accuracy (a bucket index means another time in another). A
 * report read as a baseline is refused for another accuracy (parseReport);
 * a run of a history file is only not tested.
 */
function comparable(before: LatencyHistogram | undefined, after: LatencyHistogram): before is LatencyHistogram {
  return before !== undefined && before.relativeAccuracy === after.relativeAccuracy;
}

/** Failed executions per execution, to 6 decimals; null without executions. */
export function rateOf({
  executionCount,
  failedExecutionCount,
}: {
  readonly executionCount: number;
  readonly failedExecutionCount: number;
}): number | null {
  return executionCount === 0 ? null : Math.round((failedExecutionCount / executionCount) * 1e6) / 1e6;
}

/** (after - before) / before × 100, rounded to 2 decimals; null when either is missing, or before is 0 and after is not. */
export function changePercent(before: number | null, after: number | null): number | null {
  if (before === null || after === null) return null;
  if (before === 0) return after === 0 ? 0 : null;
  return Math.round(((after - before) / before) * 100 * 100) / 100 + 0;
}
