import { validateRecordList } from '../records/validateRecordList.js';
import { describeType } from '../renderValue.js';
import { createEndpointNormaliser } from '../records/normaliseExecutionRecords.js';
import { compareCodeUnits } from '../compareCodeUnits.js';
import type { ExecutionSummary } from './executionSummary.js';
import { checkObservationSchema, type CheckObservation } from '../records/checkObservation.js';

/** A check failed when its state is `failed`; `pending` and `complete` did not. */
function isFailedCheck(observation: CheckObservation): boolean {
  return observation.state === 'failed';
}

/**
 * Summarises check observations with the same rule and shape as execution
 * records (SPEC 2.4): each observation counts as one execution, failed means
 * state `failed`, slow means strictly above `slowResponseThresholdMs`
 * (milliseconds, finite, 0 or more; otherwise a RangeError). Endpoints are
 * normalised first, so `get  /orders` and `GET /orders` count as one.
 *
 * The list is validated first, like an input file: any invalid observation
 * throws one RecordValidationError naming each problem by path, such as
 * `observations[1].state`. A value that is not an array is a TypeError.
 */
export function summariseChecks(observations: readonly CheckObservation[], slowResponseThresholdMs: number): ExecutionSummary {
  // JavaScript callers can pass anything, whatever the parameter type says.
  const list: unknown = observations;
  if (!Array.isArray(list)) {
    throw new TypeError(`summariseChecks: observations must be an array; got ${list === null ? 'null' : typeof list}`);
  }
  const valid = validateRecordList(observations, checkObservationSchema, 'observations', 'observation');
  const normaliseEndpoint = createEndpointNormaliser();
  const canonical = valid.map(({ endpoint, state, responseTimeMs }) => ({ endpoint: normaliseEndpoint(endpoint), state, responseTimeMs }));
  checkThreshold(slowResponseThresholdMs);
  // A check always got its observation, so the no-response counts do not apply.
  const failures = new Map<string, number>();
  const slow = new Set<string>();
  for (const observation of canonical) {
    if (isFailedCheck(observation)) failures.set(observation.endpoint, (failures.get(observation.endpoint) ?? 0) + 1);
    // Slow means strictly above the threshold: equal is not slow.
    if (observation.responseTimeMs > slowResponseThresholdMs) slow.add(observation.endpoint);
  }
  // Endpoint labels always contain a space, so they are never integer-like keys and the object keeps the sorted order in JSON.
  const failureCountByEndpoint: Record<string, number> = {};
  for (const endpoint of [...failures.keys()].sort(compareCodeUnits)) failureCountByEndpoint[endpoint] = failures.get(endpoint)!;
  return {
    executionCount: canonical.length,
    failedExecutionCount: [...failures.values()].reduce((sum, count) => sum + count, 0),
    slowExecutionCount: canonical.filter((observation) => observation.responseTimeMs > slowResponseThresholdMs).length,
    failureCountByEndpoint,
    slowEndpoints: [...slow].sort(compareCodeUnits),
  };
}

function checkThreshold(slowResponseThresholdMs: number): void {
  if (typeof slowResponseThresholdMs !== 'number') {
    throw new TypeError(`the slow-response threshold must be a number of milliseconds; got ${describeType(slowResponseThresholdMs)}`);
  }
  if (!Number.isFinite(slowResponseThresholdMs) || slowResponseThresholdMs < 0) {
    throw new RangeError(
      `the slow-response threshold must be a finite number of milliseconds, zero or more; got ${slowResponseThresholdMs}`,
    );
  }
}
