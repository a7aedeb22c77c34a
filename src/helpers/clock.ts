/**
 * The source of time for the helpers. Injected, never read from the globals,
 * so that tests and illustrative runs can simulate waiting exactly and
 * instantly.
 */
export interface Clock {
  /** The current time in milliseconds; only differences between readings matter. */
  now(): number;
  /** Resolves after `ms` milliseconds (finite, zero or more) of this clock's time. */
  sleep(ms: number): Promise<void>;
}

// setTimeout fires after 1 ms, with a warning, for any delay above 2^31 - 1 ms.
const longestTimerDelayMs = 2_147_483_647;

/** Real time: `Date.now()` and `setTimeout`. Sleeps longer than about 24.8 days are waited out in parts. */
export const systemClock: Clock = {
  now: () => Date.now(),
  async sleep(ms) {
    const refusal = refuseSleepDuration(ms);
    if (refusal !== undefined) throw refusal;
    let remainingMs = ms;
    do {
      const stepMs = Math.min(remainingMs, longestTimerDelayMs);
      await new Promise<void>((resolve) => setTimeout(resolve, stepMs));
      remainingMs -= stepMs;
    } while (remainingMs > 0);
  },
};

/**
 * Simulated time for tests and illustrative runs. `now()` starts at `startMs`
 * (default 0) and moves only when `sleep(ms)` is called, by exactly `ms`; the
 * sleep resolves at once, with no timer, so an hour of simulated polling takes
 * milliseconds. Time advances when `sleep` is called, so concurrent sleeps add
 * up: the clock models one sequential caller, which is how the helpers use it.
 */
export function createDeterministicClock(startMs = 0): Clock {
  if (!Number.isFinite(startMs)) {
    throw new RangeError(`createDeterministicClock: startMs must be a finite number of milliseconds; got ${startMs}`);
  }
  let nowMs = startMs;
  return {
    now: () => nowMs,
    sleep(ms) {
      const refusal = refuseSleepDuration(ms);
      if (refusal !== undefined) return Promise.reject(refusal);
      nowMs += ms;
      return Promise.resolve();
    },
  };
}

// Time never runs backwards, and NaN would poison every later reading.
function refuseSleepDuration(ms: number): RangeError | undefined {
  if (Number.isFinite(ms) && ms >= 0) return undefined;
  return new RangeError(`sleep: the duration must be a finite number of milliseconds, 0 or more; got ${ms}`);
}
