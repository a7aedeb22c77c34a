import type { Clock } from './clock.js';
import { PollTimeoutError } from './helperErrors.js';
import { checkClock, checkDurationMs, checkFunction, checkOperationName, checkOptionsObject, checkPositiveDurationMs } from './options.js';

/** What `pollUntil` needs. Every option is required; there are no defaults. */
export interface PollUntilOptions<Observation> {
  /** What is being polled, for messages, e.g. `"export job status"`. Required, not blank. */
  readonly operationName: string;
  /** Takes one observation, e.g. reads a job's state. A failure it throws ends polling and propagates as is. Required. */
  readonly operation: () => Promise<Observation> | Observation;
  /** True when an observation is final; polling stops and returns it. Required. */
  readonly isComplete: (observation: Observation) => boolean;
  /** Renders an observation as short text for the timeout message; called only on timeout. Required. */
  readonly describe: (observation: Observation) => string;
  /** Clock time in milliseconds after the first attempt's start when no new attempt starts. Finite, 0 or more (0: one attempt). Required. */
  readonly timeoutMs: number;
  /** Clock time in milliseconds between the end of one attempt and the start of the next. Finite, above 0. Required. */
  readonly intervalMs: number;
  /** The source of time: `systemClock`, or `createDeterministicClock()` in tests. Required. */
  readonly clock: Clock;
}

/** A completed poll (SPEC 2.5). */
export interface PollUntilResult<Observation> {
  /** How many times the operation ran, the completing attempt included; 1 or more. */
  readonly attempts: number;
  /** Clock time in milliseconds from the first attempt's start to the completing attempt's end. */
  readonly elapsedMs: number;
  /** The observation that `isComplete` accepted. */
  readonly value: Observation;
}

/**
 * Runs `operation` until `isComplete` accepts what it returns.
 *
 * The first attempt runs at once. After an incomplete observation it sleeps
 * `intervalMs` and tries again, but it never sleeps past the deadline
 * (`timeoutMs` after the first attempt started): the last sleep is shortened so
 * that one final attempt runs exactly at the deadline. If that attempt is
 * incomplete too, or an attempt ends at or after the deadline, it rejects with
 * {@link PollTimeoutError}. So with timeoutMs 1000 and intervalMs 100, attempts
 * run at 0, 100, ..., 1000 ms of clock time: 11 in all. An attempt that is
 * already running at the deadline is not cut short, and its completing
 * observation is returned.
 *
 * Options are checked before the first attempt: a missing or non-function
 * callback, a missing clock or a blank name is a TypeError, a number out of
 * range a RangeError, and the operation is not called.
 */
export async function pollUntil<Observation>(options: PollUntilOptions<Observation>): Promise<PollUntilResult<Observation>> {
  checkOptionsObject('pollUntil', options);
  const { operationName, operation, isComplete, describe, timeoutMs, intervalMs, clock } = options;
  checkOperationName('pollUntil', operationName);
  checkFunction('pollUntil', 'operation', operation);
  checkFunction('pollUntil', 'isComplete', isComplete);
  checkFunction('pollUntil', 'describe', describe);
  checkDurationMs('pollUntil', 'timeoutMs', timeoutMs);
  checkPositiveDurationMs('pollUntil', 'intervalMs', intervalMs);
  checkClock('pollUntil', clock);

  const startedAtMs = clock.now();
  const deadlineMs = startedAtMs + timeoutMs;
  for (let attempts = 1; ; attempts++) {
    const observation = await operation();
    const nowMs = clock.now();
    if (isComplete(observation)) return { attempts, elapsedMs: nowMs - startedAtMs, value: observation };
    const remainingMs = deadlineMs - nowMs;
    if (remainingMs <= 0) {
      throw new PollTimeoutError({
        operationName,
        attempts,
        elapsedMs: nowMs - startedAtMs,
        timeoutMs,
        lastObservation: describe(observation),
      });
    }
    await clock.sleep(Math.min(intervalMs, remainingMs));
    // A clock whose sleep does not move time would poll forever.
    if (clock.now() <= nowMs)
      throw new Error(
        `pollUntil: the clock did not advance during sleep(${Math.min(intervalMs, remainingMs)}); polling "${operationName}" cannot time out`,
      );
  }
}
