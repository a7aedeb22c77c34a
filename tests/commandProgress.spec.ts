import { expect, test } from './support/test.js';
import { runCommand } from '../src/cli/runCommand.js';
import type { CommandContext } from '../src/cli/summariseCommand.js';
import { exitCodeFor } from '../src/cli/exitCodes.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';
import { seededHistory } from './support/seededHistory.js';

// Long work shows its progress on stderr where a person watches: after one
// second, on a terminal, outside CI, one line redrawn in place and erased at
// the end; asked (progress: always), plain lines at most every 5 seconds
// where that line would not do. The clock is the command's, moved by the
// reads themselves: exact, with no waiting.

const MEBIBYTE = 1024 * 1024;

/** One NDJSON record line of exactly half a mebibyte, newline included: an ignored field pads it. */
function recordLine(index: number): string {
  const record = JSON.stringify({ statusCode: 200, endpoint: `GET /orders/${index}`, responseTimeMs: 5, note: '' });
  return `${record.slice(0, -2)}${'x'.repeat(MEBIBYTE / 2 - record.length - 1)}"}\n`;
}

function records(count: number): string {
  return Array.from({ length: count }, (_, index) => recordLine(index)).join('');
}

/**
 * Files read one line a chunk (or whole, `byFile`), the clock moved on
 * `stepMs` before each chunk: a file of half-mebibyte records is read at
 * 1 MB/s, in half-second steps.
 */
class TickingFileSystem extends MemoryFileSystem {
  time = 0;
  constructor(
    files: Readonly<Record<string, string>>,
    private readonly stepMs = 500,
    private readonly byFile = false,
  ) {
    super(files);
  }

  override openChunks(path: string): Promise<AsyncIterable<Buffer>> {
    const text = this.files.get(path);
    if (text === undefined) return super.openChunks(path);
    const parts = this.byFile ? [text] : text.split(/(?<=\n)/);
    // Read lazily, a chunk when the reader asks for it: a stream would read ahead, and move the clock early.
    const next = (): Promise<IteratorResult<Buffer>> => {
      const part = parts.shift();
      if (part === undefined) return Promise.resolve({ done: true, value: undefined });
      this.time += this.stepMs;
      return Promise.resolve({ done: false, value: Buffer.from(part) });
    };
    return Promise.resolve({ [Symbol.asyncIterator]: () => ({ next }) });
  }
}

interface Run {
  readonly args?: readonly string[];
  readonly files?: Readonly<Record<string, string>>;
  readonly env?: Readonly<Record<string, string>>;
  readonly isTTY?: boolean;
  readonly stepMs?: number;
  readonly byFile?: boolean;
}

async function run({
  args = ['in.ndjson'],
  files = { 'in.ndjson': records(4) },
  env = {},
  isTTY = true,
  stepMs,
  byFile,
}: Run = {}): Promise<{ exitCode: number; stderr: string; fileSystem: TickingFileSystem }> {
  let stderr = '';
  const fileSystem = new TickingFileSystem(files, stepMs, byFile);
  const context: CommandContext = {
    args: [...args, '-o', 'out/q.json', '--formats', 'json'],
    env,
    fileSystem,
    stdin: (async function* () {})(),
    stdout: { write: () => true, isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY },
    programName: 'quality-evidence',
    clock: { now: () => fileSystem.time },
  };
  const exitCode = await runCommand(context);
  return { exitCode, stderr, fileSystem };
}

/** The terminal's line, drawn over itself, as the command draws it. */
const drawn = (text: string) => `\r${text}\u001b[K`;
const ERASED = '\r\u001b[K';

test('on a terminal, an input read within a second shows no progress at all', async () => {
  expect(await run({ stepMs: 0 })).toMatchObject({ exitCode: 0, stderr: '' });
  // Exactly one second is not more than one.
  expect((await run({ files: { 'in.ndjson': records(2) } })).stderr).toBe('');
});

test('on a terminal, past one second, one line redrawn in place says records, bytes and rate, and is erased at the end', async () => {
  const { exitCode, stderr } = await run();
  expect(exitCode).toBe(0);
  // Read at 0.5, 1.0, 1.5 and 2.0 s: nothing until past a second.
  expect(stderr).toBe(drawn('3 records, 1.5 MB read (1.0 MB/s)') + drawn('4 records, 2.0 MB read (1.0 MB/s)') + ERASED);
});

test('several inputs share one line, counted together', async () => {
  const { stderr } = await run({ args: ['a.ndjson', 'b.ndjson'], files: { 'a.ndjson': records(2), 'b.ndjson': records(2) } });
  expect(stderr).toBe(drawn('3 records, 1.5 MB read (1.0 MB/s)') + drawn('4 records, 2.0 MB read (1.0 MB/s)') + ERASED);
});

test('when stderr is not a terminal (piped, a file), no progress is shown', async () => {
  expect((await run({ isTTY: false })).stderr).toBe('');
});

test('in CI (CI=true, GITHUB_ACTIONS, GITLAB_CI), no progress is shown, on a terminal too; CI=false is not CI', async () => {
  const outcomes = await Promise.all([
    run({ env: { CI: 'true' } }),
    run({ env: { GITHUB_ACTIONS: 'true' } }),
    run({ env: { GITLAB_CI: 'true' } }),
    run({ env: { CI: 'false' } }),
  ]);
  expect(outcomes.map(({ stderr }) => stderr)).toEqual([
    '',
    '',
    '',
    drawn('3 records, 1.5 MB read (1.0 MB/s)') + drawn('4 records, 2.0 MB read (1.0 MB/s)') + ERASED,
  ]);
});

test('asked (QE_PROGRESS=always) in a CI log, plain lines come at most every 5 seconds, with no \\r', async () => {
  // 16 half-mebibyte records, read at 1 MB/s: lines at 1.5 s, then at 7 s (5 s later, the next read past 6.5 s).
  const { stderr } = await run({ files: { 'in.ndjson': records(16) }, env: { CI: 'true', QE_PROGRESS: 'always' }, isTTY: false });
  expect(stderr).toBe('quality-evidence: 3 records, 1.5 MB read (1.0 MB/s)\nquality-evidence: 14 records, 7.0 MB read (1.0 MB/s)\n');
});

test('the progress setting comes from the flag, the variable and the settings file, the flag first', async () => {
  const plain = 'quality-evidence: 3 records, 1.5 MB read (1.0 MB/s)\n';
  const outcomes = await Promise.all([
    run({ args: ['in.ndjson', '--progress', 'always'], isTTY: false }),
    run({ args: ['in.ndjson', '--progress', 'never'], env: { QE_PROGRESS: 'always' } }),
    run({ files: { 'in.ndjson': records(4), 'quality-evidence.config.json': '{ "progress": "always" }' }, isTTY: false }),
    run({ files: { 'in.ndjson': records(4), 'quality-evidence.config.json': '{ "progress": "never" }' } }),
  ]);
  expect(outcomes.map(({ stderr }) => stderr)).toEqual([plain, '', plain, '']);
});

test('a progress value that is not auto, always or never is a configuration error (78) that names them and not the value', async () => {
  for (const given of [{ env: { QE_PROGRESS: 'sometimes-secret' } }, { args: ['in.ndjson', '--progress', 'sometimes-secret'] }]) {
    const error = await run(given).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(exitCodeFor(error)).toBe(78);
    const place = given.env === undefined ? '--progress' : 'QE_PROGRESS';
    expect((error as Error).message).toBe(`invalid configuration:\n  - ${place}: must be one of auto, always, never`);
  }
});

test.describe('merge and dashboard', () => {
  /** Five reports of different runs, made by the command. */
  async function fiveReports(): Promise<Record<string, string>> {
    const reports: Record<string, string> = {};
    for (let count = 1; count <= 5; count++) {
      const calls = Array.from({ length: count }, (_, index) =>
        JSON.stringify({ statusCode: 200, endpoint: `GET /orders/${index}`, responseTimeMs: 5 }),
      );
      const fileSystem = new MemoryFileSystem({ 'in.ndjson': calls.join('\n') });
      await runCommand({
        args: ['in.ndjson', '-o', 'r.json', '--formats', 'json', '--quiet'],
        env: {},
        fileSystem,
        stdin: (async function* () {})(),
        stdout: { write: () => true },
        stderr: { write: () => true },
        programName: 'quality-evidence',
      });
      reports[`r${count}.json`] = fileSystem.files.get('r.json')!;
    }
    return reports;
  }

  test('merge on a terminal, past one second, says the reports read of all, bytes and rate on one line', async () => {
    const reports = await fiveReports();
    const sizes = Object.values(reports).map((text) => Buffer.byteLength(text));
    // One report read each half second: lines at 1.5, 2.0 and 2.5 s.
    const line = (read: number) => {
      const megabytes = sizes.slice(0, read).reduce((sum, size) => sum + size, 0) / MEBIBYTE;
      return drawn(`${read} of 5 reports, ${megabytes.toFixed(1)} MB read (${(megabytes / (read / 2)).toFixed(1)} MB/s)`);
    };
    const { exitCode, stderr } = await run({ args: ['merge', ...Object.keys(reports)], files: reports, byFile: true });
    expect(exitCode).toBe(0);
    expect(stderr).toBe(line(3) + line(4) + line(5) + ERASED);
    expect((await run({ args: ['merge', ...Object.keys(reports)], files: reports, byFile: true, env: { CI: 'true' } })).stderr).toBe('');
  });

  async function dashboard(env: Readonly<Record<string, string>>, isTTY: boolean, flags: readonly string[] = []): Promise<string> {
    let stderr = '';
    let time = 0;
    const history = seededHistory(40, 8).text;
    await runCommand({
      args: ['dashboard', '--history', 'history.jsonl', '--output', 'page.html', ...flags],
      env,
      fileSystem: new MemoryFileSystem({ 'history.jsonl': history }),
      stdin: (async function* () {})(),
      stdout: { write: () => true },
      stderr: { write: (text: string) => (stderr += text), isTTY },
      programName: 'quality-evidence',
      // Each line read moves the clock on 100 ms; the line is redrawn each second.
      clock: { now: () => (time += 100) - 100 },
      progressIntervalMs: 1000,
    });
    return stderr;
  }

  test('dashboard on a terminal, past one second, says the history lines read, bytes and rate on one line', async () => {
    const lines = seededHistory(40, 8).text.split('\n');
    const line = (read: number) => {
      const megabytes = Buffer.byteLength(lines.slice(0, read).join('\n') + '\n') / MEBIBYTE;
      return drawn(`${read} history lines, ${megabytes.toFixed(1)} MB read (${(megabytes / (read / 10)).toFixed(1)} MB/s)`);
    };
    expect(lines).toHaveLength(42);
    // Lines read at 0.1 s each: drawn at 1.1 s (line 11), then each second: 2.2 s (line 22), 3.3 s (line 33).
    expect(await dashboard({}, true)).toBe(line(11) + line(22) + line(33) + ERASED);
    expect(await dashboard({}, false)).toBe('');
    expect(await dashboard({ GITLAB_CI: 'true' }, true)).toBe('');
  });

  test('dashboard counts the lines of a history file that ends with a newline, as every history file does, not one more', async () => {
    const history = seededHistory(40, 8).text;
    expect(history.endsWith('\n')).toBe(true);
    let stderr = '';
    let time = 0;
    await runCommand({
      args: ['dashboard', '--history', 'history.jsonl', '--output', 'page.html'],
      env: {},
      fileSystem: new MemoryFileSystem({ 'history.jsonl': history }),
      stdin: (async function* () {})(),
      stdout: { write: () => true },
      stderr: { write: (text: string) => (stderr += text), isTTY: true },
      programName: 'quality-evidence',
      // Each line read moves the clock on 100 ms, and the line is redrawn at every line past the first second.
      clock: { now: () => (time += 100) - 100 },
      progressIntervalMs: 0,
    });
    const megabytes = Buffer.byteLength(history) / MEBIBYTE;
    // The header and 40 runs: 41 lines, the last drawn at 4.1 s with all the file's bytes, then erased.
    const last = drawn(`41 history lines, ${megabytes.toFixed(1)} MB read (${(megabytes / 4.1).toFixed(1)} MB/s)`);
    expect(stderr.slice(-(last.length + ERASED.length))).toBe(last + ERASED);
  });

  test('dashboard takes --progress and QE_PROGRESS, and refuses a value that is not auto, always or never (78)', async () => {
    expect(await dashboard({ CI: 'true', QE_PROGRESS: 'always' }, false)).toMatch(/^quality-evidence: 11 history lines, /);
    expect(await dashboard({ CI: 'true' }, false, ['--progress', 'always'])).toMatch(/^quality-evidence: 11 history lines, /);
    expect(await dashboard({ QE_PROGRESS: 'always' }, true, ['--progress', 'never'])).toBe('');
    const error = await dashboard({ QE_PROGRESS: 'loud' }, true).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(exitCodeFor(error)).toBe(78);
    expect((error as Error).message).toBe('invalid configuration:\n  - QE_PROGRESS: must be one of auto, always, never');
  });
});
