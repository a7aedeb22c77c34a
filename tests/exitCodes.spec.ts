import { expect, test } from './support/test.js';
import { CommentPostError } from '../src/errors.js';
import {
  ConfigurationError,
  InputSyntaxError,
  InputUnreadableError,
  RecordValidationError,
  ReportFormatError,
  ReportWriteError,
} from '../src/index.js';
import { EXIT_CODES, exitCodeFor } from '../src/cli/exitCodes.js';

// The one table that turns an error class into an exit code (docs/command.md, "Exit codes").
const cases: readonly { name: string; error: unknown; exitCode: number }[] = [
  { name: 'a configuration error', error: new ConfigurationError([{ variable: 'QE_ENVIRONMENT', message: 'is required' }]), exitCode: 78 },
  { name: 'a missing input file', error: new InputUnreadableError('in.json', 'no such file or directory (ENOENT)'), exitCode: 66 },
  {
    name: 'input that is not well-formed JSON',
    error: new InputSyntaxError('Unexpected end of JSON input', { line: 1, column: 2 }),
    exitCode: 65,
  },
  {
    name: 'invalid records',
    error: new RecordValidationError('1 of 1 record is invalid', [], { invalidRecordCount: 1, recordCount: 1, unlistedRecordCount: 0 }),
    exitCode: 65,
  },
  {
    name: 'a baseline that is not a report',
    error: new ReportFormatError('main.json', 'is not a quality-summary.json written by quality-evidence', 'baseline report'),
    exitCode: 65,
  },
  { name: 'an unwritable report', error: new ReportWriteError('permission denied (EACCES)'), exitCode: 73 },
  { name: 'a comment that was written and not posted', error: new CommentPostError('GitHub refused the token (401)'), exitCode: 69 },
  { name: 'an unexpected error', error: new TypeError('bug'), exitCode: 70 },
  { name: 'a thrown non-error', error: 'text', exitCode: 70 },
];

for (const { name, error, exitCode } of cases) {
  test(`${name} exits ${exitCode}`, () => {
    expect(exitCodeFor(error)).toBe(exitCode);
  });
}

test('the documented codes are the sysexits values, and 1 for a breached budget', () => {
  expect(EXIT_CODES).toEqual({
    success: 0,
    budgetBreached: 1,
    usage: 64,
    invalidData: 65,
    inputUnreadable: 66,
    commentNotPosted: 69,
    internal: 70,
    outputUnwritable: 73,
    configuration: 78,
  });
});
