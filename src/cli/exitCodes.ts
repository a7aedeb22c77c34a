import {
  ConfigurationError,
  InputSyntaxError,
  InputUnreadableError,
  QualityEvidenceError,
  RecordValidationError,
  ReportWriteError,
} from '../errors.js';

/**
 * Exit codes, from the BSD sysexits convention. The one place where an error
 * class becomes a process exit code; README "Exit codes" documents the table.
 */
export const EXIT_CODES = {
  success: 0,
  usage: 64, // EX_USAGE: the command line is wrong
  invalidData: 65, // EX_DATAERR: not well-formed JSON, or invalid records
  inputUnreadable: 66, // EX_NOINPUT: the input file is missing or unreadable
  internal: 70, // EX_SOFTWARE: a bug; the only case that prints a stack trace
  outputUnwritable: 73, // EX_CANTCREAT: the report cannot be written
  configuration: 78, // EX_CONFIG: a QE_* variable is missing or invalid
} as const;

/** The command line is wrong (exit 64). */
export class UsageError extends QualityEvidenceError {}

/** Maps an error to its exit code. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof ConfigurationError) return EXIT_CODES.configuration;
  if (error instanceof InputUnreadableError) return EXIT_CODES.inputUnreadable;
  if (error instanceof InputSyntaxError || error instanceof RecordValidationError) return EXIT_CODES.invalidData;
  if (error instanceof ReportWriteError) return EXIT_CODES.outputUnwritable;
  if (error instanceof UsageError) return EXIT_CODES.usage;
  return EXIT_CODES.internal;
}
