import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  InputSyntaxError,
  InputUnreadableError,
  ReportWriteError,
  runQualityWorkflow,
  type FileSystem,
  type QualityToolConfig,
} from '../src/index.js';
import { rejectionOf } from './support/failures.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';
import { mountTmpfsOrSkip } from './support/tmpfs.js';
import { reportFrom } from './support/reports.js';
import { createTemporaryFolder, repositoryRoot, runProgram } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// The hostile-input corpus: fixtures/hostile/expectations.json names each
// input (a file beside it, or one generated here: the large ones) and the
// outcome of `quality-evidence <input>`. Then what the file system can do
// while a run reads and writes: files that change or vanish, a read-only
// folder, a full disk.

test.describe.configure({ timeout: 120_000 });

interface CorpusCase {
  readonly input?: string;
  readonly generate?: string;
  readonly why: string;
  readonly exitCode: number;
  readonly stderr?: string;
  readonly stderrStartsWith?: string;
  readonly report?: Record<string, unknown>;
}

const corpus = join(repositoryRoot, 'fixtures/hostile');
const { cases } = JSON.parse(readFileSync(join(corpus, 'expectations.json'), 'utf8')) as { cases: CorpusCase[] };

const record = (endpoint: string, extra: object = {}) => ({ statusCode: 200, endpoint, responseTimeMs: 5, ...extra });
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** The inputs generated at test time: too large to keep in the repository. */
const generators: Readonly<Record<string, () => { name: string; content: string }>> = {
  'deep-nesting-ignored': () => ({
    name: 'generated.json',
    content: `{"executions":[{"statusCode":200,"endpoint":"GET /a","responseTimeMs":1,"extra":${deep(100_000)}}]}`,
  }),
  'deep-nesting-outside': () => ({
    name: 'generated.json',
    content: `{"meta":${deep(100_000)},"executions":[${JSON.stringify(record('GET /a'))}]}`,
  }),
  'deep-nesting-invalid': () => ({
    name: 'generated.json',
    content: `{"executions":[{"statusCode":${deep(100_000)},"endpoint":"GET /a","responseTimeMs":1}]}`,
  }),
  'extra-fields': () => ({
    name: 'generated.json',
    content: JSON.stringify({
      executions: [record('GET /a', Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`field${index}`, index])))],
    }),
  }),
  'long-label': () => ({ name: 'generated.json', content: JSON.stringify({ executions: [record(`GET /${'x'.repeat(2995)}`)] }) }),
  'many-endpoints': () => ({
    name: 'generated.ndjson',
    content: `${Array.from({ length: 20_000 }, (_, index) => JSON.stringify(record(`GET /items/${index}`))).join('\n')}\n`,
  }),
  'too-many-endpoints': () => ({
    name: 'generated.ndjson',
    content: `${Array.from({ length: 50_001 }, (_, index) => JSON.stringify(record(`GET /items/${index}`))).join('\n')}\n`,
  }),
};

test('every generated case of the table has its generator, and every file of the corpus its case', async () => {
  expect(cases.filter((item) => item.generate !== undefined && !(item.generate in generators))).toEqual([]);
  const files = (await readdir(corpus)).filter((name) => name !== 'expectations.json' && name !== 'README.md');
  expect(files.sort()).toEqual(cases.flatMap((item) => (item.input === undefined ? [] : [item.input])).sort());
});

for (const item of cases) {
  test(`${item.input ?? item.generate!}: ${item.why}`, async () => {
    const folder = await createTemporaryFolder({}, 'corpus');
    let name: string;
    if (item.input !== undefined) {
      name = item.input;
      await copyFile(join(corpus, name), join(folder, name));
    } else {
      const generated = generators[item.generate!]!();
      name = generated.name;
      await writeFile(join(folder, name), generated.content);
    }

    const outcome = await runProgram('src/cli/main.js', { cwd: folder, args: [name, '--output', 'q.json', '--json'], timeoutMs: 60_000 });

    expect(outcome.exitCode, outcome.stderr).toBe(item.exitCode);
    if (item.stderr !== undefined) expect(outcome.stderr).toBe(item.stderr);
    if (item.stderrStartsWith !== undefined) expect(outcome.stderr.startsWith(item.stderrStartsWith), outcome.stderr).toBe(true);
    if (item.exitCode === 0) {
      expect(outcome.stderr).toBe('');
      expect(reportFrom(outcome.stdout)).toMatchObject(item.report ?? {});
      expect(await readFile(join(folder, 'q.json'), 'utf8')).toBe(outcome.stdout);
    } else {
      expect(outcome.stdout).toBe('');
      expect(await readdir(folder)).toEqual([name]);
    }
  });
}

test.describe('what the file system does while a run reads and writes', () => {
  const input = JSON.stringify({ executions: [record('GET /a'), record('GET /b')] });
  const config: QualityToolConfig = { environment: 'ci', slowResponseThresholdMs: 750, inputPath: 'in.json', outputPath: 'out/q.json' };

  /** A file system whose input yields `chunks` and then, when given, fails with `code`. */
  function changingInput(chunks: readonly string[], code?: string): { fileSystem: FileSystem; memory: MemoryFileSystem } {
    const memory = new MemoryFileSystem({ 'in.json': input, 'out/q.json': 'earlier' });
    const fileSystem: FileSystem = Object.assign(Object.create(memory) as FileSystem, {
      openChunks: () =>
        Promise.resolve(
          Readable.from(
            (function* () {
              for (const chunk of chunks) yield Buffer.from(chunk);
              if (code !== undefined) throw Object.assign(new Error(`${code}: simulated`), { code });
            })(),
          ),
        ),
    });
    return { fileSystem, memory };
  }

  test('a file cut short while it is read (truncated by another process) is a syntax error at its end, and the earlier report stays', async () => {
    const { fileSystem, memory } = changingInput([input.slice(0, 40)]);

    const error = await rejectionOf(runQualityWorkflow(config, { fileSystem }));

    expect(error).toBeInstanceOf(InputSyntaxError);
    expect((error as Error).message).toBe('the input file is not well-formed JSON at line 1, column 41: Unexpected end of JSON input');
    expect(memory.files.get('out/q.json')).toBe('earlier');
  });

  test('a file that vanishes from a network share half-way (ESTALE) or a disk that fails (EIO) is an unreadable input, exit 66', async () => {
    for (const [code, reason] of [
      ['ESTALE', 'the file is gone from its network share (ESTALE)'],
      ['EIO', 'input/output error (EIO)'],
    ] as const) {
      const { fileSystem, memory } = changingInput([input.slice(0, 30)], code);

      const error = await rejectionOf(runQualityWorkflow(config, { fileSystem }));

      expect(error).toBeInstanceOf(InputUnreadableError);
      expect((error as Error).message).toBe(`cannot read the input file "in.json": ${reason}`);
      expect(memory.writes).toEqual([]);
    }
  });

  test('a file deleted while it is read is read to its end: the open file stays readable (Linux)', async () => {
    const folder = await createTemporaryFolder({}, 'corpus');
    // Under 16 MiB, so one reader holds it open (worker threads would each open it again by its name, and find it gone: exit 66).
    const lines = Array.from({ length: 200_000 }, (_, index) => JSON.stringify(record(`GET /items/${index % 50}`))).join('\n');
    await writeFile(join(folder, 'in.ndjson'), `${lines}\n`);
    const child = spawn(process.execPath, [join(repositoryRoot, '.build/src/cli/main.js'), 'in.ndjson', '--output', 'q.json', '--json'], {
      cwd: folder,
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    // Deleted once the run has opened it: the first bytes of progress are not printed with --json, so wait for the file to be open.
    await waitUntil(() => openedBy(child.pid!, join(folder, 'in.ndjson')));
    execFileSync('rm', [join(folder, 'in.ndjson')]);
    const exitCode = await new Promise<number | null>((done) => child.on('close', done));

    expect(exitCode).toBe(0);
    expect(reportFrom(stdout).executionCount).toBe(200_000);
  });

  test(`a read-only output folder: exit 73 for a user; root writes there anyway (modes do not bind root), so a read-only mount \
is what stops root`, async () => {
    const folder = await createTemporaryFolder({ 'in.json': input }, 'corpus');
    await mkdir(join(folder, 'reports'));
    await chmod(join(folder, 'reports'), 0o555);

    const outcome = await runProgram('src/cli/main.js', { cwd: folder, args: ['in.json', '--output', 'reports/q.json', '--quiet'] });

    if (process.getuid?.() === 0) expect(outcome).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    else
      expect(outcome).toEqual({
        exitCode: 73,
        stdout: '',
        stderr: 'quality-evidence: cannot write the report: permission denied (EACCES)\n',
      });
  });

  test('a full disk (injected): exit 73 with "no space left on device", no temporary file, the earlier report untouched', async () => {
    const memory = new MemoryFileSystem({ 'in.json': input, 'out/q.json': 'earlier' }).failOn('createFile', 'ENOSPC');

    const error = await rejectionOf(runQualityWorkflow(config, { fileSystem: memory }));

    expect(error).toEqual(new ReportWriteError('no space left on device (ENOSPC)'));
    expect([...memory.files.keys()].sort()).toEqual(['in.json', 'out/q.json']);
    expect(memory.files.get('out/q.json')).toBe('earlier');
  });

  test('a full disk (a 64 KiB tmpfs, where mount is permitted): exit 73, the earlier report whole, no temporary file left', async () => {
    const folder = await createTemporaryFolder({}, 'corpus');
    const disk = join(folder, 'disk');
    await mkdir(disk);
    const unmount = mountTmpfsOrSkip(disk, 'size=64k', 'the injected full disk above covers it');
    try {
      await writeFile(join(disk, 'q.json'), 'earlier');
      // 2,000 endpoints make a report far larger than what is left of 64 KiB.
      const lines = Array.from({ length: 2_000 }, (_, index) => JSON.stringify(record(`GET /endpoint-${index}`))).join('\n');
      await writeFile(join(folder, 'in.ndjson'), lines);

      const outcome = await runProgram('src/cli/main.js', { cwd: folder, args: ['in.ndjson', '--output', 'disk/q.json', '--quiet'] });

      expect(outcome).toEqual({
        exitCode: 73,
        stdout: '',
        stderr: 'quality-evidence: cannot write the report: no space left on device (ENOSPC)\n',
      });
      expect(await readFile(join(disk, 'q.json'), 'utf8')).toBe('earlier');
      expect(await readdir(disk)).toEqual(['q.json']);
    } finally {
      unmount();
    }
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 2000 && !condition(); tries++) await new Promise((tick) => setTimeout(tick, 2));
}

function openedBy(pid: number, path: string): boolean {
  try {
    // A descriptor closed while ls reads the folder is a line on ls's stderr: kept out of the suite's output.
    const descriptors = execFileSync('ls', ['-l', `/proc/${pid}/fd`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return descriptors.includes(path);
  } catch {
    return false;
  }
}
