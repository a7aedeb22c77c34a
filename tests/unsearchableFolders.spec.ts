import { execFile } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  childEnvironment,
  createTemporaryFolder,
  pathExists,
  repositoryRoot,
  runProgram,
  type ProgramOutcome,
} from './support/runProgram.js';
import { expect, test } from './support/test.js';

// A file the run reads that cannot even be looked at is the read's failure,
// named (exit 66), never "cannot write the report" (73): a file under a
// folder the user cannot search, and a path holding a NUL byte (issue 18).
//
// The suite runs as root, who can search any folder, so the folder cases run
// the command as the user nobody (setpriv drops root's privileges), in a
// folder of their own: the locked folder is root's, mode 700.

const input = JSON.stringify({ executions: [{ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 12 }] });
const isRoot = process.getuid?.() === 0;
const NOBODY = '65534';

/** A folder nobody can work in, holding `locked/` (root's, mode 700) with the given files, and `out/` for the report. */
async function folderWithLocked(locked: Readonly<Record<string, string>>): Promise<string> {
  const folder = await createTemporaryFolder({ 'in.json': input, 'budgets.json': '{ "minExecutions": 1 }' }, 'unsearchable');
  await chmod(folder, 0o755);
  await mkdir(join(folder, 'out'), { mode: 0o777 });
  await chmod(join(folder, 'out'), 0o777);
  await mkdir(join(folder, 'locked'));
  for (const [name, content] of Object.entries(locked)) await writeFile(join(folder, 'locked', name), content, { mode: 0o644 });
  await chmod(join(folder, 'locked'), 0o700);
  return folder;
}

/** The compiled command, run as the user nobody. */
function commandAsNobody(folder: string, args: readonly string[]): Promise<ProgramOutcome> {
  const program = join(repositoryRoot, '.build/src/cli/main.js');
  const setpriv = [
    '--reuid',
    NOBODY,
    '--regid',
    NOBODY,
    '--clear-groups',
    process.execPath,
    program,
    ...args,
    '--output',
    'out/q.json',
    '--quiet',
  ];
  return new Promise((done) => {
    execFile('setpriv', setpriv, { cwd: folder, env: childEnvironment(), timeout: 30_000 }, (error, stdout, stderr) => {
      done({ exitCode: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

const unreadable = (what: string, path: string): ProgramOutcome => ({
  exitCode: 66,
  stdout: '',
  stderr: `quality-evidence: cannot read the ${what} "${path}": permission denied (EACCES)\n`,
});

test.describe('a file under a folder the user cannot search is named as unreadable, exit 66', () => {
  test.skip(!isRoot, 'dropping to the user nobody takes root (CI runs as root)');

  test('the check is real: nobody runs the command, and it reads a file it may read', async () => {
    const folder = await folderWithLocked({});
    expect(await commandAsNobody(folder, ['in.json'])).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await pathExists(join(folder, 'out/q.json'))).toBe(true);
  });

  test('an input', async () => {
    const folder = await folderWithLocked({ 'in.json': input });
    expect(await commandAsNobody(folder, ['locked/in.json'])).toEqual(unreadable('input file', 'locked/in.json'));
  });

  test('a budgets file', async () => {
    const folder = await folderWithLocked({ 'budgets.json': '{ "minExecutions": 1 }' });
    expect(await commandAsNobody(folder, ['in.json', '--budgets', 'locked/budgets.json'])).toEqual(
      unreadable('budgets file', 'locked/budgets.json'),
    );
  });

  test('a baseline', async () => {
    const folder = await folderWithLocked({ 'main.json': '{}' });
    expect(await commandAsNobody(folder, ['in.json', '--baseline', 'locked/main.json'])).toEqual(
      unreadable('baseline report', 'locked/main.json'),
    );
    expect(await pathExists(join(folder, 'out/q.json'))).toBe(false);
  });
});

test('a baseline path holding a NUL byte (from a settings file) is named, escaped, as unreadable, exit 66', async () => {
  const folder = await createTemporaryFolder(
    { 'in.json': input, 'settings.json': JSON.stringify({ baselinePath: 'main\u0000.json' }) },
    'unsearchable',
  );

  const outcome = await runProgram('src/cli/main.js', {
    cwd: folder,
    args: ['in.json', '--config', 'settings.json', '--output', 'q.json', '--quiet'],
  });

  expect(outcome).toEqual({
    exitCode: 66,
    stdout: '',
    stderr:
      'quality-evidence: cannot read the baseline report "main\\u0000.json": the path holds a NUL byte, which no file name can hold (ERR_INVALID_ARG_VALUE)\n',
  });
});
