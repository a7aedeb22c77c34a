import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PACKAGE_VERSION } from '../src/packageVersion.js';
import { createTemporaryFolder, runProgram } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// The history page a run writes with its report (dashboardPath): drawn from
// the history as the run leaves it, and linked from the report's headline.

const COMMAND = 'src/cli/main.js';

const RECORDS = `${[
  { endpoint: 'GET /orders', statusCode: 200, responseTimeMs: 40 },
  { endpoint: 'GET /orders', statusCode: 503, responseTimeMs: 90 },
  { endpoint: 'POST /orders', statusCode: 201, responseTimeMs: 120 },
]
  .map((record) => JSON.stringify(record))
  .join('\n')}\n`;

const runIn = (folder: string, args: string[], env: Record<string, string> = {}) =>
  runProgram(COMMAND, { cwd: folder, args: ['in.ndjson', ...args, '--quiet'], env });

const runRows = (page: string) => page.match(/<tr [^>]*data-run="\d+"/g)?.length ?? 0;

test('a run with --dashboard writes the history page of the history with itself, and its Markdown and page link to it', async () => {
  const folder = await createTemporaryFolder({ 'in.ndjson': RECORDS }, 'history-page');
  const args = ['--history', 'h.jsonl', '--output', 'out/quality-summary.json', '--dashboard', 'out/history.html'];
  expect((await runIn(folder, args)).exitCode).toBe(0);
  expect(runRows(await readFile(join(folder, 'out/history.html'), 'utf8'))).toBe(1);
  expect((await runIn(folder, args)).exitCode).toBe(0);
  const page = await readFile(join(folder, 'out/history.html'), 'utf8');
  expect(runRows(page)).toBe(2);
  expect(page).toContain('Content-Security-Policy');
  expect(await readFile(join(folder, 'out/quality-summary.md'), 'utf8')).toMatch(/^\*\*.*\*\* · \[the history page\]\(history\.html\)$/m);
  expect(await readFile(join(folder, 'out/quality-summary.html'), 'utf8')).toContain(
    ' · <a href="history.html" data-field="dashboard">the history page</a>',
  );
});

test('the history page a run writes names its history file as the dashboard command does: relative to the working folder', async () => {
  const folder = await createTemporaryFolder({ 'in.ndjson': RECORDS }, 'history-page');
  // As the reporter names it: its historyPath option resolved against the config's folder, an absolute path.
  const args = ['--history', join(folder, 'out/h.jsonl'), '--output', 'out/quality-summary.json', '--dashboard', 'out/history.html'];
  expect((await runIn(folder, args)).exitCode).toBe(0);
  const page = await readFile(join(folder, 'out/history.html'), 'utf8');
  expect(page).toContain(`<footer>Drawn by quality-evidence ${PACKAGE_VERSION} from ${join('out', 'h.jsonl')}: `);
  expect(page).not.toContain(folder);
});

test('the history page of one run of one endpoint counts them in the singular in its footer', async () => {
  const folder = await createTemporaryFolder(
    { 'in.ndjson': `${JSON.stringify({ endpoint: 'GET /orders', statusCode: 200, responseTimeMs: 40 })}\n` },
    'history-page',
  );
  expect((await runIn(folder, ['--history', 'h.jsonl', '--output', 'q.json', '--dashboard', 'history.html'])).exitCode).toBe(0);
  expect(await readFile(join(folder, 'history.html'), 'utf8')).toContain(
    ' from h.jsonl: 1 run, 1 endpoint. No request leaves this page.</footer>',
  );
});

test('the link is relative to the report’s folder, each segment percent-encoded', async () => {
  const folder = await createTemporaryFolder({ 'in.ndjson': RECORDS }, 'history-page');
  const args = ['--history', 'h.jsonl', '--output', 'out/quality-summary.json', '--dashboard', 'pages/history (main).html'];
  expect((await runIn(folder, args)).exitCode).toBe(0);
  expect(await readFile(join(folder, 'out/quality-summary.md'), 'utf8')).toContain('[the history page](../pages/history%20(main).html)');
  await stat(join(folder, 'pages/history (main).html'));
});

test('a run that only reads the history draws the page of the runs it read, without itself', async () => {
  const folder = await createTemporaryFolder({ 'in.ndjson': RECORDS }, 'history-page');
  for (let run = 0; run < 3; run++) expect((await runIn(folder, ['--history', 'h.jsonl', '--output', 'main.json'])).exitCode).toBe(0);
  const args = ['--history', 'h.jsonl', '--history-read-only', '--output', 'pr.json', '--dashboard', 'history.html'];
  expect((await runIn(folder, args)).exitCode).toBe(0);
  expect(runRows(await readFile(join(folder, 'history.html'), 'utf8'))).toBe(3);
});

test('QE_DASHBOARD_PATH without a history file is a configuration error (78) naming both settings, and nothing is written', async () => {
  const folder = await createTemporaryFolder({ 'in.ndjson': RECORDS }, 'history-page');
  const result = await runIn(folder, ['--output', 'q.json'], { QE_DASHBOARD_PATH: 'history.html' });
  expect(result.exitCode).toBe(78);
  expect(result.stderr).toContain(
    'dashboardPath: draws the history page from a history file: name one with --history, QE_HISTORY_PATH or the historyPath option',
  );
  await expect(stat(join(folder, 'q.json'))).rejects.toThrow();
  await expect(stat(join(folder, 'history.html'))).rejects.toThrow();
});

test('a history page that would be the report, the history or an input is refused (73) before anything is written', async () => {
  const folder = await createTemporaryFolder({ 'in.ndjson': RECORDS }, 'history-page');
  for (const page of ['q.json', 'h.jsonl', 'in.ndjson', 'q.html']) {
    const result = await runIn(folder, ['--history', 'h.jsonl', '--output', 'q.json', '--dashboard', page]);
    expect(result.exitCode, page).toBe(73);
    expect(result.stderr, page).toContain('history page');
  }
  await expect(stat(join(folder, 'q.json'))).rejects.toThrow();
  await expect(stat(join(folder, 'h.jsonl'))).rejects.toThrow();
  expect(await readFile(join(folder, 'in.ndjson'), 'utf8')).toBe(RECORDS);
});
