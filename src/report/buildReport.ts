import { describeLocation } from '../issues/location.js';
import { DEFAULT_EXPECTED_STATUSES } from '../records/statusList.js';
import type { EndpointStatistics, ExecutionStatistics, SlowExecution } from '../summary/executionAccumulator.js';
import type { LatencyStatistics } from '../summary/latencySamples.js';
import type { LatencyHistogram } from '../summary/latencyHistogram.js';
import type { SourceStatistics } from '../summary/sourceShare.js';
import type { FailedExecution } from '../summary/endpointEvidence.js';
import type { FailedTest } from '../summary/failedTests.js';
import { copySparseCounts } from '../summary/sparseCounts.js';
import type { QualityReport, RunStatus, TestCounts } from './qualityReport.js';

/**
 * The report's plain parts: its assembly from a run's statistics
 * (buildReport) and what reads a report's facts. No schema here: the
 * schemas (qualityReport.ts and its kin) are built only by what reads or
 * describes a report file, so a run that writes one loads no zod schema of
 * the report.
 */

/**
 * Version of the report format; raised on any incompatible change. 2: an
 * endpoint's sole status leaves out its histogram, the endpoint's (reportFile.ts).
 */
export const REPORT_SCHEMA_VERSION = 2;

/** How a Playwright run ended, as its `FullResult.status` says. */
export const RUN_STATUSES = ['passed', 'failed', 'timedout', 'interrupted'] as const;

/** A run that stopped before its tests were done (Ctrl-C, `--global-timeout`): its evidence is incomplete. */
export function isIncompleteRun(status: RunStatus | undefined): boolean {
  return status === 'interrupted' || status === 'timedout';
}

/** API calls that the tests sent and no execution record accounts for (Playwright reporter only). */
export interface UnrecordedCalls {
  readonly count: number;
  /** Templated endpoint labels, unique, in code-unit order. */
  readonly endpoints: readonly string[];
}

/** The API calls of browser contexts, as the recording fixture counted them (see reporter/worker/browserCalls.ts). */
export interface BrowserCallCounts {
  /** Every API call seen: executions and the four kinds below. */
  readonly browserCallCount: number;
  readonly mockedCallCount: number;
  readonly cachedCallCount: number;
  readonly serviceWorkerCallCount: number;
  readonly unfinishedCallCount: number;
}

/** What the report says about where and how the summary was computed. */
export interface ReportContext {
  readonly environment: string;
  readonly slowResponseThresholdMs: number;
  /** The run-wide expected statuses, canonical (`100-399`); default `100-399`. */
  readonly expectedStatuses?: string;
  /** Expected statuses per endpoint label, canonical. */
  readonly expectedStatusesByEndpoint?: Readonly<Record<string, string>>;
  /** Present only when a HAR file was read: its asset entries left out. */
  readonly skippedAssetCount?: number;
  /** Present only in reports from the Playwright reporter. */
  readonly unrecordedCalls?: UnrecordedCalls;
  /** Present only in reports from the Playwright reporter whose tests used browser contexts: what the recording fixture saw of their API calls. */
  readonly browserCalls?: BrowserCallCounts;
  /** Present only in reports from the Playwright reporter. */
  readonly tests?: TestCounts;
  /** Present only in reports from the Playwright reporter whose tests failed: those tests, beside the endpoints their calls reached. */
  readonly failedTests?: readonly FailedTest[];
  /** Present only in reports from the Playwright reporter. */
  readonly flakyEndpoints?: readonly string[];
  /** Present only in reports from the Playwright reporter: how the run ended. */
  readonly runStatus?: RunStatus;
  /** Present only in reports from the Playwright reporter, when Playwright's HTML reporter runs: its index.html relative to the report's folder. */
  readonly playwrightHtmlReport?: string;
}

/** Assembles the report with its keys in a fixed order. */
export function buildReport(summary: ExecutionStatistics, context: ReportContext): QualityReport {
  const report: QualityReport = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    environment: context.environment,
    slowResponseThresholdMs: context.slowResponseThresholdMs,
    expectedStatuses: context.expectedStatuses ?? DEFAULT_EXPECTED_STATUSES,
    ...(context.expectedStatusesByEndpoint === undefined ? {} : { expectedStatusesByEndpoint: { ...context.expectedStatusesByEndpoint } }),
    executionCount: summary.executionCount,
    failedExecutionCount: summary.failedExecutionCount,
    slowExecutionCount: summary.slowExecutionCount,
    failureCountByEndpoint: { ...summary.failureCountByEndpoint },
    slowEndpoints: [...summary.slowEndpoints],
    noResponseCount: summary.noResponseCount,
    noResponseEndpoints: [...summary.noResponseEndpoints],
    serverErrorCount: summary.serverErrorCount,
    expectedErrorCount: summary.expectedErrorCount,
    statusCodes: copySparseCounts(summary.statusCodes),
    responseTimeMs: copyStatistics(summary.responseTimeMs),
    endpoints: summary.endpoints.map(endpointEntry),
    slowestExecutions: summary.slowestExecutions.map(slowExecutionEntry),
    ...(summary.sources === undefined
      ? {}
      : { sources: { api: sourceEntry(summary.sources.api), browser: sourceEntry(summary.sources.browser) } }),
  };
  if (context.skippedAssetCount !== undefined) report.skippedAssetCount = context.skippedAssetCount;
  if (context.unrecordedCalls !== undefined) {
    report.unrecordedCallCount = context.unrecordedCalls.count;
    report.unrecordedEndpoints = [...context.unrecordedCalls.endpoints];
  }
  if (context.browserCalls !== undefined) {
    const { browserCallCount, mockedCallCount, cachedCallCount, serviceWorkerCallCount, unfinishedCallCount } = context.browserCalls;
    Object.assign(report, { browserCallCount, mockedCallCount, cachedCallCount, serviceWorkerCallCount, unfinishedCallCount });
  }
  if (context.tests !== undefined) report.tests = { ...context.tests };
  if (context.failedTests !== undefined && context.failedTests.length > 0) {
    report.failedTests = context.failedTests.map(({ endpoints, endpointCount, ...test }) => ({
      ...test,
      endpoints: endpoints.map((entry) => ({ ...entry })),
      endpointCount,
    }));
  }
  if (context.runStatus !== undefined) report.runStatus = context.runStatus;
  if (context.tests !== undefined) {
    report.flakyFailedExecutionCount = summary.endpoints.reduce((sum, endpoint) => sum + (endpoint.flakyFailedExecutionCount ?? 0), 0);
    report.passingTestFailureCount = summary.endpoints.reduce(
      (sum, endpoint) => sum + Object.values(endpoint.passingTestFailures ?? {}).reduce((total, count) => total + count, 0),
      0,
    );
  }
  if (context.playwrightHtmlReport !== undefined) report.playwrightHtmlReport = context.playwrightHtmlReport;
  if (context.flakyEndpoints !== undefined) report.flakyEndpoints = [...context.flakyEndpoints];
  return report;
}

/** The keys the accumulator's statistics of an endpoint begin with, in this order (see ExecutionAccumulator.result). */
const FIRST_KEYS = [
  'endpoint',
  'executionCount',
  'failedExecutionCount',
  'expectedErrorCount',
  'slowExecutionCount',
  'noResponseCount',
  'serverErrorCount',
  'statusCodes',
  'responseTimeMs',
  'latencyHistogram',
  'latencyByStatus',
] as const;

/** The keys of an endpoint's statistics that its entry gives after all the others, in this order. */
const KEYS_LAST = new Set(['tests', 'failedExecutions', 'passingTestFailures', 'bodies', 'conditionsMet']);

/**
 * One endpoint's entry: its statistics' keys in their order (copied), then
 * its tests, failed calls, passing tests' failures, body conformance and
 * conditions met. Made key by key: an object rest and spread per endpoint
 * (as this was written before) took a third of the report's assembly at
 * 50,000 endpoints.
 */
function endpointEntry(endpoint: EndpointStatistics): QualityReport['endpoints'][number] {
  const keys = Object.keys(endpoint);
  // What both ways below give, in the places of the statistics' own. The status counts and the histograms are the
  // statistics' own objects, shared, not copied (no one changes them): 17 MB fewer at 50,000 endpoints while the
  // statistics and the report are both held.
  const statusCodes = endpoint.statusCodes as Record<string, number>;
  const responseTimeMs = copyStatistics(endpoint.responseTimeMs);
  const latencyHistogram = endpoint.latencyHistogram as QualityReport['endpoints'][number]['latencyHistogram'];
  const latencyByStatus = endpoint.latencyByStatus.map(({ outcome, executionCount, totalMs, latencyHistogram: histogram }) =>
    typeof outcome === 'number'
      ? { statusCode: outcome, executionCount, totalMs, latencyHistogram: histogram as typeof latencyHistogram }
      : { errorCode: outcome, executionCount, totalMs, latencyHistogram: histogram as typeof latencyHistogram },
  );
  let entry: Record<string, unknown>;
  if (FIRST_KEYS.every((key, index) => keys[index] === key)) {
    // The statistics begin as the accumulator makes them: those keys as one literal (one hidden class for them all).
    entry = {
      endpoint: endpoint.endpoint,
      executionCount: endpoint.executionCount,
      failedExecutionCount: endpoint.failedExecutionCount,
      expectedErrorCount: endpoint.expectedErrorCount,
      slowExecutionCount: endpoint.slowExecutionCount,
      noResponseCount: endpoint.noResponseCount,
      serverErrorCount: endpoint.serverErrorCount,
      statusCodes,
      responseTimeMs,
      latencyHistogram,
      latencyByStatus,
    };
    for (let index = FIRST_KEYS.length; index < keys.length; index++) {
      const key = keys[index]!;
      if (!KEYS_LAST.has(key)) entry[key] = endpoint[key as keyof EndpointStatistics];
    }
  } else {
    entry = {};
    for (const key of keys) if (!KEYS_LAST.has(key)) entry[key] = endpoint[key as keyof EndpointStatistics];
    Object.assign(entry, { statusCodes, responseTimeMs, latencyHistogram, latencyByStatus });
  }
  const { tests, failedExecutions, passingTestFailures, bodies, conditionsMet, timeToFirstByteMs } = endpoint;
  if (timeToFirstByteMs !== undefined) entry['timeToFirstByteMs'] = copyStatistics(timeToFirstByteMs);
  if (tests !== undefined) entry['tests'] = tests.map((test) => ({ ...test }));
  if (failedExecutions !== undefined) entry['failedExecutions'] = failedExecutions.map(failedExecutionEntry);
  if (passingTestFailures !== undefined) entry['passingTestFailures'] = copySparseCounts(passingTestFailures);
  if (bodies !== undefined)
    entry['bodies'] = {
      ...bodies,
      notValidatedReasons: { ...bodies.notValidatedReasons },
      topViolations: bodies.topViolations.map((violation) => ({ ...violation })),
    };
  if (conditionsMet !== undefined)
    entry['conditionsMet'] = conditionsMet.map(({ fingerprint, callCount, met, metCounts, outside }) => ({
      fingerprint,
      callCount,
      met,
      ...(metCounts === undefined ? {} : { metCounts: [...metCounts] }),
      outside,
    }));
  return entry as QualityReport['endpoints'][number];
}

/**
 * Statistics computed from every recorded time say so: `"source": "exact"`;
 * those read from merged histograms say `histogram`. Written out field by
 * field, as are the other objects made once per endpoint here: objects made
 * by spreading others of changing number representations each got a hidden
 * class of their own in V8 (28 MB of them at 50,000 endpoints), a literal
 * shares one.
 */
function copyStatistics(statistics: LatencyStatistics): QualityReport['responseTimeMs'] {
  if (statistics.source === 'histogram') return { ...statistics };
  const { min, mean, p50, p90, p95, p99, max } = statistics;
  return { min, mean, p50, p90, p95, p99, max, source: 'exact' };
}

function sourceEntry({ responseTimeMs, latencyHistogram, ...counts }: SourceStatistics): NonNullable<QualityReport['sources']>['api'] {
  return { ...counts, responseTimeMs: copyStatistics(responseTimeMs), latencyHistogram: copyHistogram(latencyHistogram) };
}

// The bins are shared, not copied: no one changes them, and a report of 50,000 endpoints holds a million of them.
function copyHistogram({ relativeAccuracy, zeroCount, bins }: LatencyHistogram): QualityReport['endpoints'][number]['latencyHistogram'] {
  return { relativeAccuracy, zeroCount, bins: bins as [number, number][] };
}

/** The keys a failed call's entry gives after all the others, in this order, as its schema lists them. */
const FAILED_KEYS_LAST = new Set(['excerpt', 'source', 'test', 'callLocation', 'location']);

// Key by key, as endpointEntry: an object rest and a spread per failed call took 120 ms of a 50,000-endpoint report. The
// last keys are placed here: an excerpt the run made follows a record's source in the call, an excerpt a record carried precedes it.
function failedExecutionEntry(execution: FailedExecution): NonNullable<QualityReport['endpoints'][number]['failedExecutions']>[number] {
  const entry: Record<string, unknown> = {};
  for (const key of Object.keys(execution)) {
    if (!FAILED_KEYS_LAST.has(key)) entry[key] = execution[key as keyof FailedExecution];
  }
  const { excerpt, source, test, callLocation, location } = execution;
  if (excerpt !== undefined) entry['excerpt'] = excerpt;
  if (source !== undefined) entry['source'] = source;
  if (test !== undefined) entry['test'] = { ...test };
  if (callLocation !== undefined) entry['callLocation'] = { ...callLocation };
  if (location !== undefined) entry['location'] = describeLocation(location);
  return entry as NonNullable<QualityReport['endpoints'][number]['failedExecutions']>[number];
}

function slowExecutionEntry({ location, ...execution }: SlowExecution): QualityReport['slowestExecutions'][number] {
  return location === undefined ? { ...execution } : { ...execution, location: describeLocation(location) };
}

/**
 * The server errors of a report or of one endpoint: as it counts them, or,
 * for a report of a version before 0.2, its calls with no response and its
 * 5xx answers, at most its failed executions (a 5xx declared expected there
 * cannot be told apart).
 */
export function serverErrorsOf(counted: {
  readonly serverErrorCount?: number | undefined;
  readonly failedExecutionCount: number;
  readonly noResponseCount: number;
  readonly statusCodes: Readonly<Record<string, number>>;
}): number {
  if (counted.serverErrorCount !== undefined) return counted.serverErrorCount;
  const answered = Object.entries(counted.statusCodes).reduce((sum, [code, count]) => sum + (Number(code) >= 500 ? count : 0), 0);
  return Math.min(counted.failedExecutionCount, counted.noResponseCount + answered);
}
