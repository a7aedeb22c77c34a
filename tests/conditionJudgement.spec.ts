import { expect, test } from './support/test.js';
import { conditionsOfOperation } from '../src/contract/conditions.js';
import type { Contract } from '../src/contract/contract.js';
import { loadContract } from '../src/contract/loadContract.js';
import { compareWithBaseline } from '../src/evaluation/baseline.js';
import { parseReport } from '../src/evaluation/parseReport.js';
import { contradictionInVerdict } from '../src/evaluation/evaluateBudgets.js';
import type { Judgement } from '../src/evaluation/judgeReport.js';
import { comparedRunOf } from '../src/history/historyBaseline.js';
import { historyRunOf } from '../src/history/historyLine.js';
import { historyRunSchema, isHistoryRun } from '../src/history/historyLineSchema.js';
import type { QualityReport } from '../src/report/qualityReport.js';
import { formatBudgetResult } from '../src/report/renderers/terminal.js';
import { createEvidenceRun } from '../src/run/evidenceRun.js';
import { parseBudgets } from '../src/workflow/judgement.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';

// How the judgement takes the conditions a run met (issue 36): the budget
// minConditionCoveragePercent, the conditions newly met and no longer met
// against a baseline (a report, an earlier version's, a history line), and
// what a history line keeps of them. Records carry the positions they met,
// as the recording fixture and the HAR reader write them; every position and
// every count below is read off the document by hand.

const DOCUMENT = `openapi: 3.1.0
info: { title: pets, version: '1' }
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - { name: status, in: query, schema: { type: string, enum: [available, sold] } }
        - { name: limit, in: query, required: true, schema: { type: integer, minimum: 1, maximum: 100 } }
      responses:
        '200': { description: ok }
        '400': { description: bad }
    post:
      operationId: addPet
      requestBody:
        content:
          application/json:
            schema:
              oneOf:
                - { type: object, required: [cat], properties: { cat: { type: string } } }
                - { type: object, required: [dog], properties: { dog: { type: string } } }
      responses:
        '201': { description: made }
  /health:
    get:
      operationId: health
      responses:
        default: { description: any }
`;

// GET /pets declares 9 conditions, in document order:
//   0 status sent, 1 status omitted, 2 status=available, 3 status=sold, 4 limit sent,
//   5 limit's minimum, 6 limit's maximum (a bound: reached exactly, and a value outside answered 4xx), 7 status 200, 8 status 400.
// POST /pets declares 3: 0 the cat branch, 1 the dog branch, 2 status 201. GET /health declares none (default is no status).
// The same document with a third value of status: GET /pets's list is another (its fingerprint too), POST /pets's is the same.
// In it GET /pets declares 10: 0 sent, 1 omitted, 2 available, 3 sold, 4 pending, 5 limit sent, 6 minimum, 7 maximum, 8 200, 9 400.
const DOCUMENT_V2 = DOCUMENT.replace('enum: [available, sold]', 'enum: [available, sold, pending]');
// And with a 400 that POST /pets declares: its list is another, GET /pets's the same.
const DOCUMENT_V3 = DOCUMENT.replace("'201': { description: made }", "'201': { description: made }\n        '400': { description: bad }");

async function contractOf(text: string): Promise<Contract> {
  return loadContract(['/api/openapi.yaml'], new MemoryFileSystem({ '/api/openapi.yaml': text }));
}

const contract = await contractOf(DOCUMENT);
const contractV2 = await contractOf(DOCUMENT_V2);
const contractV3 = await contractOf(DOCUMENT_V3);
const LIST = conditionsOfOperation(contract, 0).fingerprint;

/** A call of an operation: its status, and the positions of its list it met (bounds: reached) and overstepped. */
interface Call {
  readonly endpoint: string;
  readonly statusCode: number;
  readonly met?: readonly number[];
  readonly outside?: readonly number[];
}

/** The report of these calls, judged as a run with the contract (null: without one) and the rest of `judgement` judges it. */
function reportOf(calls: readonly Call[], judgement: Judgement = {}, of: Contract | null = contract): QualityReport {
  const run = createEvidenceRun(
    { environment: 'ci', slowResponseThresholdMs: 500 },
    { judgement: { ...(of === null ? {} : { contract: of }), ...judgement } },
  );
  calls.forEach(({ endpoint, statusCode, met, outside }, index) => {
    const list = of === null ? undefined : conditionsOfOperation(of, endpoint === 'GET /pets' ? 0 : 1).fingerprint;
    const conditions =
      met === undefined || list === undefined
        ? {}
        : { conditions: { fingerprint: list, met, ...(outside === undefined ? {} : { outside }) } };
    run.take({ endpoint, statusCode, responseTimeMs: 10, ...conditions }, () => ({ kind: 'list', listPath: 'executions', index }));
  });
  return run.finish();
}

// The baseline: status=sold with limit=1 (200), then limit=101 without status (400); a cat.
// GET /pets met 0, 1, 3, 4, 7, 8 (5 reached but nothing below it sent; 6 overstepped, never reached): 6 of 9.
// POST /pets met 0 and 2: 2 of 3. The run: 8 of 12, 66.67%.
const BASELINE_CALLS: readonly Call[] = [
  { endpoint: 'GET /pets', statusCode: 200, met: [0, 3, 4, 5] },
  { endpoint: 'GET /pets', statusCode: 400, met: [1, 4], outside: [6] },
  { endpoint: 'POST /pets', statusCode: 201, met: [0] },
];
// This run: status=available with limit=100 (200), then status=sold with limit=0 (400); a dog.
// GET /pets met 0, 2, 3, 4, 7, 8 (5 overstepped, never reached; 6 reached, overstepped only in the baseline): 6 of 9.
// Newly met: 2 (available); no longer met: 1 (status omitted). POST /pets met 1 and 2: newly met 1 (dog), no longer 0 (cat).
// The run: 8 of 12 again.
const CALLS: readonly Call[] = [
  { endpoint: 'GET /pets', statusCode: 200, met: [0, 2, 4, 6] },
  { endpoint: 'GET /pets', statusCode: 400, met: [0, 3, 4], outside: [5] },
  { endpoint: 'POST /pets', statusCode: 201, met: [1] },
];

test.describe('the budget minConditionCoveragePercent', () => {
  const judged = (budgets: string, withContract = true) =>
    reportOf(BASELINE_CALLS, { budgets: parseBudgets(budgets, 'budgets.json') }, withContract ? contract : null);

  test('run-wide, it is the contract section’s conditionCoveragePercent: 8 of 12 conditions met holds 66.67 and breaches 66.68', () => {
    expect(judged('{ "minConditionCoveragePercent": 66.67 }').budgets!.results).toStrictEqual([
      { budget: 'minConditionCoveragePercent', limit: 66.67, actual: 66.67, passed: true },
    ]);
    expect(judged('{ "minConditionCoveragePercent": 66.68 }').budgets!.results).toStrictEqual([
      { budget: 'minConditionCoveragePercent', limit: 66.68, actual: 66.67, passed: false },
    ]);
  });

  test(`per operation, by operationId or label, of its own conditions: 6 of 9 (66.67%) and 2 of 3 (66.67%); one that declares \
none measures nothing and is breached, as is a name that is no operation`, () => {
    const report = judged(
      JSON.stringify({
        operations: {
          listPets: { minConditionCoveragePercent: 66.67 },
          'POST /pets': { minConditionCoveragePercent: 70 },
          health: { minConditionCoveragePercent: 0 },
          nope: { minConditionCoveragePercent: 0 },
        },
      }),
    );
    expect(report.budgets!.results).toStrictEqual([
      { budget: 'minConditionCoveragePercent', operation: 'listPets', endpoint: 'GET /pets', limit: 66.67, actual: 66.67, passed: true },
      { budget: 'minConditionCoveragePercent', operation: 'POST /pets', endpoint: 'POST /pets', limit: 70, actual: 66.67, passed: false },
      { budget: 'minConditionCoveragePercent', operation: 'health', endpoint: 'GET /health', limit: 0, actual: null, passed: false },
      { budget: 'minConditionCoveragePercent', operation: 'nope', limit: 0, actual: null, passed: false },
    ]);
    expect(report.budgets!.results.map(formatBudgetResult).slice(0, 2)).toStrictEqual([
      'pass minConditionCoveragePercent of listPets (GET /pets): 66.67% (limit ≥ 66.67%)',
      'FAIL minConditionCoveragePercent of POST /pets: 66.67% (limit ≥ 70%)',
    ]);
    expect(contradictionInVerdict(report, report.budgets!)).toBeUndefined();
  });

  test('without a contract it measures nothing and is breached, run-wide and per operation', () => {
    expect(
      judged('{ "minConditionCoveragePercent": 0, "operations": { "addPet": { "minConditionCoveragePercent": 0 } } }', false).budgets!
        .results,
    ).toStrictEqual([
      { budget: 'minConditionCoveragePercent', limit: 0, actual: null, passed: false },
      { budget: 'minConditionCoveragePercent', operation: 'addPet', limit: 0, actual: null, passed: false },
    ]);
  });

  test('a verdict edited by hand contradicts the report', () => {
    const report = judged('{ "operations": { "addPet": { "minConditionCoveragePercent": 50 } } }');
    const edited = { ...report.budgets!, results: report.budgets!.results.map((result) => ({ ...result, actual: 100 })) };
    expect(contradictionInVerdict(report, edited)).toBe(
      'budgets.results[0] ("minConditionCoveragePercent" of "addPet") records 100 as measured, where the report\'s own numbers give 66.67',
    );
  });

  test('a budgets file refuses a share past 100%, run-wide and per operation', () => {
    expect(() =>
      parseBudgets('{ "minConditionCoveragePercent": 100.5, "operations": { "addPet": { "minConditionCoveragePercent": -1 } } }', 'b.json'),
    ).toThrow(
      'invalid budgets:\n  - minConditionCoveragePercent in "b.json": must be a percentage from 0 to 100\n' +
        '  - operations.addPet.minConditionCoveragePercent in "b.json": must be a percentage from 0 to 100',
    );
  });
});

test.describe('the conditions newly met and no longer met against a baseline', () => {
  const baseline = reportOf(BASELINE_CALLS);
  const compared = (report: QualityReport, against: Parameters<typeof compareWithBaseline>[1], of: Contract = contract) =>
    compareWithBaseline(report, against, { contract: of }).contract!;

  test('each the contract section’s shape, operations in the contract’s order, conditions in document order, counted', () => {
    const comparison = compared(reportOf(CALLS), baseline);
    expect(comparison.conditionCoveragePercent).toStrictEqual({ before: 66.67, after: 66.67 });
    expect([comparison.newlyMetConditions, comparison.newlyMetConditionCount]).toStrictEqual([
      [
        {
          operation: 'GET /pets',
          condition: {
            kind: 'enumValue',
            where: '#/paths/~1pets/get/parameters/0/schema/enum/0',
            value: 'available',
            direction: 'request',
            parameter: { name: 'status', in: 'query' },
          },
        },
        {
          operation: 'POST /pets',
          condition: {
            kind: 'branch',
            where: '#/paths/~1pets/post/requestBody/content/application~1json/schema/oneOf/1',
            keyword: 'oneOf',
            direction: 'request',
          },
        },
      ],
      2,
    ]);
    expect([comparison.noLongerMetConditions, comparison.noLongerMetConditionCount]).toStrictEqual([
      [
        {
          operation: 'GET /pets',
          condition: {
            kind: 'parameter',
            where: '#/paths/~1pets/get/parameters/0',
            name: 'status',
            in: 'query',
            required: false,
            case: 'omitted',
          },
        },
        {
          operation: 'POST /pets',
          condition: {
            kind: 'branch',
            where: '#/paths/~1pets/post/requestBody/content/application~1json/schema/oneOf/0',
            keyword: 'oneOf',
            direction: 'request',
          },
        },
      ],
      2,
    ]);
    expect([comparison.conditionListChangedOperations, comparison.conditionListChangedOperationCount]).toStrictEqual([[], 0]);
  });

  test('a bound is met with both halves in one run; listed, it says how far the run that did not meet it went', () => {
    // The baseline overstepped the maximum (limit=101, 400); this run reaches it (limit=100) and oversteps it again.
    const report = reportOf([
      { endpoint: 'GET /pets', statusCode: 200, met: [4, 6] },
      { endpoint: 'GET /pets', statusCode: 400, met: [4], outside: [6] },
    ]);
    const comparison = compared(report, baseline);
    expect(comparison.newlyMetConditions).toStrictEqual([
      {
        operation: 'GET /pets',
        condition: {
          kind: 'bound',
          where: '#/paths/~1pets/get/parameters/1/schema/maximum',
          keyword: 'maximum',
          value: 100,
          parameter: { name: 'limit', in: 'query' },
          reached: false,
          outside: true,
        },
      },
    ]);
    // No longer met: of GET /pets 0, 1, 3 (7 and 8 still seen); all of POST /pets's 0 and 2, which this run never called.
    expect(comparison.noLongerMetConditions!.map(({ operation, condition }) => `${operation} ${condition.where}`)).toStrictEqual([
      'GET /pets #/paths/~1pets/get/parameters/0',
      'GET /pets #/paths/~1pets/get/parameters/0',
      'GET /pets #/paths/~1pets/get/parameters/0/schema/enum/1',
      'POST /pets #/paths/~1pets/post/requestBody/content/application~1json/schema/oneOf/0',
      'POST /pets #/paths/~1pets/post/responses/201',
    ]);
  });

  test(`an operation the baseline called with another list of conditions (the document changed them) is named, its \
conditions not compared; the others are`, () => {
    const report = reportOf(
      [
        { endpoint: 'GET /pets', statusCode: 200, met: [0, 2, 5, 7] },
        { endpoint: 'GET /pets', statusCode: 400, met: [0, 3, 5], outside: [6] },
        { endpoint: 'POST /pets', statusCode: 201, met: [1] },
      ],
      {},
      contractV2,
    );
    const comparison = compared(report, baseline, contractV2);
    expect([comparison.conditionListChangedOperations, comparison.conditionListChangedOperationCount]).toStrictEqual([['GET /pets'], 1]);
    expect(comparison.newlyMetConditions!.map(({ operation, condition }) => `${operation} ${condition.kind}`)).toStrictEqual([
      'POST /pets branch',
    ]);
    expect(comparison.noLongerMetConditions!.map(({ operation, condition }) => `${operation} ${condition.kind}`)).toStrictEqual([
      'POST /pets branch',
    ]);
    // GET /pets met 0, 2, 3, 5, 8, 9 of its 10 (pending never sent), POST /pets 2 of 3: 8 of 13.
    expect(comparison.conditionCoveragePercent).toStrictEqual({ before: 66.67, after: 61.54 });
  });

  test(`an operation the baseline did not call met none there, whatever its list: what it meets now is newly met, and it is \
not named as changed`, () => {
    const withoutPost = reportOf(
      BASELINE_CALLS.filter((call) => call.endpoint === 'GET /pets'),
      {},
      contractV3,
    );
    const comparison = compared(reportOf(CALLS), withoutPost);
    expect(comparison.newlyMetConditions!.map(({ operation, condition }) => `${operation} ${condition.where}`)).toStrictEqual([
      'GET /pets #/paths/~1pets/get/parameters/0/schema/enum/0',
      'POST /pets #/paths/~1pets/post/requestBody/content/application~1json/schema/oneOf/1',
      'POST /pets #/paths/~1pets/post/responses/201',
    ]);
    expect([comparison.conditionListChangedOperations, comparison.conditionListChangedOperationCount]).toStrictEqual([[], 0]);
  });

  test(`a baseline whose bit sets run far past its list (24 million positions) is read for the list's positions alone: \
compared, not failed`, () => {
    const everything = Buffer.alloc(3_000_000, 0xff).toString('base64');
    const hostile = {
      ...baseline,
      endpoints: baseline.endpoints.map((entry) =>
        entry.endpoint === 'GET /pets'
          ? { ...entry, conditionsMet: [{ fingerprint: LIST, callCount: 2, met: everything, outside: everything }] }
          : entry,
      ),
    };
    const comparison = compared(reportOf(CALLS), hostile);
    // The baseline met every one of GET /pets's 9; this run 0, 2, 3, 4, 7, 8: 1, 5 and 6 are no longer met, none newly.
    expect(
      comparison.noLongerMetConditions!.filter(({ operation }) => operation === 'GET /pets').map(({ condition }) => condition.where),
    ).toStrictEqual([
      '#/paths/~1pets/get/parameters/0',
      '#/paths/~1pets/get/parameters/1/schema/minimum',
      '#/paths/~1pets/get/parameters/1/schema/maximum',
    ]);
    expect(comparison.newlyMetConditions!.filter(({ operation }) => operation === 'GET /pets')).toStrictEqual([]);
  });

  test('without the document the coverage is compared, and no condition is listed', () => {
    const comparison = compareWithBaseline(reportOf(CALLS), baseline).contract!;
    expect(comparison.conditionCoveragePercent).toStrictEqual({ before: 66.67, after: 66.67 });
    expect(Object.keys(comparison).filter((key) => key.includes('Met') || key.startsWith('conditionList'))).toStrictEqual([]);
  });

  test('a baseline of a version that counted no conditions reads; its coverage is null, and nothing is listed', () => {
    const old = JSON.parse(JSON.stringify(baseline)) as Record<string, unknown> & { contract: Record<string, unknown> };
    for (const key of ['conditionCount', 'coveredConditionCount', 'conditionCoveragePercent', 'examinedCallCount'])
      Reflect.deleteProperty(old.contract, key);
    for (const operation of old.contract['operations'] as Record<string, unknown>[]) delete operation['conditions'];
    for (const entry of old['endpoints'] as Record<string, unknown>[]) delete entry['conditionsMet'];
    const comparison = compared(reportOf(CALLS), parseReport(JSON.stringify(old), 'old.json'));
    expect(comparison.conditionCoveragePercent).toStrictEqual({ before: null, after: 66.67 });
    expect(Object.keys(comparison).filter((key) => key.includes('Met') || key.startsWith('conditionList'))).toStrictEqual([]);
  });
});

test.describe('a history line', () => {
  const baseline = reportOf(BASELINE_CALLS);
  const line = JSON.parse(JSON.stringify(historyRunOf(baseline, { time: '2026-11-27T00:00:00.000Z', branch: 'main' }))) as unknown;

  test('keeps the run’s condition coverage, and per operation’s endpoint the list counted, the statuses seen and what was met', () => {
    expect(isHistoryRun(line)).toBe(true);
    expect(historyRunSchema.safeParse(line).success).toBe(true);
    const run = historyRunSchema.parse(line);
    expect(run.contract).toStrictEqual({
      operationCoveragePercent: 66.67,
      responseCoveragePercent: 100,
      conditionCount: 12,
      coveredConditionCount: 8,
      uncalledOperations: ['GET /health'],
    });
    const { endpoint, conditionLists, statuses } = run.endpoints[0]!;
    // Positions 0, 1, 3, 4, 5 met (bits 0b00111011, 59), by 1, 1, 1, 2 and 1 calls, and 6 overstepped (bit 6, 64).
    expect({ endpoint, conditionLists, statuses }).toStrictEqual({
      endpoint: 'GET /pets',
      conditionLists: [
        {
          fingerprint: LIST,
          met: Buffer.from([59]).toString('base64'),
          metCounts: [1, 1, 1, 2, 1],
          outside: Buffer.from([64]).toString('base64'),
        },
      ],
      statuses: ['200', '400'],
    });
  });

  test('as a baseline, compares the contract and its conditions exactly as the report it was made from', () => {
    const report = reportOf(CALLS);
    const fromHistory = compareWithBaseline(report, comparedRunOf(historyRunSchema.parse(line)), { contract }).contract;
    const fromReport = compareWithBaseline(report, baseline, { contract }).contract;
    expect(fromHistory).toStrictEqual(fromReport);
    expect(fromHistory?.newlyMetConditionCount).toBe(2);
  });

  test('of a version before condition coverage reads, and compares no contract', () => {
    const old = JSON.parse(JSON.stringify(line)) as Record<string, unknown>;
    delete old['contract'];
    for (const entry of old['endpoints'] as Record<string, unknown>[])
      for (const key of ['conditionLists', 'statuses']) Reflect.deleteProperty(entry, key);
    expect(isHistoryRun(old)).toBe(true);
    expect(compareWithBaseline(reportOf(CALLS), comparedRunOf(historyRunSchema.parse(old)), { contract }).contract).toBeUndefined();
  });
});
