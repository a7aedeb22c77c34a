// The body of one worker thread: reads its region of an input's pieces,
// then halves of what the other threads left (see src/cli/rangeClaims.ts),
// and posts each range's summary back.
import { parentPort, workerData } from 'node:worker_threads';
import { ExecutionAccumulator } from '../summary/executionAccumulator.js';
import type { WorkerData, WorkerMessage } from './parallelRanges.js';
import { readPieces } from './rangeClaims.js';

const { table, region, tellProgress } = workerData as WorkerData;
const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) => parentPort?.postMessage(message, transfer);
// Progress goes as small messages before the ranges, only when the command shows it.
const progress = tellProgress ? (piece: number, records: number, bytes: number) => post({ piece, records, bytes }) : undefined;
await readPieces(
  table,
  region,
  (range) => {
    const { result } = range;
    // The response-time samples are moved to the main thread, not copied.
    post(
      { range },
      result.ok && !(result.summary instanceof ExecutionAccumulator) ? ExecutionAccumulator.transferables(result.summary) : [],
    );
  },
  { progress },
);
post({ finished: true });
