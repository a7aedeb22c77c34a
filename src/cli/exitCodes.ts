import {
  CommentPostError,
  ConfigurationError,
  ExportError,
  InputLimitError,
  InputSyntaxError,
  InputUnreadableError,
  QualityEvidenceError,
  RecordValidationError,
  ReportFormatError,
  ReportWriteError,
} from '../errors.js';
import { describeBreaches } from '../report/renderers/terminal.js';
import type { QualityReport } from '../report/qualityReport.js';

/**
 * Exit codes, from the BSD sysexits convention. The one place where an error
 * class becomes a process exit code; docs/command.md, "Exit codes", documents the table.
 */
export const EXIT_CODES = {
  success: 0,
  budgetBreached: 1, // the report was written (or read) and a quality budget does not hold: a failed check, as a failing test is
  usage: 64, // EX_USAGE: the command line is wrong
  invalidData: 65, // EX_DATAERR: malformed JSON, invalid records, more distinct endpoints than a report holds, or a file given as a report that is not one
  inputUnreadable: 66, // EX_NOINPUT: the input file is missing or unreadable
  commentNotPosted: 69, // EX_UNAVAILABLE: `comment --post` wrote the comment's file, and the platform could not be reached or refused it
  internal: 70, // EX_SOFTWARE: a bug; the only case that prints a stack trace
  outputUnwritable: 73, // EX_CANTCREAT: the report cannot be written
  configuration: 78, // EX_CONFIG: a QE_* variable is missing or invalid
} as const;

/**
 * After a report is written: exit 1, with each breached budget on stderr,
 * when the report's budgets do not all hold; 0 otherwise.
 */
export function budgetExitCode(report: QualityReport, programName: string, stderr: { write(text: string): unknown }): number {
  const breaches = report.budgets === undefined ? undefined : describeBreaches(report.budgets);
  if (breaches === undefined) return EXIT_CODES.success;
  stderr.write(`${programName}: ${breaches}\n`);
  return EXIT_CODES.budgetBreached;
}

/** The command line is wrong (exit 64). */
export class UsageError extends QualityEvidenceError {}

/** Maps an error to its exit code. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof ConfigurationError) return EXIT_CODES.configuration;
  if (error instanceof InputUnreadableError) return EXIT_CODES.inputUnreadable;
  if (
    error instanceof InputSyntaxError ||
    error instanceof RecordValidationError ||
    error instanceof ReportFormatError ||
    error instanceof InputLimitError ||
    error instanceof ExportError
  )
    return EXIT_CODES.invalidData;
  if (error instanceof ReportWriteError) return EXIT_CODES.outputUnwritable;
  if (error instanceof CommentPostError) return EXIT_CODES.commentNotPosted;
  if (error instanceof UsageError) return EXIT_CODES.usage;
  return EXIT_CODES.internal;
}
