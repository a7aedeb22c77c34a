import { mkdir, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { runCommand } from '../src/cli/runCommand.js';
import { createDeterministicClock } from '../src/helpers/clock.js';
import { nodeFileSystem } from '../src/io/fileSystem.js';
import { withHistoryLock } from '../src/history/historyFile.js';
import { parseHistory } from '../src/history/historyParse.js';
import { reportFrom } from './support/reports.js';
import { mulberry32, normal } from './support/latencyTrials.js';
import { createTemporaryFolder, runHeldCommand, runProgram } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// The history file as the command writes it: one line per run after a header,
// capped, whole after a kill, every run kept when runs append at once, and a
// damaged line left out with its number, not fatal.

const COMMAND = 'src/cli/main.js';

/** An NDJSON input: `count` calls of each of three endpoints, their times scaled by `factor`. */
function records(count: number, factor = 1): string {
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    for (const [endpoint, base] of [
      ['GET /orders', 40],
      ['GET /users/:id', 80],
      ['POST /orders', 120],
    ] as const) {
      lines.push(JSON.stringify({ endpoint, statusCode: index % 17 === 0 ? 503 : 200, responseTimeMs: base * factor + (index % 10) }));
    }
  }
  return `${lines.join('\n')}\n`;
}

function historyLines(text: string): unknown[] {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);
}

async function runIn(folder: string, args: string[], env: Record<string, string> = {}) {
  return runProgram(COMMAND, { cwd: folder, args: [...args, '--quiet'], env });
}

test(`a run appends one line after the header: its time, the commit, branch and run id CI gives, and each endpoint's counts, \
percentiles and histogram`, async () => {
  const folder = await createTemporaryFolder({ 'in.ndjson': records(20) }, 'history');
  const stdout = {
    text: '',
    write(text: string) {
      this.text += text;
    },
  };
  const stderr = {
    text: '',
    write(text: string) {
      this.text += text;
    },
  };
  const exitCode = await runCommand({
    args: ['in.ndjson', '--history', join(folder, 'history.jsonl'), '--output', join(folder, 'q.json'), '--quiet'].map((arg) =>
      arg === 'in.ndjson' ? join(folder, arg) : arg,
    ),
    env: { GITHUB_SHA: '4f2a9c1e0b7d', GITHUB_REF_NAME: 'main', GITHUB_RUN_ID: '9981', QE_ENVIRONMENT: 'ci' },
    fileSystem: nodeFileSystem,
    stdin: (async function* () {})(),
    stdout,
    stderr,
    programName: 'quality-evidence',
    clock: createDeterministicClock(Date.UTC(2026, 10, 25, 12, 0, 0)),
  });
  expect(stderr.text).toBe('');
  expect(exitCode).toBe(0);
  const [header, run] = historyLines(await readFile(join(folder, 'history.jsonl'), 'utf8'));
  expect(header).toEqual({ schemaVersion: 1, kind: 'quality-evidence history' });
  const report = reportFrom(await readFile(join(folder, 'q.json'), 'utf8'));
  expect(run).toEqual({
    time: '2026-11-25T12:00:00.000Z',
    commit: '4f2a9c1e0b7d',
    branch: 'main',
    runId: '9981',
    environment: 'ci',
    slowResponseThresholdMs: 750,
    executionCount: 60,
    failedExecutionCount: 6,
    slowExecutionCount: 0,
    noResponseCount: 0,
    serverErrorCount: 6,
    endpoints: report.endpoints.map((entry) => ({
      endpoint: entry.endpoint,
      executionCount: 20,
      failedExecutionCount: 2,
      slowExecutionCount: 0,
      noResponseCount: 0,
      p50: entry.responseTimeMs.p50,
      p95: entry.responseTimeMs.p95,
      p99: entry.responseTimeMs.p99,
      latencyHistogram: entry.latencyHistogram,
    })),
  });
});

test('GitLab CI names the run by CI_COMMIT_SHA, CI_COMMIT_REF_NAME and CI_PIPELINE_ID', async () => {
  const folder = await createTemporaryFolder({ 'in.ndjson': records(5) }, 'history');
  expect(
    (
      await runIn(folder, ['in.ndjson', '--history', 'h.jsonl'], {
        CI_COMMIT_SHA: 'abc1234def',
        CI_COMMIT_REF_NAME: 'develop',
        CI_PIPELINE_ID: '77',
      })
    ).exitCode,
  ).toBe(0);
  expect(historyLines(await readFile(join(folder, 'h.jsonl'), 'utf8'))[1]).toMatchObject({
    commit: 'abc1234def',
    branch: 'develop',
    runId: '77',
  });
});

test('the file keeps the last historyLimit runs: the oldest go', async () => {
  const folder = await createTemporaryFolder({ 'in.ndjson': records(5) }, 'history');
  for (let run = 1; run <= 5; run++)
    expect(
      (await runIn(folder, ['in.ndjson', '--history', 'h.jsonl', '--history-limit', '3'], { GITHUB_RUN_ID: String(run) })).exitCode,
    ).toBe(0);
  const lines = historyLines(await readFile(join(folder, 'h.jsonl'), 'utf8'));
  expect(lines.slice(1).map((line) => (line as { runId: string }).runId)).toEqual(['3', '4', '5']);
});

test('a run that recorded no call appends nothing: it would be the next base with nothing in it', async () => {
  const folder = await createTemporaryFolder({ 'in.ndjson': records(5), 'none.json': '[]' }, 'history');
  expect((await runIn(folder, ['in.ndjson', '--history', 'h.jsonl'])).exitCode).toBe(0);
  const before = await readFile(join(folder, 'h.jsonl'), 'utf8');
  expect((await runIn(folder, ['none.json', '--history', 'h.jsonl', '--output', 'none-report.json'])).exitCode).toBe(0);
  expect(await readFile(join(folder, 'h.jsonl'), 'utf8')).toBe(before);
});

test('--history-read-only judges against the history and appends nothing', async () => {
  const folder = await createTemporaryFolder({ 'in.ndjson': records(5) }, 'history');
  for (let run = 1; run <= 6; run++) expect((await runIn(folder, ['in.ndjson', '--history', 'h.jsonl'])).exitCode).toBe(0);
  const before = await readFile(join(folder, 'h.jsonl'), 'utf8');
  expect((await runIn(folder, ['in.ndjson', '--history', 'h.jsonl', '--history-read-only', '--output', 'pr.json'])).exitCode).toBe(0);
  expect(await readFile(join(folder, 'h.jsonl'), 'utf8')).toBe(before);
  const report = reportFrom(await readFile(join(folder, 'pr.json'), 'utf8'));
  expect(report.history?.runCount).toBe(6);
  expect(report.endpoints.map((entry) => entry.history?.trend)).toEqual(['withinRange', 'withinRange', 'withinRange']);
});

test(`a line that does not parse is left out with its line number, on stderr and in the report; the run goes on, and the \
append keeps the lines that parse`, async () => {
  const folder = await createTemporaryFolder({ 'in.ndjson': records(5) }, 'history');
  expect((await runIn(folder, ['in.ndjson', '--history', 'h.jsonl'])).exitCode).toBe(0);
  expect((await runIn(folder, ['in.ndjson', '--history', 'h.jsonl'])).exitCode).toBe(0);
  const text = await readFile(join(folder, 'h.jsonl'), 'utf8');
  const [header, first, second] = text.trimEnd().split('\n');
  await writeFile(
    join(folder, 'h.jsonl'),
    [header, first, '{"time": "2026-11-25T12:00:00.000Z", "endpo', second, '{"time": 12}', ''].join('\n'),
  );
  const outcome = await runIn(folder, ['in.ndjson', '--history', 'h.jsonl']);
  expect(outcome.exitCode).toBe(0);
  expect(outcome.stderr).toBe(
    'quality-evidence: warning: line 3 of the history file is not JSON: Unterminated string; ' +
      'it was left out (an append keeps only the lines that can be read)\n' +
      'quality-evidence: warning: line 5 of the history file is not a run of a quality-evidence history ' +
      '(at time: Invalid input: expected string, received number); it was left out (an append keeps only the lines that ' +
      'can be read)\n',
  );
  const report = reportFrom(await readFile(join(folder, '.build/quality-summary.json'), 'utf8'));
  expect(report.history?.skippedLines?.map(({ line }) => line)).toEqual([3, 5]);
  expect(report.history?.runCount).toBe(2);
  const lines = historyLines(await readFile(join(folder, 'h.jsonl'), 'utf8'));
  expect(lines).toHaveLength(4);
});

test('a history of a newer schema version is refused (65) and nothing is written', async () => {
  const folder = await createTemporaryFolder(
    { 'in.ndjson': records(5), 'h.jsonl': '{"schemaVersion":2,"kind":"quality-evidence history"}\n' },
    'history',
  );
  const outcome = await runIn(folder, ['in.ndjson', '--history', 'h.jsonl']);
  expect(outcome.exitCode).toBe(65);
  expect(outcome.stderr).toBe(
    'quality-evidence: the history file "h.jsonl" is a history of schemaVersion 2; this version of quality-evidence reads schemaVersion 1\n',
  );
  expect(await readFile(join(folder, 'h.jsonl'), 'utf8')).toBe('{"schemaVersion":2,"kind":"quality-evidence history"}\n');
  expect(await readdir(folder)).toEqual(['h.jsonl', 'in.ndjson']);
});

test('a history file that is a device, or the report itself, is refused before anything is read (73)', async () => {
  const folder = await createTemporaryFolder({ 'in.ndjson': records(5) }, 'history');
  const device = await runIn(folder, ['in.ndjson', '--history', '/dev/null']);
  expect(device.exitCode).toBe(73);
  expect(device.stderr).toContain('the history file is in /dev or /proc');
  const same = await runIn(folder, ['in.ndjson', '--history', 'q.json', '--output', 'q.json']);
  expect(same.exitCode).toBe(73);
  expect(same.stderr).toBe(
    'quality-evidence: cannot write the report: the output path is the history file "q.json", which this run reads: ' +
      'the next run would read the report as its history file\n',
  );
  expect(await readdir(folder)).toEqual(['in.ndjson']);
});

test('eight runs appending at once: every run is a whole line, none lost', async () => {
  test.setTimeout(120_000);
  const folder = await createTemporaryFolder({ 'in.ndjson': records(200) }, 'history');
  const outcomes = await Promise.all(
    Array.from({ length: 8 }, (_, run) =>
      runIn(folder, ['in.ndjson', '--history', 'h.jsonl', '--output', `q-${run}.json`], { GITHUB_RUN_ID: String(run) }),
    ),
  );
  expect(outcomes.map(({ exitCode, stderr }) => ({ exitCode, stderr }))).toEqual(
    Array.from({ length: 8 }, () => ({ exitCode: 0, stderr: '' })),
  );
  const text = await readFile(join(folder, 'h.jsonl'), 'utf8');
  const history = parseHistory(text, 'h.jsonl');
  expect(history.skippedLines).toEqual([]);
  expect(history.runs.map((run) => run.runId).sort()).toEqual(['0', '1', '2', '3', '4', '5', '6', '7']);
  expect((await readdir(folder)).filter((name) => name.startsWith('.quality-evidence-') || name.endsWith('.lock'))).toEqual([]);
});

/** Runs the command held before a step of its writes, and kills it there; the step it was held before (undefined: it ran to its end). */
async function runKilledBefore(folder: string, args: readonly string[], step: number): Promise<string | undefined> {
  return (await runHeldCommand(folder, args, { holdBeforeStep: step })).heldBefore;
}

test('a run killed at any step of its append leaves the earlier history whole, and the next run takes over its lock and appends', async () => {
  test.setTimeout(180_000);
  const folder = await createTemporaryFolder({ 'in.ndjson': records(20), 'slow.ndjson': records(20, 3) }, 'history');
  for (let run = 0; run < 3; run++) expect((await runIn(folder, ['in.ndjson', '--history', 'h.jsonl'])).exitCode).toBe(0);
  const earlier = await readFile(join(folder, 'h.jsonl'), 'utf8');
  const heldSteps: string[] = [];
  for (let step = 1; ; step++) {
    // Each killed run starts from the same state, so that its steps are numbered alike: the lock the last one left is
    // taken away here (taking it over is held below).
    await rm(join(folder, 'h.jsonl.lock'), { force: true });
    const held = await runKilledBefore(folder, ['slow.ndjson', '--history', 'h.jsonl'], step);
    if (held === undefined) break;
    heldSteps.push(held);
    const now = await readFile(join(folder, 'h.jsonl'), 'utf8');
    // Before the history's rename lands it is the earlier file; after it, the earlier file with one more whole line.
    if (now !== earlier) {
      expect(now.startsWith(earlier)).toBe(true);
      expect(parseHistory(now, 'h.jsonl')).toMatchObject({ skippedLines: [] });
      expect(parseHistory(now, 'h.jsonl').runs).toHaveLength(4);
      await writeFile(join(folder, 'h.jsonl'), earlier);
    }
  }
  expect(
    heldSteps.some((step) => step.startsWith('create') && step.endsWith('h.jsonl.lock')),
    heldSteps.join('\n'),
  ).toBe(true);
  const renameStep = heldSteps.findIndex((step) => step.startsWith('rename') && step.endsWith(' h.jsonl'));
  expect(renameStep, heldSteps.join('\n')).toBeGreaterThan(0);
  // The last run was held nowhere: it appended. Back to the earlier file; then a run killed while it holds the lock, just before the history's rename.
  await writeFile(join(folder, 'h.jsonl'), earlier);
  await rm(join(folder, 'h.jsonl.lock'), { force: true });
  expect(await runKilledBefore(folder, ['slow.ndjson', '--history', 'h.jsonl'], renameStep + 1)).toMatch(
    /^rename \.quality-evidence-[\w-]+\.tmp to h\.jsonl$/,
  );
  expect(await readdir(folder)).toContain('h.jsonl.lock');
  expect(await readFile(join(folder, 'h.jsonl'), 'utf8')).toBe(earlier);
  // Its lock is taken over (its process is gone): the next run appends, and tidies up.
  expect((await runIn(folder, ['in.ndjson', '--history', 'h.jsonl'])).exitCode).toBe(0);
  expect(parseHistory(await readFile(join(folder, 'h.jsonl'), 'utf8'), 'h.jsonl').runs).toHaveLength(4);
  expect((await readdir(folder)).filter((name) => name.startsWith('.quality-evidence-') || name.endsWith('.lock'))).toEqual([]);
});

test.describe('the baseline from the history', () => {
  async function historyOfThreeRuns(): Promise<string> {
    const folder = await createTemporaryFolder({ 'in.ndjson': records(30), 'slow.ndjson': records(30, 2) }, 'history');
    const runs = [
      { input: 'in.ndjson', env: { GITHUB_SHA: 'aaaaaaa1111', GITHUB_REF_NAME: 'main', GITHUB_RUN_ID: '1' } },
      { input: 'slow.ndjson', env: { GITHUB_SHA: 'bbbbbbb2222', GITHUB_REF_NAME: 'feature', GITHUB_RUN_ID: '2' } },
      { input: 'in.ndjson', env: { GITHUB_SHA: 'ccccccc3333', GITHUB_REF_NAME: 'main', GITHUB_RUN_ID: '3' } },
    ];
    for (const { input, env } of runs) expect((await runIn(folder, [input, '--history', 'h.jsonl'], env)).exitCode).toBe(0);
    return folder;
  }

  test('--baseline-from-history main compares with the last run of main, and names it', async () => {
    const folder = await historyOfThreeRuns();
    expect(
      (await runIn(folder, ['slow.ndjson', '--history', 'h.jsonl', '--history-read-only', '--baseline-from-history', 'main'])).exitCode,
    ).toBe(0);
    const report = reportFrom(await readFile(join(folder, '.build/quality-summary.json'), 'utf8'));
    expect(report.baseline?.run).toMatchObject({ commit: 'ccccccc3333', branch: 'main', runId: '3' });
    expect(report.baseline?.slowerEndpoints).toEqual(['GET /orders', 'GET /users/:id', 'POST /orders']);
  });

  test('a commit, by a prefix of 7 or more digits, picks its run', async () => {
    const folder = await historyOfThreeRuns();
    expect(
      (await runIn(folder, ['slow.ndjson', '--history', 'h.jsonl', '--history-read-only', '--baseline-from-history', 'bbbbbbb'])).exitCode,
    ).toBe(0);
    const report = reportFrom(await readFile(join(folder, '.build/quality-summary.json'), 'utf8'));
    expect(report.baseline?.run?.runId).toBe('2');
    expect(report.baseline?.latencyVerdictCounts.slower).toBe(0);
  });

  test("a merge request's base commit is its run where the history has it (GitLab's CI_MERGE_REQUEST_DIFF_BASE_SHA)", async () => {
    const folder = await historyOfThreeRuns();
    expect(
      (
        await runIn(folder, ['slow.ndjson', '--history', 'h.jsonl', '--history-read-only', '--baseline-from-history', 'main'], {
          CI_MERGE_REQUEST_DIFF_BASE_SHA: 'aaaaaaa1111',
        })
      ).exitCode,
    ).toBe(0);
    expect(reportFrom(await readFile(join(folder, '.build/quality-summary.json'), 'utf8')).baseline?.run?.runId).toBe('1');
  });

  test("a GitHub pull request's base commit is read from the event payload", async () => {
    const folder = await historyOfThreeRuns();
    await writeFile(join(folder, 'event.json'), JSON.stringify({ pull_request: { base: { sha: 'aaaaaaa1111' } } }));
    expect(
      (
        await runIn(folder, ['slow.ndjson', '--history', 'h.jsonl', '--history-read-only', '--baseline-from-history', 'main'], {
          GITHUB_EVENT_PATH: join(folder, 'event.json'),
        })
      ).exitCode,
    ).toBe(0);
    expect(reportFrom(await readFile(join(folder, '.build/quality-summary.json'), 'utf8')).baseline?.run?.runId).toBe('1');
  });

  test(`a branch the history has no run of yet (the first run of a history) is said, its name not echoed, and the run goes on \
without a comparison`, async () => {
    const folder = await historyOfThreeRuns();
    const outcome = await runIn(folder, [
      'slow.ndjson',
      '--history',
      'h.jsonl',
      '--baseline-from-history',
      'release',
      '--output',
      'new.json',
    ]);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stderr).toBe(
      'quality-evidence: warning: no baseline: the history file "h.jsonl" holds no run of the branch or commit that ' +
        'baselineFromHistory names, in this run\'s environment (3 runs read; their branches: "feature", "main"); ' +
        'this run is compared with none, and a budget that compares with a baseline breaches\n',
    );
    const report = reportFrom(await readFile(join(folder, 'new.json'), 'utf8'));
    expect(report.baseline).toBeUndefined();
    expect(parseHistory(await readFile(join(folder, 'h.jsonl'), 'utf8'), 'h.jsonl').runs).toHaveLength(4);
  });

  test("the CI recipe starts from nothing: main's first run, with a baseline from a history that does not exist yet, writes the history", async () => {
    const folder = await createTemporaryFolder({ 'in.ndjson': records(5) }, 'history');
    const outcome = await runIn(folder, ['in.ndjson', '--output', 'out/q.json'], {
      QE_HISTORY_PATH: 'history/h.jsonl',
      QE_BASELINE_FROM_HISTORY: 'main',
      GITHUB_REF_NAME: 'main',
      GITHUB_SHA: 'abcdef1',
    });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stderr).toContain('warning: no baseline');
    expect(parseHistory(await readFile(join(folder, 'history/h.jsonl'), 'utf8'), 'h.jsonl').runs.map((run) => run.branch)).toEqual([
      'main',
    ]);
  });

  test('without a history file it is a configuration error (78)', async () => {
    const folder = await createTemporaryFolder({ 'in.ndjson': records(5) }, 'history');
    const outcome = await runIn(folder, ['in.ndjson', '--baseline-from-history', 'main']);
    expect(outcome.exitCode).toBe(78);
    expect(outcome.stderr).toContain(
      'baselineFromHistory: takes the baseline from a history file: name one with --history, QE_HISTORY_PATH or the historyPath option',
    );
  });
});

test('maxEndpointsAboveHistoricalRange without a history file is a configuration error (78)', async () => {
  const folder = await createTemporaryFolder(
    { 'in.ndjson': records(5), 'budgets.json': '{ "maxEndpointsAboveHistoricalRange": 0 }' },
    'history',
  );
  const outcome = await runIn(folder, ['in.ndjson', '--budgets', 'budgets.json']);
  expect(outcome.exitCode).toBe(78);
  expect(outcome.stderr).toContain(
    'maxEndpointsAboveHistoricalRange in "budgets.json": judges endpoints against their history: ' +
      'name a history file with --history, QE_HISTORY_PATH or the historyPath option',
  );
});

test('merge writes one report from several, its percentiles from the histograms, and exports them for github-action-benchmark', async () => {
  const folder = await createTemporaryFolder({ 'a.ndjson': records(30), 'b.ndjson': records(30, 2) }, 'history');
  expect((await runIn(folder, ['a.ndjson', '--output', 'a/q.json'])).exitCode).toBe(0);
  expect((await runIn(folder, ['b.ndjson', '--output', 'b/q.json'])).exitCode).toBe(0);
  expect((await runIn(folder, ['a.ndjson', 'b.ndjson', '--output', 'exact/q.json'])).exitCode).toBe(0);
  const merge = await runProgram(COMMAND, {
    cwd: folder,
    args: ['merge', 'a/q.json', 'b/q.json', '--output', 'all/q.json', '--export', 'benchmark-action=all/benchmark.json', '--quiet'],
  });
  expect(merge).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  const merged = reportFrom(await readFile(join(folder, 'all/q.json'), 'utf8'));
  const exact = reportFrom(await readFile(join(folder, 'exact/q.json'), 'utf8'));
  expect(merged.executionCount).toBe(exact.executionCount);
  expect(merged.failureCountByEndpoint).toEqual(exact.failureCountByEndpoint);
  expect(merged.responseTimeMs.source).toBe('histogram');
  const benchmark = JSON.parse(await readFile(join(folder, 'all/benchmark.json'), 'utf8')) as {
    name: string;
    unit: string;
    value: number;
    extra: string;
  }[];
  expect(benchmark.map(({ name }) => name)).toEqual([
    'GET /orders p50',
    'GET /orders p95',
    'GET /orders p99',
    'GET /users/:id p50',
    'GET /users/:id p95',
    'GET /users/:id p99',
    'POST /orders p50',
    'POST /orders p95',
    'POST /orders p99',
  ]);
  expect(benchmark[1]).toEqual({
    name: 'GET /orders p95',
    unit: 'ms',
    value: merged.endpoints[0]!.responseTimeMs.p95,
    extra: '60 executions, 4 failed, from merged histograms',
  });
  expect((await readdir(join(folder, 'all'))).sort()).toEqual(['benchmark.json', 'q.html', 'q.json', 'q.md']);
});

test('merge refuses reports with different thresholds (65), naming the difference, and writes nothing', async () => {
  const folder = await createTemporaryFolder({ 'a.ndjson': records(5) }, 'history');
  expect((await runIn(folder, ['a.ndjson', '--output', 'a.json'])).exitCode).toBe(0);
  expect((await runIn(folder, ['a.ndjson', '--output', 'b.json', '--slow-response-threshold-ms', '100'])).exitCode).toBe(0);
  const outcome = await runProgram(COMMAND, { cwd: folder, args: ['merge', 'a.json', 'b.json', '--output', 'all.json'] });
  expect(outcome.exitCode).toBe(65);
  expect(outcome.stderr).toBe(
    'quality-evidence: the report "b.json" has slowResponseThresholdMs 100, where "a.json" has 750: ' +
      'reports whose numbers mean different things cannot be merged\n',
  );
  expect(await readdir(folder)).not.toContain('all.json');
});

test(`twenty seeded runs appended by the command: a trend line per endpoint on the page, the steady endpoint within its range, \
the shifted one above it, the noisy run no alarm`, async () => {
  test.setTimeout(120_000);
  const random = mulberry32(11);
  const files: Record<string, string> = {};
  for (let run = 1; run <= 21; run++) {
    const lines: string[] = [];
    for (const [endpoint, base] of [
      ['GET /steady', 100],
      ['GET /shifted', 80],
      ['GET /noisy', 60],
    ] as const) {
      const factor = (endpoint === 'GET /shifted' && run === 21 ? 1.6 : 1) * (endpoint === 'GET /noisy' && run === 10 ? 3 : 1);
      for (let call = 0; call < 30; call++)
        lines.push(
          JSON.stringify({
            endpoint,
            statusCode: 200,
            responseTimeMs: Math.round(base * factor * Math.exp(0.15 * normal(random)) * 10) / 10,
          }),
        );
    }
    files[`run-${run}.ndjson`] = `${lines.join('\n')}\n`;
  }
  const folder = await createTemporaryFolder(files, 'history');
  for (let run = 1; run <= 21; run++)
    expect((await runIn(folder, [`run-${run}.ndjson`, '--history', 'h.jsonl', '--output', 'out/q.json'])).exitCode).toBe(0);
  const report = reportFrom(await readFile(join(folder, 'out/q.json'), 'utf8'));
  expect(report.endpoints.map((entry) => [entry.endpoint, entry.history?.trend])).toEqual([
    ['GET /noisy', 'withinRange'],
    ['GET /shifted', 'aboveRange'],
    ['GET /steady', 'withinRange'],
  ]);
  expect(report.history?.runCount).toBe(20);
  const html = await readFile(join(folder, 'out/q.html'), 'utf8');
  // One sparkline per endpoint, 21 points for the steady one (20 runs and this one): its line has 21 coordinates.
  expect(html.match(/<svg class="spark"/g)).toHaveLength(3);
  const steady = html.slice(html.indexOf('data-endpoint="GET /steady"'));
  expect(/<polyline points="([^"]*)"/.exec(steady)?.[1]?.split(' ')).toHaveLength(21);
  expect(parseHistory(await readFile(join(folder, 'h.jsonl'), 'utf8'), 'h.jsonl').runs).toHaveLength(21);
});

test('a report given where records are expected is named as one, with the subcommands that take reports', async () => {
  const folder = await createTemporaryFolder({ 'in.ndjson': records(5) }, 'history');
  expect((await runIn(folder, ['in.ndjson', '--output', 'q.json'])).exitCode).toBe(0);
  const outcome = await runIn(folder, ['q.json', '--output', 'again.json']);
  expect(outcome.exitCode).toBe(65);
  expect(outcome.stderr).toBe(
    'quality-evidence: the input file has the wrong top-level shape:\n' +
      '  - (top level): expected an object with an "executions" array, or an array of records; ' +
      'found a report of quality-evidence (quality-summary.json), not records: ' +
      '`quality-evidence check` judges a report, `quality-evidence merge` merges reports\n',
  );
});

test('runs that find one stale lock at once take turns: one takes it over, the others wait for it', async () => {
  const folder = await createTemporaryFolder({}, 'history');
  const lock = join(folder, 'h.jsonl.lock');
  const { THIS_HOST } = await import('../src/io/writeReportAtomically.js');
  // A process id that no process has here: the lock's owner is gone.
  await writeFile(lock, `${THIS_HOST} 4194304999\n`);
  const inside: string[] = [];
  let holders = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: 6 }, (_, run) =>
      withHistoryLock(nodeFileSystem, join(folder, 'h.jsonl'), async () => {
        holders++;
        most = Math.max(most, holders);
        inside.push(String(run));
        await new Promise((resume) => setTimeout(resume, 20));
        holders--;
      }),
    ),
  );
  expect(inside.sort()).toEqual(['0', '1', '2', '3', '4', '5']);
  expect(most).toBe(1);
  expect(await readdir(folder)).toEqual([]);
});

test('merge refuses a report that lacks a field of this version (65), naming it, and writes nothing', async () => {
  const folder = await createTemporaryFolder({ 'a.ndjson': records(5) }, 'history');
  expect((await runIn(folder, ['a.ndjson', '--output', 'a.json'])).exitCode).toBe(0);
  const report = JSON.parse(await readFile(join(folder, 'a.json'), 'utf8')) as Record<string, unknown>;
  delete report['expectedErrorCount'];
  await writeFile(join(folder, 'old.json'), JSON.stringify(report));
  const outcome = await runProgram(COMMAND, { cwd: folder, args: ['merge', 'a.json', 'old.json', '--output', 'all.json'] });
  expect(outcome.exitCode).toBe(65);
  expect(outcome.stderr).toBe(
    'quality-evidence: the report "old.json" is not a complete report of this version of quality-evidence ' +
      '(at expectedErrorCount: Invalid input: expected number, received undefined): ' +
      'merge takes reports written by this version; summarise its records again\n',
  );
  expect(await readdir(folder)).not.toContain('all.json');
});

test('runs that name the history through a link and by its real path lock the same file: every run is kept', async () => {
  test.setTimeout(120_000);
  const folder = await createTemporaryFolder({ 'in.ndjson': records(50) }, 'history');
  await mkdir(join(folder, 'real'));
  await writeFile(join(folder, 'real/h.jsonl'), '');
  await symlink('real/h.jsonl', join(folder, 'link.jsonl'));
  const outcomes = await Promise.all(
    Array.from({ length: 8 }, (_, run) =>
      runIn(folder, ['in.ndjson', '--history', run % 2 === 0 ? 'link.jsonl' : 'real/h.jsonl', '--output', `q-${run}.json`], {
        GITHUB_RUN_ID: String(run),
      }),
    ),
  );
  expect(outcomes.map(({ exitCode }) => exitCode)).toEqual(Array.from({ length: 8 }, () => 0));
  expect(
    parseHistory(await readFile(join(folder, 'real/h.jsonl'), 'utf8'), 'h.jsonl')
      .runs.map((run) => run.runId)
      .sort(),
  ).toEqual(['0', '1', '2', '3', '4', '5', '6', '7']);
});

test("a lock this machine's live process holds is never taken over, however old: the run gives up after a minute of waiting (73)", async () => {
  const folder = await createTemporaryFolder({}, 'history');
  const lock = join(folder, 'h.jsonl.lock');
  const { THIS_HOST } = await import('../src/io/writeReportAtomically.js');
  await writeFile(lock, `${THIS_HOST} ${process.pid} another-run\n`);
  await utimes(lock, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
  let waited = 0;
  const outcome = await withHistoryLock(
    nodeFileSystem,
    join(folder, 'h.jsonl'),
    () => Promise.resolve('appended'),
    (ms) => {
      waited += ms;
      return Promise.resolve();
    },
  ).catch((error: unknown) => error);
  expect((outcome as Error).message).toBe(
    `cannot write the report: the history file is locked by another run ("${lock}") and stayed locked for a minute; if no run is appending, remove the lock`,
  );
  expect(waited).toBeGreaterThanOrEqual(60_000);
  expect(await readFile(lock, 'utf8')).toBe(`${THIS_HOST} ${process.pid} another-run\n`);
});

/** Every file under a folder, by its path there, with its bytes: what a refused run must leave as it was. */
async function filesUnder(folder: string): Promise<Record<string, string>> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  const contents = await Promise.all(
    files.map(async (file) => [relative(folder, file), (await readFile(file)).toString('base64')] as const),
  );
  return Object.fromEntries(contents.sort(([a], [b]) => (a < b ? -1 : 1)));
}

const NOT_A_HISTORY =
  'is not a history of quality-evidence: its first line is not the header a history starts with ' +
  '({"schemaVersion":1,"kind":"quality-evidence history"}); a run appends only to a history, or to an empty or absent ' +
  'file, which it makes one';

test.describe('a file that is not a history is refused (65), never rewritten, and every file stays as it was (issue 34)', () => {
  test('--history naming notes', async () => {
    const folder = await createTemporaryFolder({ 'in.ndjson': records(5), 'notes.md': '# Notes\n\nsecret: hunter2\n' }, 'history');
    const before = await filesUnder(folder);

    expect(await runIn(folder, ['in.ndjson', '--history', 'notes.md'])).toEqual({
      exitCode: 65,
      stdout: '',
      stderr: `quality-evidence: the history file "notes.md" ${NOT_A_HISTORY}\n`,
    });
    expect(await filesUnder(folder)).toEqual(before);
  });

  test("--history naming another run's report", async () => {
    const folder = await createTemporaryFolder({ 'in.ndjson': records(5) }, 'history');
    expect((await runIn(folder, ['in.ndjson', '--output', 'other.json'])).exitCode).toBe(0);
    const before = await filesUnder(folder);

    expect(await runIn(folder, ['in.ndjson', '--output', 'q.json', '--history', 'other.json'])).toEqual({
      exitCode: 65,
      stdout: '',
      stderr: `quality-evidence: the history file "other.json" ${NOT_A_HISTORY}\n`,
    });
    expect(await filesUnder(folder)).toEqual(before);
  });

  test('merge --history naming notes', async () => {
    const folder = await createTemporaryFolder({ 'in.ndjson': records(5), 'notes.md': '# Notes\n' }, 'history');
    expect((await runIn(folder, ['in.ndjson', '--output', 'a.json'])).exitCode).toBe(0);
    const before = await filesUnder(folder);

    expect(await runIn(folder, ['merge', 'a.json', '--output', 'all.json', '--history', 'notes.md'])).toEqual({
      exitCode: 65,
      stdout: '',
      stderr: `quality-evidence: the history file "notes.md" ${NOT_A_HISTORY}\n`,
    });
    expect(await filesUnder(folder)).toEqual(before);
  });

  test('a file of blank lines is a new history, as an empty or absent one is: the run makes it one', async () => {
    const folder = await createTemporaryFolder({ 'in.ndjson': records(5), 'h.jsonl': '\n\n' }, 'history');

    expect(await runIn(folder, ['in.ndjson', '--history', 'h.jsonl'])).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(parseHistory(await readFile(join(folder, 'h.jsonl'), 'utf8'), 'h.jsonl').runs).toHaveLength(1);
  });
});

test.describe(`a history header whose schemaVersion is not the integer 1 is refused (65), naming the file, the line and what \
it states, and every file stays as it was (issue 34)`, () => {
  for (const stated of ['"2"', '1e400', '2.5', '0']) {
    test(`schemaVersion ${stated}`, async () => {
      const header = `{"schemaVersion":${stated},"kind":"quality-evidence history"}\n`;
      const folder = await createTemporaryFolder({ 'in.ndjson': records(5), 'h.jsonl': header }, 'history');
      const before = await filesUnder(folder);

      expect(await runIn(folder, ['in.ndjson', '--history', 'h.jsonl'])).toEqual({
        exitCode: 65,
        stdout: '',
        stderr:
          `quality-evidence: the history file "h.jsonl" states schemaVersion ${stated} at line 1; ` +
          'this version of quality-evidence reads schemaVersion 1 (a whole number) only, ' +
          'and rewriting the file would lose its lines\n',
      });
      expect(await filesUnder(folder)).toEqual(before);
    });
  }

  test('a long one is shortened', async () => {
    const stated = `"${'9'.repeat(500)}"`;
    const folder = await createTemporaryFolder(
      { 'in.ndjson': records(5), 'h.jsonl': `{"schemaVersion":${stated},"kind":"quality-evidence history"}\n` },
      'history',
    );

    expect((await runIn(folder, ['in.ndjson', '--history', 'h.jsonl'])).stderr).toBe(
      `quality-evidence: the history file "h.jsonl" states schemaVersion "${'9'.repeat(38)}… at line 1; ` +
        'this version of quality-evidence reads schemaVersion 1 (a whole number) only, ' +
        'and rewriting the file would lose its lines\n',
    );
  });
});

test.describe("a folder at the history's lock path is refused at once (73): no run made it, and no wait ends it (issue 34)", () => {
  test('the lock', async () => {
    const folder = await createTemporaryFolder({}, 'history');
    await mkdir(join(folder, 'h.jsonl.lock'));
    let paused = 0;

    const outcome = await withHistoryLock(
      nodeFileSystem,
      join(folder, 'h.jsonl'),
      () => Promise.resolve('appended'),
      () => {
        paused++;
        return Promise.resolve();
      },
    ).catch((error: unknown) => error);

    expect((outcome as Error).message).toBe(
      `cannot write the report: the history file's lock ("${join(folder, 'h.jsonl.lock')}") is a folder, not a lock file, so no run can take it: remove it`,
    );
    expect(paused).toBe(0);
  });

  test('the command ends in seconds, and the history and the earlier report stay as they were', async () => {
    const folder = await createTemporaryFolder({ 'in.ndjson': records(5) }, 'history');
    expect((await runIn(folder, ['in.ndjson', '--history', 'h.jsonl'])).exitCode).toBe(0);
    await mkdir(join(folder, 'h.jsonl.lock'));
    const before = await filesUnder(folder);

    const outcome = await runProgram(COMMAND, { cwd: folder, args: ['in.ndjson', '--history', 'h.jsonl', '--quiet'], timeoutMs: 20_000 });

    expect(outcome).toEqual({
      exitCode: 73,
      stdout: '',
      stderr:
        `quality-evidence: cannot write the report: the history file's lock ("${join(folder, 'h.jsonl.lock')}") ` +
        'is a folder, not a lock file, so no run can take it: remove it\n',
    });
    expect(await filesUnder(folder)).toEqual(before);
  });
});
