import * as z from 'zod';
import { latencyHistogramSchema } from '../report/statisticsSchemas.js';
import { MAX_CONDITION_POSITION } from '../records/conditionsRecord.js';
import { MAX_POSITIONS_LENGTH, metCountsMismatch } from '../summary/conditionTally.js';
import { bucketRange } from '../summary/latencyHistogram.js';
import { runIdentityShape } from '../report/historySchemas.js';

// The schemas of the history file's lines (historyLine.ts says what a line holds, and makes one): built only by a run
// that reads a history file (historyParse.ts), not by one that appends its line to none.

/** The first line of every history file this version writes. */
export const historyHeaderSchema = z.strictObject({
  schemaVersion: z.int().min(1),
  kind: z.literal('quality-evidence history'),
});

const count = z.int().min(0);
const milliseconds = z.number().min(0).nullable();

const statusCode = z.string().regex(/^[1-5]\d\d$/);
const positions = z.base64().max(MAX_POSITIONS_LENGTH);

/**
 * A list of conditions the contract section counted for an operation of the
 * endpoint, and what its calls met of it: the positions of the report's
 * conditionsMet entry of the list (bit sets alike; empty when no record
 * said) and its calls per position met (`metCounts`, as the report's: absent
 * where the report had none, and in lines of versions before them), without
 * its count of calls, which no comparison reads.
 */
const historyConditionListSchema = z
  .strictObject({
    fingerprint: z.string().regex(/^[0-9a-f]{16}$/),
    met: positions,
    metCounts: z
      .array(z.int().min(1))
      .max(MAX_CONDITION_POSITION + 1)
      .optional(),
    outside: positions,
  })
  .check((context) => {
    const { met, metCounts } = context.value;
    const message = metCountsMismatch(met, metCounts);
    if (message !== undefined) context.issues.push({ code: 'custom', message, input: metCounts, path: ['metCounts'] });
  });

/**
 * One endpoint of one run. The fields after the histogram are only an
 * operation's endpoint's, in a run judged against a contract (absent in
 * lines of versions before condition coverage).
 */
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
  /** The lists of conditions the contract section counted for the operations of this label, in its order, and what was met of each. */
  conditionLists: z.array(historyConditionListSchema).min(1).optional(),
  /** The status codes its calls got, ascending: the statuses of its conditions a call met. */
  statuses: z.array(statusCode).optional(),
  /** Only when some: the statuses its operations do not declare, ascending. */
  undeclaredStatuses: z.array(statusCode).min(1).optional(),
  /** Only when some: its bodies off their operation's schema. */
  schemaViolationCount: z.int().min(1).optional(),
  /** Only when some: its failed executions that a retry of the same test made good (the reporter's; src/history/flakiness.ts). */
  flakyFailedExecutionCount: z.int().min(1).optional(),
});

/** What a line keeps of the report's contract section (besides its endpoints'): the coverage a baseline compares. */
export const historyContractSchema = z.strictObject({
  operationCoveragePercent: z.number().min(0).max(100).nullable(),
  responseCoveragePercent: z.number().min(0).max(100).nullable(),
  conditionCount: count,
  coveredConditionCount: count,
  /** The labels of the operations the run did not call, in the contract's order (the others are its endpoints). */
  uncalledOperations: z.array(z.string().min(1)),
});

/** How a test of the run ended, as Playwright's outcome names it (`expected` is passed, `unexpected` failed). */
export const historyTestOutcomeSchema = z.enum(['passed', 'failed', 'flaky', 'skipped']);

/**
 * One test of a run (the reporter's lines only): its file (relative to the
 * Playwright project's root), the line of its declaration, its title path
 * (the project first when it has a name), its outcome, and the endpoints its calls reached as
 * positions in the line's `endpoints` (a label is long, a position a digit
 * or two), ascending; absent when it reached none.
 */
export const historyTestSchema = z.strictObject({
  file: z.string().min(1),
  line: z.int().min(1),
  title: z.string().min(1),
  outcome: historyTestOutcomeSchema,
  endpoints: z.array(z.int().min(0)).min(1).optional(),
});

const historyRunObject = z.strictObject({
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
  /** Only for a run judged against a contract; absent in lines of versions before condition coverage. */
  contract: historyContractSchema.optional(),
  /** Only in lines the Playwright reporter writes: every test of the run, in Playwright's order; absent in lines of versions before them. */
  tests: z.array(historyTestSchema).optional(),
  /** Only for a run judged against budgets: whether every budget held. Absent in lines of versions before it. */
  budgetsPassed: z.boolean().optional(),
  /** Only where known: the run's report, an http or https URL (the reportUrl setting, else the CI run's page). */
  reportUrl: z
    .string()
    .max(2048)
    .regex(/^https?:\/\/[^\s]+$/i)
    .optional(),
});

// A test's endpoints are positions in the line's endpoints, strictly ascending.
function checkTestEndpoints(
  context: z.core.ParsePayload<{ endpoints: readonly unknown[]; tests?: readonly HistoryTest[] | undefined }>,
): void {
  const { endpoints, tests } = context.value;
  tests?.forEach((test, index) => {
    const positions = test.endpoints ?? [];
    if (positions.every((position, at) => position < endpoints.length && (at === 0 || position > positions[at - 1]!))) return;
    const message = `a test's endpoints are positions in the line's ${endpoints.length} endpoints, strictly ascending`;
    context.issues.push({ code: 'custom', message, input: test.endpoints, path: ['tests', index, 'endpoints'] });
  });
}

/** One run, as a line of the history file. */
export const historyRunSchema = historyRunObject.check(checkTestEndpoints);

export type HistoryRun = z.infer<typeof historyRunSchema>;
export type HistoryEndpoint = z.infer<typeof historyEndpointSchema>;
export type HistoryContract = z.infer<typeof historyContractSchema>;
export type HistoryConditionList = z.infer<typeof historyConditionListSchema>;
export type HistoryTest = z.infer<typeof historyTestSchema>;

const RUN_KEYS = new Set(Object.keys(historyRunObject.shape));
const ENDPOINT_KEYS = new Set(Object.keys(historyEndpointSchema.shape));
const OPTIONAL_ENDPOINT_KEYS = ['conditionLists', 'statuses', 'undeclaredStatuses', 'schemaViolationCount', 'flakyFailedExecutionCount'];
const REQUIRED_ENDPOINT_KEY_COUNT = ENDPOINT_KEYS.size - OPTIONAL_ENDPOINT_KEYS.length;
const CONDITION_LIST_KEYS = new Set(['fingerprint', 'met', 'outside']);
const STATUS_CODE = /^[1-5]\d\d$/;
const FINGERPRINT = /^[0-9a-f]{16}$/;
const HISTOGRAM_KEYS = new Set(['relativeAccuracy', 'zeroCount', 'bins']);

const TEST_KEYS = new Set(Object.keys(historyTestSchema.shape));
const TEST_OUTCOMES = new Set<unknown>(historyTestOutcomeSchema.options);

/** The run's own fields checked by zod, its endpoints and tests left to the fast checks below. */
const runFieldsSchema = historyRunObject.extend({ endpoints: z.array(z.unknown()), tests: z.array(z.unknown()).optional() });

/**
 * Whether a parsed line is a run of {@link historyRunSchema}, checked by hand
 * for its endpoints, histograms and tests (a history of 100 runs of 200 endpoints
 * holds 20,000 of them: zod took 360 ms where this takes a few). Sound, not
 * complete: true only for what the schema accepts (tests/historyFile.spec.ts
 * holds it to the schema); a false sends the line to the schema, for its
 * verdict and its message.
 */
export function isHistoryRun(value: unknown): value is HistoryRun {
  if (!isPlainObject(value) || !Object.keys(value).every((key) => RUN_KEYS.has(key))) return false;
  if (!runFieldsSchema.safeParse(value).success) return false;
  const endpointCount = (value['endpoints'] as unknown[]).length;
  const tests = value['tests'] as unknown[] | undefined;
  return (
    (value['endpoints'] as unknown[]).every(isHistoryEndpoint) &&
    (tests === undefined || tests.every((test) => isHistoryTest(test, endpointCount)))
  );
}

function isHistoryTest(value: unknown, endpointCount: number): boolean {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  const { file, line, title, outcome, endpoints } = value;
  if (keys.length !== TEST_KEYS.size - (endpoints === undefined ? 1 : 0) || !keys.every((key) => TEST_KEYS.has(key))) return false;
  return (
    typeof file === 'string' &&
    file.length > 0 &&
    isCount(line, 1) &&
    typeof title === 'string' &&
    title.length > 0 &&
    TEST_OUTCOMES.has(outcome) &&
    (endpoints === undefined ||
      (Array.isArray(endpoints) &&
        endpoints.length >= 1 &&
        (endpoints as unknown[]).every(
          (position, at) =>
            isCount(position, 0) &&
            (position as number) < endpointCount &&
            (at === 0 || (position as number) > (endpoints[at - 1] as number)),
        )))
  );
}

function isHistoryEndpoint(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  const optional = OPTIONAL_ENDPOINT_KEYS.filter((key) => Object.hasOwn(value, key)).length;
  if (keys.length !== REQUIRED_ENDPOINT_KEY_COUNT + optional || !keys.every((key) => ENDPOINT_KEYS.has(key))) return false;
  const { endpoint, executionCount, failedExecutionCount, slowExecutionCount, noResponseCount, p50, p95, p99, latencyHistogram } = value;
  const { conditionLists, statuses, undeclaredStatuses, schemaViolationCount, flakyFailedExecutionCount } = value;
  return (
    typeof endpoint === 'string' &&
    endpoint.length > 0 &&
    isCount(executionCount, 1) &&
    isCount(failedExecutionCount, 0) &&
    isCount(slowExecutionCount, 0) &&
    isCount(noResponseCount, 0) &&
    [p50, p95, p99].every((time) => time === null || (typeof time === 'number' && Number.isFinite(time) && time >= 0)) &&
    isHistogram(latencyHistogram) &&
    (conditionLists === undefined ||
      (Array.isArray(conditionLists) && conditionLists.length >= 1 && conditionLists.every(isConditionList))) &&
    (statuses === undefined || isStringList(statuses, 0, STATUS_CODE)) &&
    (undeclaredStatuses === undefined || isStringList(undeclaredStatuses, 1, STATUS_CODE)) &&
    (schemaViolationCount === undefined || isCount(schemaViolationCount, 1)) &&
    (flakyFailedExecutionCount === undefined || isCount(flakyFailedExecutionCount, 1))
  );
}

/** Whether a value is an array of at least `least` strings, each matching `pattern`. */
function isStringList(value: unknown, least: number, pattern: RegExp): boolean {
  return (
    Array.isArray(value) && value.length >= least && (value as unknown[]).every((item) => typeof item === 'string' && pattern.test(item))
  );
}

function isConditionList(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  const counted = Object.hasOwn(value, 'metCounts') ? 1 : 0;
  if (keys.length !== CONDITION_LIST_KEYS.size + counted || !keys.every((key) => CONDITION_LIST_KEYS.has(key) || key === 'metCounts'))
    return false;
  const { fingerprint, met, metCounts, outside } = value;
  return (
    typeof fingerprint === 'string' &&
    FINGERPRINT.test(fingerprint) &&
    isBase64(met) &&
    isBase64(outside) &&
    (metCounts === undefined ||
      (Array.isArray(metCounts) &&
        (metCounts as unknown[]).every((count) => isCount(count, 1)) &&
        metCountsMismatch(met as string, metCounts as number[]) === undefined))
  );
}

// As zod's base64 checks it: its alphabet, at most two = at the end, a length a multiple of 4 (what atob then always decodes).
function isBase64(value: unknown): boolean {
  return (
    typeof value === 'string' && value.length <= MAX_POSITIONS_LENGTH && value.length % 4 === 0 && /^[0-9a-zA-Z+/]*={0,2}$/.test(value)
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
