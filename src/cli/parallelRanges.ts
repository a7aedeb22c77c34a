import { availableParallelism } from 'node:os';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { READ_CHUNK_BYTES } from '../io/fileSystem.js';
import { JsonListScanner, type ListPath } from '../readers/jsonListScanner.js';
import { summariseRange, type RangeSummary, type InputRange, type RangeProgress } from '../workflow/summariseRange.js';
import type { SummariseRanges } from '../workflow/readInputs.js';

/** How inputs are split over worker threads. */
export interface ParallelOptions {
  /** Inputs smaller than this stay on the main thread: a worker's start costs more than it saves. Default 16 MiB. */
  readonly minimumBytes?: number;
  /** How many threads read one input. Default: the machine's parallelism, at most 8. */
  readonly threads?: number;
  /** The worker's script; default the compiled `summariseWorker.js` beside this module (specs that run the sources name the build's). */
  readonly workerUrl?: URL;
}

const WINDOW_BYTES = 1024 * 1024;

/**
 * Reads each large JSON or NDJSON input as ranges, one worker thread each,
 * split between records: after a newline in NDJSON; in a JSON document,
 * before an element that follows `},` (a guess the ranges themselves confirm
 * or refute; a refuted guess reads the input in one piece instead).
 */
export function createParallelRanges({
  minimumBytes = 16 * 1024 * 1024,
  threads = Math.min(8, availableParallelism()),
  workerUrl = new URL('./summariseWorker.js', import.meta.url),
}: ParallelOptions = {}): SummariseRanges {
  return async (path, format, rules, progress) => {
    if (threads < 2) return undefined;
    // Looked at before it is opened: opening a FIFO would take the writer's
    // one stream from the read that follows, which would then wait forever.
    const stats = await stat(path).catch(() => undefined);
    if (stats === undefined || !stats.isFile() || stats.size < minimumBytes) return undefined;
    const handle = await open(path, 'r').catch(() => undefined);
    if (handle === undefined) return undefined;
    let plan: { starts: number[]; size: number; list?: { path: ListPath; depth: number } } | undefined;
    try {
      const size = (await handle.stat()).size;
      plan = await planRanges(handle, format, size, threads);
    } finally {
      await handle.close();
    }
    if (plan === undefined) return undefined;
    const { starts, size, list } = plan;
    const ranges = starts.map((start, index) => {
      const range: InputRange = {
        format,
        first: index === 0,
        last: index === starts.length - 1,
        list: index === 0 ? undefined : list,
        rules,
      };
      return { start, end: starts[index + 1] ?? size, range };
    });
    // Each range's records and bytes so far, summed for the progress line.
    const done = ranges.map(() => ({ records: 0, bytes: 0 }));
    const tell = (index: number): RangeProgress | undefined =>
      progress &&
      ((records, bytes) => {
        done[index] = { records, bytes };
        progress(
          done.reduce((sum, range) => sum + range.records, 0),
          done.reduce((sum, range) => sum + range.bytes, 0),
        );
      });
    // The workers are started first; this thread reads the first range meanwhile, rather than wait idle: one thread fewer to start and to hold.
    const [own, ...others] = ranges;
    const tellProgress = progress !== undefined;
    const jobs = others.map(({ start, end, range }, index) =>
      runWorker(workerUrl, { path, start, end, range, tellProgress }, tell(index + 1)),
    );
    const first = summariseRange(
      createReadStream(path, { start: own!.start, end: own!.end - 1, highWaterMark: READ_CHUNK_BYTES }),
      own!.range,
      { inThisThread: true, progress: tell(0) },
    );
    return Promise.all([first, ...jobs]);
  };
}

/** What a worker thread is given: its range of the file, and whether to tell its progress (summariseWorker.ts). */
export interface WorkerData {
  readonly path: string;
  readonly start: number;
  readonly end: number;
  readonly range: InputRange;
  readonly tellProgress: boolean;
}

function runWorker(workerUrl: URL, workerData: WorkerData, progress: RangeProgress | undefined): Promise<RangeSummary> {
  return new Promise((resolve, reject) => {
    // A small young generation: a range's records die young, so frequent cheap
    // collections keep each thread's heap small at no measurable cost in time
    // (npm run bench: 8 MB took the 5M inputs under 200 MB peak).
    const worker = new Worker(workerUrl, { workerData, resourceLimits: { maxYoungGenerationSizeMb: 8 } });
    // Progress messages ({ records, bytes }) come before the one result, which alone has `ok`.
    worker.on('message', (message: RangeSummary | { records: number; bytes: number }) => {
      if ('ok' in message) resolve(message);
      else progress?.(message.records, message.bytes);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`a worker thread reading ${workerData.path} stopped with exit code ${code}`));
    });
  });
}

async function planRanges(
  handle: Awaited<ReturnType<typeof open>>,
  format: 'json' | 'ndjson',
  size: number,
  threads: number,
): Promise<{ starts: number[]; size: number; list?: { path: ListPath; depth: number } } | undefined> {
  let list: { path: ListPath; depth: number } | undefined;
  const head = await readWindow(handle, 0, Math.min(size, WINDOW_BYTES));
  if (fewRecordsPerEndpoint(head, size)) return undefined;
  if (format === 'json') {
    // The list must open in the document's first megabyte, for the later ranges to know where they are.
    const scanner = new JsonListScanner([[], ['executions']]);
    try {
      scanner.push(head);
    } catch {
      return undefined;
    }
    const path = scanner.foundListPath();
    const depth = scanner.openListDepth();
    if (path === undefined || depth === undefined) return undefined;
    list = { path, depth };
  }
  const starts = [0];
  for (let part = 1; part < threads; part++) {
    const from = Math.floor((size * part) / threads);
    if (from <= starts[starts.length - 1]!) continue;
    const window = await readWindow(handle, from, Math.min(WINDOW_BYTES, size - from));
    const at = format === 'ndjson' ? ndjsonBoundary(window) : jsonBoundary(window);
    if (at !== undefined && from + at < size) starts.push(from + at);
  }
  return starts.length < 2 ? undefined : { starts, size, ...(list === undefined ? {} : { list }) };
}

/**
 * Whether the input looks like one of many endpoints each called a few
 * times, judged from its first megabyte: then it is read on one thread. Each
 * thread holds a tally for every endpoint its range meets, and the main
 * thread merges them, about 40 records' worth of reading an endpoint
 * (`npm run bench`, 50,000 endpoints x 10 records: one thread read it in
 * 1.1 s, two in 3.0 s). The endpoints are estimated from the distinct
 * endpoint values among the first records as if they were drawn at random
 * (d = E (1 - e^(-n/E)) for d distinct of n), the records from the file's
 * size; the threads read only when the records are at least 40 times the
 * endpoints. A wrong guess costs time, never a different report.
 */
function fewRecordsPerEndpoint(head: Buffer, size: number): boolean {
  const text = head.toString('latin1');
  const seen = new Set<string>();
  let sampled = 0;
  for (const [, endpoint] of text.matchAll(ENDPOINT_VALUE)) {
    sampled++;
    seen.add(endpoint!);
  }
  if (sampled < 100) return false;
  const records = (sampled * size) / head.length;
  return records < RECORDS_PER_ENDPOINT_FOR_THREADS * estimatedEndpoints(seen.size, sampled, records);
}

const ENDPOINT_VALUE = /"endpoint"\s*:\s*"((?:[^"\\]|\\.)*)"/g;
const RECORDS_PER_ENDPOINT_FOR_THREADS = 40;

/** The E for which E (1 - e^(-sampled/E)) is `distinct`, by bisection; at most `ceiling` (nearly every sampled one distinct). */
function estimatedEndpoints(distinct: number, sampled: number, ceiling: number): number {
  const expected = (endpoints: number) => endpoints * (1 - Math.exp(-sampled / endpoints));
  if (expected(ceiling) <= distinct) return ceiling;
  let low = distinct;
  let high = ceiling;
  for (let step = 0; step < 60; step++) {
    const middle = (low + high) / 2;
    if (expected(middle) < distinct) low = middle;
    else high = middle;
  }
  return high;
}

async function readWindow(handle: Awaited<ReturnType<typeof open>>, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

function ndjsonBoundary(window: Buffer): number | undefined {
  const newline = window.indexOf(0x0a);
  return newline < 0 ? undefined : newline + 1;
}

// The `{` of the first element that follows `}` and a comma.
function jsonBoundary(window: Buffer): number | undefined {
  const match = /\}\s*,\s*\{/.exec(window.toString('latin1'));
  return match === null ? undefined : match.index + match[0].length - 1;
}
