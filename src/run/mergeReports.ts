import { ReportFormatError } from '../errors.js';
import { formatIssuePath } from '../issues/issuePath.js';
import { parseLocation, type RecordLocation } from '../issues/location.js';
import type { Judgement } from '../evaluation/judgeReport.js';
import type { QualityReport, RunStatus } from '../report/qualityReport.js';
import { serverErrorsOf } from '../report/buildReport.js';
import { MAX_REPORT_EXECUTIONS, MAX_REPORT_EXECUTIONS_TEXT, reportDisagreement } from '../report/reportConsistency.js';
import { quoteText } from '../renderValue.js';
import type { BodyTallyData } from '../summary/bodyTally.js';
import { compareCodeUnits } from '../compareCodeUnits.js';
import type { EndpointEvidenceData, FailedExecution } from '../summary/endpointEvidence.js';
import { ExecutionAccumulator, type ReportedEndpoint, type SlowExecution } from '../summary/executionAccumulator.js';
import { ExactSum } from '../summary/latencySamples.js';
import type { ReportedTotalsData } from '../summary/reportedShare.js';
import type { ExecutionSource } from '../summary/sourceShare.js';
import { createEvidenceRun, type EvidencePart, type RunFacts } from './evidenceRun.js';

/**
 * Reports of separate runs, shards or machines merged into one, as if one
 * run had made every execution of them all: each report is a part of one
 * evidence run, absorbed into the tallies that records and worker threads'
 * parts go through, so that the flaky rule, the five slowest, the order of
 * failed calls and every count are the run's own. A report keeps no time,
 * only each status's count, exact sum and histogram, and each endpoint's
 * bounds: the merged percentiles are read from the histograms (`"source":
 * "histogram"`), min and max stay exact and the mean is the exact sum of the
 * reports' sums over the count. What a report says of its run as a whole
 * (its tests, how it ended, the calls it did not record) is added up here,
 * as the run's facts. What cannot be merged is left out: the time to first
 * byte (no histogram is kept of it), the link to one run's Playwright HTML
 * report, and the reports' own judgements (a merged report is judged by
 * the merge's own).
 */

type Report = QualityReport;
type Endpoint = Report['endpoints'][number];

/** A report to merge, and where it was read from (for messages). */
export interface ReportToMerge {
  readonly report: Report;
  readonly path: string;
}

/** The settings that change what a report's numbers mean: reports that differ in one are refused. */
const MEANING = [
  { name: 'environment', of: (report: Report) => report.environment },
  { name: 'slowResponseThresholdMs', of: (report: Report) => report.slowResponseThresholdMs },
  { name: 'expectedStatuses', of: (report: Report) => report.expectedStatuses },
  { name: 'expectedStatusesByEndpoint', of: (report: Report) => report.expectedStatusesByEndpoint ?? {} },
] as const;

// The reports found consistent: the command checks them before it loads the judgement, and mergeReports need not again.
const consistent = new WeakSet<Report>();

/**
 * Checks that reports can be merged: each one's parts agree (see
 * reportConsistency.ts), and all give their numbers the same meaning. A
 * ReportFormatError (65) names the report, the place and the difference.
 */
export function checkMergeable(reports: readonly ReportToMerge[]): void {
  const first = reports[0];
  if (first === undefined) return;
  let executions = 0;
  for (const { report, path } of reports) {
    const disagreement = consistent.has(report) ? undefined : reportDisagreement(report);
    if (disagreement !== undefined) {
      const endpoint = disagreement.endpoint === undefined ? '' : `, endpoint ${quoteText(disagreement.endpoint)}`;
      const where = `${formatIssuePath(disagreement.path)}${endpoint}: ${disagreement.message}`;
      throw new ReportFormatError(path, `does not add up (at ${where}): a report quality-evidence writes always does; it cannot be merged`);
    }
    consistent.add(report);
    for (const { name, of } of MEANING) {
      const mine = JSON.stringify(of(report));
      const theirs = JSON.stringify(of(first.report));
      if (mine !== theirs) {
        const difference = `has ${name} ${mine}, where ${JSON.stringify(first.path)} has ${theirs}`;
        throw new ReportFormatError(path, `${difference}: reports whose numbers mean different things cannot be merged`);
      }
    }
    executions += report.executionCount;
    if (executions > MAX_REPORT_EXECUTIONS) {
      throw new ReportFormatError(path, `brings the executions merged past ${MAX_REPORT_EXECUTIONS_TEXT}, the most a report may count`);
    }
  }
}

/**
 * Merges reports (see the module's comment) in one evidence run, judged by
 * `judgement`; the first report gives the environment and the settings
 * they share.
 */
export function mergeReports(reports: readonly ReportToMerge[], judgement?: Judgement): Report {
  checkMergeable(reports);
  const first = reports[0]?.report;
  if (first === undefined) throw new TypeError('mergeReports takes one report or more');
  const { environment, slowResponseThresholdMs, expectedStatuses, expectedStatusesByEndpoint } = first;
  const run = createEvidenceRun({ environment, slowResponseThresholdMs, expectedStatuses, expectedStatusesByEndpoint }, { judgement });
  for (const { report } of reports) run.absorb(reportPart(report));
  return run.finish(runFactsOf(reports.map(({ report }) => report)));
}

/** A report as a part of a run: its endpoints, slowest executions and split by source, in tallies. */
export function reportPart(report: Report): EvidencePart {
  const tallies = new ExecutionAccumulator(report.slowResponseThresholdMs);
  for (const entry of report.endpoints) tallies.addReported(entry.endpoint, reportedEndpointOf(entry));
  for (const execution of report.slowestExecutions) {
    if (tallies.isAmongSlowest(execution.responseTimeMs)) tallies.addSlowest(located(execution) as SlowExecution);
  }
  tallies.addReportedSources(reportedSourcesOf(report));
  return { summary: tallies, issues: [], recordCount: 0, invalidRecordCount: 0, unlistedRecordCount: 0 };
}

function reportedEndpointOf(entry: Endpoint): ReportedEndpoint {
  const {
    executionCount,
    failedExecutionCount,
    expectedErrorCount,
    slowExecutionCount,
    noResponseCount,
    newConnectionCount,
    sources,
    bodies,
    conditionsMet,
  } = entry;
  return {
    executionCount,
    failedExecutionCount,
    expectedErrorCount,
    // A report of a version before 0.2 counts none: estimated from its statuses.
    serverErrorCount: serverErrorsOf(entry),
    slowExecutionCount,
    noResponseCount,
    newConnectionCount,
    // Checked present by reportConsistency.ts.
    outcomes: (entry.latencyByStatus ?? []).map(({ statusCode, errorCode, executionCount: count, totalMs, latencyHistogram }) => ({
      outcome: statusCode ?? errorCode!,
      times: { count, sum: [totalMs], histogram: latencyHistogram },
    })),
    min: entry.responseTimeMs.min!,
    max: entry.responseTimeMs.max!,
    sources,
    bodies: bodies === undefined ? undefined : bodyDataOf(bodies),
    conditions: conditionsMet,
    evidence: evidenceDataOf(entry),
  };
}

function bodyDataOf(bodies: NonNullable<Endpoint['bodies']>): BodyTallyData {
  const { validatedCount, schemaViolationCount, notValidatedCount, notValidatedReasons, topViolations } = bodies;
  return {
    validatedCount,
    schemaViolationCount,
    notValidatedCount,
    reasons: Object.entries(notValidatedReasons).flatMap(([reason, count]) => (count === undefined ? [] : [[reason, count] as const])),
    // The violations a report lists (its most frequent 10): a merge ranks these alone.
    violations: topViolations.map(({ body, pointer, keyword, count }) => [JSON.stringify([body, pointer, keyword]), count] as const),
  };
}

function evidenceDataOf(entry: Endpoint): EndpointEvidenceData | undefined {
  const { tests, testCount, failedExecutions, flakyFailedExecutionCount, passingTestFailures } = entry;
  if (tests === undefined && testCount === undefined && failedExecutions === undefined && passingTestFailures === undefined)
    return undefined;
  return {
    tests: tests ?? [],
    // Each failed call keeps its place, in words in the report and as data again here, so they are ordered as the records were.
    failed: (failedExecutions ?? []).map((execution) => located(execution) as FailedExecution),
    retriedFailureCount: flakyFailedExecutionCount ?? 0,
    passingTestFailures: Object.entries(passingTestFailures ?? {}),
    unlistedTestCount: (testCount ?? 0) - (tests?.length ?? 0),
  };
}

/**
 * A slowest or failed execution of a report with its place as data again
 * (the report puts each key in its place). zod leaves an absent key out,
 * never undefined, as the summary's types have it.
 */
function located<Execution extends { readonly location?: string | undefined }>({
  location,
  ...execution
}: Execution): Omit<Execution, 'location'> & { readonly location?: RecordLocation } {
  return location === undefined ? execution : { ...execution, location: parseLocation(location) };
}

/** A report's executions by source, as totals: a report without sources made every call through an API client. */
function reportedSourcesOf(report: Report): Record<ExecutionSource, ReportedTotalsData> {
  const { sources } = report;
  if (sources === undefined) {
    const { executionCount, failedExecutionCount, noResponseCount, slowExecutionCount, responseTimeMs } = report;
    const sum = new ExactSum();
    for (const entry of report.endpoints) for (const { totalMs } of entry.latencyByStatus ?? []) sum.add(totalMs);
    const histograms = report.endpoints.map(({ latencyHistogram }) => latencyHistogram);
    const { min, max } = responseTimeMs;
    const api = { executionCount, failedExecutionCount, noResponseCount, slowExecutionCount, sum: sum.toPartials(), histograms, min, max };
    const none = {
      executionCount: 0,
      failedExecutionCount: 0,
      noResponseCount: 0,
      slowExecutionCount: 0,
      sum: [],
      histograms: [],
      min: null,
      max: null,
    };
    return { api, browser: none };
  }
  const totals = (source: ExecutionSource): ReportedTotalsData => {
    const { executionCount, failedExecutionCount, noResponseCount, slowExecutionCount, responseTimeMs, latencyHistogram } = sources[source];
    // A source's times have no sum of their own in the report: its mean, rounded to the microsecond, times its count.
    const sum = responseTimeMs.mean === null ? [] : [responseTimeMs.mean * executionCount];
    const { min, max } = responseTimeMs;
    return { executionCount, failedExecutionCount, noResponseCount, slowExecutionCount, sum, histograms: [latencyHistogram], min, max };
  };
  return { api: totals('api'), browser: totals('browser') };
}

/** How a Playwright run ended, worst first: a merged run ended as its worst part did. */
const STATUS_ORDER: readonly RunStatus[] = ['interrupted', 'timedout', 'failed', 'passed'];

/** What the reports say of their runs as wholes, added up: the merged run's facts (see RunFacts). */
export function runFactsOf(reports: readonly Report[]): RunFacts {
  const total = (of: (report: Report) => number | undefined): number | undefined =>
    reports.some((report) => of(report) !== undefined) ? reports.reduce((sum, report) => sum + (of(report) ?? 0), 0) : undefined;
  const skippedAssetCount = total((report) => report.skippedAssetCount);
  const unrecordedCount = total((report) => report.unrecordedCallCount);
  const browserCallCount = total((report) => report.browserCallCount);
  const tested = reports.some((report) => report.tests !== undefined);
  const unrecordedEndpoints = [...new Set(reports.flatMap((report) => report.unrecordedEndpoints ?? []))].sort(compareCodeUnits);
  const failedTests = reports.flatMap((report) => report.failedTests ?? []);
  const statuses = reports.map((report) => report.runStatus);
  const runStatus = STATUS_ORDER.find((status) => statuses.includes(status));
  return {
    ...(skippedAssetCount === undefined ? {} : { skippedAssetCount }),
    ...(unrecordedCount === undefined ? {} : { unrecordedCalls: { count: unrecordedCount, endpoints: unrecordedEndpoints } }),
    ...(browserCallCount === undefined
      ? {}
      : {
          browserCalls: {
            browserCallCount,
            mockedCallCount: total((report) => report.mockedCallCount) ?? 0,
            cachedCallCount: total((report) => report.cachedCallCount) ?? 0,
            serviceWorkerCallCount: total((report) => report.serviceWorkerCallCount) ?? 0,
            unfinishedCallCount: total((report) => report.unfinishedCallCount) ?? 0,
          },
        }),
    ...(tested
      ? {
          tests: {
            total: total((report) => report.tests?.total) ?? 0,
            passed: total((report) => report.tests?.passed) ?? 0,
            failed: total((report) => report.tests?.failed) ?? 0,
            flaky: total((report) => report.tests?.flaky) ?? 0,
            skipped: total((report) => report.tests?.skipped) ?? 0,
          },
        }
      : {}),
    // Each report names its worst failed tests: the merge names the worst of them all, as one run would.
    ...(failedTests.length === 0 ? {} : { failedTests }),
    ...(runStatus === undefined ? {} : { runStatus }),
  };
}
