/**
 * The error taxonomy of quality-evidence. Every failure the workflow can meet
 * is one of these classes; the runners map each class to one exit code
 * (see `src/cli/exitCodes.ts`). Messages are written for people and never
 * contain the value of an environment variable.
 */

/** Base class of every expected failure; anything else is an internal error. */
export abstract class QualityEvidenceError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    // Like Error.prototype.name, not enumerable, so printed errors stay clean.
    Object.defineProperty(this, 'name', { value: new.target.name, enumerable: false, configurable: true, writable: true });
  }
}

/** One problem with one `QE_*` variable or option. */
export interface ConfigurationIssue {
  /** The variable (or reporter option) at fault, e.g. `QE_INPUT_PATH`. */
  readonly variable: string;
  /** The rule it breaks, without its value. */
  readonly message: string;
}

/** The environment (or the reporter's options) cannot become a QualityToolConfig. */
export class ConfigurationError extends QualityEvidenceError {
  /** Every problem found, in variable order (already listed in the message). */
  declare readonly issues: readonly ConfigurationIssue[];

  /** @param subject what was invalid, for the first line of the message: `invalid <subject>:`. */
  constructor(issues: readonly ConfigurationIssue[], subject = 'configuration') {
    const lines = issues.map((issue) => `  - ${issue.variable}: ${issue.message}`);
    super(`invalid ${subject}:\n${lines.join('\n')}`);
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
    super(`cannot read the ${what} ${JSON.stringify(inputPath)}: ${reason}`, options);
    this.inputPath = inputPath;
  }
}

/** The input file is not well-formed JSON. */
export class InputSyntaxError extends QualityEvidenceError {
  /** 1-based line of the first offending character, when JSON.parse reports one. */
  readonly line: number | undefined;
  /** 1-based column of the first offending character, when JSON.parse reports one. */
  readonly column: number | undefined;

  constructor(detail: string, position: { line: number; column: number } | undefined, options?: ErrorOptions) {
    const where = position === undefined ? '' : ` at line ${position.line}, column ${position.column}`;
    super(`the input file is not well-formed JSON${where}: ${detail}`, options);
    this.line = position?.line;
    this.column = position?.column;
  }
}

/** One problem with one record (or with the document's top level, where `position` is undefined). */
export interface RecordIssue {
  /** Index of the record in the list, or undefined for a top-level problem. */
  readonly position: number | undefined;
  /** Where the problem is, as a path such as `executions[3].statusCode`. */
  readonly path: string;
  /** What was expected, and a shortened rendering of what was found. */
  readonly message: string;
}

/** The input parsed as JSON but does not hold valid records. */
export class RecordValidationError extends QualityEvidenceError {
  /** At most {@link RecordValidationError.listedIssueLimit} issues; `issueCount` counts them all. */
  readonly issues: readonly RecordIssue[];
  readonly issueCount: number;
  readonly invalidRecordCount: number;
  readonly recordCount: number;

  /** How many issues a message lists before it says "and N more". */
  static readonly listedIssueLimit = 20;

  constructor(summary: string, issues: readonly RecordIssue[], counts: { issueCount: number; invalidRecordCount: number; recordCount: number }) {
    super(formatIssueList(summary, issues.map((issue) => `${issue.path}: ${issue.message}`), counts.issueCount));
    this.issues = issues;
    this.issueCount = counts.issueCount;
    this.invalidRecordCount = counts.invalidRecordCount;
    this.recordCount = counts.recordCount;
  }
}

/**
 * `summary:` then one indented line per listed problem, and "... and N more"
 * when `totalCount` exceeds the lines listed.
 */
export function formatIssueList(summary: string, lines: readonly string[], totalCount: number): string {
  const listed = lines.map((line) => `  - ${line}`);
  if (totalCount > lines.length) listed.push(`  ... and ${totalCount - lines.length} more`);
  return `${summary}:\n${listed.join('\n')}`;
}

/** The report could not be written; any earlier report at the output path is untouched. */
export class ReportWriteError extends QualityEvidenceError {
  constructor(reason: string, options?: ErrorOptions) {
    super(`cannot write the report: ${reason}`, options);
  }
}
