import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { reportFrom } from './support/reports.js';
import { createTemporaryFolder, runHeldCommand as run } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// A run killed at any moment (SIGKILL: no handler, no cleanup) leaves the
// output path holding exactly the earlier report or a complete new one, and
// the next successful run leaves no temporary file. Concurrent runs writing
// one output path leave one complete report.
//
// Where a kill lands in the write does not hang on timing: the command's
// test-only hook (src/cli/holdWritesForTests.ts) holds it before a chosen
// step of the write, and the spec kills it there, step after step.

test.describe.configure({ timeout: 300_000 });

/** An NDJSON input of `count` records over 200 endpoints, with `environment`'s run telling reports apart. */
function records(count: number, salt: number): string {
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    lines.push(
      JSON.stringify({
        statusCode: index % 23 === 0 ? 503 : 200,
        endpoint: `GET /service-${index % 200}/items`,
        responseTimeMs: ((index * 37 + salt * 101) % 2000) / 4,
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

async function temporaryFiles(folder: string): Promise<string[]> {
  return (await readdir(folder)).filter((name) => name.startsWith('.quality-evidence-'));
}

/** A folder holding the earlier report at q.json, and the new report the same run would write (as `fresh`). */
async function withEarlierReport(): Promise<{ folder: string; args: string[]; earlier: string; fresh: string; duration: number }> {
  const folder = await createTemporaryFolder({ 'earlier.ndjson': records(1_000, 1), 'in.ndjson': records(60_000, 2) }, 'crash');
  const args = ['in.ndjson', '--output', 'q.json', '--environment', 'new'];
  expect((await run(folder, ['earlier.ndjson', '--output', 'q.json', '--environment', 'earlier'])).exitCode).toBe(0);
  const earlier = await readFile(join(folder, 'q.json'), 'utf8');
  // A complete run, to know the new report and how long a run takes here.
  const complete = await run(folder, [...args, '--output', 'reference.json']);
  expect(complete.exitCode).toBe(0);
  const fresh = (await readFile(join(folder, 'reference.json'), 'utf8')).replace(/reference\.json/g, 'q.json');
  await rm(join(folder, 'reference.json'));
  return { folder, args, earlier, fresh, duration: complete.milliseconds };
}

/** Back to the earlier report and no temporary file, so that every kill starts from the same folder. */
async function restore(folder: string, earlier: string): Promise<void> {
  for (const name of await temporaryFiles(folder)) await rm(join(folder, name));
  await writeFile(join(folder, 'q.json'), earlier);
}

test(`SIGKILL before each step of the write in turn: the earlier report until the JSON report is renamed into place, the \
complete new one after, and the temporary files in between`, async () => {
  const { folder, args, earlier, fresh } = await withEarlierReport();
  const steps: string[] = [];
  for (let step = 1; ; step++) {
    const killed = await run(folder, args, { holdBeforeStep: step });
    if (killed.heldBefore === undefined) {
      // The run has fewer steps than this: it finished, with the new report.
      expect(killed.exitCode).toBe(0);
      expect(await readFile(join(folder, 'q.json'), 'utf8')).toBe(fresh);
      break;
    }
    steps.push(killed.heldBefore);
    // Steps 1 to step - 1 were taken: the report is new once one of them renamed a temporary file to q.json.
    const done = steps.slice(0, -1);
    const text = await readFile(join(folder, 'q.json'), 'utf8');
    expect(text).toBe(done.some((taken) => /^rename \S+ to q\.json$/.test(taken)) ? fresh : earlier);
    // Every temporary file created and not yet renamed is there (a kill leaves it for the next run to remove).
    const created = done.filter((taken) => /^create \.quality-evidence-/.test(taken)).length;
    const renamed = done.filter((taken) => /^rename \.quality-evidence-/.test(taken)).length;
    expect((await temporaryFiles(folder)).length).toBe(created - renamed);
    await restore(folder, earlier);
  }
  test.info().annotations.push({ type: 'write steps', description: steps.join('; ') });
  // The walk went through the write: the JSON report's temporary file was created and renamed into place.
  expect(steps.filter((taken) => /^create \.quality-evidence-\S+\.tmp$/.test(taken)).length).toBeGreaterThan(0);
  expect(steps.filter((taken) => /^rename \.quality-evidence-\S+\.tmp to q\.json$/.test(taken))).toHaveLength(1);

  // A kill that left temporary files, then a successful run: it removes them.
  await run(folder, args, { holdBeforeStep: steps.findIndex((taken) => taken.endsWith(' to q.json')) + 1 });
  expect((await temporaryFiles(folder)).length).toBeGreaterThan(0);
  expect((await run(folder, args)).exitCode).toBe(0);
  expect(await temporaryFiles(folder)).toEqual([]);
  expect(await readFile(join(folder, 'q.json'), 'utf8')).toBe(fresh);
});

test('SIGKILL at 60 moments spread over a 60,000-record run: the report is always the earlier one or the complete new one', async () => {
  const { folder, args, earlier, fresh, duration } = await withEarlierReport();
  // Where each kill lands depends on the machine's load, so the outcomes are counted, not required: the guarantee is that there is no third.
  const outcomes = { earlier: 0, fresh: 0, finished: 0, temporaryLeft: 0 };
  for (let index = 0; index < 60; index++) {
    const killed = await run(folder, args, { killAfterMs: (duration * (index + 0.5)) / 60 });
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
  test.info().annotations.push({ type: 'kills', description: JSON.stringify({ moments: 60, runMs: Math.round(duration), ...outcomes }) });
  expect(outcomes.earlier + outcomes.fresh).toBe(60);

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
      expect(
        (await run(folder, [`in-${index}.ndjson`, '--output', `alone-${index}.json`, '--environment', `writer-${index}`])).exitCode,
      ).toBe(0);
      expected.push(
        (await readFile(join(folder, `alone-${index}.json`), 'utf8')).replace(new RegExp(`alone-${index}\\.json`, 'g'), 'q.json'),
      );
    }

    for (let round = 0; round < 10; round++) {
      const runs = await Promise.all(
        Array.from({ length: writers }, (_, index) =>
          run(folder, [`in-${index}.ndjson`, '--output', 'q.json', '--environment', `writer-${index}`]),
        ),
      );

      expect(runs.map(({ exitCode }) => exitCode)).toEqual(Array.from({ length: writers }, () => 0));
      const text = await readFile(join(folder, 'q.json'), 'utf8');
      expect(expected).toContain(text);
      reportFrom(text);
    }
    expect(await temporaryFiles(folder)).toEqual([]);
  });
}
