import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseReport } from '../src/index.js';
import { createTemporaryFolder, repositoryRoot, runProgram } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// A report of schemaVersion 1, as the previous version wrote it (each
// endpoint's sole status repeating the endpoint's histogram), is read
// wherever a report is read, as the same report of schemaVersion 2: a team's
// baseline artifact from main outlives the version that wrote it.
// tests/saved-reports/version-1/quality-summary.json is the report the
// previous version (commit 7bf14ff) wrote of tests/saved-reports/har/session.har
// with --environment browser and --baseline of its own plain report: single
// and several statuses, failed calls, a baseline section.

const COMMAND = 'src/cli/main.js';
const SAVED = join(repositoryRoot, 'tests/saved-reports');

/** Runs the command in `folder`; its exit code and stderr. */
async function command(folder: string, args: readonly string[]): Promise<{ exitCode: number; stderr: string }> {
  const { exitCode, stderr } = await runProgram(COMMAND, { cwd: folder, args: [...args] });
  return { exitCode, stderr };
}

/**
 * A folder with v1.json (the saved report of schemaVersion 1) and v2.json,
 * this version's report of the same records with --baseline v1.json, each
 * also as a copy (a command that takes two reports is given two files).
 */
async function bothVersions(): Promise<string> {
  const folder = await createTemporaryFolder({}, 'versions');
  await copyFile(join(SAVED, 'har/session.har'), join(folder, 'session.har'));
  await copyFile(join(SAVED, 'version-1/quality-summary.json'), join(folder, 'v1.json'));
  const written = await command(folder, [
    'session.har',
    '--environment',
    'browser',
    '--baseline',
    'v1.json',
    '--output',
    'v2.json',
    '--formats',
    'json',
    '--quiet',
  ]);
  expect(written).toStrictEqual({ exitCode: 0, stderr: '' });
  for (const version of ['v1', 'v2']) await copyFile(join(folder, `${version}.json`), join(folder, `${version}-copy.json`));
  return folder;
}

const read = async (folder: string, name: string) => readFile(join(folder, name), 'utf8');

test(`the saved report is of schemaVersion 1, its sole statuses with their histograms, and reads as the report this version \
writes of the same run with it as the baseline`, async () => {
  const folder = await bothVersions();
  const [v1, v2] = [await read(folder, 'v1.json'), await read(folder, 'v2.json')];
  const written = JSON.parse(v1) as { schemaVersion: number; endpoints: { latencyByStatus: object[] }[] };
  expect([
    written.schemaVersion,
    written.endpoints.map(({ latencyByStatus }) => latencyByStatus.map((status) => 'latencyHistogram' in status)),
  ]).toStrictEqual([1, [[true], [true], [true], [true, true], [true]]]);
  expect(v2).toContain('"schemaVersion": 2');
  expect(parseReport(v1, 'v1.json')).toStrictEqual(parseReport(v2, 'v2.json'));
});

test('merge of a report of schemaVersion 1 and one of 2 writes a report of 2: what the merge of two reports of 2 writes', async () => {
  const folder = await bothVersions();
  const mixed = await command(folder, ['merge', 'v1.json', 'v2.json', '--output', 'mixed.json', '--formats', 'json', '--quiet']);
  const same = await command(folder, ['merge', 'v2.json', 'v2-copy.json', '--output', 'same.json', '--formats', 'json', '--quiet']);
  expect([mixed.exitCode, same.exitCode]).toStrictEqual([0, 0]);
  const merged = await read(folder, 'mixed.json');
  expect(merged).toContain('"schemaVersion": 2');
  expect(merged).toBe(await read(folder, 'same.json'));
});

test('compare of reports of schemaVersion 1 writes what compare of the same reports of 2 writes, of schemaVersion 2', async () => {
  const folder = await bothVersions();
  await command(folder, ['compare', 'v1.json', 'v1-copy.json', '--output', 'one/quality-summary.json', '--quiet']);
  await command(folder, ['compare', 'v2.json', 'v2-copy.json', '--output', 'two/quality-summary.json', '--quiet']);
  for (const file of ['quality-summary.json', 'quality-summary.md', 'quality-summary.html'])
    expect(await read(folder, `one/${file}`), file).toBe(await read(folder, `two/${file}`));
  expect(await read(folder, 'one/quality-summary.json')).toContain('"schemaVersion": 2');
});

test("check of a report of schemaVersion 1 judges it and exports its times by status as from the report of 2 (the run's time aside)", async () => {
  const folder = await createTemporaryFolder({ 'budgets.json': '{ "maxFailedExecutions": 10 }' }, 'versions-budgets');
  const versions = await bothVersions();
  for (const version of ['v1', 'v2']) await copyFile(join(versions, `${version}.json`), join(folder, `${version}.json`));
  const runs = [];
  for (const version of ['v1', 'v2']) {
    const { exitCode } = await command(folder, [
      'check',
      `${version}.json`,
      '--budgets',
      'budgets.json',
      '--export',
      `prometheus=${version}.prom`,
      '--export',
      `otlp=${version}.otlp.json`,
      '--quiet',
    ]);
    const withoutTime = (text: string) => text.replaceAll(/"(?:start)?[tT]imeUnixNano":"\d+"|_timestamp_seconds\{[^}]*\} [\d.]+/g, '');
    runs.push([exitCode, withoutTime(await read(folder, `${version}.prom`)), withoutTime(await read(folder, `${version}.otlp.json`))]);
  }
  expect(runs[0]![0]).toBe(0);
  expect(runs[0]).toStrictEqual(runs[1]);
});

test('comment of a report of schemaVersion 1 writes the comment of the report of 2', async () => {
  const folder = await bothVersions();
  for (const version of ['v1', 'v2']) {
    expect(await command(folder, ['comment', `${version}.json`, '--output', `${version}.md`])).toStrictEqual({ exitCode: 0, stderr: '' });
  }
  expect(await read(folder, 'v1.md')).toBe(await read(folder, 'v2.md'));
});
