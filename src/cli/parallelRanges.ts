import { stat } from 'node:fs/promises';
import type { Worker } from 'node:worker_threads';
import {
  PARALLEL_MINIMUM_BYTES,
  parallelThreads,
  PIECE_BYTES,
  startSummariseWorker,
  SUMMARISE_WORKER_URL,
  type EarlyWorkers,
} from './earlyWorkers.js';
import { readPieces, type PieceRange, type PieceTable } from './rangeClaims.js';
import { planInput, type RangePlan } from './rangePlan.js';
import type { EvidenceRules } from '../run/evidenceRules.js';
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
  /**
   * Workers the program started before it loaded (earlyWorkers.ts): the
   * first input read in ranges takes them, and the rest are then ended. When
   * the first of them planned that input already (with the same threads and
   * piece size), its plan is used, and the region it has been reading since.
   */
  readonly early?: EarlyWorkers;
}

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
  pieceBytes = PIECE_BYTES,
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
    const scouted = await early?.scouted();
    const useScouted = scouted?.plan !== undefined && (await isPlanFor(scouted.plan, { path, format, threads, minimumBytes, pieceBytes }));
    // A plan of another input (or none): the scout read for nothing, and ends.
    if (scouted !== undefined && !useScouted) void scouted.worker.terminate();
    const plan = useScouted ? scouted.plan : await planInput(path, format, { threads, minimumBytes, pieceBytes });
    if (plan === undefined) return undefined;
    const { regions } = plan;
    const table: PieceTable = { ...planTable(plan), rules };
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
      const region = index + 1;
      const workerData: WorkerData = { table, region, tellProgress: tell !== undefined };
      if (useScouted && region === 1) {
        // The worker that planned has read region 1 since: it is told only the rules.
        const orders: ScoutOrders = { rules, tellProgress: tell !== undefined };
        scouted.worker.postMessage(orders);
        return runWorker(scouted.worker, path, onRange, tell);
      }
      const worker = early?.take();
      worker?.postMessage(workerData);
      return runWorker(worker ?? startSummariseWorker(workerUrl, workerData), path, onRange, tell);
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

/** A plan's table of pieces, without the rules. */
export function planTable({ path, format, list, starts, regions, claims }: RangePlan): Omit<PieceTable, 'rules'> {
  return { path, format, list, starts, regions, claims };
}

// Whether a plan made early is this read's: the same path and format, planned as this thread would plan it, of the file as it is.
async function isPlanFor(
  plan: RangePlan,
  wanted: { path: string; format: string; threads: number; minimumBytes: number; pieceBytes: number },
): Promise<boolean> {
  if (plan.path !== wanted.path || plan.format !== wanted.format) return false;
  if (plan.threads !== wanted.threads || plan.pieceBytes !== wanted.pieceBytes || plan.size < wanted.minimumBytes) return false;
  const stats = await stat(wanted.path).catch(() => undefined);
  return stats !== undefined && stats.isFile() && stats.size === plan.size;
}

/** What the worker that planned an input early is told once the run knows its rules (summariseWorker.ts). */
export interface ScoutOrders {
  readonly rules: EvidenceRules;
  readonly tellProgress: boolean;
}

/** What a worker thread is given (summariseWorker.ts): the input's pieces, its own region of them, and whether to tell its progress. */
export interface WorkerData {
  readonly table: PieceTable;
  readonly region: number;
  readonly tellProgress: boolean;
}

/**
 * What a worker thread posts: the plan, first, when it is the one that
 * plans (earlyWorkers.ts); progress while it reads a range, each range read,
 * `finished` when nothing is left.
 */
export type WorkerMessage =
  | { readonly plan: RangePlan | undefined }
  | { readonly piece: number; readonly records: number; readonly bytes: number }
  | { readonly range: PieceRange }
  | { readonly finished: true };

function runWorker(
  worker: Worker,
  path: string,
  onRange: (range: PieceRange) => void,
  progress: ((piece: number, records: number, bytes: number) => void) | undefined,
): Promise<void> {
  return new Promise((resolve, reject) => {
    worker.on('message', (message: WorkerMessage) => {
      if ('finished' in message) resolve();
      else if ('range' in message) onRange(message.range);
      else if ('piece' in message) progress?.(message.piece, message.records, message.bytes);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`a worker thread reading ${path} stopped with exit code ${code}`));
      else resolve();
    });
  });
}
