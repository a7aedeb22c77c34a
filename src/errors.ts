import { describeIssue, formatIssueList, type RecordIssue } from './issues/recordIssue.js';
import { escapeControlCharacters, quotePath } from './renderValue.js';

export type { RecordIssue } from './issues/recordIssue.js';

/**
 * The error taxonomy of quality-evidence. Every failure the workflow can meet
 * is one of these classes; the runners map each class to one exit code
 * (see `src/cli/exitCodes.ts`). Messages are written for people and never
 * contain the value of an environment variable.
 */

/** Base class of every expected failure; anything else is an internal error. */
export abstract class QualityEvidenceError extends Error {
  /**
   * @param message for people; text from input in it (a path, a value, a
   * label) has its control and bidirectional characters escaped here, so it
   * reaches a terminal as what it is, wherever the error is printed.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(escapeControlCharacters(message, { keepNewlines: true }), options);
    // Like Error.prototype.name, not enumerable, so printed errors stay clean.
    Object.defineProperty(this, 'name', { value: new.target.name, enumerable: false, configurable: true, writable: true });
  }
}

/** One problem with one setting, or with a budgets file. */
export interface ConfigurationIssue {
  /**
   * Where the problem is, in the user's own words and the one path grammar:
   * `QE_INPUT_PATH`, `option budgets.endpoints["GET /a"].maxFailedExecutions`,
   * `routes[2] in ./quality-evidence.config.json`.
   */
  readonly variable: string;
  /** The rule it breaks, without its value. */
  readonly message: string;
}

/** The environment (or the reporter's options) cannot become a QualityToolConfig. */
export class ConfigurationError extends QualityEvidenceError {
  /** Every problem found, in variable order (already listed in the message). */
  declare readonly issues: readonly ConfigurationIssue[];

  /** How many problems a message lists; the issues hold them all. */
  static readonly listedIssueLimit = 20;

  /** @param subject what was invalid, for the first line of the message: `invalid <subject>:`. */
  constructor(issues: readonly ConfigurationIssue[], subject = 'configuration') {
    const listed = issues.slice(0, ConfigurationError.listedIssueLimit).map((issue) => `${issue.variable}: ${issue.message}`);
    super(formatIssueList(`invalid ${subject}`, listed, issues.length));
    // Not enumerable: the message already lists the issues, and hosts such as
    // Playwright print an error's enumerable fields after its stack.
    Object.defineProperty(this, 'issues', { value: issues, enumerable: false });
  }
}

/** A file the run must read (the input file, a named settings file) is missing or cannot be read. */
export class InputUnreadableError extends QualityEvidenceError {
  /** The path of the file that could not be read. */
  readonly inputPath: string;

  /** @param options.what what the file is, for the message; default `input file`. */
  constructor(inputPath: string, reason: string, { what = 'input file', ...options }: ErrorOptions & { readonly what?: string } = {}) {
    super(`cannot read the ${what} ${quotePath(inputPath)}: ${reason}`, options);
    this.inputPath = inputPath;
  }
}

/** An input is not well-formed JSON (or, for NDJSON, a line is not). */
export class InputSyntaxError extends QualityEvidenceError {
  /** 1-based line of the first offending character, when it is known. */
  readonly line: number | undefined;
  /** 1-based column of the first offending character, when it is known. */
  readonly column: number | undefined;
  /** The input, when a run has several and the message names it. */
  readonly file: string | undefined;
  declare private readonly detail: string;

  /** @param options.what what the file is, when it is not an input of records: `baseline report`. */
  constructor(
    detail: string,
    position: { line: number; column: number } | undefined,
    options?: ErrorOptions & { readonly file?: string | undefined; readonly what?: string | undefined },
  ) {
    const where = position === undefined ? '' : ` at line ${position.line}, column ${position.column}`;
    const subject =
      options?.file === undefined ? `the ${options?.what ?? 'input file'}` : `the ${options.what ?? 'input'} ${quotePath(options.file)}`;
    super(`${subject} is not well-formed JSON${where}: ${detail}`, options);
    this.line = position?.line;
    this.column = position?.column;
    this.file = options?.file;
    Object.defineProperty(this, 'detail', { value: detail, enumerable: false });
  }

  /** The same error, naming the input (or, with `what`, the other file) it is in. */
  inFile(file: string, what?: string): InputSyntaxError {
    const position = this.line === undefined || this.column === undefined ? undefined : { line: this.line, column: this.column };
    return new InputSyntaxError(this.detail, position, { cause: this.cause, file, what });
  }
}

/** The input parsed but does not hold valid records. */
export class RecordValidationError extends QualityEvidenceError {
  /** The problems listed, at most {@link RecordValidationError.listedIssueLimit}, in input order. */
  readonly issues: readonly RecordIssue[];
  /** Records with at least one problem. */
  readonly invalidRecordCount: number;
  /** Records read. */
  readonly recordCount: number;
  /** Invalid records none of whose problems are listed (only counted, never explained, so a flood of bad input stays cheap). */
  readonly unlistedRecordCount: number;

  /** How many problems a message lists. */
  static readonly listedIssueLimit = 20;

  constructor(
    summary: string,
    issues: readonly RecordIssue[],
    counts: { invalidRecordCount: number; recordCount: number; unlistedRecordCount: number },
  ) {
    const more = counts.unlistedRecordCount === 1 ? 'more invalid record' : 'more invalid records';
    super(formatIssueList(summary, issues.map(describeIssue), issues.length + counts.unlistedRecordCount, more));
    this.issues = issues;
    this.invalidRecordCount = counts.invalidRecordCount;
    this.recordCount = counts.recordCount;
    this.unlistedRecordCount = counts.unlistedRecordCount;
  }

  /** A document whose top level is not a list of records. */
  static topLevel(issue: RecordIssue, file?: string): RecordValidationError {
    const summary = file === undefined ? 'the input file has the wrong top-level shape' : `${file} has the wrong top-level shape`;
    return new RecordValidationError(summary, [issue], { invalidRecordCount: 0, recordCount: 0, unlistedRecordCount: 0 });
  }
}

/**
 * The records are valid, but together they pass a documented limit of the
 * tool (more distinct endpoints than a report can hold), exit 65 like other
 * bad data.
 */
export class InputLimitError extends QualityEvidenceError {}

/** A report cannot be written in an export's format (exit 65, bad data): nothing is written. */
export class ExportError extends QualityEvidenceError {
  constructor(kind: string, reason: string) {
    super(`cannot make the ${kind} export: ${reason}`);
  }
}

/** The report could not be written; any earlier report at the output path is untouched. */
export class ReportWriteError extends QualityEvidenceError {
  constructor(reason: string, options?: ErrorOptions) {
    super(`cannot write the report: ${reason}`, options);
  }
}

/**
 * A pull-request comment was written to its file but could not be posted
 * (no platform or token, a refusal, a network error). The command says it as
 * a warning and exits 69, so that CI can let the step pass; the message
 * names what to do and never holds the token.
 */
export class CommentPostError extends QualityEvidenceError {
  constructor(reason: string, options?: ErrorOptions) {
    super(`the comment was not posted: ${reason}`, options);
  }
}

/** A file given as a report (a baseline, or the report `check` judges) is not a report of this tool, or of another schemaVersion (exit 65). */
export class ReportFormatError extends QualityEvidenceError {
  readonly path: string;

  constructor(path: string, reason: string, what = 'report') {
    super(`the ${what} ${quotePath(path)} ${reason}`);
    this.path = path;
  }
}
