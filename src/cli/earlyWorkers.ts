import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { formatFromExtension } from '../readers/detectFormat.js';

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
 * Whether the input is large enough is judged from the file alone, as
 * parallelRanges.ts judges it first. A worker started for an input that is
 * then read in one piece (many endpoints, or a document whose list opens
 * late) is ended unused: it cost a start on another core.
 */
export interface EarlyWorkers {
  /** A started worker waiting for its data (parallelRanges.ts's `WorkerData`) as a message, or undefined when none is left. */
  take(): Worker | undefined;
  /** Ends the workers not taken. */
  release(): void;
}

/** Inputs smaller than this stay on the main thread: a worker's start costs more than it saves. */
export const PARALLEL_MINIMUM_BYTES = 16 * 1024 * 1024;

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

const NONE: EarlyWorkers = { take: () => undefined, release: () => undefined };

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
  }: { readonly threads?: number; readonly minimumBytes?: number; readonly workerUrl?: URL } = {},
): EarlyWorkers {
  if (threads < 2 || !paths.some((path) => isLargeInput(path, minimumBytes))) return NONE;
  const waiting: Worker[] = [];
  for (let count = 1; count < threads; count++) {
    const worker = startSummariseWorker(workerUrl);
    worker.unref();
    // One that fails or stops while it waits is not given work: another is started then.
    const drop = () => {
      const at = waiting.indexOf(worker);
      if (at >= 0) waiting.splice(at, 1);
    };
    worker.once('error', drop);
    worker.once('exit', drop);
    waiting.push(worker);
  }
  return {
    take: () => {
      const worker = waiting.shift();
      // Taken, it holds the process again until it has posted what it read.
      worker?.ref();
      return worker;
    },
    release: () => {
      for (const worker of waiting.splice(0)) void worker.terminate();
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
