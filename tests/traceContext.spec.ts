import { parseTraceparent } from '../src/records/traceContext.js';
import { isExecutionRecord } from '../src/records/recordCheck.js';
import { executionRecordSchema } from '../src/records/executionRecord.js';
import { traceCall, traceOfTest } from '../reporter/worker/traceContext.js';
import { resolveSettings } from '../src/config/resolveSettings.js';
import { environmentSettings } from '../src/config/settingsSources.js';
import { ConfigurationError } from '../src/errors.js';
import { expect, test } from './support/test.js';

// W3C trace context on records (issue 37, first step): traceparent read as
// the W3C Trace Context recommendation reads it, and the record's ids held
// to its format by the schema and the fast check alike.

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

test('a version 00 traceparent gives its trace and parent ids', () => {
  expect(parseTraceparent(`00-${TRACE}-${SPAN}-01`)).toStrictEqual({ traceId: TRACE, spanId: SPAN });
  expect(parseTraceparent(` 00-${TRACE}-${SPAN}-00 `)).toStrictEqual({ traceId: TRACE, spanId: SPAN });
});

test('a later version is read by its first four fields; version ff, zero ids, upper case or more fields in 00 give none', () => {
  expect(parseTraceparent(`01-${TRACE}-${SPAN}-01-what-comes-next`)).toStrictEqual({ traceId: TRACE, spanId: SPAN });
  for (const header of [
    `ff-${TRACE}-${SPAN}-01`,
    `00-${'0'.repeat(32)}-${SPAN}-01`,
    `00-${TRACE}-${'0'.repeat(16)}-01`,
    `00-${TRACE.toUpperCase()}-${SPAN}-01`,
    `00-${TRACE}-${SPAN}-01-extra`,
    `00-${TRACE}-${SPAN}`,
    '',
  ])
    expect(parseTraceparent(header)).toBeUndefined();
});

test('a record’s traceId and spanId are held to the W3C format by the schema and the fast check alike', () => {
  const record = { endpoint: 'GET /a', statusCode: 200, responseTimeMs: 1 };
  for (const ids of [{ traceId: TRACE, spanId: SPAN }, { traceId: TRACE }, { parentSpanId: SPAN, startedAtMs: 1_764_216_000_000.125 }]) {
    expect([executionRecordSchema.safeParse({ ...record, ...ids }).success, isExecutionRecord({ ...record, ...ids })]).toStrictEqual([
      true,
      true,
    ]);
  }
  for (const ids of [
    { traceId: TRACE.toUpperCase() },
    { traceId: '0'.repeat(32) },
    { spanId: SPAN.slice(1) },
    { spanId: 7 },
    { parentSpanId: '0'.repeat(16) },
    { startedAtMs: Date.UTC(1999, 11, 31) },
    { startedAtMs: '1764216000000' },
  ]) {
    expect([executionRecordSchema.safeParse({ ...record, ...ids }).success, isExecutionRecord({ ...record, ...ids })]).toStrictEqual([
      false,
      false,
    ]);
  }
});

test.describe("the fixture's trace context on a call", () => {
  const HEADER = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

  test("a call is sent with a copy of its options carrying a sampled traceparent in its test's trace, the test's span its parent", () => {
    const attempt = {};
    const options = Object.freeze({ headers: Object.freeze({ accept: 'application/json' }), data: { a: 1 } });
    const { args, trace } = traceCall(['/orders', options, 'extra'], undefined, () => traceOfTest(attempt));
    const sent = args[1] as { headers: Record<string, string>; data: unknown };
    const [, traceId, spanId] = HEADER.exec(sent.headers['traceparent']!)!;
    expect(trace).toStrictEqual({ traceId, spanId, parentSpanId: traceOfTest(attempt).testSpanId });
    expect([args[0], sent.headers['accept'], sent.data, args[2]]).toStrictEqual(['/orders', 'application/json', { a: 1 }, 'extra']);
    expect(options.headers).toStrictEqual({ accept: 'application/json' });
  });

  test('two calls of one attempt share its trace and differ in span; another attempt has another trace', () => {
    const [first, second] = [{}, {}];
    const ids = [first, first, second].map((attempt) => traceCall(['/a'], undefined, () => traceOfTest(attempt)).trace!);
    expect(ids[0]!.traceId).toBe(ids[1]!.traceId);
    expect(ids[0]!.spanId).not.toBe(ids[1]!.spanId);
    expect(ids[2]!.traceId).not.toBe(ids[0]!.traceId);
  });

  test("a traceparent the test sent (in the call's headers, any case, or its context's) is kept and its ids recorded, no test span", () => {
    const own = `00-${TRACE}-${SPAN}-01`;
    const begin = () => traceOfTest({});
    const inCall = traceCall(['/a', { headers: { TraceParent: own, tracestate: 'v=1' } }], undefined, begin);
    expect(inCall).toStrictEqual({
      args: ['/a', { headers: { TraceParent: own, tracestate: 'v=1' } }],
      trace: { traceId: TRACE, spanId: SPAN },
    });
    expect(traceCall(['/a'], { traceparent: own }, begin)).toStrictEqual({ args: ['/a'], trace: { traceId: TRACE, spanId: SPAN } });
    expect(traceCall(['/a', { headers: { traceparent: 'garbage' } }], undefined, begin)).toStrictEqual({
      args: ['/a', { headers: { traceparent: 'garbage' } }],
    });
  });

  test('fetch of a Playwright request with no headers of its own is sent as it is, its own traceparent recorded', () => {
    const request = { url: () => 'http://x/a', headers: () => ({ traceparent: `00-${TRACE}-${SPAN}-01` }) };
    expect(traceCall([request], undefined, () => traceOfTest({}))).toStrictEqual({
      args: [request],
      trace: { traceId: TRACE, spanId: SPAN },
    });
    const plain = { url: () => 'http://x/a', headers: () => ({}) };
    expect(traceCall([plain, undefined], undefined, () => traceOfTest({}))).toStrictEqual({ args: [plain, undefined] });
  });

  test('outside a test, a call has a trace of its own and no test span', () => {
    const { trace } = traceCall(['/a'], undefined, () => undefined);
    expect(Object.keys(trace!)).toStrictEqual(['traceId', 'spanId']);
  });
});

test.describe('the trace settings', () => {
  const resolve = (env: Record<string, string>) => resolveSettings([environmentSettings(env)], { subject: 'settings' });
  const problems = (env: Record<string, string>) => {
    try {
      resolve(env);
      return [];
    } catch (error) {
      return (error as ConfigurationError).issues.map((issue) => `${issue.variable}: ${issue.message}`);
    }
  };

  test('traceContext is on unless a source says false; otlpSpanLimit 10000 unless one says', () => {
    expect([
      resolve({}).traceContext,
      resolve({ QE_TRACE_CONTEXT: 'false' }).traceContext,
      resolve({ QE_TRACE_CONTEXT: '0' }).traceContext,
    ]).toStrictEqual([true, false, false]);
    expect([resolve({}).otlpSpanLimit, resolve({ QE_OTLP_SPAN_LIMIT: '0' }).otlpSpanLimit]).toStrictEqual([10_000, 0]);
  });

  test('a trace URL template must be an http(s) URL with {traceId}; the message names the variable and never the value', () => {
    expect(resolve({ QE_TRACE_URL_TEMPLATE: 'http://localhost:16686/trace/{traceId}' }).traceUrlTemplate).toBe(
      'http://localhost:16686/trace/{traceId}',
    );
    for (const template of ['https://tempo.example/explore', 'javascript:alert({traceId})', 'file:///{traceId}', 'not a url {traceId}']) {
      const found = problems({ QE_TRACE_URL_TEMPLATE: template });
      expect(found).toStrictEqual([
        'QE_TRACE_URL_TEMPLATE: must be an http or https URL with {traceId} where the trace id goes, such as https://grafana.example/explore?traceId={traceId}',
      ]);
    }
    expect(problems({ QE_OTLP_SPAN_LIMIT: '1e3' })).toStrictEqual([
      'QE_OTLP_SPAN_LIMIT: must be a whole number of spans from 0 to 1,000,000',
    ]);
  });
});
