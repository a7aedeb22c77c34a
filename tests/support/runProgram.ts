import { execFile } from 'node:child_process';
import { access, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

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

export interface ProgramOutcome {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a compiled program (e.g. `scripts/start.js` under `.build`) in a
 * child process with exactly the given environment plus PATH, as CI would.
 */
export function runProgram(
  program: string,
  { env = {}, args = [], cwd = repositoryRoot }: { env?: Record<string, string>; args?: string[]; cwd?: string } = {},
): Promise<ProgramOutcome> {
  const script = join(repositoryRoot, '.build', program);
  return new Promise((done) => {
    execFile(process.execPath, [script, ...args], { cwd, env: { PATH: process.env['PATH'] ?? '', ...env } }, (error, stdout, stderr) => {
      const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      done({ exitCode, stdout, stderr });
    });
  });
}

/** A fresh temporary folder holding the given files (path → content). */
export async function createTemporaryFolder(files: Readonly<Record<string, string>> = {}): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'quality-evidence-'));
  for (const [path, content] of Object.entries(files)) await writeFile(join(folder, path), content);
  return folder;
}

/** Whether anything exists at `path`. */
export function pathExists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
