import type { WeighedChange } from '../src/contract/diff/weighedChange.js';
import type { ComparedReport } from '../src/report/comment/commentFindings.js';
import { renderComment } from '../src/report/comment/renderComment.js';
import type { QualityReport } from '../src/report/qualityReport.js';
import { renderHtml } from '../src/report/renderers/html.js';
import { contractChangesSchema } from '../src/report/contractSchemas.js';
import { changesMarkdown } from '../src/report/sections/contractChanges.js';
import { apiCalls, compared, reportOf } from './support/comparedReports.js';
import { expect, test } from './support/test.js';

// A run's contract changes since its base document (issue 38), weighed by
// its evidence, as the Markdown, the page and the pull-request comment show
// them: the summary line, then each breaking change and warning with how
// many calls carried what changed, the calls and the tests, or not exercised.

const test1 = (file: string, line: number) => ({ file, line, title: `${file} › test at ${line}` });

// Checked against the report's own schema: what a run writes.
const shown = contractChangesSchema.parse({
  base: ['base.yaml'],
  summary: { breaking: 2, warning: 1, info: 1, breakingExercised: 1 },
  changes: [
    {
      rule: 'response-property-removed',
      level: 'breaking',
      operation: { method: 'GET', path: '/pets/{id}', label: 'GET /pets/{id}' },
      base: '#/components/schemas/NewPet/properties/name',
      component: '#/components/schemas/NewPet',
      subject: { kind: 'responseProperty', status: '200', property: ['name'] },
      message: 'GET /pets/{id}: response 200: property name removed',
      evidence: {
        exercised: true,
        calls: 6,
        tests: [
          test1('pets-read.spec.ts', 3),
          test1('pets-create.spec.ts', 9),
          test1('pets-list.spec.ts', 3),
          test1('pets-list.spec.ts', 11),
        ],
        unlistedTestCount: 1,
        presence: { direction: 'response', status: '200', of: 5, present: 5 },
      },
    },
    {
      rule: 'operation-removed',
      level: 'breaking',
      operation: { method: 'DELETE', path: '/pets/{id}', label: 'DELETE /pets/{id}' },
      base: '#/paths/~1pets~1%7Bid%7D/delete',
      subject: { kind: 'operation' },
      message: 'DELETE /pets/{id}: operation removed',
      evidence: { exercised: false },
    },
    {
      rule: 'request-property-removed',
      level: 'warning',
      operation: { method: 'POST', path: '/pets', label: 'POST /pets' },
      base: '#/components/schemas/NewPet/properties/tag',
      subject: { kind: 'requestProperty', property: ['tag'] },
      message: 'POST /pets: request body: property tag removed',
      evidence: {
        exercised: true,
        calls: 2,
        tests: [test1('pets-create.spec.ts', 3)],
        unlistedTestCount: 0,
        presence: { direction: 'request', of: 2, present: 1 },
      },
    },
    {
      rule: 'operation-added',
      level: 'info',
      operation: { method: 'GET', path: '/owners', label: 'GET /owners' },
      head: '#/paths/~1owners/get',
      subject: { kind: 'operation' },
      message: 'GET /owners: operation added',
      evidence: { exercised: false },
    },
  ] satisfies WeighedChange[],
});

const ROWS = [
  '| Level | Operation | Change | Evidence |',
  '|---|---|---|---|',
  '| breaking | `GET /pets/{id}` | `response 200: property name removed` | present in 5 of 5 responses answered 200 · 6 calls by ' +
    '`pets-read.spec.ts:3`, `pets-create.spec.ts:9`, `pets-list.spec.ts:3`, and 2 more tests |',
  '| breaking | `DELETE /pets/{id}` | `operation removed` | **not exercised** |',
  '| warning | `POST /pets` | `request body: property tag removed` | sent in 1 of 2 requests · 2 calls by `pets-create.spec.ts:3` |',
];

const LINE =
  '**Contract changes** against `base.yaml`: 2 breaking changes: 1 exercised by at least 4 tests, 1 not exercised by any test · 1 warning · 1 info';

test('the Markdown: the summary line, then each breaking change and warning with its evidence; info counted, not listed', () => {
  expect(changesMarkdown(shown, true, 20)).toEqual(['', LINE, '', ...ROWS]);
  expect(changesMarkdown(shown, true, 2)).toEqual(['', LINE, '', ...ROWS.slice(0, 4), '', '1 more change in the report.']);
});

test("the page: the same line and a table, each change's rule beside its words", () => {
  const report = { ...reportOf(apiCalls()), tests: { total: 5, passed: 5, failed: 0, flaky: 0, skipped: 0 } };
  const html = renderHtml({ ...report, contract: { ...contractOf(report), changes: shown } });
  expect(html).toContain(
    '<h3>Contract changes</h3><p>Against <code>base.yaml</code>: ' +
      '2 breaking changes: 1 exercised by at least 4 tests, 1 not exercised by any test · 1 warning · 1 info</p>',
  );
  expect(html).toContain(
    '<td data-label="Change">operation removed <span class="muted">operation-removed</span></td><td data-label="Evidence"><strong>not exercised</strong></td>',
  );
});

test('the comment: the line under the title, the changes in their own part; breaking changes alone are something to report', () => {
  const held = compared(reportOf(apiCalls()), reportOf(apiCalls()));
  const withChanges = {
    ...held,
    tests: { total: 5, passed: 5, failed: 0, flaky: 0, skipped: 0 },
    contract: { ...contractOf(held), changes: shown },
  } as ComparedReport;
  const comment = renderComment(withChanges, { environment: 'staging' });
  const lines = comment.body.split('\n');
  expect(lines).toContain(LINE);
  const part = lines.indexOf('#### Contract changes (2 breaking changes)');
  expect(lines.slice(part, part + 1 + ROWS.length + 1)).toEqual(['#### Contract changes (2 breaking changes)', '', ...ROWS]);
  expect(comment.nothingToReport).toBe(false);
  expect(renderComment(held, { environment: 'staging' }).nothingToReport).toBe(true);
});

/** A contract section with nothing in it but what the renderers read, for the changes to sit in. */
function contractOf(report: object) {
  return {
    ...((report as { contract?: object }).contract ?? {}),
    documents: ['openapi.yaml'],
    operationCount: 0,
    calledOperationCount: 0,
    operationCoveragePercent: null,
    responseCount: 0,
    seenResponseCount: 0,
    responseCoveragePercent: null,
    validatedCount: 0,
    schemaViolationCount: 0,
    notValidatedCount: 0,
    operations: [],
    unmatchedEndpoints: [],
    deprecatedOperationsCalled: [],
  } as unknown as NonNullable<QualityReport['contract']>;
}
