import { execFile, spawn } from 'node:child_process';
import { HOLD_WRITE_VARIABLE } from '../../src/cli/holdWritesForTests.js';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const run = promisify(execFile);

/**
 * The repository root: specs run with it as the working directory. Found by
 * walking up to this package's package.json, so the same code works from
 * `tests/support` and compiled under `.build/tests/support` (the benchmarks).
 */
export const repositoryRoot = findRepositoryRoot(import.meta.dirname);

function findRepositoryRoot(start: string): string {
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json')) && existsSync(join(folder, 'tsconfig.json'))) return folder;
    if (dirname(folder) === folder) throw new Error(`no repository root above ${start}`);
  }
}

/**
 * The environment of every child process the specs start: PATH, and TMPDIR,
 * the run's own temporary folder (tests/support/globalSetup.ts), as CI
 * would give them, and where Playwright's transform cache is, plus `env`. With TMPDIR, whatever a program or a nested
 * Playwright run leaves in its temporary folder is counted by this run.
 */
export function childEnvironment(env: Readonly<Record<string, string>> = {}): Record<string, string> {
  // The suite's Playwright transform cache, outside the run's folder (tests/support/globalSetup.ts).
  const cache: Record<string, string> = {};
  for (const name of ['PLAYWRIGHT_TRANSFORM_CACHE_DIR', 'PWTEST_CACHE_DIR']) {
    const value = process.env[name];
    if (value !== undefined) cache[name] = value;
  }
  return { PATH: process.env['PATH'] ?? '', TMPDIR: tmpdir(), ...cache, ...env };
}

/**
 * The programs a user starts are bundles in .build/bin (scripts/build.mjs,
 * PROGRAMS): a spec that names the command or start:environment by its
 * compiled path runs its bundle, what `npx quality-evidence` and `npm run
 * start:environment` run. `bundled: false` runs the ES build's module
 * itself (tests/loadedModules.spec.ts lists the modules a run loads by path).
 */
const BUNDLES: Readonly<Record<string, string>> = {
  'src/cli/main.js': 'bin/quality-evidence.js',
  'scripts/startEnvironment.js': 'bin/startEnvironment.js',
};

/** The file a spec's program runs (see {@link BUNDLES}). */
export function programPath(program: string, { bundled = true }: { bundled?: boolean } = {}): string {
  return join(repositoryRoot, '.build', (bundled && Object.hasOwn(BUNDLES, program) ? BUNDLES[program] : undefined) ?? program);
}

export interface ProgramOutcome {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a compiled program (e.g. `scripts/start.js` under `.build`) in a
 * child process with exactly the given environment plus PATH and TMPDIR
 * ({@link childEnvironment}).
 */
export function runProgram(
  program: string,
  {
    env = {},
    args = [],
    cwd = repositoryRoot,
    timeoutMs = 0,
    bundled = true,
  }: { env?: Record<string, string>; args?: string[]; cwd?: string; timeoutMs?: number; bundled?: boolean } = {},
): Promise<ProgramOutcome> {
  const script = programPath(program, { bundled });
  return new Promise((done) => {
    // A program still running after timeoutMs (0: no limit) is killed and reported with exit code -1.
    execFile(
      process.execPath,
      [script, ...args],
      { cwd, env: childEnvironment(env), timeout: timeoutMs, maxBuffer: 512 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        done({ exitCode, stdout, stderr });
      },
    );
  });
}

/** What every temporary folder of the suite is named by: `quality-evidence-…` in the run's temporary folder (TMPDIR). */
export const TEMPORARY_FOLDER_PREFIX = 'quality-evidence-';

/** The temporary folders this worker made and has not removed yet. */
const temporaryFolders = new Set<string>();

/**
 * A fresh temporary folder holding the given files (path → content), named
 * `quality-evidence-<kind>-…`. The suite's `test` (tests/support/test.ts)
 * removes every such folder when its worker ends, also after a failure.
 */
export async function createTemporaryFolder(files: Readonly<Record<string, string>> = {}, kind = 'test'): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), `${TEMPORARY_FOLDER_PREFIX}${kind}-`));
  temporaryFolders.add(folder);
  for (const [path, content] of Object.entries(files)) await writeFile(join(folder, path), content);
  return folder;
}

/**
 * Removes every temporary folder this worker made, at once. A folder that a
 * spec made read-only cannot be removed by a user who is not root: it is made
 * writable (one `chmod -R`, only then) and removed again. A worker of many
 * Playwright projects used to start a `chmod` per folder and outlast its
 * fixture's teardown on a loaded machine.
 */
export async function removeTemporaryFolders(): Promise<void> {
  await Promise.all(
    [...temporaryFolders].map(async (folder) => {
      await rm(folder, { recursive: true, force: true, maxRetries: 3 }).catch(async () => {
        await run('chmod', ['-R', 'u+rwX', folder]).catch(() => undefined);
        await rm(folder, { recursive: true, force: true, maxRetries: 3 });
      });
      temporaryFolders.delete(folder);
    }),
  );
}

/** Whether anything exists at `path`. */
export function pathExists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** A program's outcome with the most memory it held (resident set, KiB), sampled from /proc every 20 ms. */
export interface WatchedOutcome extends ProgramOutcome {
  readonly peakResidentKib: number;
}

/**
 * Runs a compiled program like {@link runProgram}, watching its memory: the
 * peak resident set size (VmHWM) read from /proc while it runs. Linux only.
 */
export function runWatched(
  program: string,
  { args = [], cwd = repositoryRoot, timeoutMs = 120_000 }: { args?: string[]; cwd?: string; timeoutMs?: number } = {},
): Promise<WatchedOutcome> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [programPath(program), ...args], {
      cwd,
      env: childEnvironment(),
      timeout: timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    let peakResidentKib = 0;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const sample = (): void => {
      try {
        const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (match !== null) peakResidentKib = Math.max(peakResidentKib, Number(match[1]));
      } catch {
        // Gone already.
      }
    };
    const timer = setInterval(sample, 20);
    child.on('exit', sample);
    child.on('close', (code) => {
      clearInterval(timer);
      done({ exitCode: code ?? -1, stdout, stderr, peakResidentKib });
    });
  });
}

/** How a run of the command ended, as {@link runHeldCommand} saw it. */
export interface HeldRun {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly milliseconds: number;
  /** The step the run was held and killed before, as the hook named it; undefined when it was not held. */
  readonly heldBefore?: string;
}

/**
 * Runs the built command (`--quiet`) in `folder`. With `killAfterMs`, kills
 * it with SIGKILL so many ms after it starts; with `holdBeforeStep`, holds it
 * before that step of its file-system changes and kills it there (the
 * test-only hook of src/cli/holdWritesForTests.ts).
 */
export function runHeldCommand(
  folder: string,
  args: readonly string[],
  { killAfterMs, holdBeforeStep }: { killAfterMs?: number; holdBeforeStep?: number } = {},
): Promise<HeldRun> {
  return new Promise((done) => {
    const started = performance.now();
    const env = childEnvironment(holdBeforeStep === undefined ? {} : { [HOLD_WRITE_VARIABLE]: String(holdBeforeStep) });
    const child = spawn(process.execPath, [join(repositoryRoot, '.build/src/cli/main.js'), ...args, '--quiet'], {
      cwd: folder,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    let stderr = '';
    let heldBefore: string | undefined;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const held = /^held before write step \d+: (.*)$/m.exec(stderr);
      if (held !== null && heldBefore === undefined) {
        heldBefore = held[1]!;
        child.kill('SIGKILL');
      }
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      done({ exitCode, signal, milliseconds: performance.now() - started, ...(heldBefore === undefined ? {} : { heldBefore }) });
    });
  });
}
