import { execFileSync, spawn } from 'node:child_process';
import { link, lstat, mkdir, open, readdir, readFile, readlink, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { nodeFileSystem, ReportWriteError, runQualityWorkflow, type FileSystem, type QualityToolConfig } from '../src/index.js';
import { rejectionOf } from './support/failures.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';
import { mountTmpfsOrSkip } from './support/tmpfs.js';
import { readReport } from './support/reports.js';
import { childEnvironment, createTemporaryFolder, pathExists, programPath, runProgram, type ProgramOutcome } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// Where a report may be written, and how: the defects a hostile probe found
// in the write (issue 12: 1, 3, 6, 12 and the read-only message of 13).
// Each case runs the compiled command as a user would, in a folder of its own.

const input = JSON.stringify({ executions: [{ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 12 }] });
const earlier = '{ "earlier": true }\n';
const isRoot = process.getuid?.() === 0;

async function folderWith(files: Readonly<Record<string, string>> = {}): Promise<string> {
  return createTemporaryFolder({ 'in.json': input, ...files }, 'output');
}

function command(folder: string, args: readonly string[]): Promise<ProgramOutcome> {
  // Every case must end: a hang (Node's recursive mkdir under /proc) fails it at 20 s.
  return runProgram('src/cli/main.js', { cwd: folder, args: [...args, '--quiet'], timeoutMs: 20_000 });
}

const refused = (reason: string): ProgramOutcome => ({
  exitCode: 73,
  stdout: '',
  stderr: `quality-evidence: cannot write the report: ${reason}\n`,
});

test.describe('an output path that is not a regular file is refused, never replaced', () => {
  test('a character device (a copy of /dev/null, made as root) stays a device', async () => {
    test.skip(!isRoot, 'only root can make a device node (mknod); CI runs as root');
    const folder = await folderWith();
    execFileSync('mknod', [join(folder, 'null'), 'c', '1', '3']);

    expect(await command(folder, ['in.json', '--output', 'null'])).toEqual(
      refused('the output path is a character device, not a regular file; the report is only ever written to a regular file'),
    );
    expect((await stat(join(folder, 'null'))).isCharacterDevice()).toBe(true);
  });

  test('a FIFO stays a FIFO', async () => {
    const folder = await folderWith();
    execFileSync('mkfifo', [join(folder, 'pipe')]);

    expect(await command(folder, ['in.json', '--output', 'pipe'])).toEqual(
      refused('the output path is a FIFO, not a regular file; the report is only ever written to a regular file'),
    );
    expect((await stat(join(folder, 'pipe'))).isFIFO()).toBe(true);
  });

  test("a link to this process's stdout, as /dev/stdout is, reaches what stdout is (here a socket, as Node makes pipes): refused", async () => {
    const folder = await folderWith();
    await symlink('/proc/self/fd/1', join(folder, 'stdout'));

    expect(await command(folder, ['in.json', '--output', 'stdout'])).toEqual(
      refused('the output path is a socket, not a regular file; the report is only ever written to a regular file'),
    );
    expect(await readlink(join(folder, 'stdout'))).toBe('/proc/self/fd/1');
  });

  test('nothing in /dev or /proc is a place for a report', async () => {
    // Never the real /dev/null or /dev/stdout as root: a regression would replace them on this machine.
    const paths = isRoot
      ? [`/dev/quality-evidence-${process.pid}.json`, '/proc/self/quality-evidence/q.json']
      : ['/dev/null', '/dev/stdout', '/proc/self/quality-evidence/q.json'];
    const folder = await folderWith();
    try {
      for (const path of paths) {
        expect(await command(folder, ['in.json', '--output', path])).toEqual(
          refused(
            'the output path is in /dev or /proc, among devices and the streams of processes, where a report is never written; to print the report, use --json',
          ),
        );
      }
      expect(await pathExists(`/dev/quality-evidence-${process.pid}.json`)).toBe(false);
    } finally {
      await rm(`/dev/quality-evidence-${process.pid}.json`, { force: true });
    }
  });

  test('a folder is refused', async () => {
    const folder = await folderWith();
    await mkdir(join(folder, 'reports'));

    expect(await command(folder, ['in.json', '--output', 'reports'])).toEqual(
      refused('the output path is a folder, not a regular file; the report is only ever written to a regular file'),
    );
  });

  test('a Markdown rendering whose path is a FIFO stops the run before any file is written', async () => {
    const folder = await folderWith();
    execFileSync('mkfifo', [join(folder, 'q.md')]);

    expect(await command(folder, ['in.json', '--output', 'q.json'])).toEqual(
      refused('the path of the Markdown report is a FIFO, not a regular file; the report is only ever written to a regular file'),
    );
    expect(await pathExists(join(folder, 'q.json'))).toBe(false);
  });
});

test.describe('a symbolic link at the output path is followed: the file it points to is replaced, the link stays', () => {
  test('a link to a report', async () => {
    const folder = await folderWith({ 'target.json': earlier });
    await symlink('target.json', join(folder, 'link.json'));

    expect(await command(folder, ['in.json', '--output', 'link.json', '--formats', 'json'])).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
    expect((await lstat(join(folder, 'link.json'))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(folder, 'link.json'))).toBe('target.json');
    expect((await readReport(join(folder, 'target.json'))).executionCount).toBe(1);
  });

  test('a link that points nowhere is refused and stays', async () => {
    const folder = await folderWith();
    await symlink('missing/target.json', join(folder, 'link.json'));

    expect(await command(folder, ['in.json', '--output', 'link.json'])).toEqual(
      refused('the output path is a symbolic link to a file that does not exist (or a loop of links); name the file itself'),
    );
    expect(await readlink(join(folder, 'link.json'))).toBe('missing/target.json');
  });
});

test.describe('an output path that names a file the run reads is refused before anything is read', () => {
  const cases: { name: string; setUp?: (folder: string) => Promise<void>; args: string[]; reason: string }[] = [
    {
      name: 'the input itself',
      args: ['in.json', '--output', 'in.json'],
      reason: 'the output path is the input file "in.json", which this run reads: writing the report there would destroy it',
    },
    {
      name: 'the input spelled another way',
      setUp: (folder) => mkdir(join(folder, 'sub')),
      args: ['in.json', '--output', './sub/../in.json'],
      reason: 'the output path is the input file "in.json", which this run reads: writing the report there would destroy it',
    },
    {
      name: 'a symbolic link to the input',
      setUp: (folder) => symlink('in.json', join(folder, 'link.json')),
      args: ['in.json', '--output', 'link.json'],
      reason: 'the output path is the input file "in.json", which this run reads: writing the report there would destroy it',
    },
    {
      name: 'a hard link to the input',
      setUp: (folder) => link(join(folder, 'in.json'), join(folder, 'hard.json')),
      args: ['in.json', '--output', 'hard.json'],
      reason: 'the output path is the input file "in.json", which this run reads: writing the report there would destroy it',
    },
    {
      name: 'the second input of several',
      setUp: (folder) =>
        writeFile(join(folder, 'more.ndjson'), `${JSON.stringify({ statusCode: 201, endpoint: 'POST /orders', responseTimeMs: 3 })}\n`),
      args: ['in.json', 'more.ndjson', '--output', 'more.ndjson'],
      reason: 'the output path is the input file "more.ndjson", which this run reads: writing the report there would destroy it',
    },
    {
      name: 'the baseline report',
      setUp: (folder) => writeFile(join(folder, 'main.json'), earlier),
      args: ['in.json', '--baseline', 'main.json', '--output', 'main.json'],
      reason: 'the output path is the baseline report "main.json", which this run reads: writing the report there would destroy it',
    },
    {
      name: 'the budgets file',
      setUp: (folder) => writeFile(join(folder, 'budgets.json'), '{ "maxFailedRatePercent": 5 }'),
      args: ['in.json', '--budgets', 'budgets.json', '--output', 'budgets.json'],
      reason: 'the output path is the budgets file "budgets.json", which this run reads: writing the report there would destroy it',
    },
    {
      name: 'the input, as the Markdown rendering beside the report',
      setUp: (folder) => writeFile(join(folder, 'q.md'), '# notes\n'),
      args: ['in.json', 'q.md', '--input-format', 'json', '--output', 'q.json'],
      reason: 'the path of the Markdown report is the input file "q.md", which this run reads: writing the report there would destroy it',
    },
  ];
  for (const { name, setUp, args, reason } of cases) {
    test(name, async () => {
      const folder = await folderWith();
      await setUp?.(folder);
      const before = await filesOf(folder);

      expect(await command(folder, args)).toEqual(refused(reason));
      expect(await filesOf(folder)).toEqual(before);
    });
  }
});

test.describe('an output path that is the file behind a standard stream is refused', () => {
  /** Runs the command with stdin from `stdinFile` or stdout to `stdoutFile` (opened for appending), in `folder`. */
  async function withStreams(
    folder: string,
    args: readonly string[],
    { stdinFile, stdoutFile }: { stdinFile?: string; stdoutFile?: string },
  ): Promise<{ exitCode: number | null; stderr: string }> {
    const input = stdinFile === undefined ? undefined : await open(join(folder, stdinFile), 'r');
    const output = stdoutFile === undefined ? undefined : await open(join(folder, stdoutFile), 'a');
    try {
      const child = spawn(process.execPath, [programPath('src/cli/main.js'), ...args], {
        cwd: folder,
        env: childEnvironment(),
        stdio: [input?.fd ?? 'ignore', output?.fd ?? 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exitCode = await new Promise<number | null>((done) => child.on('close', done));
      return { exitCode, stderr };
    } finally {
      await input?.close();
      await output?.close();
    }
  }

  test('standard input read from the file the report would replace (`- < in.ndjson --output in.ndjson`)', async () => {
    const folder = await folderWith({ 'in.ndjson': `${JSON.stringify({ statusCode: 200, endpoint: 'GET /a', responseTimeMs: 1 })}\n` });

    const outcome = await withStreams(folder, ['-', '--input-format', 'ndjson', '--output', 'in.ndjson'], { stdinFile: 'in.ndjson' });

    expect(outcome).toEqual({
      exitCode: 73,
      stderr:
        'quality-evidence: cannot write the report: the output path is the standard input, which this run reads: writing the report there would destroy it\n',
    });
    expect(await readFile(join(folder, 'in.ndjson'), 'utf8')).toContain('GET /a');
  });

  test('standard output appended to the file the report would replace (`--output log.json >> log.json`)', async () => {
    const folder = await folderWith({ 'log.json': 'the log so far\n' });

    const outcome = await withStreams(folder, ['in.json', '--output', 'log.json', '--json'], { stdoutFile: 'log.json' });

    expect(outcome).toEqual({
      exitCode: 73,
      stderr:
        'quality-evidence: cannot write the report: the output path is the standard output, which this run writes to: ' +
        'writing the report there would destroy it\n',
    });
    expect(await readFile(join(folder, 'log.json'), 'utf8')).toBe('the log so far\n');
  });
});

test("a missing folder under /proc ends at once with a write error (Node's recursive mkdir loops there forever)", async () => {
  const folder = await folderWith();

  const outcome = await command(folder, ['in.json', '--output', '/proc/self/missing/deeper/q.json']);

  expect(outcome.exitCode).toBe(73);
});

test('folders are created one level at a time, each once: a file system that will not create one ends the run, it does not loop', async () => {
  const fileSystem = new MemoryFileSystem({ 'in.json': input }).failOn('makeDirectory', 'ENOENT');
  const calls: string[] = [];
  const counting: FileSystem = Object.assign(Object.create(fileSystem) as FileSystem, {
    makeDirectory: (path: string) => {
      calls.push(path);
      return fileSystem.makeDirectory(path);
    },
  });

  const error = await rejectionOf(runQualityWorkflow(config('a/b/c/q.json'), { fileSystem: counting }));

  expect(error).toEqual(new ReportWriteError('cannot create a folder on the path: no such file or directory (ENOENT)'));
  expect(calls).toEqual(['a']);
});

test('a folder that cannot be made on a read-only file system says "read-only file system"', async () => {
  const fileSystem = new MemoryFileSystem({ 'in.json': input }).failOn('makeDirectory', 'EROFS');

  const error = await rejectionOf(runQualityWorkflow(config('new/q.json'), { fileSystem }));

  expect(error).toEqual(new ReportWriteError('cannot create a folder on the path: read-only file system (EROFS)'));
});

test('on a real read-only mount (a tmpfs, where mount is permitted), a new folder says "read-only file system"', async () => {
  const folder = await folderWith();
  const mountPoint = join(folder, 'readonly');
  await mkdir(mountPoint);
  const unmount = mountTmpfsOrSkip(mountPoint, 'ro,size=1m', 'the in-memory case above covers the message');
  try {
    expect(await command(folder, ['in.json', '--output', 'readonly/new/q.json'])).toEqual(
      refused('cannot create a folder on the path: read-only file system (EROFS)'),
    );
  } finally {
    unmount();
  }
});

test.describe('temporary files', () => {
  test('are created exclusively: a link planted at the name is never followed', async () => {
    const folder = await folderWith({ 'victim.txt': 'keep me' });
    const planted = join(folder, '.quality-evidence-0badc0de.tmp');
    await symlink('victim.txt', planted);

    const error = await rejectionOf(nodeFileSystem.createFile(planted, 'report'));

    expect(error).toMatchObject({ code: 'EEXIST' });
    expect(await readFile(join(folder, 'victim.txt'), 'utf8')).toBe('keep me');
  });

  test(`that a killed run left are removed by the next successful run: its process is gone from this machine, or, from another \
machine, the file is over five minutes old; a live run's stay`, async () => {
    const host = createHash('sha256').update(hostname()).digest('hex').slice(0, 6);
    // 4194305 is past Linux's largest process id: no process here has it.
    const dead = `.quality-evidence-${host}-4194305-deadbeef.tmp`;
    const live = `.quality-evidence-${host}-${process.pid}-0123abcd.tmp`;
    const liveButOld = `.quality-evidence-${host}-${process.pid}-0123abce.tmp`;
    const otherMachine = '.quality-evidence-ffffff-4194305-0badf00d.tmp';
    const otherMachineOld = '.quality-evidence-ffffff-4194305-0badf00e.tmp';
    const folder = await folderWith({
      [dead]: 'half a report',
      [live]: 'a run writing now',
      [liveButOld]: 'a slow run writing now',
      [otherMachine]: 'another machine writing now',
      [otherMachineOld]: 'another machine, long gone',
      'notes.tmp': 'not ours',
    });
    const tenMinutesAgo = new Date(Date.now() - 10 * 60 * 1000);
    for (const name of [liveButOld, otherMachineOld, 'notes.tmp']) await utimes(join(folder, name), tenMinutesAgo, tenMinutesAgo);

    expect(await command(folder, ['in.json', '--output', 'q.json'])).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await filesOf(folder)).toEqual([live, liveButOld, otherMachine, 'in.json', 'notes.tmp', 'q.html', 'q.json', 'q.md'].sort());
  });

  test('a text given in pieces is written as their UTF-8, in order, exclusively: pieces longer than the write buffer, short ones and \
characters of two, three and four bytes', async () => {
    const folder = await folderWith({ 'victim.txt': 'keep me' });
    const pieces = ['{"a": "é', '€😀"', ', "long": "', 'x'.repeat(700_000), '€'.repeat(400_000), '"', '', ' }\n'];
    const write = (path: string, texts: Iterable<string>) => nodeFileSystem.createFileFromPieces!(path, texts);

    await write(join(folder, 'pieces.json'), pieces);
    await symlink('victim.txt', join(folder, 'planted.json'));
    const error = await rejectionOf(write(join(folder, 'planted.json'), ['report']));

    expect(await readFile(join(folder, 'pieces.json'))).toEqual(Buffer.from(pieces.join(''), 'utf8'));
    expect(error).toMatchObject({ code: 'EEXIST' });
    expect(await readFile(join(folder, 'victim.txt'), 'utf8')).toBe('keep me');
  });

  test('a file system made by spreading nodeFileSystem, with a createFile of its own, gets the JSON report through that createFile: \
the writing in pieces does not come with the copy', async () => {
    const folder = await folderWith();
    const created: string[] = [];
    const wrapped: FileSystem = {
      ...nodeFileSystem,
      createFile: (path, content) => {
        created.push(content);
        return nodeFileSystem.createFile(path, content);
      },
    };

    await runQualityWorkflow(
      { ...config(join(folder, 'q.json')), inputPath: join(folder, 'in.json'), formats: ['json'] },
      { fileSystem: wrapped },
    );

    expect(Object.keys(nodeFileSystem)).not.toContain('createFileFromPieces');
    expect(created).toEqual([await readFile(join(folder, 'q.json'), 'utf8')]);
  });

  test('a file system that takes pieces gets the JSON report an endpoint at a time, never whole; the renderings whole', async () => {
    const executions = ['GET /a', 'GET /b', 'GET /c'].map((endpoint) => ({ statusCode: 200, endpoint, responseTimeMs: 5 }));
    const fileSystem = new MemoryFileSystem({ 'in.json': JSON.stringify({ executions }) });
    const pieceCounts: number[] = [];
    const taking: FileSystem = Object.assign(Object.create(fileSystem) as FileSystem, {
      createFileFromPieces: (path: string, pieces: Iterable<string>) => {
        const all = [...pieces];
        pieceCounts.push(all.length);
        return fileSystem.createFile(path, all.join(''));
      },
    });

    const { files, reportText } = await runQualityWorkflow({ ...config('q.json'), formats: ['json', 'markdown'] }, { fileSystem: taking });

    expect(files).toEqual(['q.json', 'q.md']);
    expect(await fileSystem.readFile('q.json')).toBe(reportText);
    // The endpoints' opening, one piece each, their close, and each other key's: more pieces than endpoints.
    expect(pieceCounts).toHaveLength(1);
    expect(pieceCounts[0]).toBeGreaterThan(executions.length + 2);
  });

  test('each report file is created, flushed and renamed, then its folder is flushed', async () => {
    const fileSystem = new MemoryFileSystem({ 'in.json': input });
    const steps: string[] = [];
    const recording: FileSystem = Object.assign(Object.create(fileSystem) as FileSystem, {
      createFile: (path: string, content: string) => {
        steps.push(`create ${path.replace(/[0-9a-f]{6}-\d+-[0-9a-f]{8}/, '*')}`);
        return fileSystem.createFile(path, content);
      },
      rename: (from: string, to: string) => {
        steps.push(`rename to ${to}`);
        return fileSystem.rename(from, to);
      },
      syncFolder: (path: string) => {
        steps.push(`sync ${path}`);
        return fileSystem.syncFolder(path);
      },
    });

    await runQualityWorkflow({ ...config('out/q.json'), formats: ['json', 'markdown'] }, { fileSystem: recording });

    expect(steps).toEqual([
      'create out/.quality-evidence-*.tmp',
      'create out/.quality-evidence-*.tmp',
      'rename to out/q.md',
      'rename to out/q.json',
      'sync out',
    ]);
  });
});

function config(outputPath: string): QualityToolConfig {
  return { environment: 'ci', slowResponseThresholdMs: 750, inputPath: 'in.json', outputPath };
}

async function filesOf(folder: string): Promise<string[]> {
  return (await readdir(folder)).sort();
}
