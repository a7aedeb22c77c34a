import type { z } from 'zod';
import { RecordValidationError, type RecordIssue } from '../errors.js';
import { describeType, renderValue } from '../renderValue.js';

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

/** True for a non-null, non-array object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
