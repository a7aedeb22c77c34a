import * as z from 'zod';
import type { DeepReadonly } from '../deepReadonly.js';
import { groupDigits } from '../renderValue.js';
import {
  ENDPOINT_LABEL_PATTERN,
  ERROR_CODE_PATTERN,
  EXECUTION_SOURCES,
  MAX_ENDPOINT_LABEL_LENGTH,
  MAX_EXCERPT_LENGTH,
  MAX_ID_LENGTH,
  MAX_MILLISECONDS,
  parseRecordStatusList,
} from './recordCheck.js';
import { isPlainObject } from './validateRecordList.js';
import { bodyCheckSchema } from './bodyCheck.js';
import { conditionsRecordSchema } from './conditionsRecord.js';
import { parentSpanIdSchema, spanIdSchema, startedAtMsSchema, traceIdSchema } from './traceContext.js';

export {
  ENDPOINT_LABEL_PATTERN,
  ERROR_CODE_PATTERN,
  MAX_DISTINCT_ENDPOINTS,
  MAX_ENDPOINT_LABEL_LENGTH,
  MAX_ID_LENGTH,
  MAX_MILLISECONDS,
  TIMING_PHASES,
  isExecutionRecord,
  parseRecordStatusList,
} from './recordCheck.js';

/** The `<METHOD> <path>` label shared by execution records and check observations. */
export const endpointLabelSchema = z
  .string({ error: 'must be a string of the form "<METHOD> <path>"' })
  .regex(ENDPOINT_LABEL_PATTERN, { error: 'must be of the form "<METHOD> <path>", with a path that starts with "/"' })
  .max(MAX_ENDPOINT_LABEL_LENGTH, { error: `must be at most ${groupDigits(MAX_ENDPOINT_LABEL_LENGTH)} characters long` })
  .meta({ description: 'Endpoint label `<METHOD> <path>`, e.g. `GET /orders`', examples: ['GET /orders'] });

const aDay = `${groupDigits(MAX_MILLISECONDS)} (a day)`;

/** A response time: a finite number of milliseconds, zero or more, at most a day. */
export const responseTimeMsSchema = z
  .number({ error: 'must be a finite number of milliseconds, zero or more' })
  .min(0, { error: 'must be a finite number of milliseconds, zero or more' })
  .max(MAX_MILLISECONDS, { error: `must be at most ${aDay}: a longer time is in another unit` })
  .meta({ description: 'Response time in milliseconds' });

const statusCodeRule = 'must be an integer from 100 to 599';
const errorCodeRule = 'must be a non-empty error code without whitespace, at most 64 characters (e.g. "ECONNREFUSED")';
const phaseRule = 'must be a finite number of milliseconds, zero or more, when present';

/** One timing phase in milliseconds: finite, zero or more, at most a day. */
const phaseSchema = z
  .number({ error: phaseRule })
  .min(0, { error: phaseRule })
  .max(MAX_MILLISECONDS, { error: `must be at most ${aDay} when present: a longer time is in another unit` })
  .optional();

/**
 * Where the time of one call went, in milliseconds, as Playwright's
 * `APIResponse.timing()` (1.62 and later) or a HAR entry's `timings` give it.
 * A phase the source does not give is absent. Other keys are ignored.
 */
const timingPhasesSchema = z
  .object(
    {
      dns: phaseSchema.meta({ description: 'DNS lookup' }),
      connect: phaseSchema.meta({ description: 'TCP connect (a reused connection has none)' }),
      tls: phaseSchema.meta({ description: 'TLS handshake' }),
      wait: phaseSchema.meta({ description: 'From the request sent to the first byte of the response (time to first byte)' }),
      receive: phaseSchema.meta({ description: 'From the first to the last byte of the response' }),
    },
    { error: 'must be an object of timing phases in milliseconds (dns, connect, tls, wait, receive) when present' },
  )
  .meta({ title: 'TimingPhases', description: 'Phases of the call in milliseconds; a phase the source did not give is absent' });

const expectedStatusesRule =
  'must be a list of the status codes this call expects, such as "404" or "200-299,403" (or an array such as [404, "200-299"]), codes from 100 to 599';

/** A record's own expected statuses: a list in text, or an array of codes and range texts. */
const expectedStatusesSchema = z
  .union([z.string(), z.array(z.union([z.number(), z.string()]))], { error: expectedStatusesRule })
  .superRefine((value, context) => {
    if ('problem' in parseRecordStatusList(value)) context.addIssue({ code: 'custom', message: expectedStatusesRule });
  })
  .meta({
    description:
      'Optional: the statuses this call expects (a negative test), overriding the run-wide and per-endpoint rules: ' +
      'codes and inclusive ranges, comma-separated, or an array of codes and range strings',
    examples: ['404', '200-299,403'],
  });

/**
 * One test execution as it appears in the input file. Other fields are ignored.
 *
 * A call that got a response has `statusCode`; a call that got none
 * (connection refused, DNS failure, timeout, reset) has `errorCode` instead,
 * and its `responseTimeMs` is the time until it failed. Exactly one of the two.
 */
export const executionRecordSchema = z
  .object({
    statusCode: z
      .int({ error: statusCodeRule })
      .min(100, { error: statusCodeRule })
      .max(599, { error: statusCodeRule })
      .optional()
      .meta({ description: 'HTTP status code, 100 to 599 inclusive; absent when the call got no response' }),
    errorCode: z
      .string({ error: errorCodeRule })
      .regex(ERROR_CODE_PATTERN, { error: errorCodeRule })
      .optional()
      .meta({
        description: 'Only for a call that got no response: the error code, e.g. ECONNREFUSED, ENOTFOUND, ETIMEDOUT, ECONNRESET',
        examples: ['ECONNREFUSED'],
      }),
    endpoint: endpointLabelSchema,
    responseTimeMs: responseTimeMsSchema.meta({
      description: 'Response time in milliseconds; for a call that got no response, the time until it failed',
    }),
    id: z
      .string({ error: `must be a string of at most ${groupDigits(MAX_ID_LENGTH)} characters when present` })
      .max(MAX_ID_LENGTH, { error: `must be a string of at most ${groupDigits(MAX_ID_LENGTH)} characters when present` })
      .optional()
      .meta({ description: 'Optional identifier of the execution' }),
    timingMs: timingPhasesSchema.optional(),
    expectedStatuses: expectedStatusesSchema.optional(),
    bodyCheck: bodyCheckSchema.optional(),
    conditions: conditionsRecordSchema.optional(),
    traceId: traceIdSchema.optional(),
    spanId: spanIdSchema.optional(),
    parentSpanId: parentSpanIdSchema.optional(),
    startedAtMs: startedAtMsSchema.optional(),
    excerpt: z
      .string({ error: `must be a string of at most ${groupDigits(MAX_EXCERPT_LENGTH)} characters when present` })
      .max(MAX_EXCERPT_LENGTH, {
        error: `must be a string of at most ${groupDigits(MAX_EXCERPT_LENGTH)} characters when present`,
      })
      .optional()
      .meta({
        description:
          'Optional, only with failureExcerptBytes set (off by default): the first bytes of the response body of a call ' +
          'that failed, every value under a key that looks secret replaced; shown with the failed call, never otherwise',
      }),
    source: z
      .enum(EXECUTION_SOURCES, { error: `must be ${EXECUTION_SOURCES.map((source) => `"${source}"`).join(' or ')} when present` })
      .optional()
      .meta({
        description:
          'Optional: which client made the call: "api" (a test\'s API client; the default) or "browser" ' +
          "(a web application's own fetch or XMLHttpRequest in a browser test). " +
          "The report is split by source when any call is a browser's",
      }),
  })
  // Both refinements run even when a field is invalid, so that one pass lists every problem of a record.
  .refine((record) => record.statusCode !== undefined || record.errorCode !== undefined, {
    path: ['statusCode'],
    error: `${statusCodeRule} (or errorCode, for a call that got no response)`,
    when: ({ value }) => isPlainObject(value) && value['statusCode'] === undefined,
  })
  .refine((record) => record.statusCode === undefined || record.errorCode === undefined, {
    path: ['errorCode'],
    error: 'must be absent when statusCode is given (errorCode marks a call that got no response)',
    when: ({ value }) => isPlainObject(value) && value['statusCode'] !== undefined && value['errorCode'] !== undefined,
  })
  .meta({ title: 'ExecutionRecord' });

/** A record that passed validation (endpoint not yet normalised). */
export type ExecutionRecord = z.infer<typeof executionRecordSchema>;

/** A record as a caller writes it (`recordExecution`, the library API): the input side of the schema. */
export type ExecutionRecordInput = DeepReadonly<z.input<typeof executionRecordSchema>>;

/** A validated record in canonical form: endpoint `METHOD /path`, method upper-cased, one space; only the record's own fields. */
export type CanonicalExecutionRecord = Readonly<Omit<ExecutionRecord, 'expectedStatuses'>>;

/** Timing phases of one call, in milliseconds. */
export type TimingPhases = z.infer<typeof timingPhasesSchema>;

/** The input file: canonically `{ "executions": [...] }`; a bare array of records is accepted too. */
export const executionInputSchema = z
  .union([z.object({ executions: z.array(executionRecordSchema) }), z.array(executionRecordSchema)])
  .meta({ title: 'QualityEvidenceInput' });
