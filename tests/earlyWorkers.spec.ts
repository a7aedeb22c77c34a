import { expect, test } from './support/test.js';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { nodeFileSystem, type QualityToolConfig } from '../src/index.js';
import { startEarlyWorkers } from '../src/cli/earlyWorkers.js';
import { createParallelRanges } from '../src/cli/parallelRanges.js';
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

test('a large JSON or NDJSON input among the paths starts one worker fewer than the threads, each taken once', async () => {
  const folder = await createTemporaryFolder({ 'large.jsonl': 'x'.repeat(4096) }, 'early');
  const early = startEarlyWorkers(['--output', join(folder, 'missing.json'), join(folder, 'large.jsonl')], small);
  const taken = [early.take(), early.take()];
  try {
    expect(taken.every((worker) => worker !== undefined)).toBe(true);
    expect(early.take()).toBeUndefined();
  } finally {
    for (const worker of taken) await worker?.terminate();
  }
});

test('workers started early read the input in ranges as workers started with their data: the single-thread report', async () => {
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
