import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { formatFromExtension } from '../readers/detectFormat.js';
import type { RangePlan } from './rangePlan.js';

/**
 * Worker threads started before the program has loaded, for a large input.
 * A program takes about 130 ms of this thread to load before it reads a
 * record (bundled; 150 to 200 ms as the ES build's 300 modules), and a
 * worker thread about 100 ms to start and load its own: started first, a
 * worker loads while this thread does, and reads as soon as it is given
 * its pieces (parallelRanges.ts) instead of 100 ms after. This module loads
 * nothing of the program, so that a program can start its workers before
 * it imports the rest.
 *
 * The first of them does more: it plans the large input (rangePlan.ts, as
 * the main thread would plan it) and posts the plan, then reads its own
 * region at once, keeping the records it reads until the main thread has
 * loaded and tells it the run's rules (parallelRanges.ts's `ScoutOrders`).
 * So the worker reads from about 60 ms on, not from the 140 ms the main
 * thread takes to load and plan.
 *
 * Whether the input is large enough is judged from the file alone, as
 * parallelRanges.ts judges it first. A worker started for an input that is
 * then read in one piece (many endpoints, or a document whose list opens
 * late) is ended unused: it cost a start on another core, and the region
 * the planning one read.
 */
export interface EarlyWorkers {
  /**
   * The worker that planned the large input, with its plan (undefined when
   * the input is to be read in one piece), once it has posted it; undefined
   * when there is none, or it failed. The worker is the caller's from then on:
   * to tell it the rules, or to end.
   */
  scouted(): Promise<{ readonly plan: RangePlan | undefined; readonly worker: Worker } | undefined>;
  /** A started worker waiting for its data (parallelRanges.ts's `WorkerData`) as a message, or undefined when none is left. */
  take(): Worker | undefined;
  /** Ends the workers not taken. */
  release(): void;
}

/** What the worker that plans is started with (summariseWorker.ts). */
export interface ScoutData {
  readonly scout: {
    readonly path: string;
    readonly format: 'json' | 'ndjson';
    readonly threads: number;
    readonly minimumBytes: number;
    readonly pieceBytes: number;
  };
}

/** Inputs smaller than this stay on the main thread: a worker's start costs more than it saves. */
export const PARALLEL_MINIMUM_BYTES = 16 * 1024 * 1024;

/** About how many bytes a piece of a large input holds (see rangeClaims.ts): the grain the threads share it by. */
export const PIECE_BYTES = 2 * 1024 * 1024;

/** How many threads read one input: the machine's parallelism, at most 8. */
export function parallelThreads(): number {
  return Math.min(8, availableParallelism());
}

/** The compiled worker beside this module (summariseWorker.ts). */
export const SUMMARISE_WORKER_URL = new URL('./summariseWorker.js', import.meta.url);

/**
 * Starts a worker of summariseWorker.ts: given its data now, or, when
 * `workerData` is undefined, waiting for it as its first message.
 */
export function startSummariseWorker(workerUrl: URL, workerData?: unknown): Worker {
  // A small young generation: a range's records die young, so frequent cheap
  // collections keep each thread's heap small at no measurable cost in time
  // (npm run bench: 8 MB took the 5M inputs under 200 MB peak).
  return new Worker(workerUrl, { workerData, resourceLimits: { maxYoungGenerationSizeMb: 8 } });
}

const NONE: EarlyWorkers = { scouted: () => Promise.resolve(undefined), take: () => undefined, release: () => undefined };

/**
 * Starts the workers a large JSON or NDJSON input among `paths` will be read
 * with (one fewer than {@link parallelThreads}); none when no path names a
 * regular file of at least `minimumBytes` (default
 * {@link PARALLEL_MINIMUM_BYTES}) with a `.json`, `.ndjson` or `.jsonl`
 * name. A path that cannot be looked at is no large input (the run itself
 * says why it cannot be read). While they wait, the workers keep no process
 * alive.
 */
export function startEarlyWorkers(
  paths: readonly string[],
  {
    threads = parallelThreads(),
    minimumBytes = PARALLEL_MINIMUM_BYTES,
    workerUrl = SUMMARISE_WORKER_URL,
    pieceBytes = PIECE_BYTES,
  }: { readonly threads?: number; readonly minimumBytes?: number; readonly workerUrl?: URL; readonly pieceBytes?: number } = {},
): EarlyWorkers {
  const path = threads < 2 ? undefined : paths.find((candidate) => isLargeInput(candidate, minimumBytes));
  if (path === undefined) return NONE;
  const format = formatFromExtension(path) as 'json' | 'ndjson';
  const waiting: Worker[] = [];
  const start = (workerData?: ScoutData) => {
    const worker = startSummariseWorker(workerUrl, workerData);
    worker.unref();
    // One that fails or stops while it waits is not given work: another is started then.
    const drop = () => {
      const at = waiting.indexOf(worker);
      if (at >= 0) waiting.splice(at, 1);
    };
    worker.once('error', drop);
    worker.once('exit', drop);
    return worker;
  };
  const scout = start({ scout: { path, format, threads, minimumBytes, pieceBytes } });
  // The plan, or undefined when the scout failed or stopped before it posted one.
  const plan = new Promise<{ plan: RangePlan | undefined; worker: Worker } | undefined>((resolve) => {
    scout.once('message', (message: { plan: RangePlan | undefined }) => {
      resolve({ plan: message.plan, worker: scout });
    });
    scout.once('error', () => {
      resolve(undefined);
    });
    scout.once('exit', () => {
      resolve(undefined);
    });
  });
  let scoutTaken = false;
  for (let count = 2; count < threads; count++) waiting.push(start());
  return {
    scouted: async () => {
      scoutTaken = true;
      const scouted = await plan;
      // Taken, it holds the process again until it has posted what it read.
      scouted?.worker.ref();
      return scouted;
    },
    take: () => {
      const worker = waiting.shift();
      worker?.ref();
      return worker;
    },
    release: () => {
      for (const worker of waiting.splice(0)) void worker.terminate();
      if (!scoutTaken) void scout.terminate();
      scoutTaken = true;
    },
  };
}

function isLargeInput(path: string, minimumBytes: number): boolean {
  const format = formatFromExtension(path);
  if (format !== 'json' && format !== 'ndjson') return false;
  try {
    const stats = statSync(path, { throwIfNoEntry: false });
    return stats !== undefined && stats.isFile() && stats.size >= minimumBytes;
  } catch {
    return false;
  }
}
