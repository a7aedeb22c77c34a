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
