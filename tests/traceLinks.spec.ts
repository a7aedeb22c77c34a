import { compareWithBaseline, renderHtml, renderMarkdown, type QualityReport } from '../src/index.js';
import { resolveSettings } from '../src/config/resolveSettings.js';
import { environmentSettings, flagSettings } from '../src/config/settingsSources.js';
import { settingsBut } from '../src/cli/commandSettings.js';
import { ConfigurationError } from '../src/errors.js';
import { renderComment } from '../src/report/comment/renderComment.js';
import { qualityReportSchema } from '../src/report/qualityReport.js';
import { reportDisagreement } from '../src/report/reportConsistency.js';
import { markdownDestination, traceUrlOf } from '../src/report/sections/traceParts.js';
import { createEvidenceRun } from '../src/run/evidenceRun.js';
import { mergeReports, reportPart, runFactsOf } from '../src/run/mergeReports.js';
import type { TestIdentity } from '../src/summary/endpointEvidence.js';
import { expect, test } from './support/test.js';

// Trace ids in the report (issue 37): each failed and slowest execution keeps
// its record's traceId and spanId, a failed test the trace id of its failing
// attempt; the Markdown, the page and the pull-request comment link each to
// its trace with traceUrlTemplate, or show the id as code without one.

const TRACE_A = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_A = '00f067aa0ba902b7';
const TRACE_B = '0af7651916cd43dd8448eb211c80319c';
const SPAN_B = 'b7ad6b7169203331';
const TRACE_C = 'c0ffee00c0ffee00c0ffee00c0ffee00';
const GRAFANA = 'https://grafana.example/explore?traceId={traceId}';

/** Records read from a file: a 500 and a 404 with trace context, a 503 without, a slow 200 with it. */
function fileRun(settings: { readonly traceContext?: boolean } = {}): QualityReport {
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: 750, ...settings });
  const records = [
    { endpoint: 'POST /orders', statusCode: 500, responseTimeMs: 12, traceId: TRACE_A, spanId: SPAN_A },
    { endpoint: 'GET /orders/:id', statusCode: 404, responseTimeMs: 3, traceId: TRACE_B },
    { endpoint: 'POST /orders', statusCode: 503, responseTimeMs: 4 },
    { endpoint: 'GET /orders', statusCode: 200, responseTimeMs: 900, traceId: TRACE_B, spanId: SPAN_B },
  ];
  run.startInput('calls.json');
  records.forEach((record, index) => {
    run.take(record, () => ({ kind: 'list', listPath: 'executions', index }));
  });
  return run.finish();
}

const failedOf = (report: QualityReport, endpoint: string) =>
  report.endpoints.find((entry) => entry.endpoint === endpoint)?.failedExecutions;

test('a failed and a slowest execution keep the trace and span ids of their records; one without keeps none', () => {
  const report = fileRun();

  expect(failedOf(report, 'POST /orders')).toStrictEqual([
    {
      method: 'POST',
      path: '/orders',
      statusCode: 500,
      responseTimeMs: 12,
      traceId: TRACE_A,
      spanId: SPAN_A,
      location: 'executions[0] of calls.json',
    },
    { method: 'POST', path: '/orders', statusCode: 503, responseTimeMs: 4, location: 'executions[2] of calls.json' },
  ]);
  expect(failedOf(report, 'GET /orders/:id')).toStrictEqual([
    { method: 'GET', path: '/orders/:id', statusCode: 404, responseTimeMs: 3, traceId: TRACE_B, location: 'executions[1] of calls.json' },
  ]);
  expect(report.slowestExecutions[0]).toStrictEqual({
    endpoint: 'GET /orders',
    statusCode: 200,
    responseTimeMs: 900,
    traceId: TRACE_B,
    spanId: SPAN_B,
    location: 'executions[3] of calls.json',
  });
  expect(qualityReportSchema.safeParse(report).success).toBe(true);
  expect(reportDisagreement(report)).toBeUndefined();
});

test('with traceContext false the report keeps no trace or span id anywhere', () => {
  const text = JSON.stringify(fileRun({ traceContext: false }));

  expect(text).not.toContain('traceId');
  expect(text).not.toContain('spanId');
  expect(text).toBe(JSON.stringify(fileRun({ traceContext: false })));
});

const failing: TestIdentity = { title: 'orders.spec.ts › creates an order', file: 'orders.spec.ts', line: 4, column: 1 };
const asserting: TestIdentity = { title: 'orders.spec.ts › reads an order', file: 'orders.spec.ts', line: 12, column: 1 };

/** A reporter's run: `failing` fails twice (the retry's first failed call traced C), `asserting` fails on a 200 traced A. */
function testRun(settings: { readonly traceContext?: boolean } = {}): QualityReport {
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: 750, ...settings });
  const call = (test: TestIdentity, attempt: number, statusCode: number, traceId?: string) => {
    run.take(
      { endpoint: 'POST /orders', statusCode, responseTimeMs: 5, ...(traceId === undefined ? {} : { traceId }) },
      () => ({ kind: 'test', title: test.title, attempt }),
      { test, attempt, testPassed: false, retriedAway: false },
    );
  };
  call(failing, 1, 500, TRACE_A);
  call(failing, 2, 201, TRACE_B);
  call(failing, 2, 500);
  call(failing, 2, 500, TRACE_C);
  call(failing, 2, 500, TRACE_A);
  call(asserting, 1, 201, TRACE_A);
  return run.finish({ tests: { total: 2, passed: 0, failed: 2, flaky: 0, skipped: 0 }, failedTests: [failing, asserting] });
}

test("a failed test shows its last attempt's trace: its first failed call's with one, else its first call's", () => {
  const report = testRun();

  expect(report.failedTests?.map(({ title, traceId }) => ({ title, traceId }))).toStrictEqual([
    { title: failing.title, traceId: TRACE_C },
    { title: asserting.title, traceId: TRACE_A },
  ]);
  expect(JSON.stringify(testRun({ traceContext: false }))).not.toContain('traceId');
});

test('merge keeps the trace ids of failed and slowest executions and of failed tests', () => {
  const files = fileRun();
  const tests = testRun();
  const merged = mergeReports([
    { report: files, path: 'files.json' },
    { report: tests, path: 'tests.json' },
  ]);

  expect(failedOf(merged, 'GET /orders/:id')).toStrictEqual(failedOf(files, 'GET /orders/:id'));
  expect(failedOf(merged, 'POST /orders')?.filter((execution) => execution.traceId !== undefined)).toStrictEqual([
    ...(failedOf(tests, 'POST /orders') ?? []).filter((execution) => execution.traceId !== undefined),
    failedOf(files, 'POST /orders')![0],
  ]);
  expect(merged.slowestExecutions[0]).toStrictEqual(files.slowestExecutions[0]);
  expect(merged.failedTests).toStrictEqual(tests.failedTests);
});

test('a merge with traceContext false leaves out the trace ids its reports bring', () => {
  const reports = [fileRun(), testRun()];
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: 750, traceContext: false });
  for (const report of reports) run.absorb(reportPart(report));
  const text = JSON.stringify(run.finish(runFactsOf(reports)));

  expect(text).not.toContain('traceId');
  expect(text).not.toContain('spanId');
});

const lineOf = (text: string, part: string) => text.split('\n').find((line) => line.includes(part));

test('the Markdown links each failed call, slowest execution and failed test to its trace with the template', () => {
  const markdown = renderMarkdown(fileRun(), { traceUrlTemplate: GRAFANA });

  expect(lineOf(markdown, '| 500 |')).toBe(
    '| `POST /orders` | 500 | `POST /orders` | 12 ms | `executions[0] of calls.json` · ' +
      `[trace 4bf92f35](https://grafana.example/explore?traceId=${TRACE_A}) |`,
  );
  expect(lineOf(markdown, '| 503 |')).toBe('|  | 503 | `POST /orders` | 4 ms | `executions[2] of calls.json` |');
  expect(lineOf(markdown, '| 200 | 900 ms |')).toBe(
    `| \`GET /orders\` | 200 | 900 ms | \`executions[3] of calls.json\` · [trace 0af76519](https://grafana.example/explore?traceId=${TRACE_B}) |`,
  );
  expect(lineOf(renderMarkdown(testRun(), { traceUrlTemplate: GRAFANA }), '| `orders.spec.ts › reads an order` |')).toBe(
    `| \`orders.spec.ts › reads an order\` | \`orders.spec.ts:12\` · [trace 4bf92f35](https://grafana.example/explore?traceId=${TRACE_A}) | ` +
      '`POST /orders` ×1 |',
  );
});

test('without a template the Markdown and the page show the whole trace id as code', () => {
  const report = fileRun();

  expect(lineOf(renderMarkdown(report), '| 500 |')).toBe(
    `| \`POST /orders\` | 500 | \`POST /orders\` | 12 ms | \`executions[0] of calls.json\` · trace \`${TRACE_A}\` |`,
  );
  const html = renderHtml(report);
  expect(html).toContain(
    `<td data-label="Where"><code>executions[3] of calls.json</code> · trace <code data-trace-id="${TRACE_B}">${TRACE_B}</code></td>`,
  );
  expect(html).not.toContain('<a href="https://');
});

test('the page links each trace with an escaped href, the whole id in its title, and needs no script for it', () => {
  const html = renderHtml(fileRun(), { traceUrlTemplate: 'https://tempo.example/trace/{traceId}?span={spanId}&x="1"' });
  const link =
    `<a href="https://tempo.example/trace/${TRACE_A}?span=${SPAN_A}&#38;x=%221%22" title="trace ${TRACE_A}" ` +
    `data-trace-id="${TRACE_A}">trace <code>4bf92f35</code></a>`;

  expect(html).toContain(`<td data-label="Where"><code>executions[0] of calls.json</code> · ${link}</td>`);
  // The 404's record has no span id: a template that needs one links it not, and shows the id.
  expect(html).toContain(`<code>executions[1] of calls.json</code> · trace <code data-trace-id="${TRACE_B}">${TRACE_B}</code>`);
  // The 500 in the failed calls, its endpoint's row, the server errors' line and the slowest; the slow 200 among the slowest.
  expect(html.match(/<a href="https:\/\/tempo/g)?.length).toBe(5);
});

test('a template with characters that end a Markdown link or a table cell gives a destination with them percent-encoded', () => {
  const template = 'https://traces.example/a (b)/{traceId}?q=[x|y]&amp;z=`{spanId}`\\';
  const url = traceUrlOf(template, { traceId: TRACE_A, spanId: SPAN_A })!;

  expect(url).toBe(`https://traces.example/a%20(b)/${TRACE_A}?q=[x|y]&amp;z=\`${SPAN_A}\`\\`);
  expect(markdownDestination(url)).toBe(`https://traces.example/a%20%28b%29/${TRACE_A}?q=%5Bx%7Cy%5D\\&amp;z=%60${SPAN_A}%60%5C`);
  expect(lineOf(renderMarkdown(fileRun(), { traceUrlTemplate: template }), '| 500 |')).toBe(
    '| `POST /orders` | 500 | `POST /orders` | 12 ms | `executions[0] of calls.json` · ' +
      `[trace 4bf92f35](https://traces.example/a%20%28b%29/${TRACE_A}?q=%5Bx%7Cy%5D\\&amp;z=%60${SPAN_A}%60%5C) |`,
  );
});

test('a template that is not an http or https URL links nothing, where the library is given one the setting would refuse', () => {
  expect(traceUrlOf('javascript:alert({traceId})', { traceId: TRACE_A })).toBeUndefined();
  expect(traceUrlOf('not a url {traceId}', { traceId: TRACE_A })).toBeUndefined();
});

test("the comment links a failing endpoint's failed calls and its first server error to their traces", () => {
  const base = createEvidenceRun({ environment: 'staging', slowResponseThresholdMs: 750 });
  const head = createEvidenceRun({ environment: 'staging', slowResponseThresholdMs: 750 });
  for (let index = 0; index < 40; index++) {
    const locate = () => ({ kind: 'list', listPath: '', index }) as const;
    base.take({ endpoint: 'POST /orders', statusCode: 201, responseTimeMs: 10 + (index % 5) }, locate);
    const failed = index < 3;
    const traced = failed ? { traceId: [TRACE_A, TRACE_B, TRACE_A][index] } : {};
    head.take({ endpoint: 'POST /orders', statusCode: failed ? 500 : 201, responseTimeMs: 10 + (index % 5), ...traced }, locate);
  }
  const headReport = head.finish();
  const report = { ...headReport, baseline: compareWithBaseline(headReport, base.finish()) };
  const body = renderComment(report, { environment: 'staging', traceUrlTemplate: GRAFANA }).body;

  const link = (traceId: string) => `[trace ${traceId.slice(0, 8)}](https://grafana.example/explore?traceId=${traceId})`;
  expect(lineOf(body, '**3 server errors')).toBe(
    `- ✖ **3 server errors (5xx or no response) on 1 endpoint**: \`POST /orders (500 ×3)\` · ${link(TRACE_A)}`,
  );
  expect(lineOf(body, '| 🔺 newly failing |')).toContain(`: \`500\` ×3<br>${link(TRACE_A)}, ${link(TRACE_B)} |`);
  expect(lineOf(renderComment(report, { environment: 'staging' }).body, '| 🔺 newly failing |')).toContain(
    `<br>trace \`${TRACE_A}\`, trace \`${TRACE_B}\` |`,
  );
});

test('a bad trace URL template is refused naming its variable or flag, never echoing the value', () => {
  const secret = 'ftp://user:hunter2@traces.example/{traceId}';
  for (const source of [
    environmentSettings({ QE_TRACE_URL_TEMPLATE: secret }),
    flagSettings({ 'trace-url-template': secret }),
    environmentSettings({ QE_TRACE_URL_TEMPLATE: 'https://traces.example/hunter2' }),
  ]) {
    let message = '';
    try {
      resolveSettings([source], { ignored: settingsBut(['traceUrlTemplate']) });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/QE_TRACE_URL_TEMPLATE|--trace-url-template/);
    expect(message).toContain('must be an http or https URL with {traceId}');
    expect(message).not.toContain('hunter2');
  }
});
