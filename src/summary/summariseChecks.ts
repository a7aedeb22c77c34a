import { validateRecordList } from '../records/validateRecordList.js';
import { createEndpointNormaliser } from '../records/normaliseExecutionRecords.js';
import { summariseOutcomes, type ExecutionSummary } from './summariseExecutions.js';
import { checkObservationSchema, type CheckObservation } from '../records/checkObservation.js';

/** A check failed when its state is `failed`; `pending` and `complete` did not. */
export function isFailedCheck(observation: CheckObservation): boolean {
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
  // A check always got its observation, so the no-response counts do not apply.
  const { executionCount, failedExecutionCount, slowExecutionCount, failureCountByEndpoint, slowEndpoints } = summariseOutcomes(
    canonical,
    isFailedCheck,
    slowResponseThresholdMs,
  );
  return { executionCount, failedExecutionCount, slowExecutionCount, failureCountByEndpoint, slowEndpoints };
}
