import { expect, test } from './support/test.js';
import { createDeterministicClock, systemClock } from '../src/index.js';
import { rejectionOf } from './support/failures.js';

test('the deterministic clock starts at 0 by default', () => {
  expect(createDeterministicClock().now()).toBe(0);
});

test('the deterministic clock starts at the given time', () => {
  expect(createDeterministicClock(1_700_000_000_000).now()).toBe(1_700_000_000_000);
});

test('the deterministic clock stands still until sleep is called', () => {
  const clock = createDeterministicClock(10);
  expect([clock.now(), clock.now()]).toEqual([10, 10]);
});

test('each sleep advances the deterministic clock by exactly its duration', async () => {
  const clock = createDeterministicClock();
  const readings: number[] = [];
  for (const ms of [100, 0, 2.5, 50]) {
    await clock.sleep(ms);
    readings.push(clock.now());
  }
  expect(readings).toEqual([100, 100, 102.5, 152.5]);
});

test('a deterministic sleep of an hour resolves without a timer', async () => {
  // A real one-hour timer would outlive the test's 30-second timeout.
  const clock = createDeterministicClock();
  await clock.sleep(3_600_000);
  expect(clock.now()).toBe(3_600_000);
});

for (const ms of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
  test(`the deterministic clock refuses to sleep ${ms} ms and does not move`, async () => {
    const clock = createDeterministicClock(5);
    const error = await rejectionOf(clock.sleep(ms));
    expect(error).toBeInstanceOf(RangeError);
    expect(error).toHaveProperty('message', `sleep: the duration must be a finite number of milliseconds, 0 or more; got ${ms}`);
    expect(clock.now()).toBe(5);
  });
}

test('a deterministic clock cannot start at a non-finite time', () => {
  expect(() => createDeterministicClock(Number.NaN)).toThrow(RangeError);
  expect(() => createDeterministicClock(Number.NaN)).toThrow(
    'createDeterministicClock: startMs must be a finite number of milliseconds; got NaN',
  );
});

test('the system clock reads Date.now()', () => {
  const before = Date.now();
  const reading = systemClock.now();
  const after = Date.now();
  expect(reading).toBeGreaterThanOrEqual(before);
  expect(reading).toBeLessThanOrEqual(after);
});

test('the system clock resolves a sleep of 0 ms', async () => {
  await expect(systemClock.sleep(0)).resolves.toBeUndefined();
});

test('the system clock refuses a negative sleep', async () => {
  const error = await rejectionOf(systemClock.sleep(-1));
  expect(error).toBeInstanceOf(RangeError);
  expect(error).toHaveProperty('message', 'sleep: the duration must be a finite number of milliseconds, 0 or more; got -1');
});
