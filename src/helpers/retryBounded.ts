import type { Clock } from './clock.js';
import { RetryExhaustedError } from './helperErrors.js';
import { checkAttemptCount, checkClock, checkDurationMs, checkFunction, checkOperationName, checkOptionsObject } from './options.js';

/** What `retryBounded` needs. Every option is required; there are no defaults. */
export interface RetryBoundedOptions<Value> {
  /** What is being tried, for messages, e.g. `"create order"`. Required, not blank. */
  readonly operationName: string;
  /** The call to try; a thrown error or rejection is a failed attempt. Required. */
  readonly operation: () => Promise<Value> | Value;
  /** True when a failure is transient and worth another attempt; any other failure is rethrown at once. Required. */
  readonly shouldRetry: (failure: unknown) => boolean;
  /** Most times the operation runs, the first attempt included. An integer, 1 or more (1: no retry). Required. */
  readonly maxAttempts: number;
  /** Clock time in milliseconds to wait after a retryable failure before the next attempt; the same before every retry. Finite, 0 or more. Required. */
  readonly delayMs: number;
  /** The source of time: `systemClock`, or `createDeterministicClock()` in tests. Required. */
  readonly clock: Clock;
}

/** A successful attempt (SPEC 2.5). */
export interface RetryBoundedResult<Value> {
  /** How many times the operation ran, the successful attempt included; from 1 to `maxAttempts`. */
  readonly attempts: number;
  /** What the successful attempt returned. */
  readonly value: Value;
}

/**
 * Runs `operation` until it succeeds, at most `maxAttempts` times, waiting
 * exactly `delayMs` of clock time between attempts.
 *
 * Every failure goes to `shouldRetry`, the last one included. A failure it
 * refuses is rethrown at once, the very same object, with no further attempt.
 * When the last allowed attempt fails with a retryable failure, it rejects
 * with {@link RetryExhaustedError}, whose `cause` is that failure; there is no
 * sleep after the final attempt. So at most `(maxAttempts - 1) * delayMs` of
 * clock time is spent waiting, a bound you can put under a test's timeout.
 *
 * Options are checked before the first attempt: a missing or non-function
 * callback, a missing clock or a blank name is a TypeError, a number out of
 * range a RangeError, and the operation is not called.
 */
export async function retryBounded<Value>(options: RetryBoundedOptions<Value>): Promise<RetryBoundedResult<Value>> {
  checkOptionsObject('retryBounded', options);
  const { operationName, operation, shouldRetry, maxAttempts, delayMs, clock } = options;
  checkOperationName('retryBounded', operationName);
  checkFunction('retryBounded', 'operation', operation);
  checkFunction('retryBounded', 'shouldRetry', shouldRetry);
  checkAttemptCount('retryBounded', 'maxAttempts', maxAttempts);
  checkDurationMs('retryBounded', 'delayMs', delayMs);
  checkClock('retryBounded', clock);

  for (let attempts = 1; ; attempts++) {
    try {
      return { attempts, value: await operation() };
    } catch (failure) {
      if (!shouldRetry(failure)) throw failure;
      if (attempts >= maxAttempts) throw new RetryExhaustedError({ operationName, attempts, lastFailure: failure });
    }
    await clock.sleep(delayMs);
  }
}
