import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { attachedRecords } from './support/attachedRecords.js';
import { CHROMIUM_PATH, QUIET_CHROMIUM_ARGS, requireChromium } from './support/chromium.js';
import { createPlaywrightProject, runPlaywright } from './support/playwrightProject.js';
import { createTemporaryFolder, repositoryRoot } from './support/runProgram.js';
import type { QualityReport } from '../src/index.js';
import type { ReceivedRequest, ServerSpan } from './support/tracedServer.js';
import { expect, test } from './support/test.js';

// W3C trace context on the calls the fixture records (issue 37), end to end: a real Playwright suite with
// quality-evidence/test against a server instrumented as teams instrument theirs (OpenTelemetry's Node SDK and its
// HTTP instrumentation, tests/support/tracedServer.ts), which writes every span it ends and every request it gets.
// Playwright runs of their own (10 to 30 s on a loaded machine, a browser among them): 240 s each.
test.describe.configure({ timeout: 240_000 });

/** The traced server, running in a process of its own, and what it wrote. */
interface TracedServer {
  readonly url: string;
  spans(): Promise<ServerSpan[]>;
  requests(): Promise<ReceivedRequest[]>;
  stop(): Promise<void>;
}

async function startTracedServer(): Promise<TracedServer> {
  const folder = await createTemporaryFolder({}, 'traced-server');
  const spansFile = join(folder, 'spans.jsonl');
  const requestsFile = join(folder, 'requests.jsonl');
  const server: ChildProcess = spawn(
    process.execPath,
    [join(repositoryRoot, '.build/tests/support/tracedServer.js'), spansFile, requestsFile],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((listening, failed) => {
    let output = '';
    server.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening (\S+)/.exec(output);
      if (match !== null) listening(match[1]!);
    });
    server.once('exit', (code) => {
      failed(new Error(`the traced server exited (${String(code)}) before it listened`));
    });
  });
  const lines = async <Line>(file: string): Promise<Line[]> =>
    (await readFile(file, 'utf8').catch(() => ''))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Line);
  return {
    url,
    spans: () => lines<ServerSpan>(spansFile),
    requests: () => lines<ReceivedRequest>(requestsFile),
    stop: () =>
      new Promise<void>((stopped) => {
        server.once('exit', () => {
          stopped();
        });
        server.kill('SIGTERM');
      }),
  };
}

/** The spans of an OTLP JSON trace line, as far as these specs read them. */
interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: readonly { readonly key: string; readonly value: Record<string, unknown> }[];
}
interface OtlpTraces {
  readonly resourceSpans: readonly { readonly scopeSpans: readonly { readonly spans: readonly OtlpSpan[] }[] }[];
}

const OWN_TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const CONTEXT_TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

const config = (reporterOptions = '') => `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  workers: 1,
  retries: 0,
  use: { baseURL: process.env.BASE_URL },
  reporter: [['json', { outputFile: 'out/playwright.json' }], ['quality-evidence/reporter', { outputFile: 'out/q.json'${reporterOptions} }]],
});
`;

const apiSuite = `import { test, expect } from 'quality-evidence/test';

test('reads, writes and fails', async ({ request }) => {
  expect((await request.get('/items/1')).status()).toBe(200);
  expect((await request.post('/items', { data: { name: 'cup' } })).status()).toBe(201);
  expect((await request.get('/fail')).status()).toBe(200);
});

test('reads twice', async ({ request }) => {
  await request.get('/items/2');
  await request.fetch('/items/3');
});

test('sends its own trace context', async ({ request }) => {
  await request.get('/items/4', { headers: { traceparent: '${OWN_TRACEPARENT}', tracestate: 'vendor=kept' } });
});

test('makes a context with its own trace context', async ({ playwright }) => {
  const api = await playwright.request.newContext({ baseURL: process.env.BASE_URL, extraHTTPHeaders: { traceparent: '${CONTEXT_TRACEPARENT}' } });
  await api.get('/items/5');
  await api.dispose();
});
`;

test.describe('a suite against a server instrumented with OpenTelemetry', () => {
  let server: TracedServer;
  let records: { readonly title: string; readonly record: Record<string, unknown> }[];
  let spans: ServerSpan[];
  let requests: ReceivedRequest[];
  let report: QualityReport;
  let markdown: string;
  let clientSide: OtlpSpan[];

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    server = await startTracedServer();
    try {
      const project = await createPlaywrightProject({
        'playwright.config.ts': config(", traceUrlTemplate: 'http://127.0.0.1:16686/trace/{traceId}', exports: { otlp: 'out/otlp.jsonl' }"),
        'tests/items.spec.ts': apiSuite,
      });
      // The otlp export's optional peers, as a team that asks for it installs them.
      await symlink(join(repositoryRoot, 'node_modules/@opentelemetry'), join(project, 'node_modules/@opentelemetry'), 'dir');
      const outcome = await runPlaywright(project, ['test'], { BASE_URL: server.url });
      expect(outcome.stdout).toContain('1 failed');
      records = await attachedRecords(join(project, 'out/playwright.json'));
      report = JSON.parse(await readFile(join(project, 'out/q.json'), 'utf8')) as QualityReport;
      markdown = await readFile(join(project, 'out/q.md'), 'utf8');
      const [, traceLine] = (await readFile(join(project, 'out/otlp.jsonl'), 'utf8')).split('\n');
      clientSide = (JSON.parse(traceLine!) as OtlpTraces).resourceSpans.flatMap((resource) =>
        resource.scopeSpans.flatMap((scope) => scope.spans),
      );
    } finally {
      await server.stop();
    }
    spans = await server.spans();
    requests = await server.requests();
  });

  test("every recorded call's trace and span are the trace and the parent of the server's span of that very call", () => {
    expect(records).toHaveLength(7);
    for (const { record } of records) {
      const serverSpans = spans.filter((span) => span.kind === 1 && span.parentSpanId === record['spanId']);
      expect(serverSpans).toHaveLength(1);
      expect(serverSpans[0]!.traceId).toBe(record['traceId']);
      expect(`${String(serverSpans[0]!.attributes['http.request.method'])} ${String(serverSpans[0]!.attributes['url.path'])}`).toBe(
        record['endpoint'],
      );
      expect(serverSpans[0]!.attributes['http.response.status_code']).toBe(record['statusCode']);
    }
  });

  test("a test's calls share one trace and the test's span, each call a span of its own; another test has another trace", () => {
    const begun = records.filter(({ title }) => title === 'reads, writes and fails' || title === 'reads twice');
    const traces = ['reads, writes and fails', 'reads twice'].map(
      (title) =>
        new Set(
          begun
            .filter((call) => call.title === title)
            .map(({ record }) => `${String(record['traceId'])} ${String(record['parentSpanId'])}`),
        ),
    );
    expect(traces.map((trace) => trace.size)).toEqual([1, 1]);
    expect(new Set(traces.flatMap((trace) => [...trace])).size).toBe(2);
    expect(new Set(begun.map(({ record }) => record['spanId'])).size).toBe(5);
    for (const { record } of begun) {
      expect(record['startedAtMs']).toEqual(expect.any(Number));
      // The test's span is the client spans' parent: no server span hangs from it.
      expect(spans.some((span) => span.parentSpanId === record['parentSpanId'])).toBe(false);
    }
    const sent = requests.filter((request) => request.url !== '/items/4' && request.url !== '/items/5');
    expect(sent.map((request) => request.headers['traceparent'])).toEqual(
      begun.map(({ record }) => `00-${String(record['traceId'])}-${String(record['spanId'])}-01`),
    );
  });

  test("the report's failed call and failed test carry the trace of the server's span of that call, linked in the Markdown", () => {
    const failed = records.find(({ record }) => record['statusCode'] === 500)!.record;
    const entry = report.endpoints.find((endpoint) => endpoint.endpoint === 'GET /fail')!.failedExecutions![0]!;
    expect([entry.traceId, entry.spanId]).toStrictEqual([failed['traceId'], failed['spanId']]);
    expect(spans.find((span) => span.parentSpanId === entry.spanId)!.attributes['http.response.status_code']).toBe(500);
    expect(report.failedTests?.map((failedTest) => [failedTest.title, failedTest.traceId])).toStrictEqual([
      ['items.spec.ts › reads, writes and fails', failed['traceId']],
    ]);
    expect(markdown).toContain(
      `[trace ${String(failed['traceId']).slice(0, 8)}](http://127.0.0.1:16686/trace/${String(failed['traceId'])})`,
    );
  });

  test("the otlp export's test and client spans and the server's spans form one tree per call", () => {
    const begun = records.filter(({ record }) => record['parentSpanId'] !== undefined);
    expect(begun).toHaveLength(5);
    for (const { title, record } of begun) {
      const client = clientSide.find((span) => span.spanId === record['spanId'])!;
      const testSpan = clientSide.find((span) => span.spanId === record['parentSpanId'])!;
      const server = spans.find((span) => span.kind === 1 && span.parentSpanId === client.spanId)!;
      expect([client.kind, client.traceId, client.parentSpanId]).toStrictEqual([3, record['traceId'], testSpan.spanId]);
      expect([testSpan.kind, testSpan.traceId, testSpan.parentSpanId ?? '', testSpan.name]).toStrictEqual([
        1,
        record['traceId'],
        '',
        `items.spec.ts › ${title}`,
      ]);
      expect(server.traceId).toBe(client.traceId);
    }
    // A test's own trace is its own tracer's: the export sends no span into it.
    expect(
      clientSide.filter(
        (span) => span.traceId === '4bf92f3577b34da6a3ce929d0e0e4736' || span.traceId === '0af7651916cd43dd8448eb211c80319c',
      ),
    ).toEqual([]);
    expect(clientSide).toHaveLength(5 + 2);
  });

  test('a traceparent the test sent itself is kept, with its tracestate, and its ids recorded without a test span', () => {
    const own = records.find(({ title }) => title === 'sends its own trace context')!.record;
    expect([own['traceId'], own['spanId'], own['parentSpanId']]).toEqual([
      '4bf92f3577b34da6a3ce929d0e0e4736',
      '00f067aa0ba902b7',
      undefined,
    ]);
    const received = requests.find((request) => request.url === '/items/4')!;
    expect([received.headers['traceparent'], received.headers['tracestate']]).toEqual([OWN_TRACEPARENT, 'vendor=kept']);
    const context = records.find(({ title }) => title === 'makes a context with its own trace context')!.record;
    expect([context['traceId'], context['spanId'], context['parentSpanId']]).toEqual([
      '0af7651916cd43dd8448eb211c80319c',
      'b7ad6b7169203331',
      undefined,
    ]);
    expect(requests.find((request) => request.url === '/items/5')!.headers['traceparent']).toBe(CONTEXT_TRACEPARENT);
  });
});

test('with traceContext false, no call carries a traceparent the test did not send, and no record a trace id', async () => {
  const server = await startTracedServer();
  let records: { readonly title: string; readonly record: Record<string, unknown> }[];
  try {
    const project = await createPlaywrightProject({
      'playwright.config.ts': config(', traceContext: false'),
      'tests/items.spec.ts': apiSuite,
    });
    await runPlaywright(project, ['test'], { BASE_URL: server.url });
    records = await attachedRecords(join(project, 'out/playwright.json'));
  } finally {
    await server.stop();
  }
  expect(records).toHaveLength(7);
  expect(records.filter(({ record }) => 'traceId' in record || 'spanId' in record || 'startedAtMs' in record)).toEqual([]);
  expect((await server.requests()).map((request) => request.headers['traceparent'] ?? null)).toEqual([
    null,
    null,
    null,
    null,
    null,
    OWN_TRACEPARENT,
    CONTEXT_TRACEPARENT,
  ]);
});

test("a browser page's own API call reaches the server with exactly the headers it has without the package; a page's own traceparent is recorded", async () => {
  requireChromium();
  const server = await startTracedServer();
  let records: { readonly title: string; readonly record: Record<string, unknown> }[];
  try {
    const browserSuite = (module: string, item: number) => `import { test, expect } from '${module}';
test('shows item ${item}', async ({ page }) => {
  await page.goto('/?item=${item}');
  await expect(page.locator('#out')).toHaveText('kettle');
});
`;
    const project = await createPlaywrightProject({
      'playwright.config.ts': config().replace(
        'use: { baseURL: process.env.BASE_URL }',
        `use: { baseURL: process.env.BASE_URL, launchOptions: ${JSON.stringify({ executablePath: CHROMIUM_PATH, args: QUIET_CHROMIUM_ARGS })} }`,
      ),
      'tests/a-plain.spec.ts': browserSuite('@playwright/test', 6),
      'tests/b-recorded.spec.ts': browserSuite('quality-evidence/test', 7),
      'tests/c-page-traced.spec.ts': browserSuite('quality-evidence/test', 8).replace(
        '/?item=8',
        `/?item=8&traceparent=${OWN_TRACEPARENT}`,
      ),
    });
    // Chromium keeps its profile under HOME: the project's own folder, removed with it.
    const outcome = await runPlaywright(project, ['test'], { BASE_URL: server.url, HOME: project });
    expect(outcome.exitCode).toBe(0);
    records = await attachedRecords(join(project, 'out/playwright.json'));
  } finally {
    await server.stop();
  }
  const received = await server.requests();
  const headersOf = (url: string) => Object.keys(received.find((request) => request.url === url)!.headers).sort();
  expect(headersOf('/items/7')).toEqual(headersOf('/items/6'));
  expect(headersOf('/items/7')).not.toContain('traceparent');
  // A page that sends its own traceparent (a front end instrumented with OpenTelemetry's web SDK): its ids are recorded.
  expect(received.find((request) => request.url === '/items/8')!.headers['traceparent']).toBe(OWN_TRACEPARENT);
  expect(records.map(({ record }) => [record['endpoint'], record['source'], record['traceId'], record['spanId']])).toEqual([
    ['GET /items/7', 'browser', undefined, undefined],
    ['GET /items/8', 'browser', '4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b7'],
  ]);
});
