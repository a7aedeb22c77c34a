import { expect, test } from './support/test.js';
import { buildReport, renderHtml, renderMarkdown, renderTerminal, summariseExecutions, type QualityReport } from '../src/index.js';
import { contractCoverageSchema, type ContractCoverage, type OperationConditionsReport } from '../src/report/contractSchemas.js';
import { renderComment } from '../src/report/comment/renderComment.js';
import { formatHeadline } from '../src/report/renderers/terminal.js';
import { compared } from './support/comparedReports.js';

// The conditions a contract declares, as every rendering shows them (issue 36): the line beside operation
// coverage, and the conditions never met, by operation and kind. The contract sections are written by hand
// as the pipeline writes them for tests/saved-reports/contract (the document and the HAR file there): a GET
// with a query enum and a bounded query parameter answering a list of pets, a POST whose body is oneOf two.

const NULL_TIMES = { min: null, mean: null, p50: null, p90: null, p95: null, p99: null, max: null };

interface OperationOf {
  readonly endpoint: string;
  readonly executionCount: number;
  readonly conditions: OperationConditionsReport;
  readonly operationId?: string;
}

/** An operation of the contract section: its label, calls and conditions; the rest as a call that answered what it declares. */
function operation({ endpoint, executionCount, conditions, operationId }: OperationOf) {
  const [method = '', path = ''] = endpoint.split(' ');
  return {
    ...(operationId === undefined ? {} : { operationId }),
    method,
    path,
    endpoint,
    tags: [],
    deprecated: false,
    executionCount,
    failedExecutionCount: 0,
    declaredStatuses: [],
    seenStatuses: [],
    undeclaredStatuses: [],
    unseenDeclaredStatuses: [],
    responseTimeMs: NULL_TIMES,
    validatedCount: 0,
    schemaViolationCount: 0,
    notValidatedCount: 0,
    topViolations: [],
    conditions,
  };
}

/** A contract section of these operations, its run-wide numbers summed as the pipeline sums them. */
function contractOf(operations: readonly OperationOf[]): ContractCoverage {
  const conditionCount = operations.reduce((sum, { conditions }) => sum + conditions.conditionCount, 0);
  const coveredConditionCount = operations.reduce((sum, { conditions }) => sum + conditions.coveredConditionCount, 0);
  const percent = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 100);
  const exercised = operations.filter(({ executionCount }) => executionCount > 0).length;
  return contractCoverageSchema.parse({
    documents: [{ path: 'api.yaml', version: '3.1' }],
    operationCount: operations.length,
    exercisedOperationCount: exercised,
    operationCoveragePercent: percent(exercised, operations.length),
    declaredResponseCount: 3,
    exercisedResponseCount: 3,
    responseCoveragePercent: 100,
    conditionCount,
    coveredConditionCount,
    conditionCoveragePercent: percent(coveredConditionCount, conditionCount),
    examinedCallCount: operations.reduce((sum, { conditions }) => sum + conditions.examinedCallCount, 0),
    operations: operations.map(operation),
    unmatchedEndpoints: [],
    deprecatedOperationsCalled: [],
    validatedCount: 0,
    schemaViolationCount: 0,
    notValidatedCount: 0,
  });
}

const listPets: OperationOf = {
  endpoint: 'GET /pets',
  executionCount: 2,
  conditions: {
    conditionCount: 13,
    coveredConditionCount: 8,
    conditionCoveragePercent: 61.54,
    examinedCallCount: 2,
    fingerprint: '0123456789abcdef',
    kinds: {
      parameter: { conditionCount: 3, coveredConditionCount: 3 },
      enumValue: { conditionCount: 4, coveredConditionCount: 2 },
      optionalProperty: { conditionCount: 2, coveredConditionCount: 1 },
      status: { conditionCount: 2, coveredConditionCount: 2 },
      bound: { conditionCount: 2, coveredConditionCount: 0 },
    },
    unmet: [
      {
        kind: 'enumValue',
        where: '#/paths/~1pets/get/parameters/0/schema/enum/0',
        value: 'available',
        direction: 'request',
        parameter: { name: 'status', in: 'query' },
      },
      {
        kind: 'bound',
        where: '#/paths/~1pets/get/parameters/1/schema/minimum',
        keyword: 'minimum',
        value: 1,
        parameter: { name: 'limit', in: 'query' },
        reached: true,
        outside: false,
      },
      {
        kind: 'bound',
        where: '#/paths/~1pets/get/parameters/1/schema/maximum',
        keyword: 'maximum',
        value: 100,
        parameter: { name: 'limit', in: 'query' },
        reached: false,
        outside: true,
      },
      { kind: 'optionalProperty', where: '#/components/schemas/Pet/properties/tag', name: 'tag', direction: 'response', status: '200' },
      { kind: 'enumValue', where: '#/components/schemas/Pet/properties/kind/enum/1', value: 'dog', direction: 'response', status: '200' },
    ],
    unlistedUnmetCount: 0,
  },
};

const BODY = '#/paths/~1pets/post/requestBody/content/application~1json/schema';
const addPet: OperationOf = {
  endpoint: 'POST /pets',
  executionCount: 1,
  conditions: {
    conditionCount: 4,
    coveredConditionCount: 2,
    conditionCoveragePercent: 50,
    examinedCallCount: 1,
    fingerprint: '0123456789abcdef',
    kinds: {
      branch: { conditionCount: 2, coveredConditionCount: 1 },
      status: { conditionCount: 1, coveredConditionCount: 1 },
      bound: { conditionCount: 1, coveredConditionCount: 0 },
    },
    unmet: [
      {
        kind: 'bound',
        where: `${BODY}/oneOf/0/properties/cat/maxLength`,
        keyword: 'maxLength',
        value: 5,
        reached: true,
        outside: false,
      },
      { kind: 'branch', where: `${BODY}/oneOf/1`, keyword: 'oneOf', direction: 'request' },
    ],
    unlistedUnmetCount: 0,
  },
};

function reportWith(contract: ContractCoverage, environment = 'ci'): QualityReport {
  const records = [
    { endpoint: 'GET /pets', statusCode: 200, responseTimeMs: 10 },
    { endpoint: 'GET /pets', statusCode: 400, responseTimeMs: 10 },
    { endpoint: 'POST /pets', statusCode: 201, responseTimeMs: 10 },
  ];
  return { ...buildReport(summariseExecutions(records, 750), { environment, slowResponseThresholdMs: 750 }), contract };
}

const pets = reportWith(contractOf([listPets, addPet]));

/** GET /pets as plain records leave it: its statuses known (200, not 400), nothing else met; 2 of its 12 unmet listed here. */
const unexamined: OperationOf = {
  ...listPets,
  conditions: {
    conditionCount: 13,
    coveredConditionCount: 1,
    conditionCoveragePercent: 7.69,
    examinedCallCount: 0,
    fingerprint: '0123456789abcdef',
    kinds: {
      parameter: { conditionCount: 3, coveredConditionCount: 0 },
      enumValue: { conditionCount: 4, coveredConditionCount: 0 },
      optionalProperty: { conditionCount: 2, coveredConditionCount: 0 },
      status: { conditionCount: 2, coveredConditionCount: 1 },
      bound: { conditionCount: 2, coveredConditionCount: 0 },
    },
    unmet: [
      { kind: 'parameter', where: '#/paths/~1pets/get/parameters/0', name: 'status', in: 'query', required: false, case: 'sent' },
      { kind: 'status', where: '#/paths/~1pets/get/responses/400', status: '400' },
    ],
    unlistedUnmetCount: 10,
  },
};

/** The contract section of the Markdown, from its title to the next section's. */
function contractMarkdown(report: QualityReport): string {
  const markdown = renderMarkdown(report);
  return markdown.slice(markdown.indexOf('### Contract'), markdown.indexOf('### Slowest executions'));
}

/** The Markdown's part of the conditions never met, from its title to the section's end. */
function unmetMarkdown(report: QualityReport): string {
  const section = contractMarkdown(report);
  const start = section.indexOf('**Conditions never met**');
  return start === -1 ? '' : section.slice(start);
}

/** The page's part of the conditions never met, from its title to the section's end. */
function unmetHtml(report: QualityReport): string {
  const html = renderHtml(report);
  const section = html.slice(html.indexOf('<section id="contract">'));
  const start = section.indexOf('<h3>Conditions never met');
  return start === -1 ? '' : section.slice(start, section.indexOf('</section>'));
}

const LINE =
  '2 of 2 operations called (100%) · 3 of 3 declared responses seen (100%) · 10 of 17 conditions met (58.82%) · ' +
  '0 undeclared statuses · 0 endpoints matching no operation';

test.describe('the line beside operation coverage', () => {
  test('the Markdown, the page (headline and contract section), the terminal summary and the closing line say the conditions met', () => {
    expect(contractMarkdown(pets).split('\n').slice(0, 3)).toStrictEqual(['### Contract', '', LINE]);
    const html = renderHtml(pets);
    expect(html).toContain(`<p data-field="contract">Contract: ${LINE}</p>`);
    expect(html).toContain(`<section id="contract"><h2>Contract</h2><p>${LINE}</p>`);
    expect(renderTerminal(pets, { files: [] })).toContain(`\nContract: ${LINE}\n`);
    expect(formatHeadline(pets, ['q.json'])).toBe(
      'quality-evidence: 3 calls: 0 server errors, 1 failed, 0 slow, 0 with no response; 2 of 2 operations called (100%); ' +
        '10 of 17 conditions met (58.82%); report written to q.json',
    );
  });

  test("the pull-request comment gives conditions met before → after, or this run's beside a comparison of a version without them", () => {
    const report = compared(pets, reportWith(contractOf([listPets, addPet]), 'main'));
    const body = renderComment(report, { environment: 'staging' }).body;
    expect(body.split('\n')).toContain(
      '**Contract**: operations covered 100% → 100% · responses covered 100% → 100% · conditions met 58.82% → 58.82%',
    );
    const { conditionCoveragePercent: _, ...older } = report.baseline.contract!;
    const olderBody = renderComment({ ...report, baseline: { ...report.baseline, contract: older } }, { environment: 'staging' }).body;
    expect(olderBody.split('\n')).toContain(
      '**Contract**: operations covered 100% → 100% · responses covered 100% → 100% · 10 of 17 conditions met (58.82%)',
    );
  });

  test('records that said nothing of what the calls sent: the conditions were not examined, said instead of a percentage', () => {
    const report = reportWith(contractOf([unexamined, addPet]));
    expect(report.contract?.examinedCallCount).toBe(1);
    const alone = reportWith(contractOf([unexamined]));
    const said = 'conditions not examined: the records say only statuses and paths (record with the fixture or a HAR file)';
    expect(contractMarkdown(alone).split('\n')[2]).toBe(
      `1 of 1 operation called (100%) · 3 of 3 declared responses seen (100%) · ${said} · 0 undeclared statuses · 0 endpoints matching no operation`,
    );
    expect(formatHeadline(alone, ['q.json'])).toContain(`; 1 of 1 operation called (100%); ${said}; report written to q.json`);
    // Records of another version of the document: what they met is not counted.
    const other = reportWith(contractOf([{ ...unexamined, conditions: { ...unexamined.conditions, otherDocumentVersion: true } }]));
    expect(formatHeadline(other, ['q.json'])).toContain(
      '; conditions not counted: the calls were recorded against another version of the document; ',
    );
    // Against a baseline: the words, not a fall in conditions met that no suite made.
    const comment = renderComment(compared(alone, reportWith(contractOf([listPets]), 'main')), { environment: 'staging' }).body;
    const contractLine = comment.split('\n').find((line) => line.startsWith('**Contract**'));
    expect(contractLine).toBe(`**Contract**: operations covered 100% → 100% · responses covered 100% → 100% · ${said}`);
  });

  test('a document whose every condition is a status adds no line: it would repeat response coverage', () => {
    const statusesOnly: OperationOf = {
      endpoint: 'DELETE /pets/{id}',
      executionCount: 1,
      conditions: {
        conditionCount: 2,
        coveredConditionCount: 1,
        conditionCoveragePercent: 50,
        examinedCallCount: 0,
        fingerprint: '0123456789abcdef',
        kinds: { status: { conditionCount: 2, coveredConditionCount: 1 } },
        unmet: [{ kind: 'status', where: '#/paths/~1pets~1{id}/delete/responses/404', status: '404' }],
        unlistedUnmetCount: 0,
      },
    };
    const report = reportWith(contractOf([statusesOnly]));
    expect(contractMarkdown(report).split('\n')[2]).toBe(
      '1 of 1 operation called (100%) · 3 of 3 declared responses seen (100%) · 0 undeclared statuses · 0 endpoints matching no operation',
    );
    expect(formatHeadline(report, ['q.json'])).toContain('; 1 of 1 operation called (100%); report written to q.json');
    // Nor does the comparison with a baseline say conditions met before → after.
    const comment = renderComment(compared(report, reportWith(contractOf([statusesOnly]), 'main')), { environment: 'staging' }).body;
    expect(comment.split('\n')).toContain('**Contract**: operations covered 100% → 100% · responses covered 100% → 100%');
    // Its status never answered is still listed.
    expect(unmetMarkdown(report)).toContain(
      '- `DELETE /pets/{id}`: 1 of 2 conditions met (50%)\n  - Statuses, 1 of 2 never met:\n    - `404`: never answered',
    );
  });
});

test.describe('the conditions never met', () => {
  test('the Markdown: each operation called, worst-covered first, its unmet conditions by kind in words with their pointers', () => {
    expect(unmetMarkdown(pets)).toBe(
      [
        '**Conditions never met** (2 operations, worst-covered first):',
        '',
        '- `POST /pets`: 2 of 4 conditions met (50%)',
        '  - Branches, 1 of 2 never met:',
        '    - `oneOf` branch 2 (request body): never matched · `#/paths/~1pets/post/requestBody/content/application~1json/schema/oneOf/1`',
        '  - Bounds, 1 of 1 never met:',
        '    - `cat maxLength 5` (request body): reached; none longer answered 4xx · ' +
          '`#/paths/~1pets/post/requestBody/content/application~1json/schema/oneOf/0/properties/cat/maxLength`',
        '- `GET /pets`: 8 of 13 conditions met (61.54%)',
        '  - Enum values, 2 of 4 never met:',
        '    - `status = "available"` (query): never sent · `#/paths/~1pets/get/parameters/0/schema/enum/0`',
        '    - `kind = "dog"` (response `200`): never answered · `#/components/schemas/Pet/properties/kind/enum/1`',
        '  - Optional properties, 1 of 2 never met:',
        '    - `tag` (response `200`): never present · `#/components/schemas/Pet/properties/tag`',
        '  - Bounds, 2 of 2 never met:',
        '    - `limit minimum 1` (query): reached; none below it answered 4xx · `#/paths/~1pets/get/parameters/1/schema/minimum`',
        '    - `limit maximum 100` (query): never reached; one above it answered 4xx · `#/paths/~1pets/get/parameters/1/schema/maximum`',
        '',
        '',
      ].join('\n'),
    );
  });

  test('the page: the same, each pointer beside its condition, in code', () => {
    const html = unmetHtml(pets);
    expect(html.startsWith('<h3>Conditions never met (2)</h3><p class="muted">Worst-covered first.</p>')).toBe(true);
    expect(html).toContain(
      '<div class="detail" data-endpoint="GET /pets"><h4><code>GET /pets</code>: 8 of 13 conditions met (61.54%)</h4><ul>' +
        '<li>Enum values, 2 of 4 never met<ul>' +
        '<li><code>status = "available"</code> (query): never sent <span class="muted"><code>#/paths/~1pets/get/parameters/0/schema/enum/0</code></span></li>' +
        '<li><code>kind = "dog"</code> (response <code>200</code>): never answered ' +
        '<span class="muted"><code>#/components/schemas/Pet/properties/kind/enum/1</code></span></li></ul></li>',
    );
    expect(html.indexOf('data-endpoint="POST /pets"')).toBeLessThan(html.indexOf('data-endpoint="GET /pets"'));
  });

  test(`the order: the lowest share met first, then the most unmet, then the contract's; those whose calls said nothing of \
what they sent last, with only their statuses; those never called left out`, () => {
    const share = (endpoint: string, covered: number, count: number): OperationOf => ({
      endpoint,
      executionCount: 1,
      conditions: {
        conditionCount: count,
        coveredConditionCount: covered,
        conditionCoveragePercent: Math.round((covered / count) * 10_000) / 100,
        examinedCallCount: 1,
        fingerprint: '0123456789abcdef',
        kinds: { optionalProperty: { conditionCount: count, coveredConditionCount: covered } },
        unmet: [],
        unlistedUnmetCount: count - covered,
      },
    });
    const neverCalled = { ...share('GET /never', 0, 4), executionCount: 0 };
    const report = reportWith(
      contractOf([
        unexamined,
        share('GET /half-of-2', 1, 2),
        neverCalled,
        share('GET /half-of-4', 2, 4),
        share('GET /all', 3, 3),
        share('GET /half-of-2-again', 1, 2),
        share('GET /quarter', 1, 4),
      ]),
    );
    const markdown = unmetMarkdown(report);
    expect(markdown.split('\n').filter((line) => line.startsWith('- '))).toStrictEqual([
      '- `GET /quarter`: 1 of 4 conditions met (25%)',
      '- `GET /half-of-4`: 2 of 4 conditions met (50%)',
      '- `GET /half-of-2`: 1 of 2 conditions met (50%)',
      '- `GET /half-of-2-again`: 1 of 2 conditions met (50%)',
      '- `GET /pets`: conditions beyond statuses and paths not examined: its calls’ records said no more',
    ]);
    expect(markdown.split('\n')[0]).toBe(
      '**Conditions never met** (5 operations, worst-covered first; those never called are under **Never called**):',
    );
    // Counted whole, none of them listed by the report: the count alone.
    expect(markdown).toContain(
      '- `GET /quarter`: 1 of 4 conditions met (25%)\n  - Optional properties, 3 of 4 never met:\n    - … and 3 more\n',
    );
    expect(markdown).toContain(
      '- `GET /pets`: conditions beyond statuses and paths not examined: its calls’ records said no more\n' +
        '  - Statuses, 1 of 2 never met:\n    - `400`: never answered · `#/paths/~1pets/get/responses/400`\n',
    );
  });

  test(`capped: the Markdown lists 20 operations and 3 conditions of each kind, the page 100 and 5, each saying how many more; \
a thousand operations of 50 unmet conditions each make a page under 1.5 MB and a whole Markdown under 256 KiB`, () => {
    const wide = (index: number): OperationOf => ({
      endpoint: `GET /resource-${String(index).padStart(4, '0')}/{id}`,
      operationId: `getResource${index}`,
      executionCount: 1,
      conditions: {
        conditionCount: 60,
        coveredConditionCount: 10,
        conditionCoveragePercent: 16.67,
        examinedCallCount: 1,
        fingerprint: '0123456789abcdef',
        kinds: {
          parameter: { conditionCount: 30, coveredConditionCount: 5 },
          enumValue: { conditionCount: 30, coveredConditionCount: 5 },
        },
        unmet: Array.from({ length: 50 }, (_, item) =>
          item < 25
            ? {
                kind: 'parameter' as const,
                where: `#/paths/~1resource-${index}~1{id}/get/parameters/${item}`,
                name: `filter_${item}_with_a_long_descriptive_name`,
                in: 'query' as const,
                required: false,
                case: 'omitted' as const,
              }
            : {
                kind: 'enumValue' as const,
                where: `#/components/schemas/Resource/properties/state/enum/${item}`,
                value: `a-declared-value-${item}`,
                direction: 'response' as const,
                status: '200',
              },
        ),
        unlistedUnmetCount: 0,
      },
    });
    const report = reportWith(contractOf(Array.from({ length: 1000 }, (_, index) => wide(index))));
    const markdown = unmetMarkdown(report);
    expect(markdown.split('\n').filter((line) => line.startsWith('- '))).toHaveLength(21);
    expect(markdown).toContain('- … 980 more operations with conditions never met in `quality-summary.json`\n');
    expect(markdown).toContain(
      '  - Parameters, 25 of 30 never met:\n' +
        '    - `filter_0_with_a_long_descriptive_name` (query): never left out · `#/paths/~1resource-0~1{id}/get/parameters/0`\n' +
        '    - `filter_1_with_a_long_descriptive_name` (query): never left out · `#/paths/~1resource-0~1{id}/get/parameters/1`\n' +
        '    - `filter_2_with_a_long_descriptive_name` (query): never left out · `#/paths/~1resource-0~1{id}/get/parameters/2`\n' +
        '    - … and 22 more\n',
    );
    const whole = renderMarkdown(report);
    expect(whole).not.toContain('✂️');
    expect(Buffer.byteLength(whole)).toBeLessThan(256 * 1024);
    const html = unmetHtml(report);
    expect(html.match(/<div class="detail"/g)).toHaveLength(100);
    expect(html.match(/<li>… and 20 more<\/li>/g)).toHaveLength(200);
    expect(html).toContain('<p>900 more operations with conditions never met in the report.</p>');
    expect(Buffer.byteLength(renderHtml(report))).toBeLessThan(1.5 * 1024 * 1024);
  });

  test('names, values and pointers from the document are escaped in the Markdown and on the page', () => {
    const hostile: OperationOf = {
      endpoint: 'GET /a|`b`<script>',
      operationId: 'x\u202Ey',
      executionCount: 1,
      conditions: {
        conditionCount: 5,
        coveredConditionCount: 0,
        conditionCoveragePercent: 0,
        examinedCallCount: 1,
        fingerprint: '0123456789abcdef',
        kinds: {
          parameter: { conditionCount: 1, coveredConditionCount: 0 },
          enumValue: { conditionCount: 1, coveredConditionCount: 0 },
          optionalProperty: { conditionCount: 1, coveredConditionCount: 0 },
          status: { conditionCount: 1, coveredConditionCount: 0 },
          bound: { conditionCount: 1, coveredConditionCount: 0 },
        },
        unmet: [
          { kind: 'parameter', where: '#/p/<b>', name: 'a|b\n# c', in: 'header', required: true, case: 'sent' },
          {
            kind: 'enumValue',
            where: '#/e',
            value: '</code><script>alert(1)</script>`|',
            direction: 'request',
            parameter: { name: '`x`', in: 'query' },
          },
          { kind: 'optionalProperty', where: '#/o', name: '<img src=x>', direction: 'response', status: '2XX"><i>' },
          { kind: 'status', where: '#/s', status: '404|`' },
          {
            kind: 'bound',
            where: '#/components/schemas/X/properties/**x**|y/maxLength',
            keyword: 'maxLength',
            value: 3,
            reached: false,
            outside: false,
          },
        ],
        unlistedUnmetCount: 0,
      },
    };
    const report = reportWith(contractOf([hostile]));
    const markdown = unmetMarkdown(report);
    expect(markdown.split('\n').slice(2)).toStrictEqual([
      '- ``GET /a\\|`b`<script>`` (`x\\u202ey`): 0 of 5 conditions met (0%)',
      '  - Parameters, 1 of 1 never met:',
      '    - `a\\|b\\u000a# c` (header): never sent · `#/p/<b>`',
      '  - Enum values, 1 of 1 never met:',
      '    - `` `x` = "</code><script>alert(1)</script>`\\|" `` (query): never sent · `#/e`',
      '  - Optional properties, 1 of 1 never met:',
      '    - `<img src=x>` (response `2XX"><i>`): never present · `#/o`',
      '  - Statuses, 1 of 1 never met:',
      '    - `` 404\\|` ``: never answered · `#/s`',
      '  - Bounds, 1 of 1 never met:',
      '    - `**x**\\|y maxLength 3` (request body): never reached; none longer answered 4xx · `#/components/schemas/X/properties/**x**\\|y/maxLength`',
      '',
      '',
    ]);
    const html = unmetHtml(report);
    expect(html).not.toMatch(/<(script|img|i|b)[ >]/);
    expect(html).toContain('<code>`x` = "&lt;/code&gt;&lt;script&gt;alert(1)&lt;/script&gt;`|"</code>');
    expect(html).toContain('(response <code>2XX"&gt;&lt;i&gt;</code>)');
    expect(html).toContain('data-endpoint="GET /a|`b`&#60;script&#62;"');
    expect(html).toContain('<span class="muted"><code title="x\\u202ey">x\\u202ey</code></span>');
    expect(html).toContain(
      '<code title="a|b\\u000a# c">a|b\\u000a# c</code> (header): never sent <span class="muted"><code>#/p/&lt;b&gt;</code></span>',
    );
  });
});
