import { expect, test } from './support/test.js';
import { renderHtml, renderMarkdown, type QualityReport } from '../src/index.js';
import { reportDisagreement } from '../src/report/reportConsistency.js';
import { failedTestsMarkdown } from '../src/report/sections/failedTests.js';
import { createEvidenceRun } from '../src/run/evidenceRun.js';
import { mergeReports } from '../src/run/mergeReports.js';
import type { TestIdentity } from '../src/summary/endpointEvidence.js';

// A red test in Playwright's list, and the calls behind it in the report: the report names the tests that failed
// (title, file, line) beside the endpoints their calls reached, so a reader goes from one to the other.

const testAt = (line: number, name: string): TestIdentity => ({
  title: `counterparties.spec.ts › ${name}`,
  file: 'counterparties.spec.ts',
  line,
  column: 1,
  testId: `id-${line}`,
});

const creates = testAt(4, 'creates a counterparty');
const lists = testAt(12, 'lists counterparties');
const reads = testAt(20, 'reads one');

/** A run: `creates` calls POST twice and GET once, its POSTs failing; `lists` passes; `reads` fails on an assertion, its call answered. */
function runOfThreeTests(): ReturnType<typeof createEvidenceRun> {
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: 750 });
  const call = (test: TestIdentity, endpoint: string, statusCode: number) => {
    run.take({ endpoint, statusCode, responseTimeMs: 5 }, () => ({ kind: 'test', title: test.title, attempt: 1 }), {
      test,
      attempt: 1,
      testPassed: test !== creates && test !== reads,
      retriedAway: false,
    });
  };
  call(creates, 'POST /counterparties', 500);
  call(creates, 'GET /counterparties/:id', 200);
  call(creates, 'POST /counterparties', 422);
  call(lists, 'GET /counterparties', 200);
  call(reads, 'GET /counterparties/:id', 200);
  return run;
}

const tests = { total: 4, passed: 1, failed: 3, flaky: 0, skipped: 0 };

test('each failed test is named, with its file and line, beside the endpoints its calls reached, where they failed first', () => {
  const unknown = testAt(30, 'fails before any call');
  const report = runOfThreeTests().finish({ tests, failedTests: [reads, unknown, creates] });

  expect(report.failedTests).toStrictEqual([
    {
      ...creates,
      endpoints: [
        { endpoint: 'POST /counterparties', calls: 2, failedCalls: 2, serverErrorCalls: 1 },
        { endpoint: 'GET /counterparties/:id', calls: 1, failedCalls: 0 },
      ],
      endpointCount: 2,
    },
    { ...reads, endpoints: [{ endpoint: 'GET /counterparties/:id', calls: 1, failedCalls: 0 }], endpointCount: 1 },
    { ...unknown, endpoints: [], endpointCount: 0 },
  ]);
  expect(reportDisagreement(report)).toBeUndefined();
});

test('a report names at most 20 failed tests, most failed calls first; tests.failed counts them all, and the Markdown says how many more', () => {
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: 750 });
  const failing = Array.from({ length: 25 }, (_, index) => testAt(100 + index, `case ${index}`));
  failing.forEach((test, index) => {
    run.take(
      { endpoint: 'GET /counterparties', statusCode: index === 24 ? 500 : 200, responseTimeMs: 1 },
      () => ({ kind: 'test', title: test.title, attempt: 1 }),
      { test, attempt: 1, testPassed: false, retriedAway: false },
    );
  });
  const report = run.finish({ tests: { total: 25, passed: 0, failed: 25, flaky: 0, skipped: 0 }, failedTests: failing });

  expect(report.failedTests?.map((test) => test.line)).toStrictEqual([124, ...Array.from({ length: 19 }, (_, index) => 100 + index)]);
  expect(failedTestsMarkdown(report, 2)).toStrictEqual([
    '| Test | Where | Endpoints its calls reached |',
    '|---|---|---|',
    '| `counterparties.spec.ts › case 24` | `counterparties.spec.ts:124` | `GET /counterparties` ×1, 1 failed |',
    '| `counterparties.spec.ts › case 0` | `counterparties.spec.ts:100` | `GET /counterparties` ×1 |',
    '',
    "23 more failed tests: Playwright's own report lists them.",
  ]);
});

test('a test whose call got a server error is named before tests with more failed calls that were 4xx, in the failed tests and the endpoint', () => {
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: 750 });
  const negative = testAt(4, 'refuses a product in a cart');
  const cleanUp = testAt(40, 'deletes a product');
  const call = (test: TestIdentity, statusCode: number) => {
    run.take(
      { endpoint: 'DELETE /produtos/{_id}', statusCode, responseTimeMs: 5 },
      () => ({ kind: 'test', title: test.title, attempt: 1 }),
      {
        test,
        attempt: 1,
        testPassed: false,
        retriedAway: false,
      },
    );
  };
  call(negative, 400);
  call(negative, 400);
  call(cleanUp, 500);
  const report = run.finish({ tests: { total: 2, passed: 0, failed: 2, flaky: 0, skipped: 0 }, failedTests: [negative, cleanUp] });

  expect(report.failedTests?.map(({ line, endpoints }) => [line, endpoints])).toStrictEqual([
    [40, [{ endpoint: 'DELETE /produtos/{_id}', calls: 1, failedCalls: 1, serverErrorCalls: 1 }]],
    [4, [{ endpoint: 'DELETE /produtos/{_id}', calls: 2, failedCalls: 2 }]],
  ]);
  expect(report.endpoints[0]!.tests?.map(({ line, failedCalls, serverErrorCalls }) => [line, failedCalls, serverErrorCalls])).toStrictEqual(
    [
      [40, 1, 1],
      [4, 2, undefined],
    ],
  );
  expect(reportDisagreement(report)).toBeUndefined();
});

test('reports merged name each failed test once, its calls of each endpoint added up, and the failed tests of both', () => {
  const first = runOfThreeTests().finish({ tests, failedTests: [creates, reads] });
  const second = runOfThreeTests().finish({ tests, failedTests: [creates] });

  const merged = mergeReports([
    { report: first, path: 'a.json' },
    { report: second, path: 'b.json' },
  ]);

  expect(merged.failedTests?.map(({ line, endpoints }) => [line, endpoints])).toStrictEqual([
    [
      4,
      [
        { endpoint: 'POST /counterparties', calls: 4, failedCalls: 4, serverErrorCalls: 2 },
        { endpoint: 'GET /counterparties/:id', calls: 2, failedCalls: 0 },
      ],
    ],
    [20, [{ endpoint: 'GET /counterparties/:id', calls: 2, failedCalls: 0 }]],
  ]);
});

test('a report naming more failed tests than tests.failed counts does not add up', () => {
  const report = runOfThreeTests().finish({ tests, failedTests: [creates, reads] });
  const disagreeing: QualityReport = { ...report, tests: { ...tests, failed: 1 } };
  expect(reportDisagreement(disagreeing)).toStrictEqual({
    path: ['failedTests'],
    message: 'names 2 failed tests, where tests.failed is 1',
  });
});

test('the Markdown names the failed tests right under the headline, and the page links each into Playwright’s report beside its endpoints', () => {
  const report = runOfThreeTests().finish({ tests, failedTests: [creates, reads], playwrightHtmlReport: 'pw/index.html' });

  const markdown = renderMarkdown(report);
  const sections = markdown.split('\n').filter((line) => line.startsWith('### '));
  expect(sections[0]).toBe('### Failed tests');
  expect(markdown).toContain(
    [
      '### Failed tests',
      '',
      '3 tests failed; beside each, the endpoints its calls reached.',
      '',
      '| Test | Where | Endpoints its calls reached |',
      '|---|---|---|',
      '| `counterparties.spec.ts › creates a counterparty` | `counterparties.spec.ts:4` | `POST /counterparties` ×2, 2 failed, `GET /counterparties/:id` ×1 |',
      '| `counterparties.spec.ts › reads one` | `counterparties.spec.ts:20` | `GET /counterparties/:id` ×1 |',
      '',
      "1 more failed test: Playwright's own report lists them.",
    ].join('\n'),
  );
  const html = renderHtml(report);
  expect(html).toContain(
    '<li data-failed-test><a href="pw/index.html#?testId=id-4"><code>counterparties.spec.ts:4 · counterparties.spec.ts › creates a counterparty</code></a>' +
      '<ul><li data-endpoint-called><code>POST /counterparties</code> <span class="muted">×2, 2 failed</span></li>' +
      '<li data-endpoint-called><code>GET /counterparties/:id</code> <span class="muted">×1</span></li></ul></li>',
  );
});
