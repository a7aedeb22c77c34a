import { QualityEvidenceError } from '../errors.js';
import { renderValue, shorten } from '../renderValue.js';

/** `pollUntil` saw no completing observation before its timeout. */
export class PollTimeoutError extends QualityEvidenceError {
  /** The `operationName` given to `pollUntil`. */
  readonly operationName: string;
  /** How many times the operation ran, all of them incomplete. */
  readonly attempts: number;
  /** Clock time in milliseconds from the first attempt's start to the last attempt's end. */
  readonly elapsedMs: number;
  /** The `timeoutMs` given to `pollUntil`, in milliseconds. */
  readonly timeoutMs: number;
  /** The last observation, as the `describe` option rendered it. */
  readonly lastObservation: string;

  constructor(details: { operationName: string; attempts: number; elapsedMs: number; timeoutMs: number; lastObservation: string }) {
    super(
      `pollUntil: ${JSON.stringify(details.operationName)} did not complete within ${details.timeoutMs} ms ` +
        `(${countAttempts(details.attempts)}, ${details.elapsedMs} ms elapsed); last observation: ${details.lastObservation}`,
    );
    this.operationName = details.operationName;
    this.attempts = details.attempts;
    this.elapsedMs = details.elapsedMs;
    this.timeoutMs = details.timeoutMs;
    this.lastObservation = details.lastObservation;
  }
}

/** Every attempt of `retryBounded` failed with a retryable failure; the last one is the `cause`. */
export class RetryExhaustedError extends QualityEvidenceError {
  /** The `operationName` given to `retryBounded`. */
  readonly operationName: string;
  /** How many times the operation ran, all of them failed (equals `maxAttempts`). */
  readonly attempts: number;

  constructor(details: { operationName: string; attempts: number; lastFailure: unknown }) {
    super(
      `retryBounded: ${JSON.stringify(details.operationName)} failed after ${countAttempts(details.attempts)}; ` +
        `last failure: ${describeFailure(details.lastFailure)}`,
      { cause: details.lastFailure },
    );
    this.operationName = details.operationName;
    this.attempts = details.attempts;
  }
}

function countAttempts(attempts: number): string {
  return `${attempts} attempt${attempts === 1 ? '' : 's'}`;
}

/** One line, shortened: the cause itself stays on the error for anyone who needs all of it. */
function describeFailure(failure: unknown): string {
  if (!(failure instanceof Error)) return renderValue(failure);
  return shorten(`${failure.name}: ${failure.message}`.replace(/\s+/g, ' '), 200);
}
