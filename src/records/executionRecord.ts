import { z } from 'zod';
import { RecordValidationError, type RecordIssue } from '../errors.js';

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
 * Checks every element of a list against a per-record schema and returns the
 * list itself, typed, or throws one RecordValidationError that lists every
 * problem (up to the cap) with its position and field.
 *
 * The hot path asks `isValid` of one record at a time and copies nothing, so a
 * million records never pass through one giant schema; zod runs only on the
 * records that fail, to explain them. `isValid` defaults to the schema itself
 * and, when given, must accept exactly what the schema accepts (a spec checks
 * this for execution records). The schema must validate without transforming.
 */
export function validateRecordList<Schema extends z.ZodType>(
  list: readonly unknown[],
  schema: Schema,
  listPath: string,
  noun: string,
  isValid: (candidate: unknown) => boolean = (candidate) => schema.safeParse(candidate).success,
): readonly z.output<Schema>[] {
  const invalidPositions: number[] = [];
  for (let position = 0; position < list.length; position++) {
    if (!isValid(list[position])) invalidPositions.push(position);
  }
  if (invalidPositions.length === 0) return list as readonly z.output<Schema>[];

  const issues: RecordIssue[] = [];
  let issueCount = 0;
  for (const position of invalidPositions) {
    const candidate = list[position];
    const result = schema.safeParse(candidate);
    if (result.success) throw new Error(`internal error: the fast check and the schema disagree on ${listPath}[${position}]`);
    for (const issue of result.error.issues) {
      issueCount++;
      if (issues.length < RecordValidationError.listedIssueLimit) issues.push(describeIssue(issue, candidate, position, listPath));
    }
  }
  const invalidRecordCount = invalidPositions.length;
  const summary = `${invalidRecordCount} of ${list.length} ${noun}${list.length === 1 ? '' : 's'} ${invalidRecordCount === 1 ? 'is' : 'are'} invalid`;
  throw new RecordValidationError(summary, issues, { issueCount, invalidRecordCount, recordCount: list.length });
}

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
  const found = isPlainObject(document) ? 'an object without an "executions" array' : describeType(document);
  throw new RecordValidationError(
    'the input file has the wrong top-level shape',
    [{ position: undefined, path: '(top level)', message: `expected an object with an "executions" array, or an array of records; found ${found}` }],
    { issueCount: 1, invalidRecordCount: 0, recordCount: 0 },
  );
}

function describeIssue(issue: z.core.$ZodIssue, record: unknown, position: number, listPath: string): RecordIssue {
  const recordPath = `${listPath}[${position}]`;
  if (issue.path.length === 0) {
    return { position, path: recordPath, message: `must be an object, found ${describeType(record)}` };
  }
  const field = issue.path.map(String).join('.');
  const value = isPlainObject(record) ? valueAt(record, issue.path) : undefined;
  const found = value === undefined ? 'it is missing' : `found ${renderValue(value)}`;
  return { position, path: `${recordPath}.${field}`, message: `${issue.message}; ${found}` };
}

function valueAt(record: Record<string, unknown>, path: readonly PropertyKey[]): unknown {
  let current: unknown = record;
  for (const key of path) {
    if (!isPlainObject(current)) return undefined;
    current = current[String(key)];
  }
  return current;
}

/** A field value as a short, single-line JSON rendering (never the whole record). */
export function renderValue(value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  // JSON.stringify returns undefined for undefined, functions and symbols.
  const json = (JSON.stringify(value) as string | undefined) ?? String(value);
  const maxLength = 40;
  const shown = json.length > maxLength ? `${json.slice(0, maxLength - 1)}…` : json;
  return `${shown} (${describeType(value)})`;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
