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

/** What decides, for one kind of outcome, that it failed or got no response. */
export interface OutcomeRules<Outcome> {
  readonly isFailed: (outcome: Outcome) => boolean;
  readonly isNoResponse?: (outcome: Outcome) => boolean;
}

/** The accumulator's state as plain data, to cross a worker-thread boundary. */
export interface SummaryData {
  readonly executionCount: number;
  readonly failedExecutionCount: number;
  readonly slowExecutionCount: number;
  readonly failureCountByEndpoint: readonly (readonly [string, number])[];
  readonly slowEndpoints: readonly string[];
  readonly noResponseCount: number;
  readonly noResponseEndpoints: readonly string[];
}

/**
 * The summary as a mergeable accumulator: `add` one outcome at a time,
 * `merge` another accumulator (of another file, shard or worker thread), and
 * `result` the summary. Everything is a count or a set, so the law
 * `summarise(a ++ b) = merge(summarise(a), summarise(b))` holds exactly, in
 * any order. The one summary rule: slow means strictly above the threshold
 * (equal is not slow), and the endpoint lists come out sorted by UTF-16 code
 * unit, not by locale, so reports diff cleanly on every machine.
 */
export class SummaryAccumulator<Outcome extends SummarisableOutcome> {
  readonly slowResponseThresholdMs: number;
  private readonly rules: OutcomeRules<Outcome>;
  private executionCount = 0;
  private failedExecutionCount = 0;
  private slowExecutionCount = 0;
  private readonly failures = new Map<string, number>();
  private readonly slow = new Set<string>();
  private noResponseCount = 0;
  private readonly noResponse = new Set<string>();

  constructor(slowResponseThresholdMs: number, rules: OutcomeRules<Outcome>) {
    if (typeof slowResponseThresholdMs !== 'number') {
      throw new TypeError(`the slow-response threshold must be a number of milliseconds; got ${describeType(slowResponseThresholdMs)}`);
    }
    if (!Number.isFinite(slowResponseThresholdMs) || slowResponseThresholdMs < 0) {
      throw new RangeError(`the slow-response threshold must be a finite number of milliseconds, zero or more; got ${slowResponseThresholdMs}`);
    }
    this.slowResponseThresholdMs = slowResponseThresholdMs;
    this.rules = rules;
  }

  /** Counts one outcome. */
  add(outcome: Outcome): void {
    this.executionCount++;
    if (this.rules.isFailed(outcome)) {
      this.failedExecutionCount++;
      this.failures.set(outcome.endpoint, (this.failures.get(outcome.endpoint) ?? 0) + 1);
    }
    if (outcome.responseTimeMs > this.slowResponseThresholdMs) {
      this.slowExecutionCount++;
      this.slow.add(outcome.endpoint);
    }
    if (this.rules.isNoResponse?.(outcome) === true) {
      this.noResponseCount++;
      this.noResponse.add(outcome.endpoint);
    }
  }

  /** Adds what another accumulator (or its data) counted; the threshold must be the same. */
  merge(other: SummaryAccumulator<Outcome> | SummaryData): void {
    const data = other instanceof SummaryAccumulator ? other.toData() : other;
    this.executionCount += data.executionCount;
    this.failedExecutionCount += data.failedExecutionCount;
    this.slowExecutionCount += data.slowExecutionCount;
    for (const [endpoint, count] of data.failureCountByEndpoint) this.failures.set(endpoint, (this.failures.get(endpoint) ?? 0) + count);
    for (const endpoint of data.slowEndpoints) this.slow.add(endpoint);
    this.noResponseCount += data.noResponseCount;
    for (const endpoint of data.noResponseEndpoints) this.noResponse.add(endpoint);
  }

  /** The state as plain data (structured-clone safe). */
  toData(): SummaryData {
    return {
      executionCount: this.executionCount,
      failedExecutionCount: this.failedExecutionCount,
      slowExecutionCount: this.slowExecutionCount,
      failureCountByEndpoint: [...this.failures],
      slowEndpoints: [...this.slow],
      noResponseCount: this.noResponseCount,
      noResponseEndpoints: [...this.noResponse],
    };
  }

  /** The summary of everything added and merged so far. */
  result(): RecordSummary {
    // Endpoint labels always contain a space, so they are never integer-like
    // keys and the object keeps the sorted insertion order in JSON.
    const failureCountByEndpoint: Record<string, number> = {};
    for (const endpoint of [...this.failures.keys()].sort(compareCodeUnits)) failureCountByEndpoint[endpoint] = this.failures.get(endpoint)!;
    return {
      executionCount: this.executionCount,
      failedExecutionCount: this.failedExecutionCount,
      slowExecutionCount: this.slowExecutionCount,
      failureCountByEndpoint,
      slowEndpoints: [...this.slow].sort(compareCodeUnits),
      noResponseCount: this.noResponseCount,
      noResponseEndpoints: [...this.noResponse].sort(compareCodeUnits),
    };
  }
}

/** Summarises any iterable of outcomes in one accumulator (see {@link SummaryAccumulator}). */
export function summariseOutcomes<Outcome extends SummarisableOutcome>(
  outcomes: Iterable<Outcome>,
  isFailed: (outcome: Outcome) => boolean,
  slowResponseThresholdMs: number,
  isNoResponse?: (outcome: Outcome) => boolean,
): RecordSummary {
  const accumulator = new SummaryAccumulator<Outcome>(slowResponseThresholdMs, isNoResponse === undefined ? { isFailed } : { isFailed, isNoResponse });
  for (const outcome of outcomes) accumulator.add(outcome);
  return accumulator.result();
}

/** Sorts strings by UTF-16 code unit, not by locale, so that output is the same on every machine. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
