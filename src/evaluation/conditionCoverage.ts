import type { Condition } from '../contract/conditions.js';
import type { ContractOperation } from '../contract/contract.js';

/**
 * Which of the conditions an operation's document declares (see
 * src/contract/conditions.ts) a run met, operation by operation: what the
 * report's `contract` section counts and lists, and what `suggest` drafts
 * tests for.
 */

/** How far a run met one bound: reached exactly, and a value outside it sent and answered 4xx. */
export interface BoundCoverage {
  readonly reached: boolean;
  readonly outside: boolean;
}

/** One operation's conditions and which of them the run met. */
export interface OperationConditionCoverage {
  readonly operation: ContractOperation;
  /** Its conditions, in document order. */
  readonly conditions: readonly Condition[];
  /** Index for index with `conditions`: whether the run met each (a bound: both reached and outside). */
  readonly covered: readonly boolean[];
  /** Index for index with `conditions`: for a bound, which of its two halves the run met; undefined for other kinds. */
  readonly bounds: readonly (BoundCoverage | undefined)[];
  /** Calls matched to the operation (0: never called). */
  readonly executionCount: number;
  /** The status codes its calls got, ascending. */
  readonly seenStatuses: readonly string[];
}
