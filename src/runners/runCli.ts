import { parseArgs } from 'node:util';
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

class UsageError extends QualityEvidenceError {}

/** Maps an error to its exit code. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof ConfigurationError) return EXIT_CODES.configuration;
  if (error instanceof InputUnreadableError) return EXIT_CODES.inputUnreadable;
  if (error instanceof InputSyntaxError || error instanceof RecordValidationError) return EXIT_CODES.invalidData;
  if (error instanceof ReportWriteError) return EXIT_CODES.outputUnwritable;
  if (error instanceof UsageError) return EXIT_CODES.usage;
  return EXIT_CODES.internal;
}

/**
 * The outer shell of every program: refuses command-line arguments (the
 * programs are configured by the environment only), runs `main`, and turns a
 * failure into one line of text on stderr and an exit code. A stack trace is
 * printed only for an unexpected error, or for any error when QE_DEBUG=1.
 */
export async function runCli(programName: string, main: () => Promise<void> | void): Promise<void> {
  // A reader that stops early (`| head`) closes the pipe; that is not a failure of the run.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  try {
    try {
      parseArgs({ args: process.argv.slice(2), options: {}, strict: true, allowPositionals: false });
    } catch (error) {
      throw new UsageError(`${error instanceof Error ? error.message : String(error)}; ${programName} takes no arguments`);
    }
    await main();
  } catch (error) {
    const debug = process.env['QE_DEBUG'] === '1';
    const exitCode = exitCodeFor(error);
    const expected = error instanceof QualityEvidenceError && exitCode !== EXIT_CODES.internal;
    const text = expected && !debug ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`${programName}: ${expected ? '' : 'internal error: '}${text}\n`);
    process.exitCode = exitCode;
  }
}
