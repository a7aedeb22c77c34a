import { InputSyntaxError, ReportFormatError } from '../errors.js';
import { parseInputJson } from '../input/parseInputJson.js';
import { firstIssueWhere, formatIssuePath } from '../issues/issuePath.js';
import { REPORT_SCHEMA_VERSION, endpointStatisticsSchema, qualityReportSchema, type QualityReport } from '../report/qualityReport.js';
import {
  READ_REPORT_SCHEMA_VERSIONS,
  checkStatusHistograms,
  endpointOfFile,
  latencyByStatusFileSchema,
  type EndpointOfFile,
} from '../report/reportFile.js';
import * as z from 'zod';
import { baselineContractCoverageSchema } from '../report/contractSchemas.js';
import { NEW_STATUS_LIMIT, type BaselineComparison, type FlakinessChange } from '../report/verdictSchemas.js';
import { compareCodeUnits } from '../compareCodeUnits.js';
import { DEFAULT_SIGNIFICANCE_LEVEL, runShiftOf, shiftPercent, smallestPValue, testLatencyChange } from './latencyChange.js';
import { HISTOGRAM_RELATIVE_ACCURACY, histogramCount, type LatencyHistogram } from '../summary/latencyHistogram.js';
import type { ComparedRun } from '../history/historyBaseline.js';
import { compareContracts } from './contractComparison.js';
import { compareConditions } from './conditionComparison.js';
import type { Contract } from '../contract/contract.js';
import { newlyFlakyOf } from './flakinessAcrossRuns.js';

/**
 * A baseline report as this version reads its file: a report of this tool
 * of a `schemaVersion` it reads (READ_REPORT_SCHEMA_VERSIONS). The
 * statistics added after the first release may be missing from an older
 * report, as may its contract section's conditions; what is missing
 * compares as null. An endpoint's sole status may leave out its histogram
 * (reportFile.ts), which parseReport restores.
 */
const baselineReportSchema = qualityReportSchema
  .extend({
    schemaVersion: z.literal(READ_REPORT_SCHEMA_VERSIONS),
    endpoints: z.array(
      endpointStatisticsSchema
        .extend({ latencyByStatus: latencyByStatusFileSchema.optional() })
        .partial({ latencyHistogram: true })
        .check(checkStatusHistograms),
    ),
    contract: baselineContractCoverageSchema.optional(),
  })
  .partial({
    expectedStatuses: true,
    expectedErrorCount: true,
    statusCodes: true,
    responseTimeMs: true,
    endpoints: true,
    slowestExecutions: true,
  });

type BaselineReportFile = z.infer<typeof baselineReportSchema>;
type BaselineEndpointFile = NonNullable<BaselineReportFile['endpoints']>[number];

/** A report read as a baseline: of this version, every status of an endpoint with its histogram. */
export type BaselineReport = Omit<BaselineReportFile, 'schemaVersion' | 'endpoints'> & {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  endpoints?: EndpointOfFile<BaselineEndpointFile>[];
};

/** A baseline's file as in memory: of this version, its endpoints by endpointOfFile (reportFile.ts); its keys keep their order. */
function reportOfFile(report: BaselineReportFile): BaselineReport {
  if (report.endpoints === undefined) {
    const { endpoints: _none, ...rest } = report;
    return { ...rest, schemaVersion: REPORT_SCHEMA_VERSION };
  }
  return { ...report, schemaVersion: REPORT_SCHEMA_VERSION, endpoints: report.endpoints.map(endpointOfFile) };
}

/**
 * Reads a report's text as a baseline, or throws: an InputSyntaxError when
 * it is not JSON, a ReportFormatError when it is not a report of this tool
 * or of a `schemaVersion` this version does not read (both exit 65). A
 * report of schemaVersion 1 reads as one of this version: every endpoint's
 * sole status with the endpoint's histogram, as a report of 2 reads.
 */
export function parseReport(text: string, path: string, what = 'baseline report'): BaselineReport {
  let document: unknown;
  try {
    document = parseInputJson(text);
  } catch (error) {
    if (error instanceof InputSyntaxError) throw error.inFile(path, what);
    throw error;
  }
  const version =
    typeof document === 'object' && document !== null && !Array.isArray(document)
      ? (document as Record<string, unknown>)['schemaVersion']
      : undefined;
  if (typeof version === 'number' && !(READ_REPORT_SCHEMA_VERSIONS as readonly number[]).includes(version)) {
    throw new ReportFormatError(
      path,
      `is a report of schemaVersion ${version}; this version of quality-evidence reads schemaVersion ${READ_REPORT_SCHEMA_VERSIONS.join(' and ')}`,
      what,
    );
  }
  const parsed = baselineReportSchema.safeParse(document, { reportInput: false });
  if (!parsed.success) {
    const where = firstIssueWhere(parsed.error);
    throw new ReportFormatError(path, `is not a quality-summary.json written by quality-evidence${where}`, what);
  }
  keepProtoFailures(
    (document as { failureCountByEndpoint: Record<string, unknown> }).failureCountByEndpoint,
    parsed.data.failureCountByEndpoint,
    path,
    what,
  );
  const read = reportOfFile(parsed.data);
  const other = histogramsOf(read).find(({ histogram }) => histogram.relativeAccuracy !== HISTOGRAM_RELATIVE_ACCURACY);
  if (other !== undefined) {
    const where = formatIssuePath([...other.path, 'relativeAccuracy']);
    throw new ReportFormatError(
      path,
      `has latency histograms of relative accuracy ${other.histogram.relativeAccuracy} (at ${where}), ` +
        `where this version reads ${HISTOGRAM_RELATIVE_ACCURACY}: ` +
        `its times cannot be compared, merged or exported as if they were of ${HISTOGRAM_RELATIVE_ACCURACY}; summarise its records again with this version`,
      what,
    );
  }
  return read;
}

/** Every latency histogram of a report, with its place: each endpoint's, each of its statuses', each source's. */
function histogramsOf(report: BaselineReport): { readonly path: readonly PropertyKey[]; readonly histogram: LatencyHistogram }[] {
  const endpoints = (report.endpoints ?? []).flatMap((entry, index) => [
    ...(entry.latencyHistogram === undefined
      ? []
      : [{ path: ['endpoints', index, 'latencyHistogram'], histogram: entry.latencyHistogram }]),
    ...(entry.latencyByStatus ?? []).map(({ latencyHistogram: histogram }, at) => ({
      path: ['endpoints', index, 'latencyByStatus', at, 'latencyHistogram'],
      histogram,
    })),
  ]);
  const { sources: split } = report;
  const sources =
    split === undefined
      ? []
      : (['api', 'browser'] as const).map((source) => ({
          path: ['sources', source, 'latencyHistogram'],
          histogram: split[source].latencyHistogram,
        }));
  return [...endpoints, ...sources];
}

// zod leaves a "__proto__" key out of a record without a word (assigning it would set the
// prototype); in a report it is an endpoint like any other, so its failure count is kept, as an own property.
function keepProtoFailures(written: Record<string, unknown>, parsed: Record<string, number>, path: string, what: string): void {
  if (!Object.hasOwn(written, '__proto__')) return;
  const count = written['__proto__'];
  if (!Number.isSafeInteger(count) || (count as number) < 1) {
    throw new ReportFormatError(
      path,
      'is not a quality-summary.json written by quality-evidence (at failureCountByEndpoint.__proto__: must be a whole number, 1 or more)',
      what,
    );
  }
  Object.defineProperty(parsed, '__proto__', { value: count, enumerable: true, writable: true, configurable: true });
}

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
