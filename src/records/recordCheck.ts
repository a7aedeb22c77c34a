import type { ExecutionRecord } from './executionRecord.js';
import { createStatusListCache } from './statusList.js';
import { isPlainObject } from './validateRecordList.js';
import { isBodyCheck } from './bodyCheckRules.js';
import { isConditionsRecord } from './conditionsRules.js';
import { isSpanId, isStartedAtMs, isTraceId } from './traceContextRules.js';
import { MAX_FAILURE_EXCERPT_BYTES } from './failureExcerpt.js';

/**
 * What a valid execution record is, as plain comparisons: the hot-path twin
 * of the zod schema in `executionRecord.ts` (a spec holds the two in
 * agreement). This module imports no zod, so a worker thread that reads
 * valid records never loads it; only explaining an invalid record needs the
 * schema.
 */

/**
 * `<METHOD> <path>`: an HTTP method token (RFC 9110 tchar), spaces or tabs,
 * then a path that starts with "/" and holds no whitespace. Surrounding
 * whitespace is allowed here and removed by normalisation.
 */
export const ENDPOINT_LABEL_PATTERN = /^\s*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)[ \t]+(\/\S*)\s*$/;

/**
 * The longest endpoint label a record may have, in characters as written: far
 * beyond any real route (browsers and servers cap URLs near 2,000), and small
 * enough that a report of {@link MAX_DISTINCT_ENDPOINTS} such labels stays
 * within the longest string V8 can make (about 512 MB).
 */
export const MAX_ENDPOINT_LABEL_LENGTH = 2048;

/** The longest `id` a record may have, in characters: the slowest executions show it in the report. */
export const MAX_ID_LENGTH = 1024;

/** How many distinct endpoint labels one run may hold; past it, ids are in the labels (`--route`, `--endpoint-grouping auto` group them). */
export const MAX_DISTINCT_ENDPOINTS = 50_000;

/**
 * The longest time a record may give, in milliseconds: one day. No call a
 * test makes takes a day (Playwright's test timeout is 30 s by default, a
 * whole CI job is capped at hours), while a time in the wrong unit does:
 * microseconds or nanoseconds taken for milliseconds, or an epoch timestamp
 * (1.7e12) taken for a duration. The bound also keeps every statistic finite:
 * the sum of the times of any input that fits in memory stays far below the
 * largest double, so the mean is never lost to an overflow.
 */
export const MAX_MILLISECONDS = 86_400_000;

/** An error code of a call with no response: up to 64 characters, no whitespace. */
export const ERROR_CODE_PATTERN = /^\S{1,64}$/;

/** The names of the timing phases a record may carry, in the order a request goes through them. */
export const TIMING_PHASES = ['dns', 'connect', 'tls', 'wait', 'receive'] as const;

/**
 * Which kind of client made an execution: `api`, an API client of a test
 * (Playwright's APIRequestContext, or any record that does not say), or
 * `browser`, a web application's own call in a browser test (fetch, XHR).
 * The report is split by source, so that an API suite and an end-to-end
 * suite in one run read apart; every other rule applies to both alike.
 */
export const EXECUTION_SOURCES = ['api', 'browser'] as const;
export type ExecutionSource = (typeof EXECUTION_SOURCES)[number];

/** The longest `excerpt` a record may carry, in UTF-16 code units: MAX_FAILURE_EXCERPT_BYTES bytes of text and the mark of a cut. */
export const MAX_EXCERPT_LENGTH = MAX_FAILURE_EXCERPT_BYTES + 1;

/** Parses a record's `expectedStatuses` once per distinct list. */
export const parseRecordStatusList = createStatusListCache();

/** Whether a value is a valid execution record: the same rules as the schema, with no allocation. */
export function isExecutionRecord(value: unknown): value is ExecutionRecord {
  if (!isPlainObject(value)) return false;
  const {
    statusCode,
    errorCode,
    endpoint,
    responseTimeMs,
    id,
    timingMs,
    expectedStatuses,
    bodyCheck,
    conditions,
    traceId,
    spanId,
    parentSpanId,
    startedAtMs,
    excerpt,
    source,
  } = value;
  return (
    (statusCode === undefined
      ? typeof errorCode === 'string' && ERROR_CODE_PATTERN.test(errorCode)
      : errorCode === undefined &&
        typeof statusCode === 'number' &&
        Number.isInteger(statusCode) &&
        statusCode >= 100 &&
        statusCode <= 599) &&
    typeof endpoint === 'string' &&
    isEndpointLabel(endpoint) &&
    isMilliseconds(responseTimeMs) &&
    (id === undefined || (typeof id === 'string' && id.length <= MAX_ID_LENGTH)) &&
    (timingMs === undefined || areTimingPhases(timingMs)) &&
    (expectedStatuses === undefined || !('problem' in parseRecordStatusList(expectedStatuses))) &&
    (bodyCheck === undefined || isBodyCheck(bodyCheck)) &&
    (conditions === undefined || isConditionsRecord(conditions)) &&
    (traceId === undefined || isTraceId(traceId)) &&
    (spanId === undefined || isSpanId(spanId)) &&
    (parentSpanId === undefined || isSpanId(parentSpanId)) &&
    (startedAtMs === undefined || isStartedAtMs(startedAtMs)) &&
    (excerpt === undefined || (typeof excerpt === 'string' && excerpt.length <= MAX_EXCERPT_LENGTH)) &&
    (source === undefined || source === 'api' || source === 'browser')
  );
}

// Labels already seen valid, so the pattern runs once per distinct label, not once per record
// (a set lookup of a string whose hash the label cache reuses is cheaper than the pattern).
const validLabels = new Set<string>();

/** Whether a string is a valid endpoint label (`<METHOD> <path>`, at most MAX_ENDPOINT_LABEL_LENGTH characters). */
export function isEndpointLabel(label: string): boolean {
  if (validLabels.has(label)) return true;
  if (label.length > MAX_ENDPOINT_LABEL_LENGTH || !ENDPOINT_LABEL_PATTERN.test(label)) return false;
  if (validLabels.size < 10_000) validLabels.add(label);
  return true;
}

function isMilliseconds(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= MAX_MILLISECONDS;
}

function areTimingPhases(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  for (const phase of TIMING_PHASES) {
    if (value[phase] !== undefined && !isMilliseconds(value[phase])) return false;
  }
  return true;
}
