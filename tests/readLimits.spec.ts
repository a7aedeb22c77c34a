import { InputLimitError, InputSyntaxError, readInputFile } from '../src/index.js';
import { CONFIGURATION_FILE_LIMIT_BYTES, REPORT_FILE_LIMIT_BYTES } from '../src/io/readInputFile.js';
import { rejectionOf } from './support/failures.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';
import { createPlaywrightProject, runPlaywright } from './support/playwrightProject.js';
import { createTemporaryFolder, runProgram, type ProgramOutcome } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// Every file a run reads goes through one bounded, strict-UTF-8 reader, as
// inputs do: a settings file, a budgets file, a baseline and the report
// `check` judges, read from a device that never ends (/dev/zero) or from
// random bytes (/dev/urandom), stop the run with the file named (exit 65),
// in the command, the runner script and the reporter alike (issue 18).

const input = JSON.stringify({ executions: [{ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 12 }] });
const report = (folder: string): Promise<ProgramOutcome> =>
  runProgram('src/cli/main.js', { cwd: folder, args: ['in.json', '--output', 'q.json', '--quiet'], timeoutMs: 60_000 });

// Random bytes are never valid UTF-8 for long: the first invalid byte and its place differ from run to run.
const invalidUtf8 = (what: string, path: string): RegExp =>
  new RegExp(
    `^the ${what} "${path}" is not well-formed JSON at line \\d+, column \\d+: invalid UTF-8 \\(byte 0x[0-9A-F]{2}\\); the file must be UTF-8 text$`,
  );

function command(folder: string, args: readonly string[]): Promise<ProgramOutcome> {
  // Every case must end: one that reads without a bound is killed at 60 s (or for memory) and fails.
  return runProgram('src/cli/main.js', { cwd: folder, args: [...args], timeoutMs: 60_000 });
}

const stopped = (text: string, program = 'quality-evidence'): ProgramOutcome => ({
  exitCode: 65,
  stdout: '',
  stderr: `${program}: ${text}\n`,
});

test.describe('the command', () => {
  test('a settings file that never ends (/dev/zero) stops at 16 MiB, exit 65', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'limits');
    expect(await command(folder, ['in.json', '--config', '/dev/zero'])).toEqual(
      stopped('the settings file "/dev/zero" is larger than 16 MiB, the most it may hold'),
    );
  });

  test('a budgets file that never ends (/dev/zero) stops at 16 MiB, exit 65', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'limits');
    expect(await command(folder, ['in.json', '--budgets', '/dev/zero'])).toEqual(
      stopped('the budgets file "/dev/zero" is larger than 16 MiB, the most it may hold'),
    );
  });

  test('a baseline of random bytes (/dev/urandom) stops at its first byte that is not UTF-8, exit 65', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'limits');
    const outcome = await command(folder, ['in.json', '--baseline', '/dev/urandom', '--quiet']);
    expect({ exitCode: outcome.exitCode, stdout: outcome.stdout }).toEqual({ exitCode: 65, stdout: '' });
    expect(outcome.stderr.replace(/^quality-evidence: /, '').trimEnd()).toMatch(invalidUtf8('baseline report', '/dev/urandom'));
  });

  test('check: a report that never ends (/dev/zero) stops at the longest string Node.js can make, exit 65', async () => {
    const folder = await createTemporaryFolder({}, 'limits');
    expect(await command(folder, ['check', '/dev/zero'])).toEqual(
      stopped(
        `the report "/dev/zero" is larger than ${REPORT_FILE_LIMIT_BYTES.toLocaleString('en-US')} bytes (about 512 MiB), the most it may hold`,
      ),
    );
  });

  test('check: budgets of random bytes (/dev/urandom) stop at the first byte that is not UTF-8, exit 65', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'limits');
    expect((await report(folder)).exitCode).toBe(0);
    const outcome = await command(folder, ['check', 'q.json', '--budgets', '/dev/urandom']);
    expect({ exitCode: outcome.exitCode, stdout: outcome.stdout }).toEqual({ exitCode: 65, stdout: '' });
    expect(outcome.stderr.replace(/^quality-evidence: /, '').trimEnd()).toMatch(invalidUtf8('budgets file', '/dev/urandom'));
  });
});

test.describe('the runner script (npm run start:environment)', () => {
  const environment = { QE_ENVIRONMENT: 'ci', QE_INPUT_PATH: 'in.json', QE_OUTPUT_PATH: 'q.json' };

  test('QE_CONFIG_PATH=/dev/zero stops at 16 MiB, exit 65', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'limits');
    const outcome = await runProgram('scripts/startEnvironment.js', {
      cwd: folder,
      env: { ...environment, QE_CONFIG_PATH: '/dev/zero' },
      timeoutMs: 60_000,
    });
    expect(outcome).toEqual(
      stopped('the settings file "/dev/zero" is larger than 16 MiB, the most it may hold', 'quality-evidence start:environment'),
    );
  });

  test('QE_BUDGETS_PATH=/dev/zero stops at 16 MiB, exit 65', async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'limits');
    const outcome = await runProgram('scripts/startEnvironment.js', {
      cwd: folder,
      env: { ...environment, QE_BUDGETS_PATH: '/dev/zero' },
      timeoutMs: 60_000,
    });
    expect(outcome).toEqual(
      stopped('the budgets file "/dev/zero" is larger than 16 MiB, the most it may hold', 'quality-evidence start:environment'),
    );
  });
});

test('the reporter: QE_CONFIG_PATH=/dev/zero stops the run before any test, naming the file', async () => {
  // A Playwright run in a packed project (npm pack, once per worker): a few seconds idle, 10 s and more loaded.
  test.setTimeout(120_000);
  const project = await createPlaywrightProject({
    'playwright.config.ts': "import { defineConfig } from '@playwright/test';\nexport default defineConfig({ testDir: './tests' });\n",
    'tests/one.spec.ts': "import { test } from '@playwright/test';\ntest('one', () => {});\n",
  });

  const outcome = await runPlaywright(project, ['test', '--reporter=quality-evidence/reporter'], { QE_CONFIG_PATH: '/dev/zero' });

  expect(outcome.exitCode).not.toBe(0);
  expect(outcome.stdout + outcome.stderr).toContain(
    'InputLimitError: the settings file "/dev/zero" is larger than 16 MiB, the most it may hold',
  );
});

test.describe('the reader', () => {
  test('a file of exactly the limit is read; one byte more is an InputLimitError naming the file', async () => {
    const fileSystem = new MemoryFileSystem({ 'budgets.json': '{ "minExecutions": 1 }' });
    expect(await readInputFile(fileSystem, 'budgets.json', 'budgets file', 22)).toBe('{ "minExecutions": 1 }');
    const error = await rejectionOf(readInputFile(fileSystem, 'budgets.json', 'budgets file', 21));
    expect(error).toBeInstanceOf(InputLimitError);
    expect((error as Error).message).toBe('the budgets file "budgets.json" is larger than 21 bytes, the most it may hold');
  });

  test('a byte that is not UTF-8 is an InputSyntaxError at its line and column, however the chunks cut its sequence', async () => {
    // The memory file system hands files over in chunks of 7 bytes: "é" (C3 A9) straddles the first cut, the bad byte follows it.
    const fileSystem = new MemoryFileSystem().putBytes(
      'settings.json',
      Buffer.concat([Buffer.from('{\n   "é'), Buffer.from([0xff]), Buffer.from('": 1 }')]),
    );
    const error = await rejectionOf(readInputFile(fileSystem, 'settings.json', 'settings file', CONFIGURATION_FILE_LIMIT_BYTES));
    expect(error).toBeInstanceOf(InputSyntaxError);
    expect((error as Error).message).toBe(
      'the settings file "settings.json" is not well-formed JSON at line 2, column 6: invalid UTF-8 (byte 0xFF); the file must be UTF-8 text',
    );
  });

  test('a multi-byte sequence cut short by the end of the file is not UTF-8', async () => {
    const fileSystem = new MemoryFileSystem().putBytes('b.json', Buffer.from([0x7b, 0x7d, 0xe2, 0x82]));
    expect(((await rejectionOf(readInputFile(fileSystem, 'b.json', 'baseline report'))) as Error).message).toBe(
      'the baseline report "b.json" is not well-formed JSON at line 1, column 3: invalid UTF-8 (byte 0xE2); the file must be UTF-8 text',
    );
  });
});
