import { expect, test } from './support/test.js';
import {
  createDeterministicClock,
  QualityEvidenceError,
  RetryExhaustedError,
  retryBounded,
  type Clock,
  type RetryBoundedOptions,
} from '../src/index.js';
import { rejectionOf } from './support/failures.js';

class TransientFailure extends Error {
  override readonly name = 'TransientFailure';
}

class PermanentFailure extends Error {
  override readonly name = 'PermanentFailure';
}

interface Order {
  readonly orderId: string;
}

/**
 * An operation that plays a script: each entry is the failure thrown by that
 * attempt, or `undefined` for success. It records the clock time of each call
 * and every failure it threw.
 */
function scriptedCall(clock: Clock, script: readonly (Error | undefined)[]) {
  const calledAtMs: number[] = [];
  const operation = (): Promise<Order> => {
    calledAtMs.push(clock.now());
    const failure = script[calledAtMs.length - 1];
    return failure === undefined ? Promise.resolve({ orderId: `order-${calledAtMs.length}` }) : Promise.reject(failure);
  };
  return { operation, calledAtMs };
}

function orderCreation(
  clock: Clock,
  operation: () => Promise<Order>,
  limits = { maxAttempts: 3, delayMs: 50 },
): RetryBoundedOptions<Order> {
  return {
    operationName: 'create order',
    operation,
    shouldRetry: (failure) => failure instanceof TransientFailure,
    ...limits,
    clock,
  };
}

test('a first-attempt success returns at once, with no waiting', async () => {
  const clock = createDeterministicClock();
  const call = scriptedCall(clock, [undefined]);
  expect(await retryBounded(orderCreation(clock, call.operation))).toEqual({ attempts: 1, value: { orderId: 'order-1' } });
  expect(clock.now()).toBe(0);
});

test('the SPEC example: one transient failure, then success, gives 2 attempts after 50 ms', async () => {
  const clock = createDeterministicClock();
  const call = scriptedCall(clock, [new TransientFailure('503')]);
  const result = await retryBounded(orderCreation(clock, call.operation, { maxAttempts: 2, delayMs: 50 }));
  expect(result).toEqual({ attempts: 2, value: { orderId: 'order-2' } });
  expect(call.calledAtMs).toEqual([0, 50]);
});

test('attempts after transient failures are exactly delayMs apart', async () => {
  const clock = createDeterministicClock();
  const call = scriptedCall(clock, [new TransientFailure('503'), new TransientFailure('503')]);
  expect(await retryBounded(orderCreation(clock, call.operation))).toEqual({ attempts: 3, value: { orderId: 'order-3' } });
  expect(call.calledAtMs).toEqual([0, 50, 100]);
  expect(clock.now()).toBe(100);
});

test('a delayMs of 0 retries without waiting', async () => {
  const clock = createDeterministicClock();
  const call = scriptedCall(clock, [new TransientFailure('503')]);
  expect(await retryBounded(orderCreation(clock, call.operation, { maxAttempts: 2, delayMs: 0 }))).toEqual({
    attempts: 2,
    value: { orderId: 'order-2' },
  });
  expect(call.calledAtMs).toEqual([0, 0]);
});

test('when every attempt fails transiently it rejects with RetryExhaustedError, the last failure as cause', async () => {
  const clock = createDeterministicClock();
  const failures = [
    new TransientFailure('503 on attempt 1'),
    new TransientFailure('503 on attempt 2'),
    new TransientFailure('503 on attempt 3'),
  ];
  const call = scriptedCall(clock, failures);
  const error = await rejectionOf(retryBounded(orderCreation(clock, call.operation)));
  expect(error).toBeInstanceOf(RetryExhaustedError);
  expect(error).toMatchObject({
    name: 'RetryExhaustedError',
    message: 'retryBounded: "create order" failed after 3 attempts; last failure: TransientFailure: 503 on attempt 3',
    operationName: 'create order',
    attempts: 3,
  });
  expect((error as RetryExhaustedError).cause).toBe(failures[2]);
});

test('exhaustion makes exactly maxAttempts calls and does not sleep after the last', async () => {
  const clock = createDeterministicClock();
  const call = scriptedCall(clock, [new TransientFailure('503'), new TransientFailure('503'), new TransientFailure('503')]);
  await rejectionOf(retryBounded(orderCreation(clock, call.operation)));
  expect(call.calledAtMs).toEqual([0, 50, 100]);
  expect(clock.now()).toBe(100);
});

test('maxAttempts 1 makes one call and reports 1 attempt', async () => {
  const clock = createDeterministicClock();
  const call = scriptedCall(clock, [new TransientFailure('503')]);
  const error = await rejectionOf(retryBounded(orderCreation(clock, call.operation, { maxAttempts: 1, delayMs: 50 })));
  expect(error).toMatchObject({
    message: 'retryBounded: "create order" failed after 1 attempt; last failure: TransientFailure: 503',
    attempts: 1,
  });
  expect(call.calledAtMs).toEqual([0]);
});

test('a RetryExhaustedError is an Error and a QualityEvidenceError', async () => {
  const clock = createDeterministicClock();
  const call = scriptedCall(clock, [new TransientFailure('503')]);
  const error = await rejectionOf(retryBounded(orderCreation(clock, call.operation, { maxAttempts: 1, delayMs: 0 })));
  expect([error instanceof Error, error instanceof QualityEvidenceError]).toEqual([true, true]);
});

test('the message shows the last failure on one line, shortened to 200 characters', async () => {
  const clock = createDeterministicClock();
  const call = scriptedCall(clock, [new TransientFailure(`gateway\ntimeout ${'x'.repeat(300)}`)]);
  const error = await rejectionOf(retryBounded(orderCreation(clock, call.operation, { maxAttempts: 1, delayMs: 0 })));
  const shown = `TransientFailure: gateway timeout ${'x'.repeat(300)}`.slice(0, 199);
  expect(error).toHaveProperty('message', `retryBounded: "create order" failed after 1 attempt; last failure: ${shown}…`);
});

test('a failure that is not an Error is shown as a short JSON rendering', async () => {
  const clock = createDeterministicClock();
  // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the behaviour under test is a non-Error rejection
  const operation = (): Promise<Order> => Promise.reject({ status: 503 });
  const error = await rejectionOf(retryBounded({ ...orderCreation(clock, operation), shouldRetry: () => true, maxAttempts: 1 }));
  expect(error).toHaveProperty('message', 'retryBounded: "create order" failed after 1 attempt; last failure: {"status":503} (an object)');
  expect((error as RetryExhaustedError).cause).toEqual({ status: 503 });
});

test('a failure that shouldRetry refuses is rethrown at once, the same object', async () => {
  const clock = createDeterministicClock();
  const failure = new PermanentFailure('400 invalid order');
  const call = scriptedCall(clock, [failure]);
  const seen: unknown[] = [];
  const shouldRetry = (candidate: unknown): boolean => {
    seen.push(candidate);
    return candidate instanceof TransientFailure;
  };
  const error = await rejectionOf(retryBounded({ ...orderCreation(clock, call.operation), shouldRetry }));
  expect(error).toBe(failure);
  expect(seen).toEqual([failure]);
  expect(call.calledAtMs).toEqual([0]);
  expect(clock.now()).toBe(0);
});

test('a non-retryable failure after a transient one stops the retries', async () => {
  const clock = createDeterministicClock();
  const failure = new PermanentFailure('400 invalid order');
  const call = scriptedCall(clock, [new TransientFailure('503'), failure]);
  expect(await rejectionOf(retryBounded(orderCreation(clock, call.operation)))).toBe(failure);
  expect(call.calledAtMs).toEqual([0, 50]);
});

test('a non-retryable failure on the last attempt is rethrown as it is, not wrapped', async () => {
  const clock = createDeterministicClock();
  const failure = new PermanentFailure('400 invalid order');
  const call = scriptedCall(clock, [new TransientFailure('503'), failure]);
  expect(await rejectionOf(retryBounded(orderCreation(clock, call.operation, { maxAttempts: 2, delayMs: 50 })))).toBe(failure);
});

test('an operation that throws synchronously counts as a failed attempt', async () => {
  const clock = createDeterministicClock();
  let calls = 0;
  const operation = (): string => {
    if (++calls === 1) throw new TransientFailure('503');
    return 'created';
  };
  const result = await retryBounded({
    operationName: 'create order',
    operation,
    shouldRetry: () => true,
    maxAttempts: 2,
    delayMs: 50,
    clock,
  });
  expect(result).toEqual({ attempts: 2, value: 'created' });
});

test.describe('refused options: the operation is never called', () => {
  const cases: readonly { option: string; value: unknown; error: typeof TypeError | typeof RangeError; message: string }[] = [
    {
      option: 'operationName',
      value: undefined,
      error: TypeError,
      message: 'retryBounded: option "operationName" must be a non-empty string; got undefined',
    },
    {
      option: 'operationName',
      value: '',
      error: TypeError,
      message: 'retryBounded: option "operationName" must be a non-empty string; got ""',
    },
    {
      option: 'operation',
      value: undefined,
      error: TypeError,
      message: 'retryBounded: option "operation" must be a function; got undefined',
    },
    { option: 'operation', value: null, error: TypeError, message: 'retryBounded: option "operation" must be a function; got null' },
    {
      option: 'shouldRetry',
      value: undefined,
      error: TypeError,
      message: 'retryBounded: option "shouldRetry" must be a function; got undefined',
    },
    { option: 'shouldRetry', value: true, error: TypeError, message: 'retryBounded: option "shouldRetry" must be a function; got true' },
    {
      option: 'maxAttempts',
      value: undefined,
      error: TypeError,
      message: 'retryBounded: option "maxAttempts" must be an integer, 1 or more; got undefined',
    },
    {
      option: 'maxAttempts',
      value: 0,
      error: RangeError,
      message: 'retryBounded: option "maxAttempts" must be an integer, 1 or more; got 0',
    },
    {
      option: 'maxAttempts',
      value: -1,
      error: RangeError,
      message: 'retryBounded: option "maxAttempts" must be an integer, 1 or more; got -1',
    },
    {
      option: 'maxAttempts',
      value: 2.5,
      error: RangeError,
      message: 'retryBounded: option "maxAttempts" must be an integer, 1 or more; got 2.5',
    },
    {
      option: 'maxAttempts',
      value: Number.NaN,
      error: RangeError,
      message: 'retryBounded: option "maxAttempts" must be an integer, 1 or more; got NaN',
    },
    {
      option: 'maxAttempts',
      value: Number.POSITIVE_INFINITY,
      error: RangeError,
      message: 'retryBounded: option "maxAttempts" must be an integer, 1 or more; got Infinity',
    },
    {
      option: 'delayMs',
      value: undefined,
      error: TypeError,
      message: 'retryBounded: option "delayMs" must be a finite number of milliseconds, 0 or more; got undefined',
    },
    {
      option: 'delayMs',
      value: -1,
      error: RangeError,
      message: 'retryBounded: option "delayMs" must be a finite number of milliseconds, 0 or more; got -1',
    },
    {
      option: 'delayMs',
      value: Number.NaN,
      error: RangeError,
      message: 'retryBounded: option "delayMs" must be a finite number of milliseconds, 0 or more; got NaN',
    },
    {
      option: 'delayMs',
      value: Number.POSITIVE_INFINITY,
      error: RangeError,
      message: 'retryBounded: option "delayMs" must be a finite number of milliseconds, 0 or more; got Infinity',
    },
    {
      option: 'clock',
      value: undefined,
      error: TypeError,
      message: 'retryBounded: option "clock" must be a clock with now() and sleep(ms), such as systemClock; got undefined',
    },
    {
      option: 'clock',
      value: 'system',
      error: TypeError,
      message: 'retryBounded: option "clock" must be a clock with now() and sleep(ms), such as systemClock; got "system"',
    },
  ];

  for (const { option, value, error: errorClass, message } of cases) {
    test(`${errorClass.name}: ${message}`, async () => {
      const clock = createDeterministicClock();
      const call = scriptedCall(clock, [undefined]);
      const options = { ...orderCreation(clock, call.operation), [option]: value } as unknown as RetryBoundedOptions<Order>;
      const error = await rejectionOf(retryBounded(options));
      expect(error).toBeInstanceOf(errorClass);
      expect(error).toHaveProperty('message', message);
      expect(call.calledAtMs).toEqual([]);
    });
  }

  test('a missing options object is a TypeError', async () => {
    const error = await rejectionOf(retryBounded(null as unknown as RetryBoundedOptions<Order>));
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toHaveProperty('message', 'retryBounded: expects an options object; got null');
  });
});

for (const [label, failure, shown] of [
  [
    'a circular object',
    (() => {
      const circular: Record<string, unknown> = { status: 503 };
      circular['self'] = circular;
      return circular;
    })(),
    '{"status":503,"self":{…}} (an object)',
  ],
  ['a bigint', 503n, '503n (a bigint)'],
] as const) {
  test(`exhaustion on ${label} that is not an Error still rejects with RetryExhaustedError and keeps it as the cause`, async () => {
    const clock = createDeterministicClock();

    const error = await rejectionOf(
      retryBounded({
        operationName: 'create order',
        operation: () => Promise.reject(failure as unknown as Error),
        shouldRetry: () => true,
        maxAttempts: 2,
        delayMs: 50,
        clock,
      }),
    );

    expect(error).toBeInstanceOf(RetryExhaustedError);
    expect((error as RetryExhaustedError).cause).toBe(failure);
    expect((error as RetryExhaustedError).message).toBe(`retryBounded: "create order" failed after 2 attempts; last failure: ${shown}`);
  });
}
