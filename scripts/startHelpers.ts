import type { CheckObservation } from '../src/records/checkObservation.js';
import { createDeterministicClock } from '../src/helpers/clock.js';
import { pollUntil } from '../src/helpers/pollUntil.js';
import { retryBounded } from '../src/helpers/retryBounded.js';
import { summariseChecks } from '../src/summary/summariseChecks.js';
import { runCli } from '../src/cli/runCli.js';

// The helpers' illustrative run (npm run start:helpers): the SPEC 4.2 example
// values, a deterministic clock and scripted, fictional operations, so every
// run prints the same JSON document at once, with no network and no waiting.

const illustrativeValues = { timeoutMs: 1000, intervalMs: 100, maxAttempts: 2, delayMs: 50, slowResponseThresholdMs: 750 } as const;

// What a fictional export job reports when polled: pending, then complete (SPEC 3).
const pollingScript: readonly CheckObservation[] = [
  { endpoint: 'GET /exports/export-7', state: 'pending', responseTimeMs: 120 },
  { endpoint: 'GET /exports/export-7', state: 'complete', responseTimeMs: 95 },
];

// A fictional flaky call: the first attempt fails transiently, the second succeeds.
const retryScript: readonly CheckObservation[] = [
  { endpoint: 'POST /orders', state: 'failed', responseTimeMs: 30 },
  { endpoint: 'POST /orders', state: 'complete', responseTimeMs: 180 },
];

// One more check, slower than the threshold.
const slowCheck: CheckObservation = { endpoint: 'GET /reports/daily', state: 'complete', responseTimeMs: 910 };

class ScriptedTransientFailure extends Error {
  override readonly name = 'ScriptedTransientFailure';
}

/** Replays a script one observation per call; a `failed` one is thrown as a transient failure. */
function replay(script: readonly CheckObservation[]): () => Promise<CheckObservation> {
  let calls = 0;
  return () => {
    const observation = script[Math.min(calls++, script.length - 1)]!;
    if (observation.state === 'failed') {
      return Promise.reject(new ScriptedTransientFailure(`${observation.endpoint} answered 503 (scripted)`));
    }
    return Promise.resolve(observation);
  };
}

await runCli('quality-evidence start:helpers', async () => {
  const clock = createDeterministicClock();
  const polling = await pollUntil({
    operationName: 'export job status',
    operation: replay(pollingScript),
    // A failed check is final too: stop and report it rather than wait out the timeout.
    isComplete: (observation) => observation.state !== 'pending',
    describe: (observation) => `${observation.endpoint} is ${observation.state}`,
    timeoutMs: illustrativeValues.timeoutMs,
    intervalMs: illustrativeValues.intervalMs,
    clock,
  });
  const retry = await retryBounded({
    operationName: 'create order',
    operation: replay(retryScript),
    shouldRetry: (failure) => failure instanceof ScriptedTransientFailure,
    maxAttempts: illustrativeValues.maxAttempts,
    delayMs: illustrativeValues.delayMs,
    clock,
  });
  const summary = summariseChecks([...pollingScript, ...retryScript, slowCheck], illustrativeValues.slowResponseThresholdMs);
  process.stdout.write(`${JSON.stringify({ polling, retry, summary }, null, 2)}\n`);
});
