import { z } from 'zod';

/**
 * W3C trace context on a record (issue 37): the trace and span a call was
 * sent under (`traceparent`'s ids), so that a failed call opens the
 * server's trace of it. Ids are lower-case hexadecimal and never all zeros,
 * as the W3C format says an invalid id is.
 */

const TRACE_ID = /^(?!0{32})[0-9a-f]{32}$/;
const SPAN_ID = /^(?!0{16})[0-9a-f]{16}$/;

const traceIdRule = 'must be a W3C trace id when present: 32 lower-case hexadecimal digits, not all zeros';
const spanIdRule = 'must be a W3C span id when present: 16 lower-case hexadecimal digits, not all zeros';

export const traceIdSchema = z
  .string({ error: traceIdRule })
  .regex(TRACE_ID, { error: traceIdRule })
  .meta({ description: "Optional: the W3C trace id the call was sent under (its traceparent's), to find the server's trace of it" });

export const spanIdSchema = z
  .string({ error: spanIdRule })
  .regex(SPAN_ID, { error: spanIdRule })
  .meta({ description: "Optional: the W3C span id of the call (its traceparent's parent id): the client span the server's continues" });

export const parentSpanIdSchema = z
  .string({ error: spanIdRule })
  .regex(SPAN_ID, { error: spanIdRule })
  .meta({
    description:
      "Optional: the span of the test the call was made in, when quality-evidence/test began the call's trace: " +
      "the parent of the call's client span in the otlp export",
  });

/** The earliest start a record may give: 2000-01-01, before which a clock is wrong rather than old. */
const EARLIEST_START_MS = Date.UTC(2000, 0, 1);
/** The latest: 2100-01-01. */
const LATEST_START_MS = Date.UTC(2100, 0, 1);
const startRule = 'must be a time in milliseconds since the Unix epoch, between 2000 and 2100, when present';

export const startedAtMsSchema = z
  .number({ error: startRule })
  .min(EARLIEST_START_MS, { error: startRule })
  .max(LATEST_START_MS, { error: startRule })
  .meta({
    description:
      'Optional: when the call started, in milliseconds since the Unix epoch (fractions allowed): the start of its span in the otlp export',
  });

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
