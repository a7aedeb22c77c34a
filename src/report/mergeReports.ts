import { sparseCounts } from '../summary/sparseCounts.js';
import { ReportFormatError } from '../errors.js';
import { compareCodeUnits } from '../summary/compareCodeUnits.js';
import { ENDPOINT_TEST_LIMIT, FAILED_EXECUTION_LIMIT } from '../summary/endpointEvidence.js';
import { HISTOGRAM_RELATIVE_ACCURACY, HistogramCounts, histogramCount, histogramPercentile, type LatencyHistogram } from '../summary/latencyHistogram.js';
import { ExactSum, roundToMicroseconds } from '../summary/latencySamples.js';
import { REPORT_SCHEMA_VERSION, type QualityReport, type RunStatus } from './qualityReport.js';

/**
 * Reports of separate runs or machines merged into one, as if one run had
 * made every execution of them all. Counts, status codes, failures and
 * tests add exactly, and so do the latency histograms; the percentiles are
 * read from the merged histograms (`"source": "histogram"`), each within
 * {@link HISTOGRAM_RELATIVE_ACCURACY} of the exact one, while min, max and
 * the mean stay exact (the mean to its rounding). What cannot be merged is
 * left out: the time-to-first-byte statistics (no histogram is kept of
 * them), the link to one run's Playwright HTML report. What a merged report
 * is judged by (budgets, a baseline, a contract, a history) is the merge's
 * own, so the reports' own judgements are left out too.
 */

type Report = QualityReport;
type Endpoint = Report['endpoints'][number];
type Statistics = Report['responseTimeMs'];

/** A report to merge, and where it was read from (for messages). */
export interface ReportToMerge {
  readonly report: Report;
  readonly path: string;
}

/** The slowest executions a report keeps. */
const SLOWEST_EXECUTION_LIMIT = 5;

/** The settings that change what a report's numbers mean: reports that differ in one are refused. */
const MEANING = [
  { name: 'environment', of: (report: Report) => report.environment },
  { name: 'slowResponseThresholdMs', of: (report: Report) => report.slowResponseThresholdMs },
  { name: 'expectedStatuses', of: (report: Report) => report.expectedStatuses },
  { name: 'expectedStatusesByEndpoint', of: (report: Report) => report.expectedStatusesByEndpoint ?? {} },
] as const;

/**
 * Checks that reports can be merged: each with its histograms (a merged
 * report keeps them whole, so it merges again with the same bound), all
 * with the same meaning of their numbers. A ReportFormatError (65) names
 * the report and the difference.
 */
export function checkMergeable(reports: readonly ReportToMerge[]): void {
  const first = reports[0];
  if (first === undefined) return;
  for (const { report, path } of reports) {
    const missing = (report.endpoints as readonly Partial<Endpoint>[]).find((entry) => entry.latencyHistogram === undefined);
    if (missing !== undefined) throw new ReportFormatError(path, 'has no latency histograms (a report of a version before 0.2): it cannot be merged; summarise its records again');
    const accuracy = report.endpoints.find((entry) => entry.latencyHistogram.relativeAccuracy !== HISTOGRAM_RELATIVE_ACCURACY);
    if (accuracy !== undefined) throw new ReportFormatError(path, `has latency histograms of relative accuracy ${accuracy.latencyHistogram.relativeAccuracy}, where this version merges ${HISTOGRAM_RELATIVE_ACCURACY}`);
    for (const { name, of } of MEANING) {
      const mine = JSON.stringify(of(report));
      const theirs = JSON.stringify(of(first.report));
      if (mine !== theirs) {
        throw new ReportFormatError(path, `has ${name} ${mine}, where ${JSON.stringify(first.path)} has ${theirs}: reports whose numbers mean different things cannot be merged`);
      }
    }
  }
}

/** Merges reports (see the module's comment); the first report gives the environment and the settings they share. */
export function mergeReports(reports: readonly ReportToMerge[]): Report {
  checkMergeable(reports);
  const parts = reports.map(({ report }) => report);
  const first = parts[0]!;
  const byLabel = new Map<string, Endpoint[]>();
  for (const report of parts) {
    for (const entry of report.endpoints) {
      const entries = byLabel.get(entry.endpoint);
      if (entries === undefined) byLabel.set(entry.endpoint, [entry]);
      else entries.push(entry);
    }
  }
  const endpoints = [...byLabel.keys()].sort(compareCodeUnits).map((label) => mergeEndpoint(byLabel.get(label)!));
  const failures = new Map<string, number>();
  for (const entry of endpoints) if (entry.failedExecutionCount > 0) failures.set(entry.endpoint, entry.failedExecutionCount);
  const hasTests = parts.some((report) => report.tests !== undefined);
  const hasSources = parts.some((report) => report.sources !== undefined);
  const withSources = hasSources ? endpoints.map((entry) => ({ ...entry, sources: mergeEndpointSources(byLabel.get(entry.endpoint)!) })) : endpoints;
  const merged: Report = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    environment: first.environment,
    slowResponseThresholdMs: first.slowResponseThresholdMs,
    expectedStatuses: first.expectedStatuses,
    ...(first.expectedStatusesByEndpoint === undefined ? {} : { expectedStatusesByEndpoint: { ...first.expectedStatusesByEndpoint } }),
    executionCount: sum(parts, (report) => report.executionCount),
    failedExecutionCount: sum(parts, (report) => report.failedExecutionCount),
    slowExecutionCount: sum(parts, (report) => report.slowExecutionCount),
    // fromEntries makes own properties: an endpoint named "__proto__" stays an endpoint.
    failureCountByEndpoint: Object.fromEntries(failures),
    slowEndpoints: endpoints.filter((entry) => entry.slowExecutionCount > 0).map((entry) => entry.endpoint),
    noResponseCount: sum(parts, (report) => report.noResponseCount),
    noResponseEndpoints: endpoints.filter((entry) => entry.noResponseCount > 0).map((entry) => entry.endpoint),
    expectedErrorCount: sum(parts, (report) => report.expectedErrorCount),
    statusCodes: addCounts(parts.map((report) => report.statusCodes)),
    responseTimeMs: mergeStatistics(
      parts.map((report) => ({ statistics: report.responseTimeMs, count: report.executionCount })),
      parts.flatMap((report) => report.endpoints.map((entry) => entry.latencyHistogram)),
    ),
    endpoints: withSources,
    slowestExecutions: parts
      .flatMap((report) => report.slowestExecutions)
      .map((execution, order) => ({ execution, order }))
      .sort((a, b) => b.execution.responseTimeMs - a.execution.responseTimeMs || a.order - b.order)
      .slice(0, SLOWEST_EXECUTION_LIMIT)
      .map(({ execution }) => ({ ...execution })),
    ...(hasSources ? { sources: mergeSources(parts, withSources) } : {}),
  };
  const optionalSum = (of: (report: Report) => number | undefined): number | undefined => (parts.some((report) => of(report) !== undefined) ? sum(parts, (report) => of(report) ?? 0) : undefined);
  const skippedAssetCount = optionalSum((report) => report.skippedAssetCount);
  if (skippedAssetCount !== undefined) merged.skippedAssetCount = skippedAssetCount;
  const unrecordedCallCount = optionalSum((report) => report.unrecordedCallCount);
  if (unrecordedCallCount !== undefined) {
    merged.unrecordedCallCount = unrecordedCallCount;
    merged.unrecordedEndpoints = [...new Set(parts.flatMap((report) => report.unrecordedEndpoints ?? []))].sort(compareCodeUnits);
  }
  const browserCallCount = optionalSum((report) => report.browserCallCount);
  if (browserCallCount !== undefined) {
    merged.browserCallCount = browserCallCount;
    merged.mockedCallCount = sum(parts, (report) => report.mockedCallCount ?? 0);
    merged.cachedCallCount = sum(parts, (report) => report.cachedCallCount ?? 0);
    merged.serviceWorkerCallCount = sum(parts, (report) => report.serviceWorkerCallCount ?? 0);
    merged.unfinishedCallCount = sum(parts, (report) => report.unfinishedCallCount ?? 0);
  }
  if (hasTests) {
    merged.tests = {
      total: sum(parts, (report) => report.tests?.total ?? 0),
      passed: sum(parts, (report) => report.tests?.passed ?? 0),
      failed: sum(parts, (report) => report.tests?.failed ?? 0),
      flaky: sum(parts, (report) => report.tests?.flaky ?? 0),
      skipped: sum(parts, (report) => report.tests?.skipped ?? 0),
    };
  }
  const runStatus = worstStatus(parts.map((report) => report.runStatus));
  if (runStatus !== undefined) merged.runStatus = runStatus;
  const flakyFailed = optionalSum((report) => report.flakyFailedExecutionCount);
  if (flakyFailed !== undefined) merged.flakyFailedExecutionCount = flakyFailed;
  const passingTestFailures = optionalSum((report) => report.passingTestFailureCount);
  if (passingTestFailures !== undefined) merged.passingTestFailureCount = passingTestFailures;
  if (parts.some((report) => report.flakyEndpoints !== undefined)) {
    merged.flakyEndpoints = endpoints.filter((entry) => entry.failedExecutionCount > 0 && entry.flakyFailedExecutionCount === entry.failedExecutionCount).map((entry) => entry.endpoint);
  }
  return merged;
}

type Sources = NonNullable<Report['sources']>;
type SourceName = keyof Sources;

/** An endpoint's counts by source; a report without sources made every call through an API client. */
function sourcesOfEndpoint(entry: Endpoint): NonNullable<Endpoint['sources']> {
  return entry.sources ?? { api: { executionCount: entry.executionCount, failedExecutionCount: entry.failedExecutionCount }, browser: { executionCount: 0, failedExecutionCount: 0 } };
}

function mergeEndpointSources(entries: readonly Endpoint[]): NonNullable<Endpoint['sources']> {
  const of = (source: SourceName) => ({
    executionCount: sum(entries, (entry) => sourcesOfEndpoint(entry)[source].executionCount),
    failedExecutionCount: sum(entries, (entry) => sourcesOfEndpoint(entry)[source].failedExecutionCount),
  });
  return { api: of('api'), browser: of('browser') };
}

/** A report's split by source; a report without one is all API client calls. */
function sourcesOfReport(report: Report): Sources {
  if (report.sources !== undefined) return report.sources;
  const histogram = new HistogramCounts();
  for (const entry of report.endpoints) histogram.merge(entry.latencyHistogram);
  const empty = { executionCount: 0, failedExecutionCount: 0, noResponseCount: 0, slowExecutionCount: 0, endpointCount: 0, responseTimeMs: mergeStatistics([], []), latencyHistogram: copyHistogram(new HistogramCounts().result()) };
  const { executionCount, failedExecutionCount, noResponseCount, slowExecutionCount, responseTimeMs } = report;
  return { api: { executionCount, failedExecutionCount, noResponseCount, slowExecutionCount, endpointCount: report.endpoints.length, responseTimeMs, latencyHistogram: copyHistogram(histogram.result()) }, browser: empty };
}

/** The merged split by source: counts added, statistics from the merged histograms, endpoints counted in the merged report. */
function mergeSources(parts: readonly Report[], endpoints: readonly Endpoint[]): Sources {
  const of = (source: SourceName): Sources[SourceName] => {
    const entries = parts.map((report) => sourcesOfReport(report)[source]);
    const histogram = new HistogramCounts();
    for (const entry of entries) histogram.merge(entry.latencyHistogram);
    return {
      executionCount: sum(entries, (entry) => entry.executionCount),
      failedExecutionCount: sum(entries, (entry) => entry.failedExecutionCount),
      noResponseCount: sum(entries, (entry) => entry.noResponseCount),
      slowExecutionCount: sum(entries, (entry) => entry.slowExecutionCount),
      endpointCount: endpoints.filter((entry) => (entry.sources?.[source].executionCount ?? 0) > 0).length,
      responseTimeMs: mergeStatistics(
        entries.map((entry) => ({ statistics: entry.responseTimeMs, count: entry.executionCount })),
        entries.map((entry) => entry.latencyHistogram),
      ),
      latencyHistogram: copyHistogram(histogram.result()),
    };
  };
  return { api: of('api'), browser: of('browser') };
}

/** How a Playwright run ended, worst first: a merged run ended as its worst part did. */
const STATUS_ORDER: readonly RunStatus[] = ['interrupted', 'timedout', 'failed', 'passed'];

function worstStatus(statuses: readonly (RunStatus | undefined)[]): RunStatus | undefined {
  return STATUS_ORDER.find((status) => statuses.includes(status));
}

function mergeEndpoint(entries: readonly Endpoint[]): Endpoint {
  const first = entries[0]!;
  const histogram = new HistogramCounts();
  for (const entry of entries) histogram.merge(entry.latencyHistogram);
  const merged: Endpoint = {
    endpoint: first.endpoint,
    executionCount: sum(entries, (entry) => entry.executionCount),
    failedExecutionCount: sum(entries, (entry) => entry.failedExecutionCount),
    expectedErrorCount: sum(entries, (entry) => entry.expectedErrorCount),
    slowExecutionCount: sum(entries, (entry) => entry.slowExecutionCount),
    noResponseCount: sum(entries, (entry) => entry.noResponseCount),
    statusCodes: addCounts(entries.map((entry) => entry.statusCodes)),
    responseTimeMs: mergeStatistics(
      entries.map((entry) => ({ statistics: entry.responseTimeMs, count: entry.executionCount })),
      entries.map((entry) => entry.latencyHistogram),
    ),
    latencyHistogram: copyHistogram(histogram.result()),
  };
  // Every part's split, or none: a report of a version before 0.2 has none, and a part of the times would misstate the whole.
  if (entries.every((entry) => entry.latencyByStatus !== undefined)) merged.latencyByStatus = mergeLatencyByStatus(entries.flatMap((entry) => entry.latencyByStatus!));
  // In the order a report made from records gives them.
  if (entries.some((entry) => entry.newConnectionCount !== undefined)) merged.newConnectionCount = sum(entries, (entry) => entry.newConnectionCount ?? 0);
  const tests = mergeTests(entries);
  if (tests !== undefined) merged.testCount = tests.count;
  if (entries.some((entry) => entry.flakyFailedExecutionCount !== undefined)) merged.flakyFailedExecutionCount = sum(entries, (entry) => entry.flakyFailedExecutionCount ?? 0);
  if (tests !== undefined) merged.tests = tests.listed;
  const failed = entries.flatMap((entry) => entry.failedExecutions ?? []);
  if (failed.length > 0) {
    merged.failedExecutions = failed
      .map((execution, order) => ({ execution, order }))
      .sort((a, b) => compareFailedPlace(a.execution, b.execution) || a.order - b.order)
      .slice(0, FAILED_EXECUTION_LIMIT)
      .map(({ execution }) => execution);
  }
  if (entries.some((entry) => entry.passingTestFailures !== undefined)) merged.passingTestFailures = addCounts(entries.map((entry) => entry.passingTestFailures ?? {}));
  const bodies = entries.flatMap((entry) => (entry.bodies === undefined ? [] : [entry.bodies]));
  if (bodies.length > 0) merged.bodies = mergeBodies(bodies);
  return merged;
}

type StatusLatency = NonNullable<Endpoint['latencyByStatus']>[number];

/** Each status's (and error code's) counts, sums and histograms added, in the order a report made from records gives them. */
function mergeLatencyByStatus(parts: readonly StatusLatency[]): StatusLatency[] {
  const byOutcome = new Map<number | string, { statusCode?: number; errorCode?: string; executionCount: number; total: ExactSum; histogram: HistogramCounts }>();
  for (const part of parts) {
    const outcome = part.statusCode ?? part.errorCode ?? '';
    let known = byOutcome.get(outcome);
    if (known === undefined) {
      known = { ...(part.statusCode === undefined ? { errorCode: part.errorCode! } : { statusCode: part.statusCode }), executionCount: 0, total: new ExactSum(), histogram: new HistogramCounts() };
      byOutcome.set(outcome, known);
    }
    known.executionCount += part.executionCount;
    known.total.add(part.totalMs);
    known.histogram.merge(part.latencyHistogram);
  }
  return [...byOutcome.values()]
    .sort((a, b) => (a.statusCode !== undefined && b.statusCode !== undefined ? a.statusCode - b.statusCode : a.statusCode !== undefined ? -1 : b.statusCode !== undefined ? 1 : compareCodeUnits(a.errorCode!, b.errorCode!)))
    .map(({ total, histogram, ...entry }) => ({ ...entry, totalMs: roundToMicroseconds(total.value()), latencyHistogram: copyHistogram(histogram.result()) }));
}

type TestCalls = NonNullable<Endpoint['tests']>[number];

/**
 * The tests of an endpoint across reports: one entry per test (file, line,
 * column, title), calls added, in the report's order, at most
 * ENDPOINT_TEST_LIMIT. The count is exact when every report listed all its
 * tests; otherwise the reports' counts added, less the tests known to be
 * in more than one.
 */
function mergeTests(entries: readonly Endpoint[]): { listed: TestCalls[]; count: number } | undefined {
  if (!entries.some((entry) => entry.tests !== undefined)) return undefined;
  const byTest = new Map<string, TestCalls>();
  let repeated = 0;
  for (const entry of entries) {
    for (const test of entry.tests ?? []) {
      const key = JSON.stringify([test.file, test.line, test.column, test.title]);
      const known = byTest.get(key);
      if (known === undefined) byTest.set(key, { ...test });
      else {
        repeated++;
        byTest.set(key, { ...known, calls: known.calls + test.calls, failedCalls: known.failedCalls + test.failedCalls });
      }
    }
  }
  const complete = entries.every((entry) => (entry.tests?.length ?? 0) === (entry.testCount ?? 0));
  const listed = [...byTest.values()].sort(
    (a, b) => b.failedCalls - a.failedCalls || b.calls - a.calls || compareCodeUnits(a.file, b.file) || a.line - b.line || a.column - b.column || compareCodeUnits(a.title, b.title),
  );
  return { listed: listed.slice(0, ENDPOINT_TEST_LIMIT), count: complete ? byTest.size : sum(entries, (entry) => entry.testCount ?? 0) - repeated };
}

type FailedExecution = NonNullable<Endpoint['failedExecutions']>[number];

/**
 * The order of a report made from records: a Playwright test's call by its
 * test's file, line, column, title and attempt; a record read from a file
 * by the file's name, then its place in it (as its location says:
 * `executions[3] of a.json`, `line 12 of b.ndjson`, `HAR entry 40 of c.har`);
 * then the order of the reports.
 */
function compareFailedPlace(a: FailedExecution, b: FailedExecution): number {
  if (a.test !== undefined && b.test !== undefined) {
    return compareCodeUnits(a.test.file, b.test.file) || a.test.line - b.test.line || a.test.column - b.test.column || compareCodeUnits(a.test.title, b.test.title) || (a.attempt ?? 0) - (b.attempt ?? 0);
  }
  if (a.test !== undefined || b.test !== undefined) return a.test === undefined ? 1 : -1;
  const placeA = fileAndPlace(a.location);
  const placeB = fileAndPlace(b.location);
  if (placeA === undefined || placeB === undefined) return placeA === undefined ? (placeB === undefined ? 0 : 1) : -1;
  return compareCodeUnits(placeA.file, placeB.file) || placeA.place - placeB.place;
}

// `executions[3] of a.json` → a.json, 3; `line 12 of b.ndjson` → b.ndjson, 12; `HAR entry 40 of c.har` → c.har, 40.
function fileAndPlace(location: string | undefined): { file: string; place: number } | undefined {
  const match = location === undefined ? null : /^(?:[^\s]*\[(\d+)\]|line (\d+)|HAR entry (\d+)) of (.+)$/s.exec(location);
  if (match === null) return undefined;
  return { file: match[4]!, place: Number(match[1] ?? match[2] ?? match[3]) };
}

type Bodies = NonNullable<Endpoint['bodies']>;

function mergeBodies(parts: readonly Bodies[]): Bodies {
  const violations = new Map<string, Bodies['topViolations'][number]>();
  for (const part of parts) {
    for (const violation of part.topViolations) {
      const key = JSON.stringify([violation.body, violation.pointer, violation.keyword]);
      const known = violations.get(key);
      violations.set(key, known === undefined ? { ...violation } : { ...known, count: known.count + violation.count });
    }
  }
  return {
    validatedCount: sum(parts, (part) => part.validatedCount),
    schemaViolationCount: sum(parts, (part) => part.schemaViolationCount),
    notValidatedCount: sum(parts, (part) => part.notValidatedCount),
    topViolations: [...violations.values()].sort((a, b) => b.count - a.count || compareCodeUnits(a.body, b.body) || compareCodeUnits(a.pointer, b.pointer) || compareCodeUnits(a.keyword, b.keyword)).slice(0, 10),
    notValidatedReasons: addCounts(parts.map((part) => part.notValidatedReasons)),
  };
}

/**
 * Statistics of merged parts: min and max exact, the mean from the parts'
 * means weighted by their counts (exact to its rounding), the percentiles
 * read from the merged histogram and kept within [min, max], which holds
 * every true percentile.
 */
function mergeStatistics(parts: readonly { statistics: Statistics; count: number }[], histograms: readonly LatencyHistogram[]): Statistics {
  const present = parts.filter(({ statistics, count }) => count > 0 && statistics.min !== null);
  const counts = new HistogramCounts();
  for (const histogram of histograms) counts.merge(histogram);
  const histogram = counts.result();
  if (present.length === 0 || histogramCount(histogram) === 0) {
    return { min: null, mean: null, p50: null, p90: null, p95: null, p99: null, max: null, source: 'histogram', relativeError: HISTOGRAM_RELATIVE_ACCURACY };
  }
  const min = Math.min(...present.map(({ statistics }) => statistics.min!));
  const max = Math.max(...present.map(({ statistics }) => statistics.max!));
  const total = sum(present, ({ count }) => count);
  const mean = round3(present.reduce((sumOfTimes, { statistics, count }) => sumOfTimes + statistics.mean! * count, 0) / total);
  const percentile = (p: number): number => round3(Math.min(max, Math.max(min, histogramPercentile(histogram, p)!)));
  return { min, mean, p50: percentile(50), p90: percentile(90), p95: percentile(95), p99: percentile(99), max, source: 'histogram', relativeError: HISTOGRAM_RELATIVE_ACCURACY };
}

function copyHistogram({ relativeAccuracy, zeroCount, bins }: LatencyHistogram): Endpoint['latencyHistogram'] {
  return { relativeAccuracy, zeroCount, bins: bins.map(([bucket, count]) => [bucket, count]) };
}

function addCounts(records: readonly Readonly<Record<string, number | undefined>>[]): Record<string, number> {
  const totals = new Map<string, number>();
  for (const record of records) for (const [key, count] of Object.entries(record)) if (count !== undefined) totals.set(key, (totals.get(key) ?? 0) + count);
  return sparseCounts([...totals].sort(([a], [b]) => compareCodeUnits(a, b)));
}

function sum<Item>(items: readonly Item[], of: (item: Item) => number): number {
  return items.reduce((total, item) => total + of(item), 0);
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000 + 0;
}
