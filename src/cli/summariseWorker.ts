// The body of one worker thread: reads its region of an input's pieces,
// then halves of what the other threads left (see src/cli/rangeClaims.ts),
// and posts each range's summary back.
// A worker started early (earlyWorkers.ts) is given its data as its first message.
import { once } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import { ExecutionAccumulator } from '../summary/executionAccumulator.js';
import type { WorkerData, WorkerMessage } from './parallelRanges.js';
import { readPieces } from './rangeClaims.js';

const given = (workerData as WorkerData | undefined) ?? ((await once(parentPort!, 'message')) as [WorkerData])[0];
const { table, region, tellProgress } = given;
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
