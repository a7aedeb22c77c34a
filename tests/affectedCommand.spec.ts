import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { affectedCommand, type FindChanges } from '../src/cli/affectedCommand.js';
import { exitCodeFor } from '../src/cli/exitCodes.js';
import { grepPatternOf } from '../src/contract/diff/affectedTests.js';
import { runCommand } from '../src/cli/runCommand.js';
import type { CommandContext } from '../src/cli/summariseCommand.js';
import type { ContractChange } from '../src/contract/diff/contractChange.js';
import { historyText } from '../src/history/historyFile.js';
import { historyRunOf, runIdentityOf } from '../src/history/historyLine.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';
import { reportFrom } from './support/reports.js';
import { childEnvironment, createTemporaryFolder, repositoryRoot, runProgram } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// `quality-evidence affected BASE HEAD --report|--history` (issue 38): the
// command reads the evidence and both documents, and prints the tests whose
// calls reach a changed operation. Until the real diff is merged the changes
// come from a stand-in (affectedCommand's second parameter); the compiled
// program runs end to end on two identical documents, which change nothing.

const API = `openapi: 3.1.0
info: { title: orders, version: '1' }
paths:
  /orders:
    get: { responses: { '200': { description: the orders } } }
    post: { responses: { '201': { description: made } } }
  /users/{id}:
    delete: { responses: { '204': { description: gone } } }
`;

/** The saved report of a real reporter's run: orders.spec.ts, its tests per endpoint (GET /orders by 'lists orders' at line 4). */
const REPORT = readFileSync(join(repositoryRoot, 'tests/saved-reports/reporter/quality-summary.json'), 'utf8');

function changeOf(label: string): ContractChange {
  const [method, path] = label.split(' ') as [string, string];
  return {
    rule: 'response-status-removed',
    level: 'breaking',
    operation: { method, path, label },
    subject: { kind: 'response', status: '200' },
    message: 'response 200 removed',
  };
}

const CHANGES: FindChanges = () => [changeOf('GET /orders'), changeOf('POST /orders'), changeOf('DELETE /users/{id}')];

interface Outcome {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs affected in this process on files in memory, with the changes `findChanges` gives. */
async function affected(args: readonly string[], findChanges: FindChanges = CHANGES, files: Record<string, string> = {}): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const context: CommandContext = {
    args,
    env: {},
    fileSystem: new MemoryFileSystem({ 'base.yaml': API, 'head.yaml': API, 'out/quality-summary.json': REPORT, ...files }),
    stdin: Readable.from([]),
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    programName: 'quality-evidence',
  };
  try {
    return { exitCode: await affectedCommand(context, findChanges), stdout, stderr };
  } catch (error) {
    return { exitCode: exitCodeFor(error), stdout, stderr: `${(error as Error).message}\n` };
  }
}

const WITH_REPORT = ['base.yaml', 'head.yaml', '--report', 'out/quality-summary.json'];
const UNTESTED = 'quality-evidence: untested: DELETE /users/{id} (1 change): no test in the report calls it\n';

test('files (the default): the spec files of the tests whose calls reach a changed operation; the untested one on stderr', async () => {
  expect(await affected(WITH_REPORT)).toEqual({ exitCode: 0, stdout: 'orders.spec.ts\n', stderr: UNTESTED });
});

test('grep: one pattern of exactly those tests’ titles', async () => {
  expect(await affected([...WITH_REPORT, '--format', 'grep'])).toEqual({
    exitCode: 0,
    stdout:
      '/(?:^| )(?:orders\\.spec\\.ts(?:(?: @\\S+)* | › )always fails|orders\\.spec\\.ts(?:(?: @\\S+)* | › )lists orders)(?: @\\S+)*$/\n',
    stderr: UNTESTED,
  });
});

test('json: the changes with their evidence, the tests with the changes behind them, the untested operations; nothing on stderr', async () => {
  const outcome = await affected([...WITH_REPORT, '--format', 'json']);
  expect([outcome.exitCode, outcome.stderr]).toEqual([0, '']);
  const json = JSON.parse(outcome.stdout) as {
    tests: { file: string; line: number; changes: { operation: string }[] }[];
    untested: { label: string }[];
  };
  expect(json.tests.map(({ file, line, changes }) => [file, line, changes.map((change) => change.operation)])).toEqual([
    ['orders.spec.ts', 4, ['GET /orders']],
    ['orders.spec.ts', 18, ['POST /orders']],
  ]);
  expect(json.untested.map((operation) => operation.label)).toEqual(['DELETE /users/{id}']);
});

test('--history: the calls of its runs added up, the tests said unknown (history lines name none)', async () => {
  const run = historyRunOf(reportFrom(REPORT), runIdentityOf(Date.UTC(2026, 0, 1), {}));
  const outcome = await affected(['base.yaml', 'head.yaml', '--history', 'history.jsonl'], CHANGES, {
    'history.jsonl': historyText([run, run, run]),
  });
  expect(outcome).toEqual({
    exitCode: 0,
    stdout: '',
    stderr:
      "quality-evidence: untested: DELETE /users/{id} (1 change): no test in the history's 3 runs calls it\n" +
      "quality-evidence: tests unknown: GET /orders (1 change): 6 calls in the history's 3 runs, " +
      'some history lines name no tests (docs/contract-diff.md#the-tests-to-run-affected)\n' +
      "quality-evidence: tests unknown: POST /orders (1 change): 6 calls in the history's 3 runs, " +
      'some history lines name no tests (docs/contract-diff.md#the-tests-to-run-affected)\n',
  });
});

test('no change prints nothing and exits 0', async () => {
  expect(await affected(WITH_REPORT, () => [])).toEqual({ exitCode: 0, stdout: '', stderr: '' });
});

test('a wrong command line is a usage error (64), saying what is wrong', async () => {
  const usage = async (args: string[]) => {
    const outcome = await affected(args);
    return [outcome.exitCode, outcome.stderr.split(';')[0]];
  };
  expect(await usage(['base.yaml', '--report', 'out/quality-summary.json'])).toEqual([
    64,
    'affected takes two OpenAPI documents, BASE and HEAD (got 1)',
  ]);
  expect(await usage(['base.yaml', 'head.yaml'])).toEqual([64, 'affected needs the evidence: one of --report <file> or --history <file>']);
  expect(await usage([...WITH_REPORT, '--history', 'h.jsonl'])).toEqual([
    64,
    'affected needs the evidence: one of --report <file> or --history <file>',
  ]);
  expect(await usage([...WITH_REPORT, '--format', 'lines'])).toEqual([64, '--format must be one of files, grep, json (got "lines")']);
});

test('a missing report or history is 66, a file that is no report 65, a document that is not OpenAPI 78', async () => {
  expect((await affected(['base.yaml', 'head.yaml', '--report', 'missing.json'])).exitCode).toBe(66);
  expect((await affected(['base.yaml', 'head.yaml', '--history', 'missing.jsonl'])).exitCode).toBe(66);
  expect((await affected(['base.yaml', 'head.yaml', '--report', 'base.yaml'])).exitCode).toBe(65);
  expect((await affected(['base.yaml', 'out/quality-summary.json', '--report', 'out/quality-summary.json'])).exitCode).toBe(78);
  expect((await affected(['missing.yaml', 'head.yaml', '--report', 'out/quality-summary.json'])).exitCode).toBe(66);
});

test('affected is a subcommand of the command: its help says the formats and exit codes', async () => {
  let stdout = '';
  const exitCode = await runCommand({
    args: ['affected', '--help'],
    env: {},
    fileSystem: new MemoryFileSystem(),
    stdin: Readable.from([]),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: () => true },
    programName: 'quality-evidence',
  });
  expect(exitCode).toBe(0);
  expect(stdout).toContain('[--format files|grep|json]');
  expect(stdout).toContain('Exit codes: 0 printed (or nothing affected), 64 usage');
});

test('the compiled program on two identical documents prints nothing and exits 0', async () => {
  const folder = await createTemporaryFolder({ 'api.yaml': API, 'quality-summary.json': REPORT }, 'affected');
  expect(
    await runProgram('src/cli/main.js', {
      args: ['affected', 'api.yaml', 'api.yaml', '--report', 'quality-summary.json', '--format', 'files'],
      cwd: folder,
    }),
  ).toEqual({ exitCode: 0, stdout: '', stderr: '' });
});

/** Lists what real Playwright selects in a small project (no browser: the tests only list): `file:line › titles`, sorted. */
async function listedTests(folder: string, args: readonly string[]): Promise<string[]> {
  const listed = await new Promise<string>((done, fail) => {
    execFile(
      process.execPath,
      [join(repositoryRoot, 'node_modules/@playwright/test/cli.js'), 'test', '--list', '--reporter', 'list', ...args],
      { cwd: folder, env: childEnvironment() },
      (error, stdout, stderr) => {
        if (error === null) done(stdout);
        else fail(new Error(`${stdout}${stderr}`));
      },
    );
  });
  return listed
    .split('\n')
    .filter((line) => line.includes('.spec.ts:'))
    .map((line) => line.trim().replace(/^\[\w+\] › /, ''))
    .sort();
}

const SPECS = {
  'playwright.config.mjs': "export default { projects: [{ name: 'api', testMatch: /.*\\.spec\\.ts/ }] };\n",
  'users.spec.ts':
    "import { test } from '@playwright/test';\n" +
    "test.describe('users', { tag: '@api' }, () => {\n" +
    "  test('reads (one) user?', async () => {});\n" +
    "  test('reads (one) user? twice', async () => {});\n" +
    "  test('Reads (one) user?', { tag: '@slow' }, async () => {});\n" +
    '});\n',
  'orders.spec.ts':
    "import { test } from '@playwright/test';\ntest('lists orders', async () => {});\ntest('lists orders.', async () => {});\n",
  'xorders.spec.ts': "import { test } from '@playwright/test';\ntest('lists orders', async () => {});\n",
};

test('real Playwright: the grep pattern selects exactly the affected tests, titles as the reporter names them, tags and case included', async () => {
  const folder = await createTemporaryFolder(SPECS, 'affected-grep');
  await symlink(join(repositoryRoot, 'node_modules'), join(folder, 'node_modules'));
  // As the reporter names them (titlePath without the root, by ` › `): the project is named, so it leads.
  const pattern = grepPatternOf(['api › users.spec.ts › users › reads (one) user?', 'api › orders.spec.ts › lists orders']);
  const selected = ['orders.spec.ts:2:1 › lists orders', 'users.spec.ts:3:3 › users › reads (one) user?'];
  expect(await listedTests(folder, ['--grep', pattern])).toEqual(selected);
  // Titles without the project (an unnamed project's) select the same.
  expect(
    await listedTests(folder, ['--grep', grepPatternOf(['users.spec.ts › users › reads (one) user?', 'orders.spec.ts › lists orders'])]),
  ).toEqual(selected);
  expect(await listedTests(folder, ['--grep', grepPatternOf(['api › users.spec.ts › users › Reads (one) user?'])])).toEqual([
    'users.spec.ts:5:3 › users › Reads (one) user?',
  ]);
});
