import { open, stat } from 'node:fs/promises';
import type { Worker } from 'node:worker_threads';
import { PARALLEL_MINIMUM_BYTES, parallelThreads, startSummariseWorker, SUMMARISE_WORKER_URL, type EarlyWorkers } from './earlyWorkers.js';
import { JsonListScanner, type ListPath } from '../readers/jsonListScanner.js';
import { initialClaims, MAX_PIECES, readPieces, type PieceRange, type PieceTable } from './rangeClaims.js';
import type { SummariseRanges } from '../workflow/readInputs.js';

/** How inputs are split over worker threads. */
export interface ParallelOptions {
  /** Inputs smaller than this stay on the main thread: a worker's start costs more than it saves. Default 16 MiB. */
  readonly minimumBytes?: number;
  /** How many threads read one input. Default: the machine's parallelism, at most 8. */
  readonly threads?: number;
  /** The worker's script; default the compiled `summariseWorker.js` beside this module (specs that run the sources name the build's). */
  readonly workerUrl?: URL;
  /** About how many bytes a piece of an input holds (see rangeClaims.ts): the grain the threads share the input by. Default 2 MiB. */
  readonly pieceBytes?: number;
  /** Workers the program started before it loaded (earlyWorkers.ts): the first input read in ranges takes them, and the rest are then ended. */
  readonly early?: EarlyWorkers;
}

const WINDOW_BYTES = 1024 * 1024;
/** Where a cut between pieces is looked for: a record is shorter than this, or that cut is left out. */
const CUT_WINDOW_BYTES = 64 * 1024;

/**
 * Reads each large JSON or NDJSON input as ranges on this thread and worker
 * threads, cut between records: after a newline in NDJSON; in a JSON
 * document, before an element that follows `},` (a guess the ranges
 * themselves confirm or refute; a refuted guess reads the input in one piece
 * instead). The input is cut into pieces of about `pieceBytes`, which the
 * threads share as rangeClaims.ts says: each reads its own region, then
 * halves of what another has left.
 */
export function createParallelRanges({
  minimumBytes = PARALLEL_MINIMUM_BYTES,
  threads = parallelThreads(),
  workerUrl = SUMMARISE_WORKER_URL,
  pieceBytes = 2 * 1024 * 1024,
  early,
}: ParallelOptions = {}): SummariseRanges {
  return async (path, format, rules, progress) => {
    try {
      return await summariseInRanges(path, format, rules, progress);
    } finally {
      // Only the first input meets them waiting; one read in one piece does not need them.
      early?.release();
    }
  };

  async function summariseInRanges(...[path, format, rules, progress]: Parameters<SummariseRanges>): ReturnType<SummariseRanges> {
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
      plan = await planRanges(handle, format, size, Math.min(MAX_PIECES, Math.max(threads, Math.ceil(size / pieceBytes))));
    } finally {
      await handle.close();
    }
    if (plan === undefined) return undefined;
    const { starts, size, list } = plan;
    // Each thread's region: as many pieces each, the main thread's first.
    const regionCount = Math.min(threads, starts.length);
    const regions = Array.from({ length: regionCount }, (_, region) => Math.floor((region * starts.length) / regionCount));
    const table: PieceTable = {
      path,
      format,
      rules,
      list,
      starts: [...starts, size],
      regions,
      claims: initialClaims(regions, starts.length),
    };
    // Each range's records and bytes so far, by its first piece, summed for the progress line.
    const done = new Map<number, { records: number; bytes: number }>();
    const tell =
      progress &&
      ((piece: number, records: number, bytes: number) => {
        done.set(piece, { records, bytes });
        let [allRecords, allBytes] = [0, 0];
        for (const range of done.values()) [allRecords, allBytes] = [allRecords + range.records, allBytes + range.bytes];
        progress(allRecords, allBytes);
      });
    const ranges: PieceRange[] = [];
    const onRange = (range: PieceRange) => ranges.push(range);
    // The workers are started first; this thread reads its region meanwhile, rather than wait idle: one thread fewer to start and to hold.
    const workers = regions.slice(1).map((_, index) => {
      const workerData: WorkerData = { table, region: index + 1, tellProgress: tell !== undefined };
      const worker = early?.take();
      worker?.postMessage(workerData);
      return runWorker(worker ?? startSummariseWorker(workerUrl, workerData), workerData, onRange, tell);
    });
    // A worker that fails while this thread reads is answered once this thread is done (not an unhandled rejection meanwhile).
    const finished = Promise.all(workers);
    finished.catch(() => undefined);
    await readPieces(table, 0, onRange, { inThisThread: true, progress: tell });
    await finished;
    const failed = ranges.find(({ result }) => !result.ok);
    if (failed !== undefined) return [failed.result];
    return ranges.sort((a, b) => a.piece - b.piece).map(({ result }) => result);
  }
}

/** What a worker thread is given (summariseWorker.ts): the input's pieces, its own region of them, and whether to tell its progress. */
export interface WorkerData {
  readonly table: PieceTable;
  readonly region: number;
  readonly tellProgress: boolean;
}

/** What a worker thread posts: progress while it reads a range, each range read, `finished` when nothing is left. */
export type WorkerMessage =
  | { readonly piece: number; readonly records: number; readonly bytes: number }
  | { readonly range: PieceRange }
  | { readonly finished: true };

function runWorker(
  worker: Worker,
  workerData: WorkerData,
  onRange: (range: PieceRange) => void,
  progress: ((piece: number, records: number, bytes: number) => void) | undefined,
): Promise<void> {
  return new Promise((resolve, reject) => {
    worker.on('message', (message: WorkerMessage) => {
      if ('finished' in message) resolve();
      else if ('range' in message) onRange(message.range);
      else progress?.(message.piece, message.records, message.bytes);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`a worker thread reading ${workerData.table.path} stopped with exit code ${code}`));
      else resolve();
    });
  });
}

async function planRanges(
  handle: Awaited<ReturnType<typeof open>>,
  format: 'json' | 'ndjson',
  size: number,
  pieces: number,
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
  for (let piece = 1; piece < pieces; piece++) {
    const from = Math.floor((size * piece) / pieces);
    if (from <= starts[starts.length - 1]!) continue;
    const window = await readWindow(handle, from, Math.min(CUT_WINDOW_BYTES, size - from));
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
