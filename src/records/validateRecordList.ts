import type * as z from 'zod';
import { RecordValidationError } from '../errors.js';
import { describeLocation, type RecordLocation } from '../issues/location.js';
import { valueAtPath } from '../issues/issuePath.js';
import type { RecordIssue } from '../issues/recordIssue.js';
import { describeType, renderValue } from '../renderValue.js';

/** An invalid record that this validation cannot explain (it has no schema): read the input where one can. */
export class UnexplainedRecordError extends Error {
  constructor() {
    super('an invalid record needs the schema to be explained');
    this.name = 'UnexplainedRecordError';
  }
}

/**
 * Validation as a stream: `check` one record at a time, as readers yield
 * them; valid records flow on, and the first problems are kept as issues
 * (up to {@link RecordValidationError.listedIssueLimit}) with every invalid
 * record counted. `throwIfInvalid` ends it: one RecordValidationError naming
 * every listed problem with its location and field.
 *
 * The hot path asks `isValid` of each record and copies nothing; zod runs
 * only on an invalid record whose problems will be listed, to explain them.
 * Past the cap, invalid records are only counted, so a flood of bad input
 * costs no more than good input. `isValid` defaults to the schema itself and,
 * when given, must accept exactly what the schema accepts (a spec checks this
 * for execution records). The schema must validate without transforming.
 */
export class RecordValidation<Schema extends z.ZodType> {
  private readonly schema: Schema | undefined;
  private readonly isValid: (candidate: unknown) => boolean;
  private readonly noun: string;
  private readonly issues: RecordIssue[] = [];
  private recordCount = 0;
  private invalidRecordCount = 0;
  private unlistedRecordCount = 0;

  /**
   * @param schema explains invalid records; without it (a worker thread,
   * which loads no zod) `isValid` must be given, and the first invalid record
   * throws an {@link UnexplainedRecordError} for a reader that can explain it.
   */
  constructor(schema: Schema | undefined, { noun = 'record', isValid }: { noun?: string; isValid?: (candidate: unknown) => boolean } = {}) {
    this.schema = schema;
    this.noun = noun;
    if (isValid === undefined && schema === undefined) throw new TypeError('RecordValidation needs a schema or an isValid check');
    this.isValid = isValid ?? ((candidate) => schema!.safeParse(candidate).success);
  }

  /** Checks one record; `locate` is called only when the record is invalid. */
  check(candidate: unknown, locate: () => RecordLocation): candidate is z.output<Schema> {
    this.recordCount++;
    if (this.isValid(candidate)) return true;
    this.invalidRecordCount++;
    if (this.issues.length >= RecordValidationError.listedIssueLimit) {
      this.unlistedRecordCount++;
      return false;
    }
    if (this.schema === undefined) throw new UnexplainedRecordError();
    const result = this.schema.safeParse(candidate);
    const location = locate();
    if (result.success) throw new Error(`internal error: the fast check and the schema disagree on ${describeLocation(location)}`);
    for (const issue of result.error.issues) {
      if (this.issues.length < RecordValidationError.listedIssueLimit) this.issues.push(describeZodIssue(issue, candidate, location));
    }
    return false;
  }

  /** Counts records found valid by a check of their own (the byte scanner's, whose records are valid by construction). */
  countValid(count: number): void {
    this.recordCount += count;
  }

  /** Counts a record that its reader found invalid already (a HAR entry without a request), with its issue. */
  addInvalidRecord(issue: RecordIssue): void {
    this.recordCount++;
    this.invalidRecordCount++;
    if (this.issues.length < RecordValidationError.listedIssueLimit) this.issues.push(issue);
    else this.unlistedRecordCount++;
  }

  /** What the validation holds so far, as data: to merge the validations of parts read apart (worker threads). */
  snapshot(): { issues: RecordIssue[]; recordCount: number; invalidRecordCount: number; unlistedRecordCount: number } {
    return {
      issues: [...this.issues],
      recordCount: this.recordCount,
      invalidRecordCount: this.invalidRecordCount,
      unlistedRecordCount: this.unlistedRecordCount,
    };
  }

  /**
   * Takes in what another validation found (a later part of the input):
   * its counts, and its issues while places are left, the rest counted as
   * unlisted records.
   */
  absorb(part: {
    readonly issues: readonly RecordIssue[];
    readonly recordCount: number;
    readonly invalidRecordCount: number;
    readonly unlistedRecordCount: number;
  }): void {
    this.recordCount += part.recordCount;
    this.invalidRecordCount += part.invalidRecordCount;
    this.unlistedRecordCount += part.unlistedRecordCount;
    const dropped = new Set<string>();
    const kept = new Set<string>();
    for (const issue of part.issues) {
      const record = JSON.stringify(issue.location);
      if (this.issues.length < RecordValidationError.listedIssueLimit) {
        this.issues.push(issue);
        kept.add(record);
      } else {
        dropped.add(record);
      }
    }
    // A record none of whose problems made the list is an unlisted one.
    for (const record of dropped) if (!kept.has(record)) this.unlistedRecordCount++;
  }

  /** Throws the RecordValidationError of every problem found, if any. */
  throwIfInvalid(): void {
    if (this.invalidRecordCount === 0) return;
    const total = this.recordCount;
    const summary = `${this.invalidRecordCount} of ${total} ${this.noun}${total === 1 ? '' : 's'} ${this.invalidRecordCount === 1 ? 'is' : 'are'} invalid`;
    throw new RecordValidationError(summary, [...this.issues], {
      invalidRecordCount: this.invalidRecordCount,
      recordCount: total,
      unlistedRecordCount: this.unlistedRecordCount,
    });
  }
}

/**
 * Checks every element of a list and returns the list itself, typed, or
 * throws one RecordValidationError that lists the problems with their
 * positions (`executions[3].statusCode`, or `[3].statusCode` for a bare list).
 */
export function validateRecordList<Schema extends z.ZodType>(
  list: readonly unknown[],
  schema: Schema,
  listPath: string,
  noun: string,
  isValid?: (candidate: unknown) => boolean,
): readonly z.output<Schema>[] {
  const validation = new RecordValidation(schema, isValid === undefined ? { noun } : { noun, isValid });
  for (let index = 0; index < list.length; index++) validation.check(list[index], () => ({ kind: 'list', listPath, index }));
  validation.throwIfInvalid();
  return list as readonly z.output<Schema>[];
}

function describeZodIssue(issue: z.core.$ZodIssue, record: unknown, location: RecordLocation): RecordIssue {
  if (issue.path.length === 0) return { location, path: [], expected: 'must be an object', found: `found ${describeType(record)}` };
  const value = isPlainObject(record) ? valueAtPath(record, issue.path) : undefined;
  return {
    location,
    path: issue.path,
    expected: issue.message,
    found: value === undefined ? 'it is missing' : `found ${renderValue(value)}`,
  };
}

/** True for a non-null, non-array object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
