import { conditionsOfOperation, type Condition } from '../src/contract/conditions.js';
import type { Contract } from '../src/contract/contract.js';
import { evidenceIndexOfHistory, evidenceIndexOfReport } from '../src/contract/diff/changeEvidence.js';
import { diffContracts } from '../src/contract/diff/diffContracts.js';
import { loadContract } from '../src/contract/loadContract.js';
import {
  conditionWeightsOfHistory,
  conditionWeightsOfReport,
  weighChanges,
  weighedSummary,
  weighedSummaryLine,
  type WeighedChange,
} from '../src/evaluation/weighedChanges.js';
import type { HistoryRun } from '../src/history/historyLine.js';
import { nodeFileSystem } from '../src/io/fileSystem.js';
import type { QualityReport } from '../src/report/qualityReport.js';
import { encodePositions } from '../src/summary/conditionTally.js';
import { expect, test } from './support/test.js';

// Each contract change weighed by a run's evidence (issue 38): the tests and
// calls of its operation, and how many calls carried the property or the
// parameter that changed, read from the counts of the conditions met of the
// document the run was checked against. Pairs of tests/contract-diff/, and
// reports made by hand with exactly the fields the weighing reads.

const PAIRS = 'tests/contract-diff';

async function pair(name: string): Promise<{ base: Contract; head: Contract }> {
  return {
    base: await loadContract([`${PAIRS}/${name}/base.yaml`], nodeFileSystem),
    head: await loadContract([`${PAIRS}/${name}/head.yaml`], nodeFileSystem),
  };
}

/** The list of an operation's conditions in a contract, and the position of the first condition a test picks. */
function listOf(contract: Contract, label: string) {
  const index = contract.operations.findIndex((operation) => operation.label === label);
  const listed = conditionsOfOperation(contract, index);
  return {
    fingerprint: listed.fingerprint,
    at: (pick: (condition: Condition) => boolean) => {
      const position = listed.conditions.findIndex(pick);
      expect(position).toBeGreaterThanOrEqual(0);
      return position;
    },
  };
}

/** A conditionsMet entry: positions met with their counts. */
function met(fingerprint: string, callCount: number, counts: ReadonlyMap<number, number>) {
  const positions = [...counts.keys()].sort((a, b) => a - b);
  return {
    fingerprint,
    callCount,
    met: encodePositions(positions),
    outside: '',
    metCounts: positions.map((position) => counts.get(position)!),
  };
}

const TESTS = [
  { file: 'users.spec.ts', line: 12, title: 'users.spec.ts › lists users' },
  { file: 'users.spec.ts', line: 30, title: 'users.spec.ts › pages through users' },
];

function reportOf(endpoints: readonly object[]): QualityReport {
  return { tests: { total: 2, passed: 2, failed: 0, flaky: 0, skipped: 0 }, endpoints } as unknown as QualityReport;
}

function bodies(schemaViolationCount = 0, notValidatedCount = 0) {
  return { validatedCount: 3, schemaViolationCount, notValidatedCount, topViolations: [], notValidatedReasons: {} };
}

function weigh(contracts: { base: Contract; head: Contract }, report: QualityReport): WeighedChange[] {
  const weights = { index: evidenceIndexOfReport(report), conditions: conditionWeightsOfReport(report) };
  return weighChanges(diffContracts(contracts.base, contracts.head), contracts.base, contracts.head, weights);
}

test('a removed optional response property: present in as many responses answered its status as met its condition', async () => {
  const contracts = await pair('13-response-property-removed');
  const list = listOf(contracts.base, 'GET /users');
  const answered = list.at((condition) => condition.kind === 'status' && condition.status === '200');
  const nickname = list.at((condition) => condition.kind === 'optionalProperty' && condition.name === 'nickname');
  const report = reportOf([
    {
      endpoint: 'GET /users',
      executionCount: 4,
      tests: TESTS,
      testCount: 2,
      conditionsMet: [
        met(
          list.fingerprint,
          4,
          new Map([
            [answered, 3],
            [nickname, 2],
          ]),
        ),
      ],
      bodies: bodies(),
    },
  ]);
  expect(weigh(contracts, report).map(({ rule, evidence }) => ({ rule, evidence }))).toEqual([
    {
      rule: 'response-property-removed',
      evidence: {
        exercised: true,
        calls: 4,
        tests: TESTS,
        unlistedTestCount: 0,
        presence: { direction: 'response', status: '200', of: 3, present: 2 },
      },
    },
  ]);
});

test('a required response property made optional: every response that conformed carried it; a bound when some did not', async () => {
  const contracts = await pair('14-response-property-made-optional');
  const list = listOf(contracts.base, 'GET /users');
  const answered = list.at((condition) => condition.kind === 'status' && condition.status === '200');
  const endpoint = (schemaViolations: number, notValidated: number) =>
    reportOf([
      {
        endpoint: 'GET /users',
        executionCount: 5,
        tests: TESTS,
        testCount: 2,
        conditionsMet: [met(list.fingerprint, 5, new Map([[answered, 5]]))],
        bodies: bodies(schemaViolations, notValidated),
      },
    ]);
  const presenceOf = (report: QualityReport) => weigh(contracts, report).map(({ evidence }) => evidence.exercised && evidence.presence);
  expect(presenceOf(endpoint(0, 0))).toEqual([{ direction: 'response', status: '200', of: 5, present: 5 }]);
  expect(presenceOf(endpoint(1, 1))).toEqual([{ direction: 'response', status: '200', of: 5, present: 3, atLeast: true }]);
});

test('a request property made required: sent by as many calls as met its optional condition in BASE', async () => {
  const contracts = await pair('31-request-property-made-required');
  const list = listOf(contracts.base, 'POST /users');
  const nickname = list.at((condition) => condition.kind === 'optionalProperty' && condition.name === 'nickname');
  const report = reportOf([
    {
      endpoint: 'POST /users',
      executionCount: 6,
      tests: TESTS.slice(0, 1),
      testCount: 1,
      conditionsMet: [met(list.fingerprint, 6, new Map([[nickname, 2]]))],
      bodies: bodies(),
    },
  ]);
  const [change] = weigh(contracts, report);
  expect(change!.rule).toBe('request-property-made-required');
  expect(change!.evidence).toEqual({
    exercised: true,
    calls: 6,
    tests: TESTS.slice(0, 1),
    unlistedTestCount: 0,
    presence: { direction: 'request', of: 6, present: 2 },
  });
});

test('a query parameter made required: sent by as many calls as met its "sent" condition', async () => {
  const contracts = await pair('21-request-parameter-made-required');
  const list = listOf(contracts.base, 'GET /users');
  const sent = list.at((condition) => condition.kind === 'parameter' && condition.name === 'limit' && condition.case === 'sent');
  const report = reportOf([
    {
      endpoint: 'GET /users',
      executionCount: 8,
      tests: TESTS,
      testCount: 2,
      conditionsMet: [met(list.fingerprint, 8, new Map([[sent, 5]]))],
      bodies: bodies(),
    },
  ]);
  expect(weigh(contracts, report).map(({ rule, evidence }) => [rule, evidence.exercised && evidence.presence])).toEqual([
    ['request-parameter-made-required', { direction: 'request', of: 8, present: 5 }],
  ]);
});

test('no presence when the run was checked against neither document, or its report has no counts; the calls and tests all the same', async () => {
  const contracts = await pair('13-response-property-removed');
  const list = listOf(contracts.base, 'GET /users');
  const entry = met(list.fingerprint, 4, new Map([[0, 4]]));
  const other = { ...entry, fingerprint: '0123456789abcdef' };
  const { metCounts: _dropped, ...uncounted } = entry;
  for (const conditionsMet of [[other], [uncounted]]) {
    const report = reportOf([{ endpoint: 'GET /users', executionCount: 4, tests: TESTS, testCount: 2, conditionsMet, bodies: bodies() }]);
    expect(weigh(contracts, report).map(({ evidence }) => evidence)).toEqual([
      { exercised: true, calls: 4, tests: TESTS, unlistedTestCount: 0 },
    ]);
  }
});

test('an operation no call reached is not exercised', async () => {
  const contracts = await pair('07-operation-removed');
  const report = reportOf([{ endpoint: 'GET /users', executionCount: 2, tests: TESTS, testCount: 2 }]);
  expect(weigh(contracts, report).map(({ rule, evidence }) => [rule, evidence])).toEqual([['operation-removed', { exercised: false }]]);
});

test('a history adds up its runs: calls and the counts of each list; no tests, and no bound for a required property', async () => {
  const contracts = await pair('13-response-property-removed');
  const list = listOf(contracts.base, 'GET /users');
  const answered = list.at((condition) => condition.kind === 'status' && condition.status === '200');
  const nickname = list.at((condition) => condition.kind === 'optionalProperty' && condition.name === 'nickname');
  const run = (calls: number, withNickname: number) =>
    ({
      endpoints: [
        {
          endpoint: 'GET /users',
          executionCount: calls,
          conditionLists: [
            met(
              list.fingerprint,
              calls,
              new Map([
                [answered, calls],
                [nickname, withNickname],
              ]),
            ),
          ],
        },
      ],
    }) as unknown as HistoryRun;
  const runs = [run(3, 3), run(4, 1)];
  const weights = { index: evidenceIndexOfHistory(runs), conditions: conditionWeightsOfHistory(runs) };
  const weighed = weighChanges(diffContracts(contracts.base, contracts.head), contracts.base, contracts.head, weights);
  expect(weighed.map(({ evidence }) => evidence)).toEqual([
    { exercised: true, calls: 7, unlistedTestCount: 0, presence: { direction: 'response', status: '200', of: 7, present: 4 } },
  ]);
  expect(weighedSummaryLine(weighed, weights.index)).toBe('1 breaking change: 1 exercised by 7 calls in 2 runs');
});

test('the summary line: each test once however many changes it reaches, "at least" when a report left tests unlisted', () => {
  const change = (level: WeighedChange['level'], evidence: WeighedChange['evidence']) => ({ level, evidence }) as WeighedChange;
  const exercised = (tests: typeof TESTS, unlistedTestCount = 0) => ({ exercised: true, calls: 3, tests, unlistedTestCount }) as const;
  const known = { testsKnown: true, runCount: 1 };
  const changes = [
    change('breaking', exercised(TESTS)),
    change('breaking', exercised(TESTS.slice(0, 1))),
    change('breaking', { exercised: false }),
    change('warning', exercised(TESTS)),
    change('info', { exercised: false }),
  ];
  expect(weighedSummaryLine(changes, known)).toBe('3 breaking changes: 2 exercised by 2 tests, 1 not exercised by any test');
  expect(weighedSummary(changes)).toEqual({ breaking: 3, warning: 1, info: 1, breakingExercised: 2 });
  expect(weighedSummaryLine([change('breaking', exercised(TESTS, 4))], known)).toBe('1 breaking change: 1 exercised by at least 2 tests');
  expect(weighedSummaryLine([change('breaking', { exercised: false })], known)).toBe('1 breaking change: 1 not exercised by any test');
  expect(weighedSummaryLine([change('warning', exercised(TESTS))], known)).toBe('0 breaking changes');
});
