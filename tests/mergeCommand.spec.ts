import { copyFile, link, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTemporaryFolder, runProgram } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// `quality-evidence merge` given what it must not merge: one report twice,
// a report whose parts disagree, histograms out of order. Each is refused
// with the documented exit code and one line naming the file and the place,
// before anything is written; never a stack trace, never 70.

const COMMAND = 'src/cli/main.js';

/** An NDJSON input: `count` calls of two endpoints, and one call of `GET /one`. */
function records(count: number): string {
  const lines = [JSON.stringify({ endpoint: 'GET /one', statusCode: 200, responseTimeMs: 12.5 })];
  for (let index = 0; index < count; index++) {
    lines.push(JSON.stringify({ endpoint: 'GET /orders', statusCode: index % 7 === 0 ? 503 : 200, responseTimeMs: 40 + (index % 10) }));
    lines.push(JSON.stringify({ endpoint: 'POST /orders', statusCode: 201, responseTimeMs: 120 + index }));
  }
  return `${lines.join('\n')}\n`;
}

/** A folder with `a.json` and `b.json`, reports of two inputs. */
async function twoReports(): Promise<string> {
  const folder = await createTemporaryFolder({ 'a.ndjson': records(20), 'b.ndjson': records(30) }, 'merge');
  for (const name of ['a', 'b']) {
    const outcome = await runProgram(COMMAND, {
      cwd: folder,
      args: [`${name}.ndjson`, '--output', `${name}.json`, '--formats', 'json', '--quiet'],
    });
    expect(outcome.exitCode).toBe(0);
  }
  return folder;
}

/** Writes `b.json` changed by `edit` as `bad.json`. */
async function edited(
  folder: string,
  edit: (report: Record<string, unknown> & { endpoints: Record<string, unknown>[] }) => void,
): Promise<void> {
  const report = JSON.parse(await readFile(join(folder, 'b.json'), 'utf8')) as Record<string, unknown> & {
    endpoints: Record<string, unknown>[];
  };
  edit(report);
  await writeFile(join(folder, 'bad.json'), JSON.stringify(report));
}

function merge(folder: string, ...reports: string[]) {
  return runProgram(COMMAND, { cwd: folder, args: ['merge', ...reports, '--output', 'all.json', '--quiet'] });
}

test.describe('a report named twice is refused (64), however its path is spelled, and nothing is written', () => {
  const spellings = [
    { name: 'the same path', second: 'a.json', message: 'the report "a.json" is named twice' },
    { name: 'another spelling', second: './a.json', message: 'the report "a.json" is named again, as "./a.json"' },
    { name: 'a symbolic link to it', second: 'link.json', message: 'the report "a.json" is named again, as "link.json"' },
    { name: 'a hard link to it', second: 'hard.json', message: 'the report "a.json" is named again, as "hard.json"' },
  ];
  for (const { name, second, message } of spellings) {
    test(name, async () => {
      const folder = await twoReports();
      await symlink('a.json', join(folder, 'link.json'));
      await link(join(folder, 'a.json'), join(folder, 'hard.json'));

      const outcome = await merge(folder, 'a.json', 'b.json', second);

      const stderr = `quality-evidence: ${message}: merged with itself, every count would double; name each report once\n`;
      expect(outcome).toEqual({ exitCode: 64, stdout: '', stderr });
      expect(await readdir(folder)).not.toContain('all.json');
    });
  }
});

test('two files alike byte for byte are merged with a warning that they may be one run copied', async () => {
  const folder = await twoReports();
  await copyFile(join(folder, 'a.json'), join(folder, 'copy.json'));

  const outcome = await merge(folder, 'a.json', 'copy.json');

  expect(outcome).toEqual({
    exitCode: 0,
    stdout: '',
    stderr:
      'quality-evidence: warning: the report "copy.json" is "a.json" byte for byte: if it is a copy of the same run, the merged counts are doubled\n',
  });
});

test('a histogram of a million times against an executionCount of 1 is refused (65), naming the file, the endpoint and the place', async () => {
  const folder = await twoReports();
  await edited(folder, (report) => {
    const histogram = report.endpoints[0]!['latencyHistogram'] as { bins: [number, number][] };
    histogram.bins[0]![1] = 1_000_000;
  });

  const outcome = await merge(folder, 'a.json', 'bad.json');

  expect(outcome).toEqual({
    exitCode: 65,
    stdout: '',
    stderr:
      'quality-evidence: the report "bad.json" does not add up (at endpoints[0].latencyHistogram, endpoint "GET /one": ' +
      'holds 1000000 times, where executionCount is 1): ' +
      'a report quality-evidence writes always does; it cannot be merged\n',
  });
  expect(await readdir(folder)).not.toContain('all.json');
});

test('an executionCount of 10^15 is refused (65): past the most a report may count', async () => {
  const folder = await twoReports();
  await edited(folder, (report) => {
    report['executionCount'] = 1e15;
  });

  const outcome = await merge(folder, 'a.json', 'bad.json');

  expect(outcome).toEqual({
    exitCode: 65,
    stdout: '',
    stderr:
      'quality-evidence: the report "bad.json" does not add up (at executionCount: is 1000000000000000, past 10^12, the most a report may count): ' +
      'a report quality-evidence writes always does; it cannot be merged\n',
  });
});

test.describe('latency histograms whose buckets are out of order are refused (65), named, where a report is merged or read as a baseline', () => {
  const descending = (report: { endpoints: Record<string, unknown>[] }): void => {
    const histogram = report.endpoints[2]!['latencyHistogram'] as { bins: [number, number][] };
    histogram.bins.reverse();
  };
  const where = 'is not a quality-summary.json written by quality-evidence (at endpoints[2].latencyHistogram.bins[1][0]: bucket';
  const ASCENDING = String.raw`\d+ follows bucket \d+: buckets must be strictly ascending\)\n$`;

  test('merged', async () => {
    const folder = await twoReports();
    await edited(folder, descending);

    const outcome = await merge(folder, 'a.json', 'bad.json');

    expect(outcome.exitCode).toBe(65);
    expect(outcome.stderr).toMatch(new RegExp(`^quality-evidence: the report "bad.json" ${escaped(where)} ${ASCENDING}`));
  });

  test('a baseline', async () => {
    const folder = await twoReports();
    await edited(folder, descending);

    const outcome = await runProgram(COMMAND, {
      cwd: folder,
      args: ['a.ndjson', '--baseline', 'bad.json', '--output', 'all.json', '--quiet'],
    });

    expect(outcome.exitCode).toBe(65);
    expect(outcome.stderr).toMatch(new RegExp(`^quality-evidence: the baseline report "bad.json" ${escaped(where)} ${ASCENDING}`));
    expect(await readdir(folder)).not.toContain('all.json');
  });
});

test('a baseline whose histograms are of another relative accuracy is refused (65), named, not compared as if of 1%', async () => {
  const folder = await twoReports();
  await edited(folder, (report) => {
    (report.endpoints[1]!['latencyHistogram'] as { relativeAccuracy: number }).relativeAccuracy = 0.05;
  });

  const outcome = await runProgram(COMMAND, {
    cwd: folder,
    args: ['a.ndjson', '--baseline', 'bad.json', '--output', 'all.json', '--quiet'],
  });

  expect(outcome).toEqual({
    exitCode: 65,
    stdout: '',
    stderr:
      'quality-evidence: the baseline report "bad.json" has latency histograms of relative accuracy 0.05 ' +
      '(at endpoints[1].latencyHistogram.relativeAccuracy), ' +
      'where this version reads 0.01: its times cannot be compared, merged or exported as if they were of 0.01; ' +
      'summarise its records again with this version\n',
  });
});

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
