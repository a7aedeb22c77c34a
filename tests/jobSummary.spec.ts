import { execFileSync, spawn } from 'node:child_process';
import { open, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fitJobSummary, JOB_SUMMARY_LIMIT_BYTES } from '../src/workflow/jobSummary.js';
import { childEnvironment, createTemporaryFolder, pathExists, repositoryRoot, runProgram } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// The GitHub job summary never stops or hangs a run, holds no more than
// GitHub shows, and two runs appending to it never interleave (issue 18).

const input = JSON.stringify({ executions: [{ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 12 }] });

test('a job summary that is a FIFO nothing reads is a warning, and the run goes on: the report is written, exit 0', async () => {
  const folder = await createTemporaryFolder({ 'in.json': input }, 'summary');
  execFileSync('mkfifo', [join(folder, 'summary')]);

  // Every case must end: a run that waits for a reader is killed at 20 s and fails.
  const outcome = await runProgram('src/cli/main.js', {
    cwd: folder,
    args: ['in.json', '--output', 'q.json', '--quiet'],
    env: { GITHUB_STEP_SUMMARY: 'summary' },
    timeoutMs: 20_000,
  });

  expect(outcome).toEqual({
    exitCode: 0,
    stdout: '',
    stderr:
      'quality-evidence: warning: the job summary ($GITHUB_STEP_SUMMARY) could not be appended to: ' +
      'nothing reads the FIFO (or the device is not there) (ENXIO)\n',
  });
  expect(await pathExists(join(folder, 'q.json'))).toBe(true);
});

/** Runs the command in `folder` with standard input from `stdinFile`, or from /dev/null (as CI gives a step): its exit code and what it printed. */
async function commandWithStandardInput(
  folder: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  stdinFile?: string,
) {
  const input = stdinFile === undefined ? undefined : await open(join(folder, stdinFile), 'r');
  try {
    const child = spawn(process.execPath, [join(repositoryRoot, '.build/src/cli/main.js'), ...args], {
      cwd: folder,
      env: childEnvironment(env),
      stdio: [input?.fd ?? 'ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exitCode = await new Promise<number | null>((done) => child.on('close', done));
    return { exitCode, stdout, stderr };
  } finally {
    await input?.close();
  }
}

/** What makes /dev/null itself: a character device, its device number and inode. */
async function devNull(): Promise<{ device: boolean; rdev: number; ino: number }> {
  const facts = await stat('/dev/null');
  return { device: facts.isCharacterDevice(), rdev: facts.rdev, ino: facts.ino };
}

test.describe('/dev/null as the job summary', () => {
  test(`a run that reads no standard input (itself /dev/null, as in CI) appends the summary there: the report written, exit 0, \
/dev/null a device`, async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'summary');
    const before = await devNull();

    const outcome = await commandWithStandardInput(folder, ['in.json', '--output', 'q.json', '--quiet'], {
      GITHUB_STEP_SUMMARY: '/dev/null',
    });

    expect(outcome).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await pathExists(join(folder, 'q.md'))).toBe(true);
    expect(await devNull()).toEqual({ ...before, device: true });
  });

  test('even as root, a report path that leads to /dev/null (a link to it) is refused, 73, nothing is written and /dev/null stays the device', async () => {
    // A link, never /dev/null itself: were the refusal to fail, the rename would replace the link, not this machine's /dev/null.
    const folder = await createTemporaryFolder({ 'in.json': input }, 'summary');
    await symlink('/dev/null', join(folder, 'q.json'));
    const before = await devNull();

    const outcome = await commandWithStandardInput(folder, ['in.json', '--output', 'q.json', '--quiet'], {
      GITHUB_STEP_SUMMARY: '/dev/null',
    });

    expect(outcome).toEqual({
      exitCode: 73,
      stdout: '',
      stderr:
        'quality-evidence: cannot write the report: the output path is a character device, not a regular file; ' +
        'the report is only ever written to a regular file\n',
    });
    expect(await pathExists(join(folder, 'q.md'))).toBe(false);
    expect(await devNull()).toEqual({ ...before, device: true });
  });

  test('a run that reads standard input (-) may still not append the summary to the file behind it: 73, the input as it was', async () => {
    const line = `${JSON.stringify({ statusCode: 200, endpoint: 'GET /a', responseTimeMs: 1 })}\n`;
    const folder = await createTemporaryFolder({ 'in.ndjson': line }, 'summary');

    const args = ['-', '--input-format', 'ndjson', '--output', 'q.json', '--quiet'];
    const outcome = await commandWithStandardInput(folder, args, { GITHUB_STEP_SUMMARY: 'in.ndjson' }, 'in.ndjson');

    expect(outcome).toEqual({
      exitCode: 73,
      stdout: '',
      stderr:
        'quality-evidence: cannot write the report: the job summary ($GITHUB_STEP_SUMMARY) is the standard input, which this run reads: ' +
        'appending the summary there would change it\n',
    });
    expect(await readFile(join(folder, 'in.ndjson'), 'utf8')).toBe(line);
  });
});

test.describe('a summary larger than GitHub takes (1 MiB a step)', () => {
  const rows = Array.from({ length: 200 }, (_, index) => `| GET /orders/${index} | 12 ms |`);
  const markdown = [
    '',
    '## API quality evidence: `ci`',
    '',
    '✅ **All good**',
    '',
    '### Budgets',
    '',
    '| Budget | Actual |',
    '|---|---:|',
    ...rows,
    '',
    '### Endpoints',
    '',
    '- `GET /a`',
    '',
    '### Slowest executions',
    '',
    'x',
    '',
  ].join('\n');

  test('is cut after the last whole row that fits, saying what it left out and where all of it is', () => {
    // 400 bytes for the text (2,048 are kept for the note): the lines above the table's rows and 11 rows fit.
    const kept = [
      '',
      '## API quality evidence: `ci`',
      '',
      '✅ **All good**',
      '',
      '### Budgets',
      '',
      '| Budget | Actual |',
      '|---|---:|',
      ...rows.slice(0, 11),
    ].join('\n');
    expect(fitJobSummary(markdown, 'q.md', 2048 + 400)).toBe(
      `${kept}\n\n> ✂️ **Cut to fit GitHub's 1 MiB job summary**: 189 more rows of “Budgets” and the sections ` +
        '“Endpoints”, “Slowest executions” left out; q.md holds the whole report.\n',
    );
  });

  test('never ends on a section title or a table header with nothing under it', () => {
    // 105 bytes: the lines down to the table's header would fit, but not one row of it.
    expect(fitJobSummary(markdown, 'q.md', 2048 + 105)).toBe(
      '\n## API quality evidence: `ci`\n\n✅ **All good**\n\n' +
        "> ✂️ **Cut to fit GitHub's 1 MiB job summary**: the sections “Budgets”, “Endpoints”, " +
        '“Slowest executions” left out; q.md holds the whole report.\n',
    );
  });

  test("one that fits is left whole; the limit is GitHub's 1 MiB", () => {
    expect(fitJobSummary(markdown, 'q.md')).toBe(markdown);
    expect(JOB_SUMMARY_LIMIT_BYTES).toBe(1024 * 1024);
  });
});

test('four processes appending large summaries to one file at once never interleave: each summary lands whole', async () => {
  const folder = await createTemporaryFolder({}, 'summary');
  const blockBytes = 1024 * 1024;
  const appends = 6;
  // The file system the runs append with, in processes of their own, each appending one letter's block again and again.
  await writeFile(
    join(folder, 'append.mjs'),
    `import { nodeFileSystem } from ${JSON.stringify(join(repositoryRoot, '.build/src/io/fileSystem.js'))};
const [path, letter] = process.argv.slice(2);
const block = letter.repeat(${blockBytes - 1}) + '\\n';
for (let i = 0; i < ${appends}; i++) await nodeFileSystem.appendFile(path, block);
`,
  );
  const letters = ['a', 'b', 'c', 'd'];
  await Promise.all(
    letters.map(
      (letter) =>
        new Promise<void>((done, fail) => {
          const child = spawn(process.execPath, [join(folder, 'append.mjs'), join(folder, 'summary.md'), letter], { stdio: 'inherit' });
          child.on('exit', (code) => {
            if (code === 0) done();
            else fail(new Error(`appender ${letter} exited ${String(code)}`));
          });
        }),
    ),
  );

  const text = await readFile(join(folder, 'summary.md'), 'latin1');
  const blocks = Array.from({ length: text.length / blockBytes }, (_, index) => text.slice(index * blockBytes, (index + 1) * blockBytes));
  const whole = blocks.filter((block) => /^([a-d])\1*\n$/.test(block)).map((block) => block[0]);
  expect({ bytes: text.length, whole: whole.length }).toEqual({
    bytes: letters.length * appends * blockBytes,
    whole: letters.length * appends,
  });
  expect(letters.map((letter) => whole.filter((found) => found === letter).length)).toEqual([appends, appends, appends, appends]);
});
