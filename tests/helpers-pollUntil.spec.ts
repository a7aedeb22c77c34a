import { expect, test } from './support/test.js';
import {
  createDeterministicClock,
  PollTimeoutError,
  pollUntil,
  QualityEvidenceError,
  type Clock,
  type PollUntilOptions,
} from '../src/index.js';
import { rejectionOf } from './support/failures.js';

type JobState = 'pending' | 'complete' | 'failed';

/** An operation that returns the scripted states in turn (the last one repeats) and records when it ran. */
function scriptedJob(clock: Clock, states: readonly JobState[], durationMs = 0) {
  const startedAtMs: number[] = [];
  const operation = async (): Promise<JobState> => {
    startedAtMs.push(clock.now());
    await clock.sleep(durationMs);
    return states[Math.min(startedAtMs.length - 1, states.length - 1)]!;
  };
  return { operation, startedAtMs };
}

function jobPolling(
  clock: Clock,
  operation: () => Promise<JobState>,
  timing = { timeoutMs: 1000, intervalMs: 100 },
): PollUntilOptions<JobState> {
  return {
    operationName: 'export job status',
    operation,
    isComplete: (state) => state === 'complete',
    describe: (state) => `state ${state}`,
    ...timing,
    clock,
  };
}

test('a complete first observation returns after one attempt and no waiting', async () => {
  const clock = createDeterministicClock();
  const job = scriptedJob(clock, ['complete']);
  expect(await pollUntil(jobPolling(clock, job.operation))).toEqual({ attempts: 1, elapsedMs: 0, value: 'complete' });
  expect(clock.now()).toBe(0);
});

test('the SPEC example: pending then complete gives 2 attempts and 100 ms', async () => {
  const clock = createDeterministicClock();
  const job = scriptedJob(clock, ['pending', 'complete']);
  expect(await pollUntil(jobPolling(clock, job.operation))).toEqual({ attempts: 2, elapsedMs: 100, value: 'complete' });
});

test('attempts run intervalMs apart until one completes', async () => {
  const clock = createDeterministicClock();
  const job = scriptedJob(clock, ['pending', 'pending', 'pending', 'pending', 'complete']);
  expect(await pollUntil(jobPolling(clock, job.operation))).toEqual({ attempts: 5, elapsedMs: 400, value: 'complete' });
  expect(job.startedAtMs).toEqual([0, 100, 200, 300, 400]);
});

test('elapsedMs counts from the first attempt, not from clock zero', async () => {
  const clock = createDeterministicClock(5_000);
  const job = scriptedJob(clock, ['pending', 'complete']);
  expect(await pollUntil(jobPolling(clock, job.operation))).toEqual({ attempts: 2, elapsedMs: 100, value: 'complete' });
  expect(clock.now()).toBe(5_100);
});

test('the completing observation is returned as it is', async () => {
  const clock = createDeterministicClock();
  const finished = { state: 'complete', rows: 3 };
  const result = await pollUntil({
    operationName: 'export job status',
    operation: () => Promise.resolve(finished),
    isComplete: (job) => job.state === 'complete',
    describe: (job) => job.state,
    timeoutMs: 1000,
    intervalMs: 100,
    clock,
  });
  expect(result.value).toBe(finished);
});

test('polling that never completes times out after 11 attempts over exactly 1000 ms', async () => {
  const clock = createDeterministicClock();
  const job = scriptedJob(clock, ['pending']);
  const error = await rejectionOf(pollUntil(jobPolling(clock, job.operation)));
  expect(error).toBeInstanceOf(PollTimeoutError);
  expect(error).toMatchObject({
    name: 'PollTimeoutError',
    message:
      'pollUntil: "export job status" did not complete within 1000 ms (11 attempts, 1000 ms elapsed); last observation: state pending',
    operationName: 'export job status',
    attempts: 11,
    elapsedMs: 1000,
    timeoutMs: 1000,
    lastObservation: 'state pending',
  });
  expect(job.startedAtMs).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
  expect(clock.now()).toBe(1000);
});

test('a PollTimeoutError is an Error and a QualityEvidenceError', async () => {
  const clock = createDeterministicClock();
  const error = await rejectionOf(pollUntil(jobPolling(clock, scriptedJob(clock, ['pending']).operation)));
  expect([error instanceof Error, error instanceof QualityEvidenceError]).toEqual([true, true]);
});

test('the last sleep is shortened so that the final attempt runs exactly at the deadline', async () => {
  const clock = createDeterministicClock();
  const job = scriptedJob(clock, ['pending']);
  const error = await rejectionOf(pollUntil(jobPolling(clock, job.operation, { timeoutMs: 250, intervalMs: 100 })));
  expect(error).toMatchObject({ attempts: 4, elapsedMs: 250 });
  expect(job.startedAtMs).toEqual([0, 100, 200, 250]);
});

test('an observation that completes at the deadline is a success', async () => {
  const clock = createDeterministicClock();
  const job = scriptedJob(clock, ['pending', 'pending', 'pending', 'complete']);
  const result = await pollUntil(jobPolling(clock, job.operation, { timeoutMs: 250, intervalMs: 100 }));
  expect(result).toEqual({ attempts: 4, elapsedMs: 250, value: 'complete' });
});

test('timeoutMs 0 allows exactly one attempt', async () => {
  const clock = createDeterministicClock();
  const job = scriptedJob(clock, ['pending']);
  const error = await rejectionOf(pollUntil(jobPolling(clock, job.operation, { timeoutMs: 0, intervalMs: 100 })));
  expect(error).toMatchObject({
    message: 'pollUntil: "export job status" did not complete within 0 ms (1 attempt, 0 ms elapsed); last observation: state pending',
    attempts: 1,
    elapsedMs: 0,
  });
});

test('the time an attempt takes counts toward the timeout, and the interval starts when it ends', async () => {
  const clock = createDeterministicClock();
  const job = scriptedJob(clock, ['pending'], 30);
  const error = await rejectionOf(pollUntil(jobPolling(clock, job.operation, { timeoutMs: 250, intervalMs: 100 })));
  expect(job.startedAtMs).toEqual([0, 130, 250]);
  expect(error).toMatchObject({ attempts: 3, elapsedMs: 280 });
});

test('an attempt still running at the deadline is not cut short, and its completion is returned', async () => {
  const clock = createDeterministicClock();
  const job = scriptedJob(clock, ['complete'], 300);
  const result = await pollUntil(jobPolling(clock, job.operation, { timeoutMs: 100, intervalMs: 100 }));
  expect(result).toEqual({ attempts: 1, elapsedMs: 300, value: 'complete' });
});

test('describe renders only the last observation, and only on timeout', async () => {
  const clock = createDeterministicClock();
  const described: JobState[] = [];
  const scripted = scriptedJob(clock, ['pending', 'pending', 'failed']);
  const describe = (state: JobState): string => {
    described.push(state);
    return state;
  };
  const options = { ...jobPolling(clock, scripted.operation, { timeoutMs: 200, intervalMs: 100 }), describe };
  const error = await rejectionOf(pollUntil(options));
  expect(described).toEqual(['failed']);
  expect(error).toMatchObject({ lastObservation: 'failed' });

  described.length = 0;
  await pollUntil({ ...options, operation: scriptedJob(clock, ['pending', 'complete']).operation });
  expect(described).toEqual([]);
});

test('a failure thrown by the operation propagates as the same object and stops polling', async () => {
  const clock = createDeterministicClock();
  const failure = new Error('GET /exports/export-7 answered 500');
  let calls = 0;
  const operation = (): Promise<JobState> => (++calls === 1 ? Promise.resolve('pending') : Promise.reject(failure));
  const error = await rejectionOf(pollUntil(jobPolling(clock, operation)));
  expect(error).toBe(failure);
  expect(calls).toBe(2);
  expect(clock.now()).toBe(100);
});

test('an hour of simulated polling finishes without real waiting', async () => {
  const clock = createDeterministicClock();
  const job = scriptedJob(clock, ['pending']);
  const error = await rejectionOf(pollUntil(jobPolling(clock, job.operation, { timeoutMs: 3_600_000, intervalMs: 1000 })));
  expect(error).toMatchObject({ attempts: 3601, elapsedMs: 3_600_000 });
});

test.describe('refused options: the operation is never called', () => {
  const cases: readonly { option: string; value: unknown; error: typeof TypeError | typeof RangeError; message: string }[] = [
    {
      option: 'operationName',
      value: undefined,
      error: TypeError,
      message: 'pollUntil: option "operationName" must be a non-empty string; got undefined',
    },
    {
      option: 'operationName',
      value: '',
      error: TypeError,
      message: 'pollUntil: option "operationName" must be a non-empty string; got ""',
    },
    {
      option: 'operationName',
      value: '  ',
      error: TypeError,
      message: 'pollUntil: option "operationName" must be a non-empty string; got "  "',
    },
    { option: 'operationName', value: 7, error: TypeError, message: 'pollUntil: option "operationName" must be a non-empty string; got 7' },
    { option: 'operation', value: undefined, error: TypeError, message: 'pollUntil: option "operation" must be a function; got undefined' },
    {
      option: 'operation',
      value: 'GET /exports/export-7',
      error: TypeError,
      message: 'pollUntil: option "operation" must be a function; got "GET /exports/export-7"',
    },
    {
      option: 'isComplete',
      value: undefined,
      error: TypeError,
      message: 'pollUntil: option "isComplete" must be a function; got undefined',
    },
    {
      option: 'isComplete',
      value: 'complete',
      error: TypeError,
      message: 'pollUntil: option "isComplete" must be a function; got "complete"',
    },
    { option: 'describe', value: undefined, error: TypeError, message: 'pollUntil: option "describe" must be a function; got undefined' },
    { option: 'describe', value: {}, error: TypeError, message: 'pollUntil: option "describe" must be a function; got an object' },
    {
      option: 'timeoutMs',
      value: undefined,
      error: TypeError,
      message: 'pollUntil: option "timeoutMs" must be a finite number of milliseconds, 0 or more; got undefined',
    },
    {
      option: 'timeoutMs',
      value: '1000',
      error: TypeError,
      message: 'pollUntil: option "timeoutMs" must be a finite number of milliseconds, 0 or more; got "1000"',
    },
    {
      option: 'timeoutMs',
      value: -1,
      error: RangeError,
      message: 'pollUntil: option "timeoutMs" must be a finite number of milliseconds, 0 or more; got -1',
    },
    {
      option: 'timeoutMs',
      value: Number.NaN,
      error: RangeError,
      message: 'pollUntil: option "timeoutMs" must be a finite number of milliseconds, 0 or more; got NaN',
    },
    {
      option: 'timeoutMs',
      value: Number.POSITIVE_INFINITY,
      error: RangeError,
      message: 'pollUntil: option "timeoutMs" must be a finite number of milliseconds, 0 or more; got Infinity',
    },
    {
      option: 'intervalMs',
      value: undefined,
      error: TypeError,
      message: 'pollUntil: option "intervalMs" must be a finite number of milliseconds above 0; got undefined',
    },
    {
      option: 'intervalMs',
      value: 0,
      error: RangeError,
      message: 'pollUntil: option "intervalMs" must be a finite number of milliseconds above 0; got 0',
    },
    {
      option: 'intervalMs',
      value: -100,
      error: RangeError,
      message: 'pollUntil: option "intervalMs" must be a finite number of milliseconds above 0; got -100',
    },
    {
      option: 'intervalMs',
      value: Number.NaN,
      error: RangeError,
      message: 'pollUntil: option "intervalMs" must be a finite number of milliseconds above 0; got NaN',
    },
    {
      option: 'intervalMs',
      value: Number.POSITIVE_INFINITY,
      error: RangeError,
      message: 'pollUntil: option "intervalMs" must be a finite number of milliseconds above 0; got Infinity',
    },
    {
      option: 'clock',
      value: undefined,
      error: TypeError,
      message: 'pollUntil: option "clock" must be a clock with now() and sleep(ms), such as systemClock; got undefined',
    },
    {
      option: 'clock',
      value: { now: () => 0 },
      error: TypeError,
      message: 'pollUntil: option "clock" must be a clock with now() and sleep(ms), such as systemClock; got an object',
    },
  ];

  for (const { option, value, error: errorClass, message } of cases) {
    test(`${errorClass.name}: ${message}`, async () => {
      const clock = createDeterministicClock();
      const job = scriptedJob(clock, ['complete']);
      const options = { ...jobPolling(clock, job.operation), [option]: value } as unknown as PollUntilOptions<JobState>;
      const error = await rejectionOf(pollUntil(options));
      expect(error).toBeInstanceOf(errorClass);
      expect(error).toHaveProperty('message', message);
      expect(job.startedAtMs).toEqual([]);
    });
  }

  test('a missing options object is a TypeError', async () => {
    const error = await rejectionOf(pollUntil(undefined as unknown as PollUntilOptions<JobState>));
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toHaveProperty('message', 'pollUntil: expects an options object; got undefined');
  });
});

test('a clock whose sleep does not advance time is reported instead of polling forever', async () => {
  const stuckClock: Clock = { now: () => 0, sleep: () => Promise.resolve() };
  let calls = 0;

  const error = await rejectionOf(
    pollUntil({
      operationName: 'export job status',
      operation: () => ++calls,
      isComplete: () => false,
      describe: String,
      timeoutMs: 1000,
      intervalMs: 100,
      clock: stuckClock,
    }),
  );

  expect(error).toBeInstanceOf(Error);
  expect((error as Error).message).toBe(
    'pollUntil: the clock did not advance during sleep(100); polling "export job status" cannot time out',
  );
  expect(calls).toBe(1);
});
