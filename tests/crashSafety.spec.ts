import { spawn } from 'node:child_process';
import { watch, type FSWatcher } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { reportFrom } from './support/reports.js';
import { createTemporaryFolder, repositoryRoot } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// A run killed at any moment (SIGKILL: no handler, no cleanup) leaves the
// output path holding exactly the earlier report or a complete new one, and
// the next successful run leaves no temporary file. Concurrent runs writing
// one output path leave one complete report.

test.describe.configure({ timeout: 300_000 });

const COMMAND = join(repositoryRoot, '.build/src/cli/main.js');

/** An NDJSON input of `count` records over 200 endpoints, with `environment`'s run telling reports apart. */
function records(count: number, salt: number): string {
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    lines.push(JSON.stringify({ statusCode: index % 23 === 0 ? 503 : 200, endpoint: `GET /service-${index % 200}/items`, responseTimeMs: ((index * 37 + salt * 101) % 2000) / 4 }));
  }
  return `${lines.join('\n')}\n`;
}

interface Run {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly milliseconds: number;
}

/** When to kill a run: so many ms after it starts, or after its first temporary file appears (the write has begun). */
type KillAt = { readonly afterStartMs: number } | { readonly afterWriteBeginsMs: number };

/** Runs the command in `folder`, killing it with SIGKILL at `killAt` when given. */
function run(folder: string, args: readonly string[], killAt?: KillAt): Promise<Run> {
  return new Promise((done) => {
    const started = performance.now();
    const child = spawn(process.execPath, [COMMAND, ...args, '--quiet'], { cwd: folder, env: { PATH: process.env['PATH'] ?? '' }, stdio: 'ignore' });
    const kill = (): boolean => child.kill('SIGKILL');
    let timer: NodeJS.Timeout | undefined;
    let watcher: FSWatcher | undefined;
    if (killAt !== undefined && 'afterStartMs' in killAt) timer = setTimeout(kill, killAt.afterStartMs);
    if (killAt !== undefined && 'afterWriteBeginsMs' in killAt) {
      watcher = watch(folder, (_event, name) => {
        if (timer !== undefined || name?.startsWith('.quality-evidence-') !== true) return;
        timer = setTimeout(kill, killAt.afterWriteBeginsMs);
      });
    }
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      watcher?.close();
      done({ exitCode, signal, milliseconds: performance.now() - started });
    });
  });
}

async function temporaryFiles(folder: string): Promise<string[]> {
  return (await readdir(folder)).filter((name) => name.startsWith('.quality-evidence-'));
}

test('SIGKILL at 120 moments, spread over the run and clustered around the write: the report is always the earlier one or the complete new one', async () => {
  const folder = await createTemporaryFolder({ 'earlier.ndjson': records(1_000, 1), 'in.ndjson': records(60_000, 2) }, 'crash');
  const args = ['in.ndjson', '--output', 'q.json', '--environment', 'new'];
  expect((await run(folder, ['earlier.ndjson', '--output', 'q.json', '--environment', 'earlier'])).exitCode).toBe(0);
  const earlier = await readFile(join(folder, 'q.json'), 'utf8');
  // A complete run, to know the new report and how long a run takes here.
  const complete = await run(folder, [...args, '--output', 'reference.json']);
  expect(complete.exitCode).toBe(0);
  const fresh = (await readFile(join(folder, 'reference.json'), 'utf8')).replace(/reference\.json/g, 'q.json');
  const duration = complete.milliseconds;
  // 60 moments spread over the whole run, and 60 from 0 to 6 ms after its first temporary file appears, while the files are written, flushed and renamed.
  const moments: KillAt[] = [
    ...Array.from({ length: 60 }, (_, index) => ({ afterStartMs: (duration * (index + 0.5)) / 60 })),
    ...Array.from({ length: 60 }, (_, index) => ({ afterWriteBeginsMs: index % 7 })),
  ];

  const outcomes = { earlier: 0, fresh: 0, finished: 0, temporaryLeft: 0 };
  for (const moment of moments) {
    const killed = await run(folder, args, moment);
    if (killed.signal === null) outcomes.finished++;
    const text = await readFile(join(folder, 'q.json'), 'utf8');
    // Exactly one of the two, byte for byte, and a report the shipped schema accepts.
    expect([earlier, fresh]).toContain(text);
    reportFrom(text);
    if (text === earlier) outcomes.earlier++;
    else outcomes.fresh++;
    if ((await temporaryFiles(folder)).length > 0) outcomes.temporaryLeft++;
    // Back to the earlier report, so that every kill can show a torn write.
    await writeFile(join(folder, 'q.json'), earlier);
  }
  test.info().annotations.push({ type: 'kills', description: JSON.stringify({ moments: moments.length, runMs: Math.round(duration), ...outcomes }) });
  expect(outcomes.earlier + outcomes.fresh).toBe(120);
  // Some kills must land before the write and some after it, or the moments missed the point.
  expect(outcomes.earlier).toBeGreaterThan(0);
  expect(outcomes.fresh).toBeGreaterThan(0);
  // And some in the middle of the write, leaving a temporary file behind.
  expect(outcomes.temporaryLeft).toBeGreaterThan(0);

  expect((await run(folder, args)).exitCode).toBe(0);
  expect(await temporaryFiles(folder)).toEqual([]);
  expect(await readFile(join(folder, 'q.json'), 'utf8')).toBe(fresh);
});

for (const writers of [2, 4]) {
  test(`${writers} runs writing one output path at once, 10 rounds: the file is always one complete report, and no temporary file is left`, async () => {
    const inputs = Object.fromEntries(Array.from({ length: writers }, (_, index) => [`in-${index}.ndjson`, records(20_000, index)]));
    const folder = await createTemporaryFolder(inputs, 'concurrent');
    const expected: string[] = [];
    for (let index = 0; index < writers; index++) {
      expect((await run(folder, [`in-${index}.ndjson`, '--output', `alone-${index}.json`, '--environment', `writer-${index}`])).exitCode).toBe(0);
      expected.push((await readFile(join(folder, `alone-${index}.json`), 'utf8')).replace(new RegExp(`alone-${index}\\.json`, 'g'), 'q.json'));
    }

    for (let round = 0; round < 10; round++) {
      const runs = await Promise.all(Array.from({ length: writers }, (_, index) => run(folder, [`in-${index}.ndjson`, '--output', 'q.json', '--environment', `writer-${index}`])));

      expect(runs.map(({ exitCode }) => exitCode)).toEqual(Array.from({ length: writers }, () => 0));
      const text = await readFile(join(folder, 'q.json'), 'utf8');
      expect(expected).toContain(text);
      reportFrom(text);
    }
    expect(await temporaryFiles(folder)).toEqual([]);
  });
}
