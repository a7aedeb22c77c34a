import { execFileSync, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fitJobSummary, JOB_SUMMARY_LIMIT_BYTES } from '../src/workflow/jobSummary.js';
import { createTemporaryFolder, pathExists, repositoryRoot, runProgram } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// The GitHub job summary never stops or hangs a run, holds no more than
// GitHub shows, and two runs appending to it never interleave (issue 18).

const input = JSON.stringify({ executions: [{ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 12 }] });

test('a job summary that is a FIFO nothing reads is a warning, and the run goes on: the report is written, exit 0', async () => {
  const folder = await createTemporaryFolder({ 'in.json': input }, 'summary');
  execFileSync('mkfifo', [join(folder, 'summary')]);

  // Every case must end: a run that waits for a reader is killed at 20 s and fails.
  const outcome = await runProgram('src/cli/main.js', { cwd: folder, args: ['in.json', '--output', 'q.json', '--quiet'], env: { GITHUB_STEP_SUMMARY: 'summary' }, timeoutMs: 20_000 });

  expect(outcome).toEqual({
    exitCode: 0,
    stdout: '',
    stderr: 'quality-evidence: warning: the job summary ($GITHUB_STEP_SUMMARY) could not be appended to: nothing reads the FIFO (or the device is not there) (ENXIO)\n',
  });
  expect(await pathExists(join(folder, 'q.json'))).toBe(true);
});

test.describe('a summary larger than GitHub takes (1 MiB a step)', () => {
  const rows = Array.from({ length: 200 }, (_, index) => `| GET /orders/${index} | 12 ms |`);
  const markdown = ['', '## API quality evidence: `ci`', '', '✅ **All good**', '', '### Budgets', '', '| Budget | Actual |', '|---|---:|', ...rows, '', '### Endpoints', '', '- `GET /a`', '', '### Slowest executions', '', 'x', ''].join('\n');

  test('is cut after the last whole row that fits, saying what it left out and where all of it is', () => {
    // 400 bytes for the text (2,048 are kept for the note): the lines above the table's rows and 11 rows fit.
    const kept = ['', '## API quality evidence: `ci`', '', '✅ **All good**', '', '### Budgets', '', '| Budget | Actual |', '|---|---:|', ...rows.slice(0, 11)].join('\n');
    expect(fitJobSummary(markdown, 'q.md', 2048 + 400)).toBe(
      `${kept}\n\n> ✂️ **Cut to fit GitHub's 1 MiB job summary**: 189 more rows of “Budgets” and the sections “Endpoints”, “Slowest executions” left out; q.md holds the whole report.\n`,
    );
  });

  test('never ends on a section title or a table header with nothing under it', () => {
    // 105 bytes: the lines down to the table's header would fit, but not one row of it.
    expect(fitJobSummary(markdown, 'q.md', 2048 + 105)).toBe(
      "\n## API quality evidence: `ci`\n\n✅ **All good**\n\n> ✂️ **Cut to fit GitHub's 1 MiB job summary**: the sections “Budgets”, “Endpoints”, “Slowest executions” left out; q.md holds the whole report.\n",
    );
  });

  test('one that fits is left whole; the limit is GitHub\'s 1 MiB', () => {
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
  expect({ bytes: text.length, whole: whole.length }).toEqual({ bytes: letters.length * appends * blockBytes, whole: letters.length * appends });
  expect(letters.map((letter) => whole.filter((found) => found === letter).length)).toEqual([appends, appends, appends, appends]);
});
