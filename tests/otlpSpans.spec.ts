import { readFile } from 'node:fs/promises';
import type { TestCase } from '@playwright/test/reporter';
import { feedAttempts, type Attempt } from '../reporter/runner/feedAttempts.js';
import type { FileSystem } from '../src/io/fileSystem.js';
import { join } from 'node:path';
import { withDefaults } from '../src/config/resolveSettings.js';
import { renderOtlp } from '../src/exports/otlp.js';
import { spanLimitOf } from '../src/run/evidenceRules.js';
import { createEvidenceRun } from '../src/run/evidenceRun.js';
import { RecordIntake, type RecordOrigin } from '../src/run/recordIntake.js';
import type { SampledCall } from '../src/summary/spanSample.js';
import { attributesOf, decodeOtlp, requireExportCheckers } from './support/exportCheckers.js';
import { mulberry32 } from './support/latencyTrials.js';
import { createTemporaryFolder, runProgram } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// The otlp export's spans (issue 37): which traced calls a run keeps, and
// the client spans, test spans and exemplars the export makes of them.

const THRESHOLD_MS = 100;
const START_MS = Date.UTC(2026, 0, 1);
const TRACE = '0af7651916cd43dd8448eb211c80319c';
const TEST_SPAN = '00f067aa0ba902b7';

interface Traced {
  readonly endpoint: string;
  readonly statusCode?: number;
  readonly errorCode?: string;
  readonly responseTimeMs: number;
  readonly traceId?: string;
  readonly spanId?: string;
  readonly parentSpanId?: string;
  readonly startedAtMs?: number;
}

/** A span id from a seeded generator: 16 hexadecimal digits. */
function spanIdOf(random: () => number): string {
  return Array.from({ length: 2 }, () =>
    Math.floor(random() * 2 ** 32)
      .toString(16)
      .padStart(8, '0'),
  ).join('');
}

/** `count` traced calls of one test: a tenth failed (500), a tenth slow, the rest fast; random span ids. */
function tracedCalls(count: number, seed: number): Traced[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, (_, index) => ({
    endpoint: `GET /orders/${index % 7}`,
    ...(index % 10 === 0 ? { statusCode: 500 } : { statusCode: 200 }),
    responseTimeMs: index % 10 === 1 ? 250 + index : 10 + (index % 13),
    traceId: TRACE,
    spanId: spanIdOf(random),
    parentSpanId: TEST_SPAN,
    startedAtMs: START_MS + index * 20,
  }));
}

/** The spans a run of these records keeps, taken one by one. */
function spansOfRun(records: readonly Traced[], spanLimit: number, origin?: RecordOrigin): readonly SampledCall[] | undefined {
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: THRESHOLD_MS, spanLimit });
  records.forEach((record, index) => {
    run.take(record, () => ({ kind: 'list', listPath: '', index }), origin);
  });
  run.finish();
  return run.spans();
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = mulberry32(seed);
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

test.describe('the traced calls a run keeps for spans', () => {
  test('up to the limit, every traced call is kept', () => {
    const records = tracedCalls(30, 1);
    expect(
      spansOfRun(records, 30)
        ?.map(({ spanId }) => spanId)
        .sort(),
    ).toEqual(records.map(({ spanId }) => spanId).sort());
  });

  test('beyond the limit: the failed calls first, then the slow ones, then the rest by smallest span id', () => {
    const records = tracedCalls(100, 2);
    const failed = records.filter(({ statusCode }) => statusCode === 500).map(({ spanId }) => spanId!);
    const slow = records
      .filter(({ statusCode, responseTimeMs }) => statusCode === 200 && responseTimeMs > THRESHOLD_MS)
      .map(({ spanId }) => spanId!);
    const rest = records
      .filter(({ statusCode, responseTimeMs }) => statusCode === 200 && responseTimeMs <= THRESHOLD_MS)
      .map(({ spanId }) => spanId!);
    expect([failed.length, slow.length, rest.length]).toEqual([10, 10, 80]);
    const kept = spansOfRun(records, 25)!;
    expect(kept.map(({ spanId }) => spanId)).toEqual([...failed.sort(), ...slow.sort(), ...rest.sort().slice(0, 5)]);
    expect(kept.map(({ failed, slow }) => `${failed}/${slow}`)).toEqual([
      ...Array<string>(10).fill('true/false'),
      ...Array<string>(10).fill('false/true'),
      ...Array<string>(5).fill('false/false'),
    ]);
  });

  test('more failed calls than the limit: the failed calls of smallest span id', () => {
    const records = tracedCalls(100, 3);
    const failed = records.filter(({ statusCode }) => statusCode === 500).map(({ spanId }) => spanId!);
    expect(spansOfRun(records, 4)!.map(({ spanId }) => spanId)).toEqual(failed.sort().slice(0, 4));
  });

  test('the same calls whatever order the records came in', () => {
    const records = tracedCalls(3000, 4);
    const whole = spansOfRun(records, 200);
    expect(whole).toHaveLength(200);
    expect(spansOfRun(shuffled(records, 5), 200)).toEqual(whole);
    expect(spansOfRun([...records].reverse(), 200)).toEqual(whole);
  });

  test('the same calls for a run split into parts, from other threads (structured clone) and this one, as for the whole run', () => {
    const records = shuffled(tracedCalls(3000, 6), 7);
    const whole = spansOfRun(records, 150);
    const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: THRESHOLD_MS, spanLimit: 150 });
    const parts = [records.slice(0, 700), records.slice(700, 2100), records.slice(2100)];
    parts.forEach((part, at) => {
      const intake = new RecordIntake({ slowResponseThresholdMs: THRESHOLD_MS, spanLimit: 150 });
      part.forEach((record, index) => {
        intake.take(record, () => ({ kind: 'list', listPath: '', index }));
      });
      const counts = { issues: [], recordCount: part.length, invalidRecordCount: 0, unlistedRecordCount: 0 };
      // The middle part stays on this thread (taken as an accumulator); the others cross as a worker thread's data.
      const summary = at === 1 ? intake.accumulator : structuredClone(intake.accumulator.toData({ sorted: true, last: true }));
      run.absorb({ summary, ...counts });
    });
    run.finish();
    expect(run.spans()).toEqual(whole);
  });

  test('a call recorded twice under the same trace and span id is one span', () => {
    const [call] = tracedCalls(1, 8);
    expect(spansOfRun([call!, call!, { ...call!, responseTimeMs: 11 }], 10)).toHaveLength(1);
  });

  test('a call recorded twice takes a place for each record: the sample is the best records, each call sent once', () => {
    // Two calls of one class (neither failed nor slow): the smaller span id is the better.
    const [call, other] = tracedCalls(4, 8)
      .slice(2)
      .sort((a, b) => (a.spanId! < b.spanId! ? -1 : 1));
    expect(spansOfRun([other!, call!, call!], 2)!.map(({ spanId }) => spanId)).toEqual([call!.spanId]);
    expect(spansOfRun([other!, call!, call!], 3)!.map(({ spanId }) => spanId)).toEqual([call!.spanId, other!.spanId]);
  });

  test('only records with a trace id, a span id, a test span id and a start are kept', () => {
    const [call] = tracedCalls(1, 9);
    const without = (field: keyof Traced): Traced =>
      Object.fromEntries(Object.entries(call!).filter(([key]) => key !== field)) as unknown as Traced;
    const partial = (['traceId', 'spanId', 'parentSpanId', 'startedAtMs'] as const).map(without);
    expect(spansOfRun(partial, 10)).toEqual([]);
  });

  test('a limit of 0 keeps nothing and makes no sample', () => {
    expect(spansOfRun(tracedCalls(10, 10), 0)).toBeUndefined();
  });

  test('the limit is otlpSpanLimit only when the otlp export is asked for and traceContext is on', () => {
    const otlp = { otlp: 'out/metrics.jsonl' };
    expect(spanLimitOf({ exports: otlp, traceContext: true, otlpSpanLimit: 7 })).toBe(7);
    expect(spanLimitOf({ exports: otlp })).toBe(10_000);
    expect(spanLimitOf({ exports: otlp, traceContext: false, otlpSpanLimit: 7 })).toBe(0);
    expect(spanLimitOf({ exports: { junit: 'out/junit.xml' } as { otlp?: string }, otlpSpanLimit: 7 })).toBe(0);
    expect(spanLimitOf({})).toBe(0);
  });
});

/** The export of a run of records taken with an origin, parsed line by line. */
async function exportOf(records: readonly Traced[], origin?: RecordOrigin): Promise<Record<string, unknown>[]> {
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: THRESHOLD_MS, spanLimit: 100 });
  records.forEach((record, index) => {
    run.take(record, () => ({ kind: 'list', listPath: '', index }), origin);
  });
  const report = run.finish();
  const settings = withDefaults({ environment: 'ci', slowResponseThresholdMs: THRESHOLD_MS, serviceName: 'shop-api' });
  const text = await renderOtlp(report, { endedAtMs: START_MS + 60_000, env: {}, settings, spans: run.spans() });
  expect(text.endsWith('\n')).toBe(true);
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

interface JsonSpan {
  readonly [key: string]: unknown;
  readonly spanId: string;
}

function spansIn(line: Record<string, unknown>): JsonSpan[] {
  const [resourceSpans] = line['resourceSpans'] as { scopeSpans: { spans: JsonSpan[] }[] }[];
  return resourceSpans!.scopeSpans[0]!.spans;
}

const ORDER_TEST: RecordOrigin = {
  test: { title: 'orders.spec.ts › lists orders', file: 'tests/orders.spec.ts', line: 12, column: 3 },
  attempt: 2,
  testPassed: false,
  server: { address: 'api.example', port: 8443 },
};

test.describe('the spans of the otlp export', () => {
  const calls: Traced[] = [
    {
      endpoint: 'GET /orders',
      statusCode: 200,
      responseTimeMs: 12.5,
      traceId: TRACE,
      spanId: 'b7ad6b7169203331',
      parentSpanId: TEST_SPAN,
      startedAtMs: START_MS + 0.25,
    },
    {
      endpoint: 'POST /orders',
      statusCode: 503,
      responseTimeMs: 40,
      traceId: TRACE,
      spanId: 'a7ad6b7169203331',
      parentSpanId: TEST_SPAN,
      startedAtMs: START_MS + 20,
    },
    {
      endpoint: 'GET /orders',
      errorCode: 'ECONNRESET',
      responseTimeMs: 5,
      traceId: TRACE,
      spanId: 'c7ad6b7169203331',
      parentSpanId: TEST_SPAN,
      startedAtMs: START_MS + 70,
    },
  ];

  test('a second line, a trace request: the test span (root of its trace) then a client span per call, by start, with exact attributes', async () => {
    const [metrics, trace, ...more] = await exportOf(calls, ORDER_TEST);
    expect(more).toEqual([]);
    expect(Object.keys(metrics!)).toEqual(['resourceMetrics']);
    const [resourceSpans] = trace!['resourceSpans'] as { resource: unknown; scopeSpans: { scope: unknown }[] }[];
    // The same Resource as the metrics.
    expect(resourceSpans!.resource).toEqual((metrics!['resourceMetrics'] as { resource: unknown }[])[0]!.resource);
    expect(resourceSpans!.scopeSpans[0]!.scope).toMatchObject({ name: 'quality-evidence' });
    const common = { droppedAttributesCount: 0, events: [], droppedEventsCount: 0, links: [], droppedLinksCount: 0, flags: 257 };
    const text = (key: string, value: string) => ({ key, value: { stringValue: value } });
    const integer = (key: string, value: number) => ({ key, value: { intValue: value } });
    const server = [text('server.address', 'api.example'), integer('server.port', 8443)];
    expect(spansIn(trace!)).toEqual([
      {
        traceId: TRACE,
        spanId: TEST_SPAN,
        name: 'orders.spec.ts › lists orders',
        kind: 1,
        startTimeUnixNano: '1767225600000250000',
        endTimeUnixNano: '1767225600075000000',
        attributes: [
          text('test.case.name', 'orders.spec.ts › lists orders'),
          text('code.file.path', 'tests/orders.spec.ts'),
          integer('code.line.number', 12),
          text('test.case.result.status', 'fail'),
        ],
        ...common,
        status: { code: 2 },
      },
      {
        traceId: TRACE,
        spanId: 'b7ad6b7169203331',
        parentSpanId: TEST_SPAN,
        name: 'GET /orders',
        kind: 3,
        startTimeUnixNano: '1767225600000250000',
        endTimeUnixNano: '1767225600012750000',
        attributes: [
          text('http.request.method', 'GET'),
          text('url.template', '/orders'),
          ...server,
          integer('http.response.status_code', 200),
        ],
        ...common,
        status: { code: 0 },
      },
      {
        traceId: TRACE,
        spanId: 'a7ad6b7169203331',
        parentSpanId: TEST_SPAN,
        name: 'POST /orders',
        kind: 3,
        startTimeUnixNano: '1767225600020000000',
        endTimeUnixNano: '1767225600060000000',
        attributes: [
          text('http.request.method', 'POST'),
          text('url.template', '/orders'),
          ...server,
          integer('http.response.status_code', 503),
          text('error.type', '503'),
        ],
        ...common,
        status: { code: 2 },
      },
      {
        traceId: TRACE,
        spanId: 'c7ad6b7169203331',
        parentSpanId: TEST_SPAN,
        name: 'GET /orders',
        kind: 3,
        startTimeUnixNano: '1767225600070000000',
        endTimeUnixNano: '1767225600075000000',
        attributes: [text('http.request.method', 'GET'), text('url.template', '/orders'), ...server, text('error.type', 'ECONNRESET')],
        ...common,
        status: { code: 2 },
      },
    ]);
  });

  test('calls of no Playwright test: a test span named test, with no test attributes, and no server where none is known', async () => {
    const [, trace] = await exportOf(calls.slice(0, 1));
    const [testSpan, call] = spansIn(trace!);
    expect([testSpan!['name'], testSpan!['attributes'], testSpan!['status']]).toEqual(['test', [], { code: 0 }]);
    expect((call!['attributes'] as { key: string }[]).map(({ key }) => key)).toEqual([
      'http.request.method',
      'url.template',
      'http.response.status_code',
    ]);
  });

  test('each test attempt is its own root span, in order of its first call', async () => {
    const second = {
      ...calls[0]!,
      traceId: '1af7651916cd43dd8448eb211c80319c',
      spanId: '17ad6b7169203331',
      parentSpanId: '10f067aa0ba902b7',
      startedAtMs: START_MS - 5,
    };
    const [, trace] = await exportOf([calls[0]!, second]);
    expect(spansIn(trace!).map(({ spanId, parentSpanId }) => [spanId, parentSpanId])).toEqual([
      ['10f067aa0ba902b7', undefined],
      ['17ad6b7169203331', '10f067aa0ba902b7'],
      [TEST_SPAN, undefined],
      ['b7ad6b7169203331', TEST_SPAN],
    ]);
  });

  test('each metric point has an exemplar: the slowest kept call of its endpoint and status, in seconds, with its ids', async () => {
    const slower = { ...calls[0]!, spanId: 'd7ad6b7169203331', responseTimeMs: 30, startedAtMs: START_MS + 100 };
    const [metrics] = await exportOf([...calls, slower, { endpoint: 'GET /health', statusCode: 200, responseTimeMs: 1 }]);
    const [resourceMetrics] = metrics!['resourceMetrics'] as {
      scopeMetrics: { metrics: { exponentialHistogram: { dataPoints: unknown[] } }[] }[];
    }[];
    const points = resourceMetrics!.scopeMetrics[0]!.metrics[0]!.exponentialHistogram.dataPoints as {
      attributes: { key: string; value: { stringValue?: string; intValue?: number } }[];
      exemplars?: unknown;
    }[];
    const byPoint = Object.fromEntries(
      points.map(({ attributes, exemplars }) => [attributes.map(({ value }) => value.stringValue ?? value.intValue).join(' '), exemplars]),
    );
    expect(byPoint).toEqual({
      'GET /health 200': undefined,
      'GET /orders 200': [{ timeUnixNano: '1767225600130000000', asDouble: 0.03, traceId: TRACE, spanId: 'd7ad6b7169203331' }],
      'GET /orders ECONNRESET': [{ timeUnixNano: '1767225600075000000', asDouble: 0.005, traceId: TRACE, spanId: 'c7ad6b7169203331' }],
      'POST /orders 503 503': [{ timeUnixNano: '1767225600060000000', asDouble: 0.04, traceId: TRACE, spanId: 'a7ad6b7169203331' }],
    });
  });

  test('a run with no traced call writes the metrics line alone, with no exemplar', async () => {
    const lines = await exportOf([{ endpoint: 'GET /orders', statusCode: 200, responseTimeMs: 3 }]);
    expect(lines).toHaveLength(1);
    expect(JSON.stringify(lines[0])).not.toContain('exemplars');
  });
});

test("the reporter gives a span the server a test wrote an absolute URL to (the port its scheme's by default), none for a relative URL", async () => {
  const testCase = {
    titlePath: () => ['', 'orders.spec.ts', 'lists orders'],
    location: { file: '/suite/tests/orders.spec.ts', line: 12, column: 3 },
    parent: { project: () => ({ use: { baseURL: 'https://api.example' } }) },
    expectedStatus: 'passed',
    id: 'test-1',
  } as unknown as TestCase;
  const urls = ['https://api.example:8443/orders/1', 'http://[::1]/orders/2', 'https://api.example/orders/3', '/orders/4'];
  const attachments = tracedCalls(4, 12).map((record, index) => ({
    body: Buffer.from(JSON.stringify({ ...record, statusCode: 200, call: { method: 'GET', url: urls[index] } })),
    path: undefined,
  }));
  const attempt: Attempt = { test: testCase, retry: 1, calls: [], status: 'passed', expectedStatuses: [], attachments };
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: THRESHOLD_MS, spanLimit: 10 });
  await feedAttempts(run, [attempt], { fileSystem: {} as FileSystem, rootDir: '/suite' });
  run.finish();
  const byStart = [...run.spans()!].sort((a, b) => a.startedAtMs - b.startedAtMs);
  expect(byStart.map(({ server }) => server)).toEqual([
    { address: 'api.example', port: 8443 },
    { address: '::1', port: 80 },
    { address: 'api.example', port: 443 },
    undefined,
  ]);
  expect(byStart[0]).toMatchObject({
    test: { title: 'orders.spec.ts › lists orders', file: 'tests/orders.spec.ts', line: 12 },
    attempt: 2,
    testPassed: true,
  });
});

test.describe('the command writes the spans', () => {
  test.beforeEach(requireExportCheckers);

  const records = (): string =>
    `${tracedCalls(40, 11)
      .map((record) => JSON.stringify(record))
      .join('\n')}\n${JSON.stringify({ endpoint: 'GET /health', statusCode: 200, responseTimeMs: 2 })}\n`;

  test('quality-evidence --export otlp=… writes a metrics line and a trace line that protobuf decodes by the .proto files', async () => {
    const folder = await createTemporaryFolder({ 'calls.ndjson': records() }, 'otlp-spans');
    const outcome = await runProgram('src/cli/main.js', {
      cwd: folder,
      args: ['calls.ndjson', '-o', 'out/quality-summary.json', '--quiet', '--export', 'otlp=out/otel.jsonl', '--otlp-span-limit', '30'],
    });
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    const [metrics, trace, ...more] = await decodeOtlp(join(folder, 'out/otel.jsonl'), folder);
    expect(more).toEqual([]);
    expect(metrics!.resourceMetrics).toHaveLength(1);
    const spans = trace!.resourceSpans[0]!.scopeSpans[0]!.spans;
    // One test span, then the 30 calls kept: every failed and slow one (4 + 4), the rest by span id.
    expect(spans.map(({ kind }) => kind)).toEqual(['SPAN_KIND_INTERNAL', ...Array<string>(30).fill('SPAN_KIND_CLIENT')]);
    expect(spans.filter(({ status }) => status.code === 'STATUS_CODE_ERROR')).toHaveLength(4);
    expect(new Set(spans.slice(1).map(({ parentSpanId }) => parentSpanId))).toEqual(new Set([TEST_SPAN]));
    expect(attributesOf(spans[1]!.attributes ?? [])).toMatchObject({ 'http.request.method': 'GET' });
    const exemplars = metrics!.resourceMetrics[0]!.scopeMetrics[0]!.metrics[0]!.exponentialHistogram!.dataPoints.flatMap(
      (point) => point.exemplars ?? [],
    );
    // Every exemplar points at a span the trace line holds.
    expect(exemplars.length).toBeGreaterThan(0);
    const spanIds = new Set(spans.map(({ spanId }) => spanId));
    expect(exemplars.every(({ spanId, traceId }) => spanIds.has(spanId) && traceId === TRACE)).toBe(true);
    // The report is the same bytes as a run without the export.
    const plain = await runProgram('src/cli/main.js', {
      cwd: folder,
      args: ['calls.ndjson', '-o', 'plain/quality-summary.json', '--quiet'],
    });
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(await readFile(join(folder, 'out/quality-summary.json'), 'utf8')).toBe(
      await readFile(join(folder, 'plain/quality-summary.json'), 'utf8'),
    );
  });

  test('merge --export otlp of reports of traced runs: the metrics line alone (a report holds no spans)', async () => {
    const folder = await createTemporaryFolder({ 'calls.ndjson': records() }, 'otlp-spans');
    const first = await runProgram('src/cli/main.js', {
      cwd: folder,
      args: ['calls.ndjson', '-o', 'a/quality-summary.json', '--quiet', '--export', 'otlp=a/otel.jsonl'],
    });
    expect(first.exitCode, first.stderr).toBe(0);
    expect((await readFile(join(folder, 'a/otel.jsonl'), 'utf8')).trimEnd().split('\n')).toHaveLength(2);
    const merged = await runProgram('src/cli/main.js', {
      cwd: folder,
      args: ['merge', 'a/quality-summary.json', '-o', 'all/quality-summary.json', '--quiet', '--export', 'otlp=all/otel.jsonl'],
    });
    expect(merged.exitCode, merged.stderr).toBe(0);
    const text = await readFile(join(folder, 'all/otel.jsonl'), 'utf8');
    expect(text.trimEnd().split('\n')).toHaveLength(1);
    expect(text).not.toContain('exemplars');
  });

  for (const [name, args, env] of [
    ['QE_OTLP_SPAN_LIMIT=0', [], { QE_OTLP_SPAN_LIMIT: '0' }],
    ['--trace-context false', ['--trace-context', 'false'], {}],
  ] as const) {
    test(`${name}: the metrics line alone, with no exemplar`, async () => {
      const folder = await createTemporaryFolder({ 'calls.ndjson': records() }, 'otlp-spans');
      const outcome = await runProgram('src/cli/main.js', {
        cwd: folder,
        args: ['calls.ndjson', '-o', 'out/quality-summary.json', '--quiet', '--export', 'otlp=out/otel.jsonl', ...args],
        env,
      });
      expect(outcome.exitCode, outcome.stderr).toBe(0);
      const text = await readFile(join(folder, 'out/otel.jsonl'), 'utf8');
      expect(text.trimEnd().split('\n')).toHaveLength(1);
      expect(text).not.toContain('exemplars');
    });
  }
});
