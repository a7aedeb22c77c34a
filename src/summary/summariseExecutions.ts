import type { CanonicalExecutionRecord } from '../records/normaliseExecutionRecords.js';
import { describeType } from '../renderValue.js';

/** The summary of SPEC 2.4: what ran, what failed, what was slow. */
export interface ExecutionSummary {
  /** Number of executions. */
  readonly executionCount: number;
  /** Executions that failed (for records: statusCode 400 or above). */
  readonly failedExecutionCount: number;
  /** Executions strictly slower than the threshold. */
  readonly slowExecutionCount: number;
  /** Failure count per endpoint; only endpoints with failures, keys in code-unit order. */
  readonly failureCountByEndpoint: Readonly<Record<string, number>>;
  /** Endpoints with at least one slow execution, unique, in code-unit order. */
  readonly slowEndpoints: readonly string[];
}

/** The summary of execution records: SPEC 2.4 and the calls that got no response. */
export interface RecordSummary extends ExecutionSummary {
  /** Executions that got no response at all (connection refused, DNS failure, timeout, reset). */
  readonly noResponseCount: number;
  /** Endpoints with at least one execution that got no response, unique, in code-unit order. */
  readonly noResponseEndpoints: readonly string[];
}

/** What the summary needs of one execution, whatever it came from. */
export interface SummarisableOutcome {
  /** Canonical `<METHOD> <path>` label. */
  readonly endpoint: string;
  /** Response time in milliseconds. */
  readonly responseTimeMs: number;
}

/**
 * A record failed when the API answered with a client or server error, or
 * did not answer at all.
 */
export function isFailedExecution(record: CanonicalExecutionRecord): boolean {
  return record.statusCode === undefined || record.statusCode >= 400;
}

/** A record of a call that got no response carries an error code instead of a status code. */
export function isNoResponseExecution(record: CanonicalExecutionRecord): boolean {
  return record.statusCode === undefined;
}

/**
 * The one summary rule, shared by execution records and check observations,
 * over any iterable (a list, or the lazy canonical records of a large input):
 * slow means strictly above the threshold (equal is not slow), and both
 * endpoint lists are sorted by UTF-16 code unit, not by locale, so reports
 * diff cleanly on every machine.
 */
export function summariseOutcomes<Outcome extends SummarisableOutcome>(
  outcomes: Iterable<Outcome>,
  isFailed: (outcome: Outcome) => boolean,
  slowResponseThresholdMs: number,
  isNoResponse: (outcome: Outcome) => boolean = () => false,
): RecordSummary {
  if (typeof slowResponseThresholdMs !== 'number') {
    throw new TypeError(`the slow-response threshold must be a number of milliseconds; got ${describeType(slowResponseThresholdMs)}`);
  }
  if (!Number.isFinite(slowResponseThresholdMs) || slowResponseThresholdMs < 0) {
    throw new RangeError(`the slow-response threshold must be a finite number of milliseconds, zero or more; got ${slowResponseThresholdMs}`);
  }
  let executionCount = 0;
  let failedExecutionCount = 0;
  let slowExecutionCount = 0;
  const failures = new Map<string, number>();
  const slow = new Set<string>();
  let noResponseCount = 0;
  const noResponse = new Set<string>();
  for (const outcome of outcomes) {
    executionCount++;
    if (isFailed(outcome)) {
      failedExecutionCount++;
      failures.set(outcome.endpoint, (failures.get(outcome.endpoint) ?? 0) + 1);
    }
    if (outcome.responseTimeMs > slowResponseThresholdMs) {
      slowExecutionCount++;
      slow.add(outcome.endpoint);
    }
    if (isNoResponse(outcome)) {
      noResponseCount++;
      noResponse.add(outcome.endpoint);
    }
  }
  // Endpoint labels always contain a space, so they are never integer-like
  // keys and the object keeps the sorted insertion order in JSON.
  const failureCountByEndpoint: Record<string, number> = {};
  for (const endpoint of [...failures.keys()].sort(compareCodeUnits)) {
    failureCountByEndpoint[endpoint] = failures.get(endpoint)!;
  }
  return {
    executionCount,
    failedExecutionCount,
    slowExecutionCount,
    failureCountByEndpoint,
    slowEndpoints: [...slow].sort(compareCodeUnits),
    noResponseCount,
    noResponseEndpoints: [...noResponse].sort(compareCodeUnits),
  };
}

/**
 * Summarises canonical execution records: failed means statusCode >= 400 or
 * no response; slow means strictly above the threshold, whether the time ran
 * until a response or until the call failed (a timeout is slow).
 */
export function summariseExecutions(records: Iterable<CanonicalExecutionRecord>, slowResponseThresholdMs: number): RecordSummary {
  return summariseOutcomes(records, isFailedExecution, slowResponseThresholdMs, isNoResponseExecution);
}

/** Sorts strings by UTF-16 code unit, not by locale, so that output is the same on every machine. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
