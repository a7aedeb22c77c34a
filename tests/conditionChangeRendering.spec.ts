import { renderHtml, renderMarkdown, renderTerminal } from '../src/index.js';
import type { ComparedReport } from '../src/report/comment/commentFindings.js';
import { renderComment } from '../src/report/comment/renderComment.js';
import { baselineComparisonSchema, type ContractComparison } from '../src/report/verdictSchemas.js';
import { apiCalls, compared, reportOf } from './support/comparedReports.js';
import { expect, test } from './support/test.js';

// The conditions newly met and no longer met against a baseline (issue 36), as the Markdown's and the page's
// baseline section, the terminal's headline and the pull-request comment show them: coverage before → after
// beside operations and responses, the conditions no longer met first (a regression), those newly met after
// (folded where folding is), each in the words of the conditions never met, and the operations not compared.

const options = { environment: 'staging' };

/** A contract comparison with conditions where nothing changed, to change one field of. */
const heldContract: ContractComparison = {
  operationCoveragePercent: { before: 50, after: 50 },
  responseCoveragePercent: { before: 40, after: 40 },
  conditionCoveragePercent: { before: 30, after: 30 },
  newlyExercisedOperations: [],
  newlyExercisedOperationCount: 0,
  noLongerExercisedOperations: [],
  noLongerExercisedOperationCount: 0,
  newUndeclaredStatuses: [],
  newUndeclaredStatusCount: 0,
  schemaViolationChanges: [],
  schemaViolationChangeCount: 0,
  newlyMetConditions: [],
  newlyMetConditionCount: 0,
  noLongerMetConditions: [],
  noLongerMetConditionCount: 0,
  conditionListChangedOperations: [],
  conditionListChangedOperationCount: 0,
};

const QUERY_ENUM = {
  kind: 'enumValue',
  where: '#/paths/~1pets/get/parameters/0/schema/enum/0',
  value: 'available',
  direction: 'request',
  parameter: { name: 'status', in: 'query' },
} as const;
const STATUS_404 = { kind: 'status', where: '#/paths/~1pets~1{id}/get/responses/404', status: '404' } as const;
const LIMIT_MAXIMUM = {
  kind: 'bound',
  where: '#/paths/~1pets/get/parameters/1/schema/maximum',
  keyword: 'maximum',
  value: 100,
  parameter: { name: 'limit', in: 'query' },
  reached: true,
  outside: false,
} as const;
const OPTIONAL_TAG = {
  kind: 'optionalProperty',
  where: '#/components/schemas/Pet/properties/tag',
  name: 'tag',
  direction: 'response',
  status: '200',
} as const;

/** Conditions no longer met in two operations, one newly met, one operation whose list changed. */
const changedContract: Partial<ContractComparison> = {
  conditionCoveragePercent: { before: 40, after: 35.5 },
  noLongerMetConditions: [
    { operation: 'GET /pets', condition: QUERY_ENUM },
    { operation: 'GET /pets', condition: LIMIT_MAXIMUM },
    { operation: 'GET /pets/{id}', condition: STATUS_404 },
  ],
  noLongerMetConditionCount: 3,
  newlyMetConditions: [{ operation: 'GET /pets', condition: OPTIONAL_TAG }],
  newlyMetConditionCount: 1,
  conditionListChangedOperations: ['POST /pets'],
  conditionListChangedOperationCount: 1,
};

/** A compared report with this contract comparison in its baseline section, checked against the report's schema. */
function withContract(changes: Partial<ContractComparison>): ComparedReport {
  const report = compared(reportOf(apiCalls()), reportOf(apiCalls()));
  const baseline = baselineComparisonSchema.parse({ ...report.baseline, contract: { ...heldContract, ...changes } });
  return { ...report, baseline };
}

/** The lines of the Markdown's baseline section from its contract line to the line before the method's note. */
function contractPart(markdown: string): string[] {
  const lines = markdown.split('\n');
  const from = lines.findIndex((line) => line.startsWith('**Contract**'));
  const to = lines.findIndex((line) => line.startsWith('<sub>A latency change'));
  return lines.slice(from, to - 1);
}

/** The page's baseline section from its contract paragraph to the method's note. */
function contractHtml(html: string): string {
  const section = /<section id="baseline">.*?<\/section>/s.exec(html)?.[0] ?? '';
  return section.slice(section.indexOf('<p data-field="contract">'), section.indexOf('<p class="muted">A latency change'));
}

test('the Markdown gives conditions met before → after, those no longer met open first, the operations not compared, those newly met folded', () => {
  expect(contractPart(renderMarkdown(withContract(changedContract)))).toEqual([
    '**Contract**: operations covered 50% → 50% · responses covered 40% → 40% · conditions met 40% → 35.5%.',
    '',
    '**Conditions no longer met** (3):',
    '',
    '- `GET /pets`:',
    '  - `status = "available"` (query): no longer sent · `#/paths/~1pets/get/parameters/0/schema/enum/0`',
    '  - `limit maximum 100` (query): no longer met (reached; none above it answered 4xx) · `#/paths/~1pets/get/parameters/1/schema/maximum`',
    '- `GET /pets/{id}`:',
    '  - `404`: no longer answered · `#/paths/~1pets~1{id}/get/responses/404`',
    '',
    '**Conditions not compared (the document changed them)**: `POST /pets`.',
    '',
    '<details>',
    '<summary>Conditions newly met (1)</summary>',
    '',
    '- `GET /pets`:',
    '  - `tag` (response `200`): now present · `#/components/schemas/Pet/properties/tag`',
    '',
    '</details>',
  ]);
});

test('the page gives the same, the conditions no longer met open, those newly met in a folded block, every name from the document escaped', () => {
  expect(contractHtml(renderHtml(withContract(changedContract)))).toBe(
    '<p data-field="contract"><strong>Contract</strong>: operations covered 50% → 50% · responses covered 40% → 40% · ' +
      'conditions met 40% → 35.5%.</p>' +
      '<div data-field="noLongerMetConditions"><p><strong>Conditions no longer met</strong> (3):</p><ul>' +
      '<li><code>GET /pets</code><ul>' +
      '<li><code>status = "available"</code> (query): no longer sent ' +
      '<span class="muted"><code>#/paths/~1pets/get/parameters/0/schema/enum/0</code></span></li>' +
      '<li><code>limit maximum 100</code> (query): no longer met (reached; none above it answered 4xx) ' +
      '<span class="muted"><code>#/paths/~1pets/get/parameters/1/schema/maximum</code></span></li></ul></li>' +
      '<li><code>GET /pets/{id}</code><ul><li><code>404</code>: no longer answered ' +
      '<span class="muted"><code>#/paths/~1pets~1{id}/get/responses/404</code></span></li></ul></li>' +
      '</ul></div>' +
      '<p data-field="conditionListChangedOperations"><strong>Conditions not compared (the document changed them)</strong>: <code>POST /pets</code>.</p>' +
      '<details class="folded" data-field="newlyMetConditions"><summary>Conditions newly met (1)</summary><ul><li><code>GET /pets</code><ul>' +
      '<li><code>tag</code> (response <code>200</code>): now present <span class="muted"><code>#/components/schemas/Pet/properties/tag</code></span></li>' +
      '</ul></li></ul></details>',
  );
});

test('a bound newly met says both its halves now met; one no longer met says how far this run went', () => {
  const report = withContract({
    newlyMetConditions: [{ operation: 'GET /pets', condition: { ...LIMIT_MAXIMUM, keyword: 'minLength', value: 2, reached: false } }],
    newlyMetConditionCount: 1,
    noLongerMetConditions: [{ operation: 'GET /pets', condition: { ...LIMIT_MAXIMUM, reached: false, outside: true } }],
    noLongerMetConditionCount: 1,
  });
  const markdown = renderMarkdown(report);
  expect(markdown).toContain(
    '  - `limit minLength 2` (query): now reached, and one shorter answered 4xx · `#/paths/~1pets/get/parameters/1/schema/maximum`',
  );
  expect(markdown).toContain(
    '  - `limit maximum 100` (query): no longer met (never reached; one above it answered 4xx) · `#/paths/~1pets/get/parameters/1/schema/maximum`',
  );
});

test('a baseline that counted no conditions is said so beside this run’s; a comparison without conditions shows none', () => {
  const uncounted = withContract({ conditionCoveragePercent: { before: null, after: 35.5 } });
  expect(contractPart(renderMarkdown(uncounted))).toEqual([
    '**Contract**: operations covered 50% → 50% · responses covered 40% → 40% · conditions met 35.5% (the baseline did not count conditions).',
  ]);
  expect(renderComment(uncounted, options).body).toContain(
    '**Contract**: operations covered 50% → 50% · responses covered 40% → 40% · conditions met 35.5% (the baseline did not count conditions)\n',
  );
  // No coverage down or up against a baseline that had none to compare.
  expect(renderComment(uncounted, options).nothingToReport).toBe(true);
  expect(renderTerminal(uncounted, { files: [] })).not.toContain('conditions met');
  const { conditionCoveragePercent: _, ...older } = heldContract;
  const report = compared(reportOf(apiCalls()), reportOf(apiCalls()));
  const withoutConditions = { ...report, baseline: baselineComparisonSchema.parse({ ...report.baseline, contract: older }) };
  expect(contractPart(renderMarkdown(withoutConditions))).toEqual([
    '**Contract**: operations covered 50% → 50% · responses covered 40% → 40%.',
  ]);
});

test('the headline of every rendering counts the conditions no longer met and gives condition coverage before → after', () => {
  const headline = 'vs base: 3 conditions no longer met, conditions met 40% -> 35.5%, 3 endpoints unchanged, 1 too few samples to judge';
  const report = withContract(changedContract);
  expect(renderTerminal(report, { files: [] }).split('\n')).toContain(headline);
  expect(renderMarkdown(report)).toContain(`**${headline}**`);
  expect(renderComment(report, options).body).toContain(`**${headline}**`);
});

test('the comment lists each condition no longer met as a regression and each newly met as an improvement, the contract line before → after', () => {
  const { body, nothingToReport } = renderComment(withContract(changedContract), options);
  expect(nothingToReport).toBe(false);
  const lines = body.split('\n');
  const at = (start: string) => lines.findIndex((line) => line.startsWith(start));
  expect(lines.slice(at('**Contract**'), at('#### Regressions') + 1)).toEqual([
    '**Contract**: operations covered 50% → 50% · responses covered 40% → 40% · conditions met 40% → 35.5%',
    '',
    '**Conditions not compared** (1 operation: the document changed their conditions since the base): `POST /pets`.',
    '',
    '#### Regressions (4)',
  ]);
  expect(lines.filter((line) => /^\| (🔺|🔻) /.test(line))).toEqual([
    '| 🔺 condition no longer met | `GET /pets` | `status = "available"` (query): no longer sent · `#/paths/~1pets/get/parameters/0/schema/enum/0` |',
    '| 🔺 condition no longer met | `GET /pets` | `limit maximum 100` (query): no longer met (reached; none above it answered 4xx) · ' +
      '`#/paths/~1pets/get/parameters/1/schema/maximum` |',
    '| 🔺 condition no longer met | `GET /pets/{id}` | `404`: no longer answered · `#/paths/~1pets~1{id}/get/responses/404` |',
    '| 🔺 coverage down | conditions | 40% → 35.5% |',
    '| 🔻 condition newly met | `GET /pets` | `tag` (response `200`): now present · `#/components/schemas/Pet/properties/tag` |',
  ]);
});

test('one condition no longer met alone is something to report; a comparison of conditions that held says so', () => {
  const one = renderComment(
    withContract({ noLongerMetConditions: [{ operation: 'GET /pets/{id}', condition: STATUS_404 }], noLongerMetConditionCount: 1 }),
    options,
  );
  expect([one.nothingToReport, one.body.includes('#### Regressions (1)')]).toEqual([false, true]);
  const held = renderComment(withContract({}), options);
  expect(held.nothingToReport).toBe(true);
  expect(held.body).toContain(
    'The contract held: no operation newly exercised or no longer, no status newly undeclared, ' +
      'no more or fewer bodies off their schema, no condition newly met or no longer, no coverage up or down.',
  );
});

test('past the 50 the report lists, the rest are counted: 20 shown in the Markdown, the 50 on the page, one row in the comment', () => {
  const listed = Array.from({ length: 50 }, (_, index) => ({
    operation: `GET /op${String(index).padStart(2, '0')}`,
    condition: { ...STATUS_404, where: `#/paths/~1op${index}/get/responses/404` },
  }));
  const report = withContract({
    noLongerMetConditions: listed,
    noLongerMetConditionCount: 75,
    conditionListChangedOperations: [],
    conditionListChangedOperationCount: 0,
  });
  const markdown = contractPart(renderMarkdown(report));
  expect(markdown.filter((line) => line.startsWith('  - '))).toHaveLength(20);
  expect(markdown.at(-1)).toBe("- … and 55 more in the report's `baseline.contract.noLongerMetConditions`");
  const html = contractHtml(renderHtml(report));
  expect(html.match(/no longer answered/g)).toHaveLength(50);
  expect(html).toContain("<li>… and 25 more in the report's baseline.contract.noLongerMetConditions</li></ul></div>");
  const { body } = renderComment(report, options);
  // 50 rows and one that counts 25: 75 regressions, as the headline counts them.
  expect(body).toContain('#### Regressions (75)');
  expect(body).toContain('**vs base: 75 conditions no longer met,');
  expect(body).toContain(
    "| 🔺 condition no longer met | 25 more | counted in the report's `baseline.contract`, which lists the first 50 |",
  );
});

test('names from the document are text in every rendering: no table broken, no markup, no element', () => {
  const hostile = 'GET /a|b`c`<script>x</script>';
  const report = withContract({
    noLongerMetConditions: [
      { operation: hostile, condition: { ...QUERY_ENUM, value: '</summary>|`', parameter: { name: 'q|<b>', in: 'query' } } },
    ],
    noLongerMetConditionCount: 1,
    newlyMetConditions: [{ operation: hostile, condition: { ...OPTIONAL_TAG, name: '<img src=x>' } }],
    newlyMetConditionCount: 1,
    conditionListChangedOperations: [hostile],
    conditionListChangedOperationCount: 1,
  });
  const markdown = contractPart(renderMarkdown(report));
  expect(markdown).toContain('- ``GET /a\\|b`c`<script>x</script>``:');
  expect(markdown).toContain(
    '  - ``q\\|<b> = "</summary>\\|`"`` (query): no longer sent · `#/paths/~1pets/get/parameters/0/schema/enum/0`',
  );
  expect(markdown).toContain('  - `<img src=x>` (response `200`): now present · `#/components/schemas/Pet/properties/tag`');
  const html = contractHtml(renderHtml(report));
  expect(html).not.toMatch(/<(script|img|b)[ >]|<\/summary>\|/);
  expect(html).toContain('<code>q|&lt;b&gt; = "&lt;/summary&gt;|`"</code> (query): no longer sent');
  const row = renderComment(report, options)
    .body.split('\n')
    .find((line) => line.startsWith('| 🔺 condition no longer met'));
  expect(row).toBe(
    '| 🔺 condition no longer met | ``GET /a\\|b`c`<script>x</script>`` | ``q\\|<b> = "</summary>\\|`"`` (query): no longer sent · ' +
      '`#/paths/~1pets/get/parameters/0/schema/enum/0` |',
  );
});
