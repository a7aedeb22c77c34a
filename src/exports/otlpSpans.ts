import type { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { compareCodeUnits } from '../compareCodeUnits.js';
import type { SampledCall } from '../summary/spanSample.js';
import { methodAndTemplate } from './exportContext.js';

/**
 * The test side's spans of the otlp export (issue 37), made from the traced
 * calls the run kept (see spanSample.ts): a CLIENT span per call, under an
 * INTERNAL span per test attempt (the root of its trace), shaped as the
 * SDK's ReadableSpan so that its own JsonTraceSerializer writes them; and the
 * exemplars that link the metric's points to them.
 */

/** What the SDK's trace serialiser reads of a span: the SDK's ReadableSpan, as the serialiser's own signature names it. */
export type SpanShape = Parameters<
  (typeof import('@opentelemetry/otlp-transformer'))['JsonTraceSerializer']['serializeRequest']
>[0][number];

/** `SpanKind` and `SpanStatusCode` of @opentelemetry/api, whose module the export need not load for four numbers. */
/* eslint-disable @typescript-eslint/no-unsafe-enum-assignment -- the API's enums have had these values since 1.0 */
const INTERNAL = 0 as SpanKind;
const CLIENT = 2 as SpanKind;
const UNSET = 0 as SpanStatusCode;
const ERROR = 2 as SpanStatusCode;
/* eslint-enable @typescript-eslint/no-unsafe-enum-assignment */

/** W3C trace flags: sampled. */
const SAMPLED = 1;

/** The span name of a test span whose call came from no Playwright test (a record file's): its test is not known. */
export const UNKNOWN_TEST_SPAN_NAME = 'test';

/** The HTTP conventions' rule for a client span and its error.type: an error from status 400 up, and a call with no response. */
function errorTypeOf(call: SampledCall): string | undefined {
  if (call.statusCode === undefined) return call.errorCode;
  return call.statusCode >= 400 ? String(call.statusCode) : undefined;
}

/** Milliseconds since the epoch (fractions allowed) as the SDK's time: [seconds, nanoseconds]. */
export function hrTimeOf(milliseconds: number): [number, number] {
  const whole = Math.floor(milliseconds);
  const seconds = Math.floor(whole / 1000);
  const nanoseconds = (whole % 1000) * 1_000_000 + Math.round((milliseconds - whole) * 1_000_000);
  // The fraction's rounding may carry a whole second (…999.9999999 ms).
  return nanoseconds >= 1_000_000_000 ? [seconds + 1, nanoseconds - 1_000_000_000] : [seconds, nanoseconds];
}

/** A time in OTLP JSON: nanoseconds since the epoch as a decimal string, as the SDK's JSON encoder writes them. */
export function unixNanoOf(milliseconds: number): string {
  const [seconds, nanoseconds] = hrTimeOf(milliseconds);
  return (BigInt(seconds) * 1_000_000_000n + BigInt(nanoseconds)).toString();
}

/** The spans of the kept calls: per test attempt (trace id and test span id), its test span, then its calls by start and span id. */
export function spansOf(
  calls: readonly SampledCall[],
  resource: SpanShape['resource'],
  instrumentationScope: SpanShape['instrumentationScope'],
): SpanShape[] {
  const attempts = new Map<string, SampledCall[]>();
  for (const call of calls) {
    const key = `${call.traceId}-${call.parentSpanId}`;
    let group = attempts.get(key);
    if (group === undefined) attempts.set(key, (group = []));
    group.push(call);
  }
  const groups = [...attempts.values()].map((group) => {
    group.sort((a, b) => a.startedAtMs - b.startedAtMs || compareCodeUnits(a.spanId, b.spanId));
    const startMs = group[0]!.startedAtMs;
    const endMs = Math.max(...group.map(({ startedAtMs, responseTimeMs }) => startedAtMs + responseTimeMs));
    return { group, startMs, endMs };
  });
  groups.sort(
    (a, b) =>
      a.startMs - b.startMs ||
      compareCodeUnits(a.group[0]!.traceId, b.group[0]!.traceId) ||
      compareCodeUnits(a.group[0]!.parentSpanId, b.group[0]!.parentSpanId),
  );
  const common = {
    resource,
    instrumentationScope,
    links: [],
    events: [],
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
  const timed = (startMs: number, endMs: number) => ({
    startTime: hrTimeOf(startMs),
    endTime: hrTimeOf(endMs),
    duration: hrTimeOf(endMs - startMs),
    ended: true,
  });
  return groups.flatMap(({ group, startMs, endMs }) => {
    const { traceId, parentSpanId, test, testPassed } = group[0]!;
    const testSpan: SpanShape = {
      name: test?.title ?? UNKNOWN_TEST_SPAN_NAME,
      kind: INTERNAL,
      spanContext: () => ({ traceId, spanId: parentSpanId, traceFlags: SAMPLED }),
      ...timed(startMs, endMs),
      // A failed attempt is an error of its span; a passed one leaves the status unset, as the conventions leave successes.
      status: { code: testPassed === false ? ERROR : UNSET },
      attributes: {
        ...(test === undefined ? {} : { 'test.case.name': test.title, 'code.file.path': test.file, 'code.line.number': test.line }),
        ...(testPassed === undefined ? {} : { 'test.case.result.status': testPassed ? 'pass' : 'fail' }),
      },
      ...common,
    };
    const callSpans = group.map((call): SpanShape => {
      const { method, template } = methodAndTemplate(call.endpoint);
      const errorType = errorTypeOf(call);
      return {
        name: `${method} ${template}`,
        kind: CLIENT,
        spanContext: () => ({ traceId: call.traceId, spanId: call.spanId, traceFlags: SAMPLED }),
        parentSpanContext: { traceId: call.traceId, spanId: call.parentSpanId, traceFlags: SAMPLED, isRemote: false },
        ...timed(call.startedAtMs, call.startedAtMs + call.responseTimeMs),
        status: { code: errorType === undefined ? UNSET : ERROR },
        attributes: {
          'http.request.method': method,
          'url.template': template,
          ...(call.server === undefined ? {} : { 'server.address': call.server.address, 'server.port': call.server.port }),
          ...(call.statusCode === undefined ? {} : { 'http.response.status_code': call.statusCode }),
          ...(errorType === undefined ? {} : { 'error.type': errorType }),
        },
        ...common,
      };
    });
    return [testSpan, ...callSpans];
  });
}

/** One exemplar in OTLP JSON: the ids hexadecimal, as OTLP JSON encodes them. */
export interface OtlpExemplar {
  readonly timeUnixNano: string;
  readonly asDouble: number;
  readonly traceId: string;
  readonly spanId: string;
}

/**
 * The exemplar of each point (an endpoint and a status, or an error code for
 * calls with no response): the slowest kept call of that endpoint and
 * outcome (the smallest span id of equally slow ones), its time in seconds,
 * stamped when it ended. Keyed as {@link exemplarKeyOf}.
 */
export function exemplarsOf(calls: readonly SampledCall[]): Map<string, OtlpExemplar> {
  const slowest = new Map<string, SampledCall>();
  for (const call of calls) {
    const key = exemplarKeyOf(call.endpoint, call.statusCode ?? call.errorCode!);
    const kept = slowest.get(key);
    if (
      kept === undefined ||
      call.responseTimeMs > kept.responseTimeMs ||
      (call.responseTimeMs === kept.responseTimeMs && compareCodeUnits(call.spanId, kept.spanId) < 0)
    )
      slowest.set(key, call);
  }
  return new Map(
    [...slowest].map(([key, call]) => [
      key,
      {
        timeUnixNano: unixNanoOf(call.startedAtMs + call.responseTimeMs),
        asDouble: call.responseTimeMs / 1000,
        traceId: call.traceId,
        spanId: call.spanId,
      },
    ]),
  );
}

/** A point's key among the exemplars: its endpoint label and its status code or error code. */
export function exemplarKeyOf(endpoint: string, outcome: number | string): string {
  return `${endpoint}\u0000${typeof outcome}\u0000${outcome}`;
}
