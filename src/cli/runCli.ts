import { parseArgs } from 'node:util';
import { QualityEvidenceError } from '../errors.js';
import { EXIT_CODES, UsageError, exitCodeFor } from './exitCodes.js';

/**
 * The outer shell of every program: refuses command-line arguments unless
 * the program takes them (the SPEC programs are configured by the
 * environment only), runs `main` (which may return an exit code: 1 for a
 * breached budget), and turns a failure into one line of text on stderr and
 * an exit code. A stack trace is printed only for an
 * unexpected error, or for any error when QE_DEBUG=1.
 */
export async function runCli(
  programName: string,
  main: () => Promise<number | undefined> | number | undefined,
  { takesArguments = false }: { takesArguments?: boolean } = {},
): Promise<void> {
  // A reader that stops early (`| head`) closes the pipe, and a stream may be
  // full (`> /dev/full`) or closed: what could not be printed is lost, but
  // the exit code stays the run's real outcome (the report is written or
  // not either way), and no stack trace is printed.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', ignoreStreamFailure);
  try {
    if (!takesArguments) {
      try {
        parseArgs({ args: process.argv.slice(2), options: {}, strict: true, allowPositionals: false });
      } catch (error) {
        throw new UsageError(`${error instanceof Error ? error.message : String(error)}; ${programName} takes no arguments`);
      }
    }
    const exitCode = await main();
    if (typeof exitCode === 'number') process.exitCode = exitCode;
  } catch (error) {
    const debug = process.env['QE_DEBUG'] === '1';
    const exitCode = exitCodeFor(error);
    const expected = error instanceof QualityEvidenceError && exitCode !== EXIT_CODES.internal;
    const text = expected && !debug ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`${programName}: ${expected ? '' : 'internal error: '}${text}\n`);
    process.exitCode = exitCode;
  }
}

function ignoreStreamFailure(): void {
  // Nothing can be said: the stream that failed is where it would be said.
}
