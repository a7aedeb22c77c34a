import { z } from 'zod';
import { RecordValidationError } from '../errors.js';
import { describeType } from '../renderValue.js';
import { isPlainObject, validateRecordList } from './validateRecordList.js';

/**
 * `<METHOD> <path>`: an HTTP method token (RFC 9110 tchar), spaces or tabs,
 * then a path that starts with "/" and holds no whitespace. Surrounding
 * whitespace is allowed here and removed by normalisation.
 */
export const ENDPOINT_LABEL_PATTERN = /^\s*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)[ \t]+(\/\S*)\s*$/;

/** The `<METHOD> <path>` label shared by execution records and check observations. */
export const endpointLabelSchema = z
  .string({ error: 'must be a string of the form "<METHOD> <path>"' })
  .regex(ENDPOINT_LABEL_PATTERN, { error: 'must be of the form "<METHOD> <path>", with a path that starts with "/"' })
  .meta({ description: 'Endpoint label `<METHOD> <path>`, e.g. `GET /orders`', examples: ['GET /orders'] });

/** A response time: a finite number of milliseconds, zero or more. */
export const responseTimeMsSchema = z
  .number({ error: 'must be a finite number of milliseconds, zero or more' })
  .min(0, { error: 'must be a finite number of milliseconds, zero or more' })
  .meta({ description: 'Response time in milliseconds' });

const statusCodeRule = 'must be an integer from 100 to 599';

/** One test execution as it appears in the input file. Other fields are ignored. */
export const executionRecordSchema = z
  .object({
    statusCode: z
      .int({ error: statusCodeRule })
      .min(100, { error: statusCodeRule })
      .max(599, { error: statusCodeRule })
      .meta({ description: 'HTTP status code, 100 to 599 inclusive' }),
    endpoint: endpointLabelSchema,
    responseTimeMs: responseTimeMsSchema,
    id: z.string({ error: 'must be a string when present' }).optional().meta({ description: 'Optional identifier of the execution' }),
  })
  .meta({ title: 'ExecutionRecord' });

/** A record that passed validation (endpoint not yet normalised). */
export type ExecutionRecord = z.infer<typeof executionRecordSchema>;

/** The input file: canonically `{ "executions": [...] }`; a bare array of records is accepted too. */
export const executionInputSchema = z
  .union([z.object({ executions: z.array(executionRecordSchema) }), z.array(executionRecordSchema)])
  .meta({ title: 'QualityEvidenceInput' });

/**
 * The hot-path twin of {@link executionRecordSchema}: the same rules as plain
 * comparisons, with no allocation. A spec holds the two in agreement.
 */
export function isExecutionRecord(value: unknown): value is ExecutionRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { statusCode, endpoint, responseTimeMs, id } = value as Record<string, unknown>;
  return (
    typeof statusCode === 'number' &&
    Number.isInteger(statusCode) &&
    statusCode >= 100 &&
    statusCode <= 599 &&
    typeof endpoint === 'string' &&
    ENDPOINT_LABEL_PATTERN.test(endpoint) &&
    typeof responseTimeMs === 'number' &&
    Number.isFinite(responseTimeMs) &&
    responseTimeMs >= 0 &&
    (id === undefined || typeof id === 'string')
  );
}

/**
 * Validates the parsed content of an input file. Accepts
 * `{ "executions": [...] }` or a bare array; an empty list is valid.
 */
export function validateExecutionRecords(document: unknown): readonly ExecutionRecord[] {
  if (Array.isArray(document)) return validateRecordList(document, executionRecordSchema, '', 'record', isExecutionRecord);
  if (isPlainObject(document) && Array.isArray(document['executions'])) {
    return validateRecordList(document['executions'], executionRecordSchema, 'executions', 'record', isExecutionRecord);
  }
  const found = !isPlainObject(document)
    ? describeType(document)
    : 'executions' in document
      ? `an object whose "executions" is ${describeType(document['executions'])}`
      : 'an object without an "executions" array';
  throw new RecordValidationError(
    'the input file has the wrong top-level shape',
    [{ position: undefined, path: '(top level)', message: `expected an object with an "executions" array, or an array of records; found ${found}` }],
    { issueCount: 1, invalidRecordCount: 0, recordCount: 0 },
  );
}
