import { expect, test } from './support/test.js';
import { buildReport, renderHtml, renderMarkdown, renderTerminal, summariseExecutions, type QualityReport } from '../src/index.js';
import { reportDisagreement } from '../src/report/reportConsistency.js';
import { passingTestFailureHints } from '../src/report/renderers/presentation.js';
import { formatHeadline } from '../src/report/renderers/terminal.js';
import { createEvidenceRun } from '../src/run/evidenceRun.js';
import { mergeReports } from '../src/run/mergeReports.js';
import { statusSet } from '../src/records/statusList.js';

// Server errors (a 5xx, a call with no response) are the server's defects; client errors (4xx) are most often the
// deliberate answers of negative tests. The report counts the first apart, and every rendering leads with them:
// the run this was found on had one 500, in a passing clean-up helper, sixth among nine failing endpoints.

const reportOf = (records: readonly object[], rules?: Parameters<typeof summariseExecutions>[2]): QualityReport =>
  buildReport(summariseExecutions(records as never, 750, rules), { environment: 'ci', slowResponseThresholdMs: 750 });

/** Nine deliberate 404s on one endpoint, and one 500 on another: the suite of the issue, in small. */
const negativeTestsAndOneDefect = [
  ...Array.from({ length: 9 }, () => ({ endpoint: 'GET /counterparties/:id', statusCode: 404, responseTimeMs: 4 })),
  { endpoint: 'DELETE /counterparties/:id', statusCode: 500, responseTimeMs: 6 },
  { endpoint: 'GET /counterparties', statusCode: 200, responseTimeMs: 5 },
];

/** The body rows of the Markdown table under `### <heading>`, each as its cells. */
function tableRows(markdown: string, heading: string): string[][] {
  const section = markdown.split(`### ${heading}\n`)[1]?.split('\n### ')[0] ?? '';
  const lines = section.split('\n').filter((line) => line.startsWith('| ') || line.startsWith('|---'));
  return lines
    .filter((line, index) => !line.startsWith('|---') && !(lines[index + 1]?.startsWith('|---') ?? false))
    .map((line) => line.slice(2, -2).split(/ (?<!\\)\| /));
}

test('a failed 5xx and a call with no response are server errors; a 4xx, a 5xx declared expected and an unexpected 302 are not', () => {
  const report = reportOf(
    [
      { endpoint: 'POST /orders', statusCode: 500, responseTimeMs: 1 },
      { endpoint: 'POST /orders', statusCode: 503, responseTimeMs: 1 },
      { endpoint: 'POST /orders', errorCode: 'ECONNREFUSED', responseTimeMs: 1 },
      { endpoint: 'POST /orders', statusCode: 404, responseTimeMs: 1 },
      { endpoint: 'GET /maintenance', statusCode: 503, responseTimeMs: 1 },
      { endpoint: 'GET /login', statusCode: 302, responseTimeMs: 1 },
    ],
    {
      expectedStatuses: statusSet('200-299'),
      expectedStatusesByEndpoint: new Map([['GET /maintenance', statusSet('503')]]),
    },
  );
  expect(report.serverErrorCount).toBe(3);
  expect(report.failedExecutionCount).toBe(5);
  expect(report.endpoints.map(({ endpoint, serverErrorCount }) => [endpoint, serverErrorCount])).toStrictEqual([
    ['GET /login', 0],
    ['GET /maintenance', 0],
    ['POST /orders', 3],
  ]);
  expect(Object.keys(report).slice(10, 13)).toStrictEqual(['noResponseEndpoints', 'serverErrorCount', 'expectedErrorCount']);
});

test(
  'reports merged add their server errors up; a report of an earlier version, without the count, is read by its ' +
    '5xx answers and calls with no response',
  () => {
    const current = reportOf(negativeTestsAndOneDefect);
    const { serverErrorCount: _run, ...older } = reportOf([
      { endpoint: 'DELETE /counterparties/:id', errorCode: 'ETIMEDOUT', responseTimeMs: 9 },
    ]);
    older.endpoints = older.endpoints.map(({ serverErrorCount: _endpoint, ...entry }) => entry);

    const merged = mergeReports([
      { report: current, path: 'a.json' },
      { report: older, path: 'b.json' },
    ]);

    expect(merged.serverErrorCount).toBe(2);
    expect(merged.endpoints.find((entry) => entry.endpoint === 'DELETE /counterparties/:id')?.serverErrorCount).toBe(2);
  },
);

test('a report whose server errors are not its calls with no response and failed 5xx answers does not add up', () => {
  const report = reportOf(negativeTestsAndOneDefect);
  const counted = (count: number): QualityReport => ({
    ...report,
    endpoints: report.endpoints.map((entry) =>
      entry.endpoint === 'GET /counterparties/:id' ? { ...entry, serverErrorCount: count } : entry,
    ),
  });
  expect(reportDisagreement(report)).toBeUndefined();
  expect(reportDisagreement(counted(1))).toStrictEqual({
    path: ['endpoints', 2, 'serverErrorCount'],
    endpoint: 'GET /counterparties/:id',
    message: 'is 1, where noResponseCount is 0 and statusCodes count 0 of 500 or above',
  });
  expect(reportDisagreement({ ...report, serverErrorCount: 0 })).toStrictEqual({
    path: ['serverErrorCount'],
    message: "is 0, where the endpoints' add up to 1",
  });
});

test('an endpoint keeps its server errors among its listed failed calls, first, however many client errors came before them', () => {
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: 750 });
  const statuses = [404, 404, 404, 404, 404, 404, 500, 404, 502];
  statuses.forEach((statusCode, index) => {
    run.take({ endpoint: 'GET /orders/:id', statusCode, responseTimeMs: 1 }, () => ({
      kind: 'list',
      listPath: 'executions',
      file: 'a.json',
      index,
    }));
  });
  const listed = run.finish().endpoints[0]?.failedExecutions ?? [];
  expect(listed.map(({ statusCode, location }) => `${statusCode} ${location}`)).toStrictEqual([
    '500 executions[6] of a.json',
    '502 executions[8] of a.json',
    '404 executions[0] of a.json',
    '404 executions[1] of a.json',
    '404 executions[2] of a.json',
  ]);
});

test('the endpoint with a server error leads the endpoint table, the failed calls and the terminal, ahead of one with nine client errors', () => {
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: 750 });
  negativeTestsAndOneDefect.forEach((record, index) => {
    run.take(record, () => ({ kind: 'list', listPath: 'executions', index }));
  });
  const report = run.finish();
  const markdown = renderMarkdown(report);
  expect(tableRows(markdown, 'Endpoints').map((cells) => cells[1])).toStrictEqual([
    '`DELETE /counterparties/:id`',
    '`GET /counterparties/:id`',
    '`GET /counterparties`',
  ]);
  expect(
    tableRows(markdown, 'Failed calls')
      .map((cells) => cells[0])
      .filter(Boolean),
  ).toStrictEqual(['`DELETE /counterparties/:id`', '`GET /counterparties/:id`']);
  const html = renderHtml(report);
  const rows = [...html.matchAll(/<tr data-endpoint="([^"]+)"/g)].map((match) => match[1]);
  expect(rows.slice(0, 2)).toStrictEqual(['DELETE /counterparties/:id', 'GET /counterparties/:id']);
  const terminal = renderTerminal(report, { files: [] }).split('\n');
  expect(terminal.filter((line) => /^ {2}[✖▲✔] /.test(line)).map((line) => line.slice(4, 30).trim())).toStrictEqual([
    'DELETE /counterparties/:id',
    'GET /counterparties/:id',
    'GET /counterparties',
  ]);
});

test('the headline counts calls, then server errors before every other failure, in the Markdown, the page, the terminal and the closing line', () => {
  const report = reportOf(negativeTestsAndOneDefect);
  expect(renderMarkdown(report).split('\n')[2]).toBe(
    '❌ **10 failed calls, 1 of them a server error, no budgets set** · 11 calls · 1 server error · 10 failed · 0 slow (over 750 ms) · 0 with no response',
  );
  expect(renderTerminal(report, { files: [] }).split('\n').slice(1, 3)).toStrictEqual([
    '✖ 10 failed calls, 1 of them a server error, no budgets set',
    '11 calls · 1 server error · 10 failed · 0 slow (over 750 ms) · 0 with no response',
  ]);
  expect(formatHeadline(report, ['q.json'])).toBe(
    'quality-evidence: 11 calls: 1 server error, 10 failed, 0 slow, 0 with no response; report written to q.json',
  );
  const numbers = [...renderHtml(report).matchAll(/<dt>([^<]+)<\/dt><dd(?: class="(\w+)")? data-field="(\w+)" data-value="(\d+)"/g)];
  expect(numbers.slice(0, 3).map(([, name, tone, field, value]) => [name, tone, field, value])).toStrictEqual([
    ['Calls', undefined, 'executionCount', '11'],
    ['Server errors (5xx, no response)', 'bad', 'serverErrorCount', '1'],
    ['Failed', undefined, 'failedExecutionCount', '10'],
  ]);
});

test('the hint on failed calls of passing tests suggests declaring a 4xx expected, and says of a 5xx that it stays a failure, never to declare it', () => {
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: 750 });
  const cleanUp = { title: 'counterparties.spec.ts › creates one', file: 'counterparties.spec.ts', line: 3, column: 1 };
  const origin = { test: cleanUp, attempt: 1, testPassed: true, retriedAway: false };
  const at = () => ({ kind: 'test', title: cleanUp.title, attempt: 1 }) as const;
  run.take({ endpoint: 'GET /counterparties/:id', statusCode: 404, responseTimeMs: 3 }, at, origin);
  run.take({ endpoint: 'GET /counterparties/:id', statusCode: 404, responseTimeMs: 3 }, at, origin);
  run.take({ endpoint: 'DELETE /counterparties/:id', statusCode: 500, responseTimeMs: 3 }, at, origin);
  const report = run.finish({ tests: { total: 1, passed: 1, failed: 0, flaky: 0, skipped: 0 } });

  const hints = passingTestFailureHints(report);

  expect(hints).toStrictEqual([
    '1 server error (5xx or no response, 1 endpoint) came from tests that passed: DELETE /counterparties/:id: 500 ×1, first at ' +
      'counterparties.spec.ts:3 · counterparties.spec.ts › creates one (attempt 1). In a set-up or clean-up call as often as not: ' +
      'a passing test does not make a server error right, and it stays a failure',
    '2 failed calls (1 endpoint) came from tests that passed: if they are negative cases, declare the status expected ' +
      'with the test\'s "expected-status" annotation or with expectedStatusesByEndpoint, and they stop counting as failures',
  ]);
  expect(passingTestFailureHints(reportOf(negativeTestsAndOneDefect))).toStrictEqual([]);
  expect(renderMarkdown(report)).toContain(`\nℹ️ ${hints[0]}.\n\nℹ️ ${hints[1]}.\n`);
});

test('what is new and wrong names the five endpoints with most server errors and counts the rest, in the Markdown and on the page', () => {
  const records = Array.from({ length: 7 }, (_, index) =>
    Array.from({ length: index + 1 }, () => ({ endpoint: `GET /e${index}`, statusCode: 503, responseTimeMs: 3 })),
  ).flat();
  const report = reportOf(records);
  expect(renderMarkdown(report)).toContain(
    '- ✖ **28 server errors (5xx or no response) on 7 endpoints**: `GET /e6 (503 ×7)`, `GET /e5 (503 ×6)`, `GET /e4 (503 ×5)`, ' +
      '`GET /e3 (503 ×4)`, `GET /e2 (503 ×3)`, and 2 more',
  );
  expect(renderHtml(report)).toContain('<code>GET /e2 (503 ×3)</code>, and 2 more</li>');
});
