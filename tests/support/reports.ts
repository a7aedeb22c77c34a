import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parseReport, qualityReportSchema, type QualityReport } from '../../src/index.js';
import { repositoryRoot } from './runProgram.js';
import { histogramOfRuns } from '../../src/summary/latencyHistogram.js';

// Every report a spec reads is checked against the JSON Schema the package
// ships (schemas/report.schema.json), by a JSON Schema validator of its own,
// not only by the zod schema it was generated from.
const validateShipped = addFormats
  .default(new Ajv2020({ allErrors: true, strict: false }))
  .compile(JSON.parse(readFileSync(join(repositoryRoot, 'schemas/report.schema.json'), 'utf8')) as object);

/**
 * A report's text, checked against the shipped JSON Schema, then read as the
 * tool reads a report (parseReport: each endpoint's sole status takes back
 * the histogram its file leaves out) and checked to be a complete report.
 */
export function reportFrom(text: string): QualityReport {
  const document: unknown = JSON.parse(text);
  if (!validateShipped(document))
    throw new Error(`the report does not match schemas/report.schema.json: ${JSON.stringify(validateShipped.errors)}`);
  return qualityReportSchema.parse(parseReport(text, 'the report', 'report'));
}

/** The report file at `path`, checked against the shipped JSON Schema. */
export async function readReport(path: string): Promise<QualityReport> {
  return reportFrom(await readFile(path, 'utf8'));
}

/**
 * A report without its measured times and its trace ids, for runs that make
 * real calls (real calls take real, varying time, and each run of the
 * fixture begins traces of its own): every count, status and label stays.
 */
export function withoutTimes({
  responseTimeMs: _times,
  slowestExecutions: _slowest,
  endpoints,
  failedTests,
  ...report
}: QualityReport): unknown {
  return {
    ...report,
    ...(failedTests === undefined ? {} : { failedTests: failedTests.map(({ traceId: _trace, ...failedTest }) => failedTest) }),
    endpoints: endpoints.map(
      ({
        responseTimeMs: _,
        timeToFirstByteMs: _firstByte,
        newConnectionCount: _connections,
        latencyHistogram: _histogram,
        latencyByStatus,
        failedExecutions,
        ...entry
      }) => ({
        ...entry,
        ...(latencyByStatus === undefined
          ? {}
          : { latencyByStatus: latencyByStatus.map(({ totalMs: _total, latencyHistogram: _statusHistogram, ...counts }) => counts) }),
        ...(failedExecutions === undefined
          ? {}
          : {
              failedExecutions: failedExecutions.map(
                ({ responseTimeMs: _time, traceId: _trace, spanId: _span, ...execution }) => execution,
              ),
            }),
      }),
    ),
  };
}

/**
 * An endpoint's times by status as the report gives them, from each
 * outcome's times: `timesByStatus([200, 40, 41], ['ECONNREFUSED', 2])`,
 * status codes ascending first, then error codes.
 */
export function timesByStatus(
  ...outcomes: [number | string, ...number[]][]
): NonNullable<QualityReport['endpoints'][number]['latencyByStatus']> {
  return outcomes.map(([outcome, ...times]) => ({
    ...(typeof outcome === 'number' ? { statusCode: outcome } : { errorCode: outcome }),
    executionCount: times.length,
    totalMs: Math.round(times.reduce((total, time) => total + time, 0) * 1000) / 1000,
    latencyHistogram: histogramOf(...times),
  }));
}

/** The latency histogram of these times, as the report gives an endpoint's. */
export function histogramOf(...times: number[]): QualityReport['endpoints'][number]['latencyHistogram'] {
  const { bins, ...histogram } = histogramOfRuns([Float64Array.from(times).sort()]);
  return { ...histogram, bins: bins.map(([bucket, count]) => [bucket, count]) };
}
