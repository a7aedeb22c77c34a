// The trace context's rules as plain comparisons: the hot-path twins of its
// zod schemas (traceContext.ts), with no zod loaded, for the record check a
// worker thread runs.

export const TRACE_ID = /^(?!0{32})[0-9a-f]{32}$/;
export const SPAN_ID = /^(?!0{16})[0-9a-f]{16}$/;

/** The earliest start a record may give: 2000-01-01, before which a clock is wrong rather than old. */
export const EARLIEST_START_MS = Date.UTC(2000, 0, 1);
/** The latest: 2100-01-01. */
export const LATEST_START_MS = Date.UTC(2100, 0, 1);

/** Whether a value is a valid start time (no allocation). */
export function isStartedAtMs(value: unknown): boolean {
  return typeof value === 'number' && value >= EARLIEST_START_MS && value <= LATEST_START_MS;
}

/** Whether a value is a valid trace id (no allocation). */
export function isTraceId(value: unknown): boolean {
  return typeof value === 'string' && TRACE_ID.test(value);
}

/** Whether a value is a valid span id (no allocation). */
export function isSpanId(value: unknown): boolean {
  return typeof value === 'string' && SPAN_ID.test(value);
}

/**
 * The ids of a `traceparent` header (`00-<trace id>-<parent id>-<flags>`),
 * as W3C Trace Context level 1 reads it: version 00 exactly four fields; a
 * later version its first four, more allowed after a dash; version ff, an id
 * of zeros or anything malformed: none.
 */
export function parseTraceparent(header: string): { readonly traceId: string; readonly spanId: string } | undefined {
  const match = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/.exec(header.trim());
  if (match === null) return undefined;
  const [, version, traceId, spanId, , rest] = match;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (!isTraceId(traceId) || !isSpanId(spanId)) return undefined;
  return { traceId: traceId!, spanId: spanId! };
}
