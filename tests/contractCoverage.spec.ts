import { expect, test } from './support/test.js';
import type { Contract, ContractOperation } from '../src/contract/contract.js';
import { contractCoverage } from '../src/evaluation/contractCoverage.js';
import { judgeReport } from '../src/evaluation/judgeReport.js';
import { buildReport, renderHtml, renderMarkdown, renderTerminal, summariseExecutions, type QualityReport } from '../src/index.js';
import { qualityReportSchema } from '../src/report/qualityReport.js';
import type { Budgets } from '../src/config/budgetsSchema.js';
import { contradictionInVerdict } from '../src/evaluation/evaluateBudgets.js';
import type { BudgetResult } from '../src/report/verdictSchemas.js';
import { formatBudgetResult, formatHeadline } from '../src/report/renderers/terminal.js';
import { parseBudgets } from '../src/workflow/judgement.js';
import { thrownBy } from './support/failures.js';
import { createEvidenceRun } from '../src/run/evidenceRun.js';
import type { BodyCheck } from '../src/records/bodyCheck.js';

// Coverage of a contract, from a report's endpoints: every number below is
// counted by hand from the calls and the operations written here.

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
    operation('GET', '/users', ['200', 'default'], { operationId: 'listUsers', tags: ['users'] }),
    operation('POST', '/users', ['201', '400', '4XX'], { tags: ['users'] }),
    operation('GET', '/users/{id}', ['200', '404'], { operationId: 'getUser', tags: ['users'], deprecated: true }),
    operation('DELETE', '/users/{id}', ['204'], { tags: ['admin'] }),
  ],
};

function reportOf(calls: readonly (readonly [string, number, number])[]): QualityReport {
  const records = calls.map(([endpoint, statusCode, responseTimeMs]) => ({ endpoint, statusCode, responseTimeMs }));
  return buildReport(summariseExecutions(records, 750), { environment: 'ci', slowResponseThresholdMs: 750 });
}

const report = reportOf([
  ['GET /users', 200, 10],
  ['GET /users', 503, 30],
  ['POST /users', 201, 20],
  ['POST /users', 422, 25],
  ['GET /users/{id}', 200, 5],
  ['GET /users/{id}', 500, 8],
  ['GET /health', 200, 1],
  ['GET /helth', 200, 2],
  ['GET /helth', 200, 2],
]);

test('each operation, in document order, with what its calls got against what it declares', () => {
  const coverage = contractCoverage(report, contract);
  expect(
    coverage.operations.map(
      ({ endpoint, executionCount, failedExecutionCount, seenStatuses, undeclaredStatuses, unseenDeclaredStatuses }) => ({
        endpoint,
        executionCount,
        failedExecutionCount,
        seenStatuses,
        undeclaredStatuses,
        unseenDeclaredStatuses,
      }),
    ),
  ).toStrictEqual([
    // default declares every status: 503 is no undeclared status.
    {
      endpoint: 'GET /users',
      executionCount: 2,
      failedExecutionCount: 1,
      seenStatuses: ['200', '503'],
      undeclaredStatuses: [],
      unseenDeclaredStatuses: [],
    },
    // 422 is within 4XX; 400 itself was never seen, the range was.
    {
      endpoint: 'POST /users',
      executionCount: 2,
      failedExecutionCount: 1,
      seenStatuses: ['201', '422'],
      undeclaredStatuses: [],
      unseenDeclaredStatuses: ['400'],
    },
    {
      endpoint: 'GET /users/{id}',
      executionCount: 2,
      failedExecutionCount: 1,
      seenStatuses: ['200', '500'],
      undeclaredStatuses: ['500'],
      unseenDeclaredStatuses: ['404'],
    },
    {
      endpoint: 'DELETE /users/{id}',
      executionCount: 0,
      failedExecutionCount: 0,
      seenStatuses: [],
      undeclaredStatuses: [],
      unseenDeclaredStatuses: ['204'],
    },
  ]);
});

test('the totals: operations and responses (default left out) covered, percentages to 2 decimals', () => {
  const {
    operationCount,
    exercisedOperationCount,
    operationCoveragePercent,
    declaredResponseCount,
    exercisedResponseCount,
    responseCoveragePercent,
  } = contractCoverage(report, contract);
  // Responses: 200 | 201 400 4XX | 200 404 | 204 = 7 declared; 200, 201, 4XX, 200 exercised = 4.
  expect({
    operationCount,
    exercisedOperationCount,
    operationCoveragePercent,
    declaredResponseCount,
    exercisedResponseCount,
    responseCoveragePercent,
  }).toStrictEqual({
    operationCount: 4,
    exercisedOperationCount: 3,
    operationCoveragePercent: 75,
    declaredResponseCount: 7,
    exercisedResponseCount: 4,
    responseCoveragePercent: 57.14,
  });
});

test('calls that match no operation are listed with their counts; deprecated operations called are named', () => {
  const coverage = contractCoverage(report, contract);
  expect(coverage.unmatchedEndpoints).toStrictEqual([
    { endpoint: 'GET /health', executionCount: 1 },
    { endpoint: 'GET /helth', executionCount: 2 },
  ]);
  expect(coverage.deprecatedOperationsCalled).toStrictEqual(['GET /users/{id}']);
});

test('an operation never called has every statistic null, and its operationId only when the document gives one', () => {
  const [listUsers, createUser, , deleteUser] = contractCoverage(report, contract).operations;
  expect(listUsers?.operationId).toBe('listUsers');
  expect(createUser !== undefined && 'operationId' in createUser).toBe(false);
  expect(deleteUser?.responseTimeMs).toStrictEqual({
    min: null,
    mean: null,
    p50: null,
    p90: null,
    p95: null,
    p99: null,
    max: null,
    source: 'exact',
  });
  expect(listUsers?.responseTimeMs.max).toBe(30);
});

test('with nothing to cover, the percentages are null, not 100', () => {
  const coverage = contractCoverage(reportOf([['GET /x', 200, 1]]), {
    documents: [{ path: 'empty.json', version: '3.1', bundled: {} }],
    operations: [],
  });
  expect([coverage.operationCoveragePercent, coverage.responseCoveragePercent]).toStrictEqual([null, null]);
});

test('a judged report carries the contract section before the baseline and the budgets, and the report schema accepts it', () => {
  const judged = judgeReport(report, { contract, budgets: { maxFailedExecutions: 10 } });
  expect(Object.keys(judged).slice(-2)).toStrictEqual(['contract', 'budgets']);
  expect(qualityReportSchema.safeParse(judged).success).toBe(true);
  expect(Object.hasOwn(judgeReport(report, {}), 'contract')).toBe(false);
});

test.describe('budgets on the contract', () => {
  const judged = (budgets: Budgets, withContract = true): BudgetResult[] =>
    judgeReport(report, { budgets, ...(withContract ? { contract } : {}) }).budgets!.results;

  test('coverage, undeclared statuses and unmatched endpoints of the whole run, each at its inclusive limit', () => {
    expect(
      judged({ minOperationCoveragePercent: 80, minResponseCoveragePercent: 57.14, maxUndeclaredStatuses: 0, maxUnmatchedEndpoints: 2 }),
    ).toStrictEqual([
      { budget: 'minOperationCoveragePercent', limit: 80, actual: 75, passed: false },
      { budget: 'minResponseCoveragePercent', limit: 57.14, actual: 57.14, passed: true },
      { budget: 'maxUndeclaredStatuses', limit: 0, actual: 1, passed: false },
      { budget: 'maxUnmatchedEndpoints', limit: 2, actual: 2, passed: true },
    ]);
  });

  test('without a contract they measure nothing and are breached', () => {
    expect(judged({ minOperationCoveragePercent: 0, maxUnmatchedEndpoints: 5 }, false)).toStrictEqual([
      { budget: 'minOperationCoveragePercent', limit: 0, actual: null, passed: false },
      { budget: 'maxUnmatchedEndpoints', limit: 5, actual: null, passed: false },
    ]);
  });

  test("an operation's budgets, by operationId or by label; a name that is no operation is breached", () => {
    expect(
      judged({
        operations: {
          getUser: { maxUndeclaredStatuses: 0, minExecutions: 3 },
          'delete  /users/{id}': { minExecutions: 1 },
          nope: { maxFailedExecutions: 0 },
        },
      }),
    ).toStrictEqual([
      { budget: 'minExecutions', operation: 'getUser', endpoint: 'GET /users/{id}', limit: 3, actual: 2, passed: false },
      { budget: 'maxUndeclaredStatuses', operation: 'getUser', endpoint: 'GET /users/{id}', limit: 0, actual: 1, passed: false },
      { budget: 'minExecutions', operation: 'delete  /users/{id}', endpoint: 'DELETE /users/{id}', limit: 1, actual: 0, passed: false },
      { budget: 'maxFailedExecutions', operation: 'nope', limit: 0, actual: null, passed: false },
    ]);
  });

  test('a verdict on the contract that the report bears out is no contradiction; one edited by hand is', () => {
    const verdictOf = judgeReport(report, {
      contract,
      budgets: { minOperationCoveragePercent: 70, operations: { getUser: { maxUndeclaredStatuses: 1 } } },
    });
    expect(contradictionInVerdict(verdictOf, verdictOf.budgets!)).toBeUndefined();
    const edited = { ...verdictOf.budgets!, results: verdictOf.budgets!.results.map((result) => ({ ...result, actual: 100 })) };
    expect(contradictionInVerdict(verdictOf, edited)).toBe(
      'budgets.results[0] ("minOperationCoveragePercent") records 100 as measured, where the report\'s own numbers give 75',
    );
  });

  test('each reads in its unit, the operation named with its label', () => {
    const [coverage, , undeclared] = judged({
      minOperationCoveragePercent: 80,
      operations: { getUser: { minExecutions: 1, maxUndeclaredStatuses: 0 } },
    });
    expect(formatBudgetResult(coverage!)).toBe('FAIL minOperationCoveragePercent: 75% (limit ≥ 80%)');
    expect(formatBudgetResult(undeclared!)).toBe('FAIL maxUndeclaredStatuses of getUser (GET /users/{id}): 1 (limit ≤ 0)');
  });

  test('a budgets file refuses a coverage past 100% and an operation named __proto__', () => {
    expect(
      (thrownBy(() => parseBudgets('{ "minResponseCoveragePercent": 101, "operations": { "__proto__": {} } }', 'b.json')) as Error).message,
    ).toBe(
      'invalid budgets:\n  - minResponseCoveragePercent in "b.json": must be a percentage from 0 to 100\n' +
        '  - operations.__proto__ in "b.json": must be an operationId or an endpoint label of the contract',
    );
  });
});

test.describe('the contract in the reports', () => {
  const judged = judgeReport(report, { contract });

  test(`the Markdown: the numbers, undeclared statuses worst first, the operations never called by tag, the endpoints matching none, \
the statuses never answered (a contract declaring no other condition adds no line of conditions)`, () => {
    const markdown = renderMarkdown(judged);
    const section = markdown.slice(markdown.indexOf('### Contract'), markdown.indexOf('### Slowest executions'));
    expect(section).toBe(
      [
        '### Contract',
        '',
        '3 of 4 operations called (75%) · 4 of 7 declared responses seen (57.14%) · 1 undeclared status · 2 endpoints matching no operation',
        '',
        '| Operation | Undeclared statuses | Declared | Calls |',
        '|---|---|---|---:|',
        '| `GET /users/{id}` (`getUser`) | 500 | `200`, `404` | 2 |',
        '',
        '**Never called** (1, by tag):',
        '',
        '- `admin`: `DELETE /users/{id}`',
        '',
        '**Matching no operation**: `GET /health` ×1, `GET /helth` ×2',
        '',
        '**Deprecated operations called**: `GET /users/{id}`',
        '',
        '**Conditions never met** (2 operations, worst-covered first; those never called are under **Never called**):',
        '',
        '- `GET /users/{id}` (`getUser`): 1 of 2 conditions met (50%)',
        '  - Statuses, 1 of 2 never met:',
        '    - `404`: never answered · `#/paths/~1users~1%7Bid%7D/get/responses/404`',
        '- `POST /users`: 2 of 3 conditions met (66.67%)',
        '  - Statuses, 1 of 3 never met:',
        '    - `400`: never answered · `#/paths/~1users/post/responses/400`',
        '',
        '',
      ].join('\n'),
    );
  });

  test('the terminal summary and the closing line give the coverage', () => {
    expect(renderTerminal(judged, { files: [] })).toContain(
      '\nContract: 3 of 4 operations called (75%) · 4 of 7 declared responses seen (57.14%) · 1 undeclared status · 2 endpoints matching no operation\n',
    );
    expect(formatHeadline(judged, ['q.json'])).toBe(
      'quality-evidence: 9 calls: 2 server errors, 3 failed, 0 slow, 0 with no response; 3 of 4 operations called (75%); report written to q.json',
    );
  });

  test('the page: a contract section, and the filter of the operations never called allowed by its own hash', () => {
    const html = renderHtml(judged);
    expect(html).toContain('<section id="contract"><h2>Contract</h2>');
    expect(html).toContain(
      '<select id="untested-tag"><option value="">every tag</option><option value="admin">admin (1)</option></select>',
    );
    expect(html).toContain('<div data-tag="admin"><h4>admin</h4><ul><li><code>DELETE /users/{id}</code></li></ul></div>');
    // The sorting and the endpoint filter on every page; the tag filter only beside a contract.
    expect(html.match(/'sha256-[^']+'/g)).toHaveLength(3);
    expect(renderHtml(report).match(/'sha256-[^']+'/g)).toHaveLength(2);
  });

  test('names from the document are escaped in every rendering', () => {
    const hostile: Contract = {
      ...contract,
      operations: [operation('GET', '/a|`b`<script>', ['200'], { operationId: 'x\u202Ey', tags: ['t"<i>\n'] })],
    };
    const rendered = judgeReport(reportOf([['GET /zzz', 200, 1]]), { contract: hostile });
    const markdown = renderMarkdown(rendered);
    // The newline escaped, the pipe escaped for the table, the backticks fenced by a longer run.
    expect(markdown).toContain('- `t"<i>\\u000a`: ``GET /a\\|`b`<script>``');
    const html = renderHtml(rendered);
    expect(html).not.toContain('<script>` ');
    expect(html).not.toContain('<i>');
    expect(html).toContain('&lt;script&gt;');
  });
});

test.describe('bodies checked against the contract', () => {
  const run = createEvidenceRun(
    { environment: 'ci', slowResponseThresholdMs: 750 },
    {
      judgement: {
        contract,
        budgets: { maxSchemaViolations: 1, operations: { getUser: { maxSchemaViolations: 0 }, listUsers: { maxSchemaViolations: 0 } } },
      },
    },
  );
  const take = (endpoint: string, bodyCheck: BodyCheck) => {
    run.take({ endpoint, statusCode: 200, responseTimeMs: 1, bodyCheck }, () => ({ kind: 'list', listPath: 'executions', index: 0 }));
  };
  take('GET /users/{id}', {
    response: {
      validated: true,
      violationCount: 2,
      violations: [
        { pointer: '/items/3/price', keyword: 'type' },
        { pointer: '/name', keyword: 'required' },
      ],
    },
  });
  take('GET /users/{id}', {
    response: { validated: true, violationCount: 1, violations: [{ pointer: '/items/0/price', keyword: 'type' }] },
  });
  take('POST /users', { response: { validated: true, violationCount: 0 }, request: { validated: false, reason: 'notJson' } });
  take('GET /users', { response: { validated: false, reason: 'tooLarge' } });
  const judged = run.finish();

  test('each operation counts its bodies validated, off their schema and not validated, and the most frequent violations with array indices as *', () => {
    expect(
      judged.contract?.operations.map(({ endpoint, validatedCount, schemaViolationCount, notValidatedCount, topViolations }) => [
        endpoint,
        validatedCount,
        schemaViolationCount,
        notValidatedCount,
        topViolations,
      ]),
    ).toStrictEqual([
      ['GET /users', 0, 0, 1, []],
      ['POST /users', 1, 0, 1, []],
      [
        'GET /users/{id}',
        2,
        2,
        0,
        [
          { body: 'response', pointer: '/items/*/price', keyword: 'type', count: 2 },
          { body: 'response', pointer: '/name', keyword: 'required', count: 1 },
        ],
      ],
      ['DELETE /users/{id}', 0, 0, 0, []],
    ]);
    expect([judged.contract?.validatedCount, judged.contract?.schemaViolationCount, judged.contract?.notValidatedCount]).toStrictEqual([
      3, 2, 2,
    ]);
    expect(judged.endpoints.find(({ endpoint }) => endpoint === 'POST /users')?.bodies?.notValidatedReasons).toStrictEqual({ notJson: 1 });
  });

  test('maxSchemaViolations judges the bodies off their schema, of the whole run and of an operation', () => {
    expect(judged.budgets?.results).toStrictEqual([
      { budget: 'maxSchemaViolations', limit: 1, actual: 2, passed: false },
      { budget: 'maxSchemaViolations', operation: 'getUser', endpoint: 'GET /users/{id}', limit: 0, actual: 2, passed: false },
      { budget: 'maxSchemaViolations', operation: 'listUsers', endpoint: 'GET /users', limit: 0, actual: 0, passed: true },
    ]);
    expect(contradictionInVerdict(judged, judged.budgets!)).toBeUndefined();
  });

  test('the Markdown, the page and the terminal give the bodies off their schema, worst first, with their most frequent violations', () => {
    const markdown = renderMarkdown(judged, { reportName: 'quality-summary.json' });
    expect(markdown).toContain('2 of 3 bodies off their schema (2 not validated)');
    expect(markdown).toContain(
      '| `GET /users/{id}` (`getUser`) | 2 of 2 bodies off their schema | `response /items/*/price: type ×2`, `response /name: required ×1` |',
    );
    expect(renderTerminal(judged, { files: ['quality-summary.json'] })).toContain('2 of 3 bodies off their schema (2 not validated)');
    expect(renderHtml(judged)).toContain('<h3>Bodies off their schema</h3>');
  });
});
