import { InputSyntaxError, ReportFormatError } from '../errors.js';
import { parseInputJson } from '../input/parseInputJson.js';
import { firstIssueWhere, formatIssuePath } from '../issues/issuePath.js';
import { endpointStatisticsSchema, qualityReportSchema } from '../report/qualityReport.js';
import { REPORT_SCHEMA_VERSION } from '../report/buildReport.js';
import {
  READ_REPORT_SCHEMA_VERSIONS,
  checkStatusHistograms,
  endpointOfFile,
  latencyByStatusFileSchema,
  type EndpointOfFile,
} from '../report/reportFile.js';
import * as z from 'zod';
import { baselineContractCoverageSchema } from '../report/contractSchemas.js';
import { HISTOGRAM_RELATIVE_ACCURACY, type LatencyHistogram } from '../summary/latencyHistogram.js';

// Reading a report file (a baseline, the reports merge, compare, check and comment read): the report's schemas, built
// only by a run that reads one (see docs/architecture.md, "What a run loads"); comparing it is baseline.ts.

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
