import {
  evidenceFor,
  evidenceIndexOfHistory,
  evidenceIndexOfReport,
  operationKey,
  type EndpointEvidence,
} from '../src/contract/diff/changeEvidence.js';
import type { ContractChange } from '../src/contract/diff/contractChange.js';
import { expect, test } from './support/test.js';

// The evidence of a contract change's operation (issue 38): from a report's
// endpoints (calls, listed tests, tests not listed) or a history's runs
// (calls added up, tests unknown), matched by method and path template with
// parameter names erased, so that a report made without the document counts.

function changeOf(method: string, path: string, label = `${method} ${path}`): ContractChange {
  return {
    rule: 'response-property-removed',
    level: 'breaking',
    operation: { method, path, label },
    subject: { kind: 'responseProperty', status: '200', property: ['email'] },
    message: 'response 200: property email removed',
  };
}

function testOf(file: string, line: number, title: string) {
  return { title, file, line, column: 3, calls: 1, failedCalls: 0 };
}

const reporterRun = { total: 3, passed: 3, failed: 0, flaky: 0, skipped: 0 };

test('a report made with the document gives an operation exactly the tests and calls of its label', () => {
  const index = evidenceIndexOfReport({
    tests: reporterRun,
    endpoints: [
      {
        endpoint: 'GET /users/{id}',
        executionCount: 5,
        tests: [testOf('users.spec.ts', 20, 'b'), testOf('a.spec.ts', 4, 'a')],
        testCount: 2,
      },
      { endpoint: 'GET /users', executionCount: 7, tests: [testOf('list.spec.ts', 1, 'c')], testCount: 1 },
    ],
  });
  expect(evidenceFor(changeOf('GET', '/users/{id}'), index)).toEqual({
    exercised: true,
    labels: ['GET /users/{id}'],
    calls: 5,
    tests: [
      { file: 'a.spec.ts', line: 4, title: 'a' },
      { file: 'users.spec.ts', line: 20, title: 'b' },
    ],
    unlistedTestCount: 0,
  });
});

test('an operation no call reached is not exercised', () => {
  const index = evidenceIndexOfReport({
    tests: reporterRun,
    endpoints: [{ endpoint: 'GET /users', executionCount: 1, tests: [], testCount: 1 }],
  });
  expect(evidenceFor(changeOf('DELETE', '/users/{id}'), index)).toEqual({ exercised: false });
});

test('labels made without the document match by method and path with parameter names erased', () => {
  expect(operationKey('GET /users/{id}')).toBe('GET /users/{}');
  expect(operationKey('GET /users/:id')).toBe('GET /users/{}');
  expect(operationKey('get /users/:userId/')).toBe('GET /users/{}');
  expect(operationKey('GET /files/{name}.json')).toBe('GET /files/{}.json');
  expect(operationKey('GET //users/me')).toBe('GET /users/me');
  expect(operationKey('login')).toBe('login');
  const index = evidenceIndexOfReport({
    tests: reporterRun,
    endpoints: [
      { endpoint: 'GET /users/:id', executionCount: 2, tests: [testOf('a.spec.ts', 1, 'a')], testCount: 1 },
      { endpoint: 'GET /users/:userId', executionCount: 3, tests: [testOf('b.spec.ts', 1, 'b')], testCount: 1 },
      { endpoint: 'GET /users/me', executionCount: 9, tests: [testOf('c.spec.ts', 1, 'c')], testCount: 1 },
    ],
  });
  const evidence = evidenceFor(changeOf('GET', '/users/{id}'), index);
  expect(evidence).toMatchObject({ exercised: true, labels: ['GET /users/:id', 'GET /users/:userId'], calls: 5 });
  expect(evidence.exercised && evidence.tests?.map((found) => found.file)).toEqual(['a.spec.ts', 'b.spec.ts']);
});

test('a label with the base path matches an operation under it', () => {
  const index = evidenceIndexOfReport({
    tests: reporterRun,
    endpoints: [{ endpoint: 'GET /api/v1/users/:id', executionCount: 4, tests: [testOf('a.spec.ts', 1, 'a')], testCount: 1 }],
  });
  expect(evidenceFor(changeOf('GET', '/users/{id}'), index)).toEqual({ exercised: false });
  expect(evidenceFor(changeOf('GET', '/users/{id}'), index, ['', '/api/v1'])).toMatchObject({ exercised: true, calls: 4 });
});

test('tests a report does not list (past its limit per endpoint) are counted, never dropped unsaid', () => {
  const listed = Array.from({ length: 10 }, (_, at) => testOf('users.spec.ts', at + 1, `t${at}`));
  const index = evidenceIndexOfReport({
    tests: reporterRun,
    endpoints: [{ endpoint: 'GET /users/{id}', executionCount: 40, tests: listed, testCount: 14 }],
  });
  const evidence = evidenceFor(changeOf('GET', '/users/{id}'), index);
  expect(evidence).toMatchObject({ exercised: true, unlistedTestCount: 4 });
  expect(evidence.exercised && evidence.tests?.length).toBe(10);
});

test('a report of the reporter with an endpoint called outside tests gives it calls and no test', () => {
  const index = evidenceIndexOfReport({ tests: reporterRun, endpoints: [{ endpoint: 'POST /login', executionCount: 1 }] });
  expect(index.testsKnown).toBe(true);
  expect(evidenceFor(changeOf('POST', '/login'), index)).toEqual({
    exercised: true,
    labels: ['POST /login'],
    calls: 1,
    tests: [],
    unlistedTestCount: 0,
  });
});

test('a report the command made from record files names no tests: they are unknown, the calls counted', () => {
  const index = evidenceIndexOfReport({ endpoints: [{ endpoint: 'POST /login', executionCount: 3 }] });
  expect(index.testsKnown).toBe(false);
  expect(evidenceFor(changeOf('POST', '/login'), index)).toEqual({
    exercised: true,
    labels: ['POST /login'],
    calls: 3,
    tests: undefined,
    unlistedTestCount: 0,
  });
});

test("a history adds up every run's calls of an operation, labels of every spelling, and says tests are unknown", () => {
  const run = (...endpoints: EndpointEvidence[]) => ({ endpoints });
  const index = evidenceIndexOfHistory([
    run({ endpoint: 'GET /users/{id}', executionCount: 3 }),
    run({ endpoint: 'GET /users/:id', executionCount: 4 }, { endpoint: 'GET /users', executionCount: 1 }),
    run({ endpoint: 'GET /users/{id}', executionCount: 5 }),
  ]);
  expect(index).toMatchObject({ source: 'history', runCount: 3, testsKnown: false });
  expect(evidenceFor(changeOf('GET', '/users/{id}'), index)).toEqual({
    exercised: true,
    labels: ['GET /users/:id', 'GET /users/{id}'],
    calls: 12,
    tests: undefined,
    unlistedTestCount: 0,
  });
  expect(evidenceFor(changeOf('DELETE', '/users/{id}'), index)).toEqual({ exercised: false });
});

test('a label such as GET /__proto__ is an operation like any other', () => {
  const index = evidenceIndexOfReport({
    tests: reporterRun,
    endpoints: [{ endpoint: 'GET /__proto__', executionCount: 1, tests: [testOf('a.spec.ts', 1, 'a')], testCount: 1 }],
  });
  expect(evidenceFor(changeOf('GET', '/__proto__'), index)).toMatchObject({ exercised: true, calls: 1 });
  expect(evidenceFor(changeOf('GET', '/constructor'), index)).toEqual({ exercised: false });
});
