import { expect, test } from './support/test.js';
import { describeIssue } from '../src/issues/recordIssue.js';
import { RecordValidationError, summariseChecks, summariseExecutions, type CheckObservation } from '../src/index.js';
import { thrownBy } from './support/failures.js';

// Data a JavaScript caller or a parsed file may hand over, whatever the types say.
function untrusted(value: unknown): readonly CheckObservation[] {
  return value as readonly CheckObservation[];
}

test('an empty list summarises to zeros', () => {
  expect(summariseChecks([], 750)).toEqual({
    executionCount: 0,
    failedExecutionCount: 0,
    slowExecutionCount: 0,
    failureCountByEndpoint: {},
    slowEndpoints: [],
  });
});

test('only the failed state counts as a failure; pending and complete do not', () => {
  const observations: CheckObservation[] = [
    { endpoint: 'GET /exports/export-7', state: 'pending', responseTimeMs: 10 },
    { endpoint: 'GET /exports/export-7', state: 'complete', responseTimeMs: 10 },
    { endpoint: 'POST /orders', state: 'failed', responseTimeMs: 10 },
    { endpoint: 'POST /orders', state: 'failed', responseTimeMs: 10 },
  ];
  expect(summariseChecks(observations, 750)).toEqual({
    executionCount: 4,
    failedExecutionCount: 2,
    slowExecutionCount: 0,
    failureCountByEndpoint: { 'POST /orders': 2 },
    slowEndpoints: [],
  });
});

test('a response time equal to the threshold is not slow; just above it is', () => {
  const observations: CheckObservation[] = [
    { endpoint: 'GET /orders', state: 'complete', responseTimeMs: 750 },
    { endpoint: 'GET /invoices', state: 'complete', responseTimeMs: 750.5 },
  ];
  expect(summariseChecks(observations, 750)).toMatchObject({ slowExecutionCount: 1, slowEndpoints: ['GET /invoices'] });
});

test('a threshold of 0 makes every check that took any time slow', () => {
  const observations: CheckObservation[] = [
    { endpoint: 'GET /orders', state: 'complete', responseTimeMs: 0 },
    { endpoint: 'GET /invoices', state: 'pending', responseTimeMs: 1 },
  ];
  expect(summariseChecks(observations, 0)).toMatchObject({ slowExecutionCount: 1, slowEndpoints: ['GET /invoices'] });
});

test('endpoints are normalised before they are counted', () => {
  const observations: CheckObservation[] = [
    { endpoint: 'post /orders', state: 'failed', responseTimeMs: 900 },
    { endpoint: '  POST\t/orders ', state: 'failed', responseTimeMs: 10 },
    { endpoint: 'Post   /orders', state: 'complete', responseTimeMs: 800 },
  ];
  expect(summariseChecks(observations, 750)).toEqual({
    executionCount: 3,
    failedExecutionCount: 2,
    slowExecutionCount: 2,
    failureCountByEndpoint: { 'POST /orders': 2 },
    slowEndpoints: ['POST /orders'],
  });
});

test('endpoint lists are sorted by code unit, like the execution summary', () => {
  const observations: CheckObservation[] = [
    { endpoint: 'GET /reports', state: 'failed', responseTimeMs: 900 },
    { endpoint: 'DELETE /orders/1', state: 'failed', responseTimeMs: 900 },
    { endpoint: 'GET /Reports', state: 'failed', responseTimeMs: 900 },
  ];
  expect(summariseChecks(observations, 750)).toMatchObject({
    failureCountByEndpoint: { 'DELETE /orders/1': 1, 'GET /Reports': 1, 'GET /reports': 1 },
    slowEndpoints: ['DELETE /orders/1', 'GET /Reports', 'GET /reports'],
  });
  expect(Object.keys(summariseChecks(observations, 750).failureCountByEndpoint)).toEqual([
    'DELETE /orders/1',
    'GET /Reports',
    'GET /reports',
  ]);
});

test('checks summarise exactly as execution records with failing status codes do', () => {
  const observations: CheckObservation[] = [
    { endpoint: 'GET /orders', state: 'complete', responseTimeMs: 120 },
    { endpoint: 'POST /orders', state: 'failed', responseTimeMs: 980 },
    { endpoint: 'GET /invoices', state: 'complete', responseTimeMs: 1210 },
  ];
  const records = observations.map(({ endpoint, state, responseTimeMs }) => ({
    endpoint,
    responseTimeMs,
    statusCode: state === 'failed' ? 503 : 200,
  }));
  const { executionCount, failedExecutionCount, slowExecutionCount, failureCountByEndpoint, slowEndpoints, noResponseCount } =
    summariseExecutions(records, 750);
  expect(noResponseCount).toBe(0);
  expect(summariseChecks(observations, 750)).toStrictEqual({
    executionCount,
    failedExecutionCount,
    slowExecutionCount,
    failureCountByEndpoint,
    slowEndpoints,
  });
});

test('fields other than endpoint, state and responseTimeMs are ignored', () => {
  const observations = [{ endpoint: 'GET /orders', state: 'complete', responseTimeMs: 5, note: 'scripted' }];
  expect(summariseChecks(untrusted(observations), 750)).toMatchObject({ executionCount: 1 });
});

test('an invalid state is a RecordValidationError naming observations[1].state', () => {
  const observations = [
    { endpoint: 'GET /orders', state: 'complete', responseTimeMs: 5 },
    { endpoint: 'GET /orders', state: 'done', responseTimeMs: 5 },
  ];
  const error = thrownBy(() => summariseChecks(untrusted(observations), 750));
  expect(error).toBeInstanceOf(RecordValidationError);
  expect(error).toMatchObject({
    message:
      '1 of 2 observations is invalid:\n  - observations[1].state: must be one of "pending", "complete", "failed"; found "done" (a string)',
    issues: [
      {
        location: { kind: 'list', listPath: 'observations', index: 1 },
        path: ['state'],
        expected: 'must be one of "pending", "complete", "failed"',
        found: 'found "done" (a string)',
      },
    ],
    invalidRecordCount: 1,
    recordCount: 2,
  });
});

test('every problem of every invalid observation is listed by path', () => {
  const observations: unknown[] = [
    { endpoint: '/orders', state: 'complete', responseTimeMs: 5 },
    { state: 'pending', responseTimeMs: -1 },
    'GET /orders',
  ];
  const error = thrownBy(() => summariseChecks(untrusted(observations), 750));
  expect(error).toBeInstanceOf(RecordValidationError);
  expect((error as RecordValidationError).issues.map(describeIssue)).toEqual([
    'observations[0].endpoint: must be of the form "<METHOD> <path>", with a path that starts with "/"; found "/orders" (a string)',
    'observations[1].endpoint: must be a string of the form "<METHOD> <path>"; it is missing',
    'observations[1].responseTimeMs: must be a finite number of milliseconds, zero or more; found -1 (a number)',
    'observations[2]: must be an object; found a string',
  ]);
});

test('a list that is not an array is a TypeError', () => {
  const error = thrownBy(() => summariseChecks(untrusted({ observations: [] }), 750));
  expect(error).toBeInstanceOf(TypeError);
  expect(error).toHaveProperty('message', 'summariseChecks: observations must be an array; got object');
});

for (const threshold of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
  test(`a threshold of ${threshold} is a RangeError`, () => {
    const error = thrownBy(() => summariseChecks([], threshold));
    expect(error).toBeInstanceOf(RangeError);
    expect(error).toHaveProperty(
      'message',
      `the slow-response threshold must be a finite number of milliseconds, zero or more; got ${threshold}`,
    );
  });
}

test('a threshold that is not a number is a TypeError that names its type', () => {
  const error = thrownBy(() => summariseChecks([], '750' as unknown as number));
  expect(error).toBeInstanceOf(TypeError);
  expect(error).toHaveProperty('message', 'the slow-response threshold must be a number of milliseconds; got a string');
});
