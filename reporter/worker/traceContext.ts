import { randomFillSync } from 'node:crypto';
import { parseTraceparent } from '../../src/records/traceContext.js';

/**
 * W3C trace context on the calls the fixture records (issue 37): each call
 * of a recording API request context is sent with a `traceparent` header,
 * so that a server that continues it (any OpenTelemetry-instrumented one)
 * puts its span of the call in the trace the record names. One trace per
 * test attempt, one span per call, all under one span that stands for the
 * test (the otlp export sends it, with the calls' client spans); the sampled
 * flag set, so that a server sampling by its parent keeps the trace. A
 * `traceparent` the test sent itself (in the call's headers or its
 * context's extraHTTPHeaders) is never replaced: its ids are recorded, and
 * its `tracestate` goes as the test wrote it.
 */

/** The trace ids a call's record carries. */
export interface CallTrace {
  readonly traceId: string;
  readonly spanId: string;
  /** The span of the test, only when the fixture began the call's trace. */
  readonly parentSpanId?: string;
}

/** The trace of one test attempt: its id, and the span that stands for the test. */
export interface TestTrace {
  readonly traceId: string;
  readonly testSpanId: string;
}

const testTraces = new WeakMap<object, TestTrace>();

/** The trace of a test attempt (a TestInfo is one attempt), begun at its first call. */
export function traceOfTest(attempt: object): TestTrace {
  let trace = testTraces.get(attempt);
  if (trace === undefined) testTraces.set(attempt, (trace = { traceId: randomId(16), testSpanId: randomId(8) }));
  return trace;
}

/**
 * What a call is sent with and records: its own arguments and the ids of a
 * `traceparent` it already carries; else, when `begin` is given, the
 * arguments with a new span's `traceparent` added to the call's headers (a
 * copy; the test's objects are never changed) in the trace `begin` gives.
 * A call that sends a Playwright `Request` (`fetch(route.request())`) with no
 * headers of its own is sent as it is: headers given with it would replace
 * the request's.
 */
export function traceCall(
  args: readonly unknown[],
  contextHeaders: Readonly<Record<string, string>> | undefined,
  begin: (() => TestTrace | undefined) | undefined,
): { readonly args: readonly unknown[]; readonly trace?: CallTrace } {
  const [target, options] = args;
  const headers = isObject(options) ? options['headers'] : undefined;
  const own = headerOf(headers, 'traceparent') ?? headerOf(contextHeaders, 'traceparent') ?? requestTraceparent(target, headers);
  if (own !== undefined) {
    const ids = parseTraceparent(own);
    return ids === undefined ? { args } : { args, trace: ids };
  }
  if (begin === undefined || (isRequest(target) && headers === undefined)) return { args };
  const trace = begin();
  const traceId = trace?.traceId ?? randomId(16);
  const spanId = randomId(8);
  const traced = {
    ...(isObject(options) ? options : {}),
    headers: { ...(isObject(headers) ? headers : {}), traceparent: `00-${traceId}-${spanId}-01` },
  };
  return {
    args: [target, traced, ...args.slice(2)],
    trace: trace === undefined ? { traceId, spanId } : { traceId, spanId, parentSpanId: trace.testSpanId },
  };
}

/** The trace ids of a `traceparent` among a browser request's headers (the page's own), when it sent a valid one. */
export function pageTrace(headers: Readonly<Record<string, string>>): CallTrace | undefined {
  const header = headers['traceparent'];
  return header === undefined ? undefined : parseTraceparent(header);
}

/** A header's value, its name matched as HTTP does (any case). */
export function headerOf(headers: unknown, name: string): string | undefined {
  if (!isObject(headers)) return undefined;
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name && typeof value === 'string') return value;
  return undefined;
}

function requestTraceparent(target: unknown, headers: unknown): string | undefined {
  if (!isRequest(target) || headers !== undefined) return undefined;
  return headerOf(target.headers(), 'traceparent');
}

/** A Playwright `Request` (what `route.request()` gives), which `fetch` takes in place of a URL. */
function isRequest(target: unknown): target is { headers(): Record<string, string> } {
  return isObject(target) && typeof target['headers'] === 'function' && typeof target['url'] === 'function';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

// Random bytes drawn a block at a time: one call of the generator for many ids.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/** `bytes` random bytes as lower-case hexadecimal, never all zeros (the W3C format's invalid id). */
function randomId(bytes: number): string {
  for (;;) {
    if (poolOffset + bytes > pool.length) {
      randomFillSync(pool);
      poolOffset = 0;
    }
    const id = pool.toString('hex', poolOffset, poolOffset + bytes);
    poolOffset += bytes;
    if (!/^0+$/.test(id)) return id;
  }
}
