import { expect, test } from './support/test.js';
import type { Contract, ContractOperation } from '../src/contract/contract.js';
import { contractCoverage } from '../src/evaluation/contractCoverage.js';
import { compareContracts } from '../src/evaluation/contractComparison.js';
import { buildReport, compareWithBaseline, summariseExecutions, type QualityReport } from '../src/index.js';
import type { ContractCoverage } from '../src/report/contractSchemas.js';
import { CONTRACT_CHANGE_LIMIT } from '../src/report/verdictSchemas.js';

// What a run did to the contract against a baseline, from the two reports'
// contract sections: every expected value is counted by hand from the calls
// and the operations written here.

function operation(method: string, path: string, statuses: readonly string[], extra: Partial<ContractOperation> = {}): ContractOperation {
  return {
    method,
    path,
    basePaths: [''],
    integerParameters: [],
    label: `${method} ${path}`,
    tags: [],
    deprecated: false,
    responses: statuses.map((status) => ({ status, content: [] })),
    documentIndex: 0,
    ...extra,
  };
}

const contract: Contract = {
  documents: [{ path: 'openapi.yaml', version: '3.0', bundled: {} }],
  operations: [
    operation('GET', '/users', ['200']),
    operation('POST', '/users', ['201', '400']),
    operation('GET', '/users/{id}', ['200', '404']),
    operation('DELETE', '/users/{id}', ['204']),
  ],
};

type Call = readonly [string, number];

function reportOf(calls: readonly Call[]): QualityReport {
  const records = calls.map(([endpoint, statusCode]) => ({ endpoint, statusCode, responseTimeMs: 10 }));
  return buildReport(summariseExecutions(records, 750), { environment: 'ci', slowResponseThresholdMs: 750 });
}

/** A contract section of these calls, with each operation's bodies off their schema as given (the calls carry no body checks). */
function coverageOf(calls: readonly Call[], violations: Readonly<Record<string, number>> = {}, of: Contract = contract): ContractCoverage {
  const coverage = contractCoverage(reportOf(calls), of);
  return {
    ...coverage,
    operations: coverage.operations.map((entry) => ({ ...entry, schemaViolationCount: violations[entry.endpoint] ?? 0 })),
  };
}

const before = coverageOf(
  [
    ['GET /users', 200],
    ['POST /users', 201],
    ['GET /users/{id}', 200],
    ['GET /users/{id}', 500],
  ],
  { 'GET /users': 2, 'POST /users': 1 },
);
const after = coverageOf(
  [
    ['GET /users', 200],
    ['GET /users', 503],
    ['GET /users/{id}', 200],
    ['GET /users/{id}', 500],
    ['GET /users/{id}', 502],
    ['DELETE /users/{id}', 204],
  ],
  { 'GET /users': 5, 'POST /users': 0, 'DELETE /users/{id}': 1 },
);
const compared = compareContracts(after, before);

test('operation and response coverage as before and after pairs', () => {
  // Before: 3 of 4 operations, 3 of 6 declared responses (200, 201, 200); after: 3 of 4, 3 of 6 (200, 200, 204).
  expect([compared.operationCoveragePercent, compared.responseCoveragePercent]).toStrictEqual([
    { before: 75, after: 75 },
    { before: 50, after: 50 },
  ]);
});

test('operations called now and never in the baseline are newly exercised; called then and never now, no longer exercised', () => {
  expect([
    compared.newlyExercisedOperations,
    compared.newlyExercisedOperationCount,
    compared.noLongerExercisedOperations,
    compared.noLongerExercisedOperationCount,
  ]).toStrictEqual([['DELETE /users/{id}'], 1, ['POST /users'], 1]);
});

test('statuses undeclared now and not in the baseline, by operation, in the document’s order, statuses ascending', () => {
  // GET /users/{id} had 500 undeclared before: only 502 is new; GET /users's 503 is new.
  expect([compared.newUndeclaredStatuses, compared.newUndeclaredStatusCount]).toStrictEqual([
    [
      { operation: 'GET /users', status: '503' },
      { operation: 'GET /users/{id}', status: '502' },
    ],
    2,
  ]);
});

test('bodies off their schema before and after, for each operation whose count changed: the largest increase first, decreases last', () => {
  expect([compared.schemaViolationChanges, compared.schemaViolationChangeCount]).toStrictEqual([
    [
      { operation: 'GET /users', schemaViolationCount: { before: 2, after: 5 } },
      { operation: 'DELETE /users/{id}', schemaViolationCount: { before: 0, after: 1 } },
      { operation: 'POST /users', schemaViolationCount: { before: 1, after: 0 } },
    ],
    3,
  ]);
});

test("an operation the baseline's contract lacks was never called there, and its bodies off their schema compare from null", () => {
  const smaller: Contract = { ...contract, operations: contract.operations.filter((entry) => entry.method !== 'DELETE') };
  const older = coverageOf([['GET /users', 200]], {}, smaller);
  const now = coverageOf([['DELETE /users/{id}', 418]], { 'DELETE /users/{id}': 1 });
  const { newlyExercisedOperations, newUndeclaredStatuses, schemaViolationChanges } = compareContracts(now, older);
  expect([newlyExercisedOperations, newUndeclaredStatuses, schemaViolationChanges]).toStrictEqual([
    ['DELETE /users/{id}'],
    [{ operation: 'DELETE /users/{id}', status: '418' }],
    [{ operation: 'DELETE /users/{id}', schemaViolationCount: { before: null, after: 1 } }],
  ]);
});

test("an operation this report's contract dropped is left out: no longer the contract's, it is not said to be no longer exercised", () => {
  const smaller: Contract = { ...contract, operations: contract.operations.filter((entry) => entry.method !== 'POST') };
  const { noLongerExercisedOperations, noLongerExercisedOperationCount } = compareContracts(coverageOf([], {}, smaller), before);
  expect([noLongerExercisedOperations, noLongerExercisedOperationCount]).toStrictEqual([['GET /users', 'GET /users/{id}'], 2]);
});

test(`each list holds at most ${CONTRACT_CHANGE_LIMIT}; its count counts them all`, () => {
  const many: Contract = {
    ...contract,
    operations: Array.from({ length: CONTRACT_CHANGE_LIMIT + 5 }, (_, index) => operation('GET', `/items-${index}`, ['200'])),
  };
  const now = coverageOf(
    many.operations.map((entry): Call => [entry.label, 500]),
    {},
    many,
  );
  const { newlyExercisedOperations, newlyExercisedOperationCount, newUndeclaredStatuses, newUndeclaredStatusCount } = compareContracts(
    now,
    coverageOf([], {}, many),
  );
  expect([
    newlyExercisedOperations.length,
    newlyExercisedOperationCount,
    newUndeclaredStatuses.length,
    newUndeclaredStatusCount,
  ]).toStrictEqual([CONTRACT_CHANGE_LIMIT, CONTRACT_CHANGE_LIMIT + 5, CONTRACT_CHANGE_LIMIT, CONTRACT_CHANGE_LIMIT + 5]);
});

test('the baseline comparison has a contract section only when both reports have one', () => {
  const calls: Call[] = [['GET /users', 200]];
  const withContract = { ...reportOf(calls), contract: coverageOf(calls) };
  expect([
    compareWithBaseline(withContract, withContract).contract?.operationCoveragePercent,
    'contract' in compareWithBaseline(withContract, reportOf(calls)),
    'contract' in compareWithBaseline(reportOf(calls), withContract),
  ]).toStrictEqual([{ before: 25, after: 25 }, false, false]);
});
