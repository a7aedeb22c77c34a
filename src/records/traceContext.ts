import * as z from 'zod';
import { EARLIEST_START_MS, LATEST_START_MS, SPAN_ID, TRACE_ID } from './traceContextRules.js';

export { isSpanId, isStartedAtMs, isTraceId, parseTraceparent } from './traceContextRules.js';

/**
 * W3C trace context on a record (issue 37): the trace and span a call was
 * sent under (`traceparent`'s ids), so that a failed call opens the
 * server's trace of it. Ids are lower-case hexadecimal and never all zeros,
 * as the W3C format says an invalid id is.
 */

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

const startRule = 'must be a time in milliseconds since the Unix epoch, between 2000 and 2100, when present';

export const startedAtMsSchema = z
  .number({ error: startRule })
  .min(EARLIEST_START_MS, { error: startRule })
  .max(LATEST_START_MS, { error: startRule })
  .meta({
    description:
      'Optional: when the call started, in milliseconds since the Unix epoch (fractions allowed): the start of its span in the otlp export',
  });
