import { expect, test } from './support/test.js';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { nodeFileSystem, type QualityToolConfig } from '../src/index.js';
import { startEarlyWorkers } from '../src/cli/earlyWorkers.js';
import { createParallelRanges } from '../src/cli/parallelRanges.js';
import { planInput } from '../src/cli/rangePlan.js';
import { runQualityWorkflow } from '../src/workflow/runQualityWorkflow.js';
import { createTemporaryFolder, repositoryRoot } from './support/runProgram.js';

// Worker threads started before the program loads (src/cli/earlyWorkers.ts):
// for which inputs, and that they read as workers started with their data do.
// The sizes are scaled down as parallel.spec.ts scales them (a minimum of 1 KiB).

const workerUrl = pathToFileURL(join(repositoryRoot, '.build/src/cli/summariseWorker.js'));
const small = { threads: 3, minimumBytes: 1024, workerUrl };

const ndjson = Array.from({ length: 600 }, (_, index) =>
  JSON.stringify({
    id: `exec-${index}`,
    statusCode: index % 7 === 0 ? 503 : 200,
    endpoint: `GET /orders/${index % 13}`,
    responseTimeMs: (index * 37) % 250,
  }),
).join('\n');

async function reportOf(folder: string, name: string, summariseRanges?: ReturnType<typeof createParallelRanges>): Promise<string> {
  const config: QualityToolConfig = {
    environment: 'ci',
    slowResponseThresholdMs: 100,
    inputPath: join(folder, 'large.ndjson'),
    outputPath: join(folder, name),
  };
  return (await runQualityWorkflow(config, { fileSystem: nodeFileSystem, summariseRanges })).reportText;
}

test('no worker is started for a small input, a HAR file, standard input, a folder or a path that is not there', async () => {
  const folder = await createTemporaryFolder({ 'small.ndjson': '{}\n', 'large.har': 'x'.repeat(4096) }, 'early');
  await mkdir(join(folder, 'folder.json'));
  for (const path of ['small.ndjson', 'large.har', '-', 'folder.json', 'missing.ndjson'])
    expect(startEarlyWorkers([join(folder, path)], small).take(), path).toBeUndefined();
});

test('a large JSON or NDJSON input among the paths starts one worker fewer than the threads: the first plans it, the others are each taken once', async () => {
  const folder = await createTemporaryFolder({ 'large.jsonl': 'x'.repeat(4096) }, 'early');
  const early = startEarlyWorkers(['--output', join(folder, 'missing.json'), join(folder, 'large.jsonl')], { ...small, threads: 4 });
  const scouted = await early.scouted();
  const taken = [early.take(), early.take()];
  try {
    // No line break to cut at: the plan is to read it in one piece.
    expect(scouted?.plan).toBeUndefined();
    expect(taken.every((worker) => worker !== undefined)).toBe(true);
    expect(early.take()).toBeUndefined();
  } finally {
    for (const worker of [scouted?.worker, ...taken]) await worker?.terminate();
  }
});

test('the worker that plans early posts the plan this thread makes of the same file', async () => {
  const folder = await createTemporaryFolder({ 'large.ndjson': ndjson }, 'early');
  const path = join(folder, 'large.ndjson');
  const early = startEarlyWorkers([path], { ...small, pieceBytes: 4096 });
  const scouted = await early.scouted();
  try {
    const { claims: _posted, ...posted } = scouted!.plan!;
    const { claims: _made, ...made } = (await planInput(path, 'ndjson', { threads: 3, minimumBytes: 1024, pieceBytes: 4096 }))!;
    expect(posted).toStrictEqual(made);
    // 13 pieces of about 4 KiB, three regions.
    expect([made.starts.length - 1, made.regions]).toStrictEqual([13, [0, 4, 8]]);
  } finally {
    await scouted?.worker.terminate();
  }
});

test('with the early plan, the region its worker read before the rules came and the others give the single-thread report', async () => {
  const folder = await createTemporaryFolder({ 'large.ndjson': ndjson }, 'early');
  const early = startEarlyWorkers([join(folder, 'large.ndjson')], { ...small, pieceBytes: 4096 });
  // The plan is posted, and the worker reads its region, before the run below starts.
  expect((await early.scouted())?.plan).toBeDefined();
  const threaded = await reportOf(folder, 'threads.json', createParallelRanges({ ...small, pieceBytes: 4096, early }));
  expect(threaded).toBe(await reportOf(folder, 'one-thread.json'));
  expect(early.take()).toBeUndefined();
});

test('progress counts the region the early worker read before it knew to tell it: the last told is the input whole', async () => {
  const folder = await createTemporaryFolder({ 'large.ndjson': ndjson }, 'early');
  const early = startEarlyWorkers([join(folder, 'large.ndjson')], { ...small, pieceBytes: 4096 });
  await early.scouted();
  // Given time to read its whole region (a few kB) before the run tells it the rules and to tell its progress.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const told: [number, number][] = [];
  await runQualityWorkflow(
    { environment: 'ci', slowResponseThresholdMs: 100, inputPath: join(folder, 'large.ndjson'), outputPath: join(folder, 'out.json') },
    {
      fileSystem: nodeFileSystem,
      summariseRanges: createParallelRanges({ ...small, pieceBytes: 4096, early }),
      progress: (read, bytes) => told.push([read, bytes]),
    },
  );
  expect(told.at(-1)).toEqual([600, Buffer.byteLength(ndjson)]);
});

test('an early plan made with another piece size is not used: its worker is ended, and the input planned again alike', async () => {
  const folder = await createTemporaryFolder({ 'large.ndjson': ndjson }, 'early');
  const early = startEarlyWorkers([join(folder, 'large.ndjson')], small);
  const threaded = await reportOf(folder, 'threads.json', createParallelRanges({ ...small, pieceBytes: 4096, early }));
  expect(threaded).toBe(await reportOf(folder, 'one-thread.json'));
  expect(early.take()).toBeUndefined();
});

test('workers started early are ended unused when the input is then read in one piece', async () => {
  const folder = await createTemporaryFolder({ 'large.ndjson': ndjson }, 'early');
  const early = startEarlyWorkers([join(folder, 'large.ndjson')], small);
  // Past the file's size: the ranges decline it, and it is read on this thread.
  await reportOf(folder, 'one-piece.json', createParallelRanges({ ...small, minimumBytes: 1024 * 1024, early }));
  expect(early.take()).toBeUndefined();
});
