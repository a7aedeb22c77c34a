import { expect, test } from './support/test.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RecordValidationError, InputSyntaxError, nodeFileSystem, type QualityToolConfig } from '../src/index.js';
import { createParallelRanges } from '../src/cli/parallelRanges.js';
import { runQualityWorkflow } from '../src/workflow/runQualityWorkflow.js';
import { rejectionOf } from './support/failures.js';
import { createTemporaryFolder, repositoryRoot } from './support/runProgram.js';

// Large inputs are read in byte ranges on worker threads. These specs force
// ranges on small files (a minimum of 1 byte, 3 threads, pieces of 4 KiB: a
// file of some 70 KB is cut into about 20 pieces, which the threads share as
// they come free, src/cli/rangeClaims.ts) and hold the result to the
// single-thread read: the same report, byte for byte, and the same messages.

const parallel = createParallelRanges({
  minimumBytes: 1,
  threads: 3,
  pieceBytes: 4096,
  workerUrl: pathToFileURL(join(repositoryRoot, '.build/src/cli/summariseWorker.js')),
});

async function both(
  files: Record<string, string>,
  inputs: string[],
  settings: Partial<QualityToolConfig> = {},
): Promise<[unknown, unknown]> {
  const folder = await createTemporaryFolder({}, 'parallel');
  for (const [name, content] of Object.entries(files)) await writeFile(join(folder, name), content);
  const config = (output: string): QualityToolConfig => ({
    environment: 'ci',
    slowResponseThresholdMs: 100,
    inputPath: '',
    outputPath: join(folder, output),
    ...settings,
  });
  const run = (output: string, summariseRanges?: typeof parallel) =>
    runQualityWorkflow(
      config(output),
      { fileSystem: nodeFileSystem, summariseRanges },
      { inputs: inputs.map((name) => ({ path: join(folder, name) })) },
    ).then(
      (result) => result.reportText,
      (error: unknown) => error,
    );
  return [await run('one-thread.json'), await run('threads.json', parallel)];
}

const record = (index: number) => ({
  id: `exec-${index}`,
  statusCode: index % 7 === 0 ? 503 : 200,
  endpoint: `GET /orders/${index % 13}`,
  responseTimeMs: (index * 37) % 250,
  ...(index % 5 === 0 ? { timingMs: { connect: 1, wait: 2 } } : {}),
});
const records = Array.from({ length: 600 }, (_, index) => record(index));

test('a second "executions" key after a list read in ranges is refused as a read in one piece refuses it', async () => {
  const document = `{"executions":${JSON.stringify(records, null, 2)},\n"executions":[]}`;
  const [oneThread, threads] = await both({ 'a.json': document }, ['a.json']);

  expect(oneThread).toBeInstanceOf(InputSyntaxError);
  expect((oneThread as Error).message).toContain('the key "executions" appears twice');
  expect(threads).toEqual(oneThread);
});

test('a JSON document read in ranges gives the single-thread report, byte for byte', async () => {
  const [oneThread, threads] = await both(
    { 'a.json': JSON.stringify({ meta: { note: '},{' }, executions: records, tail: [{ a: 1 }, { b: 2 }] }, null, 2) },
    ['a.json'],
  );
  expect(typeof oneThread).toBe('string');
  expect(threads).toBe(oneThread);
});

test('an NDJSON file and a bare-array document read in ranges, as several inputs, give the single-thread report', async () => {
  const files = { 'a.ndjson': records.map((item) => JSON.stringify(item)).join('\n'), 'b.json': JSON.stringify(records.slice(0, 100)) };
  const [oneThread, threads] = await both(files, ['a.ndjson', 'b.json']);
  expect(threads).toBe(oneThread);
});

test('ids learned from the labels are learned from the whole input when it is read in ranges on threads', async () => {
  const ids = ['8P0BlkWfpjRO60K1', 'x8vuEdxD5TSaJHKW', 'ayrsDqOPNRzETaaX', 'F9JnGndtow0cXMPp'];
  const withIds = records.map((item, index) => ({
    ...item,
    endpoint: index % 2 === 0 ? `DELETE /usuarios/${ids[index % 4]}` : 'DELETE /carrinhos/cancelar-compra',
  }));
  const [oneThread, threads] = await both({ 'a.ndjson': withIds.map((item) => JSON.stringify(item)).join('\n') }, ['a.ndjson'], {
    endpointGrouping: 'auto',
  });
  expect(threads).toBe(oneThread);
  expect((JSON.parse(oneThread as string) as { endpoints: { endpoint: string }[] }).endpoints.map(({ endpoint }) => endpoint)).toEqual([
    'DELETE /carrinhos/cancelar-compra',
    'DELETE /usuarios/:id',
  ]);
});

test('invalid records found in ranges are listed with the same locations and counts', async () => {
  const bad = records.map((item, index) => (index % 40 === 3 ? { ...item, statusCode: 700 } : item));
  const files = { 'a.json': JSON.stringify({ executions: bad }, null, 1), 'b.ndjson': bad.map((item) => JSON.stringify(item)).join('\n') };
  for (const name of ['a.json', 'b.ndjson']) {
    const [oneThread, threads] = await both(files, [name]);
    expect(oneThread).toBeInstanceOf(RecordValidationError);
    expect((threads as Error).message).toBe((oneThread as Error).message);
    expect((threads as RecordValidationError).unlistedRecordCount).toBe((oneThread as RecordValidationError).unlistedRecordCount);
  }
});

test('a syntax error in a later range is reported exactly as the single-thread read reports it', async () => {
  const text = JSON.stringify({ executions: records }, null, 2);
  const at = text.lastIndexOf('"statusCode": 200', Math.floor(text.length * 0.8));
  const broken = `${text.slice(0, at)}"statusCode": 2x0${text.slice(at + '"statusCode": 200'.length)}`;
  const [oneThread, threads] = await both({ 'a.json': broken }, ['a.json']);
  expect(oneThread).toBeInstanceOf(InputSyntaxError);
  expect((threads as Error).message).toBe((oneThread as Error).message);
});

test('strings that look like record boundaries do not split a document wrongly', async () => {
  const tricky = records.map((item, index) => ({ ...item, id: index % 3 === 0 ? '}, {"statusCode": 999}' : item.id }));
  const [oneThread, threads] = await both({ 'a.json': JSON.stringify(tricky) }, ['a.json']);
  expect(typeof oneThread).toBe('string');
  expect(threads).toBe(oneThread);
});

test('an input cut into many more pieces than threads gives the single-thread report whichever thread reads which piece', async () => {
  // This thread reads its region before a worker has loaded its modules, then takes halves of the workers' regions:
  // who reads what changes from run to run, never the report.
  const ndjson = records.map((item) => JSON.stringify(item)).join('\n');
  const json = JSON.stringify({ executions: records }, null, 1);
  for (const pieceBytes of [512, 2048]) {
    const pieces = createParallelRanges({
      minimumBytes: 1,
      threads: 2,
      pieceBytes,
      workerUrl: pathToFileURL(join(repositoryRoot, '.build/src/cli/summariseWorker.js')),
    });
    const folder = await createTemporaryFolder({ 'a.ndjson': ndjson, 'b.json': json }, 'parallel');
    for (const name of ['a.ndjson', 'b.json']) {
      const run = (summariseRanges?: typeof pieces) =>
        runQualityWorkflow(
          { environment: 'ci', slowResponseThresholdMs: 100, inputPath: '', outputPath: join(folder, 'out.json') },
          { fileSystem: nodeFileSystem, summariseRanges },
          { inputs: [{ path: join(folder, name) }] },
        ).then((result) => result.reportText);
      expect(await run(pieces)).toBe(await run());
    }
  }
});

test('a missing input is still reported as missing', async () => {
  const error = await rejectionOf(
    runQualityWorkflow(
      { environment: 'ci', slowResponseThresholdMs: 1, inputPath: '', outputPath: '/tmp/unused.json' },
      { fileSystem: nodeFileSystem, summariseRanges: parallel },
      { inputs: [{ path: '/no/such/file.json' }] },
    ),
  );
  expect((error as Error).message).toBe('cannot read the input file "/no/such/file.json": no such file or directory (ENOENT)');
});

test('the report is byte-identical whatever the order of the input files and the number of threads (no tied slowest executions)', async () => {
  const folder = await createTemporaryFolder({}, 'parallel');
  // Distinct times, so no two slowest executions tie: only ties keep their input order.
  const part = (offset: number) =>
    Array.from({ length: 300 }, (_, index) => ({ ...record(index), responseTimeMs: offset + index * 3 + (index % 11) / 16 }));
  await writeFile(join(folder, 'a.json'), JSON.stringify({ executions: part(0) }));
  await writeFile(
    join(folder, 'b.ndjson'),
    part(1)
      .map((item) => JSON.stringify(item))
      .join('\n'),
  );
  await writeFile(join(folder, 'c.json'), JSON.stringify(part(2)));
  const run = (order: readonly string[], summariseRanges?: ReturnType<typeof createParallelRanges>) =>
    runQualityWorkflow(
      { environment: 'ci', slowResponseThresholdMs: 100, inputPath: '', outputPath: join(folder, 'out.json') },
      { fileSystem: nodeFileSystem, summariseRanges },
      { inputs: order.map((name) => ({ path: join(folder, name) })) },
    ).then((result) => result.reportText);
  const workerUrl = pathToFileURL(join(repositoryRoot, '.build/src/cli/summariseWorker.js'));

  const reports = [
    await run(['a.json', 'b.ndjson', 'c.json']),
    await run(['c.json', 'a.json', 'b.ndjson']),
    await run(['b.ndjson', 'c.json', 'a.json'], createParallelRanges({ minimumBytes: 1, threads: 2, workerUrl })),
    await run(['a.json', 'c.json', 'b.ndjson'], createParallelRanges({ minimumBytes: 1, threads: 3, workerUrl })),
  ];

  expect(new Set(reports).size).toBe(1);
});

test('progress counts the records and bytes of inputs read in ranges on threads as they are read, ending at their totals', async () => {
  const folder = await createTemporaryFolder({}, 'parallel');
  const ndjson = records.map((item) => JSON.stringify(item)).join('\n');
  const json = JSON.stringify({ executions: records.slice(0, 100) });
  await writeFile(join(folder, 'a.ndjson'), ndjson);
  await writeFile(join(folder, 'b.json'), json);
  const told: [number, number][] = [];
  await runQualityWorkflow(
    { environment: 'ci', slowResponseThresholdMs: 100, inputPath: '', outputPath: join(folder, 'out.json') },
    { fileSystem: nodeFileSystem, summariseRanges: parallel, progress: (read, bytes) => told.push([read, bytes]) },
    { inputs: [{ path: join(folder, 'a.ndjson') }, { path: join(folder, 'b.json') }] },
  );
  const ndjsonBytes = Buffer.byteLength(ndjson);
  // Told by each of the three ranges of each input as it goes, not only once an input is done.
  expect(told.filter(([read, bytes]) => read < 600 && bytes < ndjsonBytes).length).toBeGreaterThan(0);
  expect(told).toContainEqual([600, ndjsonBytes]);
  expect(told.at(-1)).toEqual([700, ndjsonBytes + Buffer.byteLength(json)]);
  for (const [index, [read, bytes]] of told.entries()) {
    if (index > 0) expect(read >= told[index - 1]![0] && bytes >= told[index - 1]![1]).toBe(true);
  }
});

test('progress never counts back when an input read in ranges is read again in one piece for its message (an invalid record)', async () => {
  const folder = await createTemporaryFolder({}, 'parallel');
  // The last record is invalid: the ranges are read, then the input again in one piece, so that the message is the one-thread read's.
  // Many records, so that each read tells its progress several times (a chunk at a time).
  const many = Array.from({ length: 60_000 }, (_, index) => record(index));
  const bad = many.map((item, index) => (index === many.length - 1 ? { ...item, statusCode: 700 } : item));
  await writeFile(join(folder, 'a.ndjson'), bad.map((item) => JSON.stringify(item)).join('\n'));
  const told: [number, number][] = [];
  const failure = await runQualityWorkflow(
    { environment: 'ci', slowResponseThresholdMs: 100, inputPath: '', outputPath: join(folder, 'out.json') },
    { fileSystem: nodeFileSystem, summariseRanges: parallel, progress: (read, bytes) => told.push([read, bytes]) },
    { inputs: [{ path: join(folder, 'a.ndjson') }] },
  ).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(RecordValidationError);
  const counted = told.map(([read, bytes], index) => index === 0 || (read >= told[index - 1]![0] && bytes >= told[index - 1]![1]));
  expect(counted.indexOf(false)).toBe(-1);
  expect(told.at(-1)![0]).toBe(60_000);
});

// Each thread holds a tally for every endpoint its range meets, and the main thread merges them: for an input of many
// endpoints each called a few times, that costs more than the threads save (50,000 endpoints x 10 records: one thread
// 1.1 s, two 3.0 s), so it is read on one thread; an input of few endpoints called many times is split.
test('an input of many endpoints called a few times each is read on one thread; one of few endpoints, in ranges', async () => {
  const folder = await createTemporaryFolder({}, 'parallel-endpoints');
  const lines = (endpointOf: (index: number) => string) =>
    Array.from({ length: 3000 }, (_, index) =>
      JSON.stringify({ statusCode: 200, endpoint: endpointOf(index), responseTimeMs: index % 97 }),
    ).join('\n');
  const rules = { slowResponseThresholdMs: 100 };
  await writeFile(
    join(folder, 'many.ndjson'),
    lines((index) => `GET /items/${(index * 7919) % 1000}`),
  );
  await writeFile(
    join(folder, 'few.ndjson'),
    lines((index) => `GET /orders/${index % 13}`),
  );
  await writeFile(
    join(folder, 'many.json'),
    `{"executions":[${lines((index) => `GET /items/${(index * 7919) % 1000}`).replaceAll('\n', ',\n')}]}`,
  );

  expect(await parallel(join(folder, 'many.ndjson'), 'ndjson', rules)).toBeUndefined();
  expect(await parallel(join(folder, 'many.json'), 'json', rules)).toBeUndefined();
  // A range at least per thread (each reads its own region first), more when one takes half of what another left.
  expect((await parallel(join(folder, 'few.ndjson'), 'ndjson', rules))?.length).toBeGreaterThanOrEqual(3);
});
