import { z } from 'zod';
import { isIncompleteRun, type QualityReport } from '../report/qualityReport.js';
import { latencyHistogramSchema } from '../report/statisticsSchemas.js';
import { bucketRange } from '../summary/latencyHistogram.js';
import { runIdentityShape, type RunIdentity } from '../report/historySchemas.js';

/**
 * The history file (`historyPath`): JSON Lines, one line per run, oldest
 * first, after a first line that states the schema version. A line holds
 * what trends and a baseline need of a run, per endpoint: counts, three
 * exact percentiles and the latency histogram. Never a body, a header, a
 * query string or a test's name.
 */

/** The version of the history file's lines; raised on any incompatible change. */
export const HISTORY_SCHEMA_VERSION = 1;

/** The first line of every history file this version writes. */
export const historyHeaderSchema = z.strictObject({
  schemaVersion: z.int().min(1),
  kind: z.literal('quality-evidence history'),
});

const count = z.int().min(0);
const milliseconds = z.number().min(0).nullable();

/** One endpoint of one run. */
export const historyEndpointSchema = z.strictObject({
  endpoint: z.string().min(1),
  executionCount: z.int().min(1),
  failedExecutionCount: count,
  slowExecutionCount: count,
  noResponseCount: count,
  p50: milliseconds,
  p95: milliseconds,
  p99: milliseconds,
  latencyHistogram: latencyHistogramSchema,
});

/** One run, as a line of the history file. */
export const historyRunSchema = z.strictObject({
  ...runIdentityShape,
  environment: z.string(),
  slowResponseThresholdMs: count,
  executionCount: count,
  failedExecutionCount: count,
  slowExecutionCount: count,
  noResponseCount: count,
  /** Absent in lines of versions before 0.2. */
  serverErrorCount: count.optional(),
  endpoints: z.array(historyEndpointSchema),
});

export type HistoryRun = z.infer<typeof historyRunSchema>;
export type HistoryEndpoint = z.infer<typeof historyEndpointSchema>;

/** The line a run appends: its identity, its totals and each endpoint's counts, percentiles and histogram. */
export function historyRunOf(report: QualityReport, identity: RunIdentity): HistoryRun {
  return {
    ...identity,
    environment: report.environment,
    slowResponseThresholdMs: report.slowResponseThresholdMs,
    executionCount: report.executionCount,
    failedExecutionCount: report.failedExecutionCount,
    slowExecutionCount: report.slowExecutionCount,
    noResponseCount: report.noResponseCount,
    ...(report.serverErrorCount === undefined ? {} : { serverErrorCount: report.serverErrorCount }),
    endpoints: report.endpoints.map((entry) => ({
      endpoint: entry.endpoint,
      executionCount: entry.executionCount,
      failedExecutionCount: entry.failedExecutionCount,
      slowExecutionCount: entry.slowExecutionCount,
      noResponseCount: entry.noResponseCount,
      p50: entry.responseTimeMs.p50,
      p95: entry.responseTimeMs.p95,
      p99: entry.responseTimeMs.p99,
      latencyHistogram: entry.latencyHistogram,
    })),
  };
}

/**
 * Whether a run's report belongs in the history: not one cut short
 * (interrupted, timed out), whose numbers are partial, nor one that recorded
 * no call (a suite not yet recording, a server that was not there), which
 * would become the base of the next comparison with nothing in it.
 */
export function belongsInHistory(report: QualityReport): boolean {
  return !isIncompleteRun(report.runStatus) && report.executionCount > 0;
}

/** The variables CI systems name a run by: GitHub Actions first, then GitLab CI. */
const CI_VARIABLES = [
  { commit: 'GITHUB_SHA', branch: 'GITHUB_REF_NAME', runId: 'GITHUB_RUN_ID' },
  { commit: 'CI_COMMIT_SHA', branch: 'CI_COMMIT_REF_NAME', runId: 'CI_PIPELINE_ID' },
] as const;

/**
 * A run's identity: the time (milliseconds since the epoch, from the run's
 * clock), and the commit, branch and run id of the first CI system whose
 * variables are set (GitHub Actions, then GitLab CI).
 */
export function runIdentityOf(nowMs: number, env: Readonly<Record<string, string | undefined>>): RunIdentity {
  const given = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const system = CI_VARIABLES.find((names) => given(names.commit) !== undefined || given(names.runId) !== undefined) ?? CI_VARIABLES[0];
  const commit = given(system.commit);
  const branch = given(system.branch);
  const runId = given(system.runId);
  return {
    time: new Date(nowMs).toISOString(),
    ...(commit === undefined ? {} : { commit }),
    ...(branch === undefined ? {} : { branch }),
    ...(runId === undefined ? {} : { runId }),
  };
}

const RUN_KEYS = new Set(Object.keys(historyRunSchema.shape));
const ENDPOINT_KEYS = new Set(Object.keys(historyEndpointSchema.shape));
const HISTOGRAM_KEYS = new Set(['relativeAccuracy', 'zeroCount', 'bins']);

/** The run's own fields checked by zod, its endpoints left to the fast check below. */
const runFieldsSchema = historyRunSchema.extend({ endpoints: z.array(z.unknown()) });

/**
 * Whether a parsed line is a run of {@link historyRunSchema}, checked by hand
 * for its endpoints and histograms (a history of 100 runs of 200 endpoints
 * holds 20,000 of them: zod took 360 ms where this takes a few). Sound, not
 * complete: true only for what the schema accepts (tests/historyFile.spec.ts
 * holds it to the schema); a false sends the line to the schema, for its
 * verdict and its message.
 */
export function isHistoryRun(value: unknown): value is HistoryRun {
  if (!isPlainObject(value) || !Object.keys(value).every((key) => RUN_KEYS.has(key))) return false;
  if (!runFieldsSchema.safeParse(value).success) return false;
  return (value['endpoints'] as unknown[]).every(isHistoryEndpoint);
}

function isHistoryEndpoint(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== ENDPOINT_KEYS.size || !keys.every((key) => ENDPOINT_KEYS.has(key))) return false;
  const { endpoint, executionCount, failedExecutionCount, slowExecutionCount, noResponseCount, p50, p95, p99, latencyHistogram } = value;
  return (
    typeof endpoint === 'string' &&
    endpoint.length > 0 &&
    isCount(executionCount, 1) &&
    isCount(failedExecutionCount, 0) &&
    isCount(slowExecutionCount, 0) &&
    isCount(noResponseCount, 0) &&
    [p50, p95, p99].every((time) => time === null || (typeof time === 'number' && Number.isFinite(time) && time >= 0)) &&
    isHistogram(latencyHistogram)
  );
}

function isHistogram(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== HISTOGRAM_KEYS.size || !keys.every((key) => HISTOGRAM_KEYS.has(key))) return false;
  const { relativeAccuracy, zeroCount, bins } = value;
  if (
    typeof relativeAccuracy !== 'number' ||
    !(relativeAccuracy > 0 && relativeAccuracy < 1) ||
    !isCount(zeroCount, 0) ||
    !Array.isArray(bins)
  )
    return false;
  // Buckets strictly ascending, each one a time can fall in, as the schema has them.
  const { lowest, highest } = bucketRange(relativeAccuracy);
  let previous = Number.NEGATIVE_INFINITY;
  for (const bin of bins as unknown[]) {
    if (!Array.isArray(bin) || bin.length !== 2 || !Number.isSafeInteger(bin[0]) || !isCount(bin[1], 1)) return false;
    const bucket = bin[0] as number;
    if (bucket <= previous || bucket < lowest || bucket > highest) return false;
    previous = bucket;
  }
  return true;
}

function isCount(value: unknown, least: number): boolean {
  return Number.isSafeInteger(value) && (value as number) >= least;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
