import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { seededHistory } from './support/seededHistory.js';
import { createTemporaryFolder, runProgram } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// `quality-evidence dashboard --history FILE --output FILE.html`, the
// compiled program: the page written, and each way it is misused, with its
// exit code, before anything is written.

const COMMAND = 'src/cli/main.js';
const HISTORY = seededHistory(40, 8).text;

async function run(args: readonly string[], files: Readonly<Record<string, string>> = { 'history.jsonl': HISTORY }) {
  const folder = await createTemporaryFolder(files, 'dashboard');
  const outcome = await runProgram(COMMAND, { cwd: folder, args: ['dashboard', ...args] });
  return { ...outcome, folder, written: (await readdir(folder)).sort() };
}

test('writes the page and says how many runs and endpoints it drew', async () => {
  const { exitCode, stdout, stderr, folder } = await run(['--history', 'history.jsonl', '--output', 'out/dashboard.html']);
  expect({ exitCode, stderr }).toEqual({ exitCode: 0, stderr: '' });
  expect(stdout).toBe('quality-evidence dashboard: 40 runs, 16 endpoints; written to out/dashboard.html\n');
  const page = await readFile(join(folder, 'out/dashboard.html'), 'utf8');
  expect(page.match(/<tr data-run=/g)).toHaveLength(40);
  expect(page.match(/<tr data-endpoint=/g)).toHaveLength(16);
});

test("the page's Content-Security-Policy loads nothing from anywhere and runs only its own inline script, by its hash", async () => {
  const { folder } = await run(['--history', 'history.jsonl', '--output', 'dashboard.html']);
  const page = await readFile(join(folder, 'dashboard.html'), 'utf8');
  const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
  expect(scripts).toHaveLength(1);
  const hash = createHash('sha256').update(scripts[0]!, 'utf8').digest('base64');
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(page)?.[1];
  expect(policy).toBe(
    `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${hash}'; img-src 'none'; base-uri 'none'; form-action 'none'`,
  );
  expect(page).not.toMatch(/\b(?:src|href)="(?!https?:\/\/ci\.example\.com\/)/);
});

test('--help prints the usage and exits 0', async () => {
  const { exitCode, stdout } = await run(['--help']);
  expect(exitCode).toBe(0);
  expect(stdout).toMatch(/^Usage: quality-evidence dashboard --history <file> --output <file\.html> \[--flakiness-runs <n>\]\n/);
});

test('no --history, no --output, a file named without a flag or a --flakiness-runs that is no whole number from 1 is a usage error (64)', async () => {
  const outcomes = await Promise.all([
    run(['--output', 'dashboard.html']),
    run(['--history', 'history.jsonl']),
    run(['history.jsonl', '--output', 'dashboard.html']),
    run(['--history', 'history.jsonl', '--output', 'dashboard.html', '--flakiness-runs', '0']),
    run(['--history', 'history.jsonl', '--output', 'dashboard.html', '--flakiness-runs', '2.5']),
  ]);
  expect(outcomes.map(({ exitCode }) => exitCode)).toEqual([64, 64, 64, 64, 64]);
  expect(outcomes[0].stderr).toBe(
    'quality-evidence: dashboard needs --history <file>, the history file (historyPath) to draw; see quality-evidence dashboard --help\n',
  );
  expect(outcomes[1].stderr).toContain('dashboard needs --output <file>');
  expect(outcomes[3].stderr).toContain('--flakiness-runs must be a whole number from 1 to 100000 (got "0")');
  for (const { written } of outcomes) expect(written).toEqual(['history.jsonl']);
});

test('a missing history file exits 66 naming it, and nothing is written', async () => {
  const { exitCode, stderr, written } = await run(['--history', 'gone.jsonl', '--output', 'dashboard.html']);
  expect(exitCode).toBe(66);
  expect(stderr).toContain('gone.jsonl');
  expect(stderr).not.toContain('    at ');
  expect(written).toEqual(['history.jsonl']);
});

test('a file that is not a history, or a history of a newer version, exits 65 and nothing is written', async () => {
  const notHistory = await run(['--history', 'notes.txt', '--output', 'dashboard.html'], { 'notes.txt': 'remember the milk\n' });
  const newer = await run(['--history', 'h.jsonl', '--output', 'dashboard.html'], {
    'h.jsonl': '{"schemaVersion":2,"kind":"quality-evidence history"}\n',
  });
  expect([notHistory.exitCode, newer.exitCode]).toEqual([65, 65]);
  expect(notHistory.stderr).toContain('is not a history of quality-evidence');
  expect(notHistory.stderr).not.toContain('milk');
  expect(newer.stderr).toContain('is a history of schemaVersion 2');
  expect([notHistory.written, newer.written]).toEqual([['notes.txt'], ['h.jsonl']]);
});

test('damaged lines of the history are left out, each said on stderr and on the page as a run reading its history says them', async () => {
  const lines = HISTORY.split('\n');
  lines.splice(3, 0, '{"not": "a run"}', 'not json at all');
  const { exitCode, stderr, folder } = await run(['--history', 'h.jsonl', '--output', 'dashboard.html'], { 'h.jsonl': lines.join('\n') });
  expect(exitCode).toBe(0);
  expect(stderr).toBe(
    'quality-evidence: warning: line 4 of the history file left out: is not a run of a quality-evidence history ' +
      '(at time: Invalid input: expected string, received undefined)\n' +
      "quality-evidence: warning: line 5 of the history file left out: is not JSON: Unexpected token 'o'\n",
  );
  const page = await readFile(join(folder, 'dashboard.html'), 'utf8');
  expect(page).toContain('2 lines of the history file left out: line 4 is not a run');
  expect(page.match(/<tr data-run=/g)).toHaveLength(40);
});

test('an --output that is a folder, or the history file itself, is refused (73), and the history is left as it was', async () => {
  const folder = await createTemporaryFolder({ 'history.jsonl': HISTORY }, 'dashboard');
  await mkdir(join(folder, 'page.html'));
  const intoFolder = await runProgram(COMMAND, { cwd: folder, args: ['dashboard', '--history', 'history.jsonl', '--output', 'page.html'] });
  const overHistory = await runProgram(COMMAND, {
    cwd: folder,
    args: ['dashboard', '--history', 'history.jsonl', '--output', './history.jsonl'],
  });
  expect([intoFolder.exitCode, overHistory.exitCode]).toEqual([73, 73]);
  expect(intoFolder.stderr).toContain('the dashboard page is a folder, not a regular file');
  expect(overHistory.stderr).toContain('the dashboard page is the history file "history.jsonl", which this run reads');
  expect(await readFile(join(folder, 'history.jsonl'), 'utf8')).toBe(HISTORY);
  expect((await readdir(folder)).sort()).toEqual(['history.jsonl', 'page.html']);
  expect(await readdir(join(folder, 'page.html'))).toEqual([]);
});

test("a run's history line names its report (--report-url, else the CI run's page) and its budgets' verdict, and the page links the run to it", async () => {
  const folder = await createTemporaryFolder(
    { 'calls.ndjson': '{"endpoint":"GET /x","statusCode":200,"responseTimeMs":5}\n', 'budgets.json': '{"maxFailedExecutions":0}\n' },
    'dashboard',
  );
  const summarise = ['calls.ndjson', '--output', 'q.json', '--history', 'history.jsonl', '--quiet'];
  const github = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/shop', GITHUB_RUN_ID: '42', GITHUB_SHA: 'abc1234' };
  const first = await runProgram(COMMAND, { cwd: folder, env: github, args: [...summarise, '--budgets', 'budgets.json'] });
  const second = await runProgram(COMMAND, {
    cwd: folder,
    env: github,
    args: [...summarise, '--report-url', 'https://reports.example/43.html'],
  });
  expect([first.exitCode, second.exitCode]).toEqual([0, 0]);
  const lines = (await readFile(join(folder, 'history.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as { reportUrl?: string; budgetsPassed?: boolean });
  expect(lines.map(({ reportUrl, budgetsPassed }) => ({ reportUrl, budgetsPassed }))).toEqual([
    { reportUrl: 'https://github.com/acme/shop/actions/runs/42', budgetsPassed: true },
    { reportUrl: 'https://reports.example/43.html', budgetsPassed: undefined },
  ]);
  const drawn = await runProgram(COMMAND, { cwd: folder, args: ['dashboard', '--history', 'history.jsonl', '--output', 'd.html'] });
  expect(drawn.exitCode).toBe(0);
  const page = await readFile(join(folder, 'd.html'), 'utf8');
  expect(page.match(/<a href="[^"]*"/g)).toEqual([
    '<a href="https://github.com/acme/shop/actions/runs/42"',
    '<a href="https://reports.example/43.html"',
  ]);
});

test('a --report-url that is no http or https URL is a configuration error (78), and nothing is written', async () => {
  const folder = await createTemporaryFolder(
    { 'calls.ndjson': '{"endpoint":"GET /x","statusCode":200,"responseTimeMs":5}\n' },
    'dashboard',
  );
  const { exitCode, stderr } = await runProgram(COMMAND, {
    cwd: folder,
    args: ['calls.ndjson', '--output', 'q.json', '--history', 'history.jsonl', '--report-url', 'javascript:alert(1)'],
  });
  expect(exitCode).toBe(78);
  expect(stderr).toContain('--report-url: must be an http or https URL');
  expect((await readdir(folder)).sort()).toEqual(['calls.ndjson']);
});
