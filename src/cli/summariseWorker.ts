// The body of one worker thread: reads its region of an input's pieces,
// then halves of what the other threads left (see src/cli/rangeClaims.ts),
// and posts each range's summary back.
// A worker started early (earlyWorkers.ts) is given its data as its first
// message; the first of them plans the input itself and reads its region
// before the run's rules come (ScoutData, then ScoutOrders).
import { once } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import { ExecutionAccumulator } from '../summary/executionAccumulator.js';
import type { ScoutData } from './earlyWorkers.js';
import { planTable, type ScoutOrders, type WorkerData, type WorkerMessage } from './parallelRanges.js';
import { readPieces, type PieceRange, type ReadTable } from './rangeClaims.js';
import { planInput } from './rangePlan.js';

const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) => parentPort?.postMessage(message, transfer);
const nextMessage = async <Message>(): Promise<Message> => ((await once(parentPort!, 'message')) as [Message])[0];

// The response-time samples are moved to the main thread, not copied.
const postRange = (range: PieceRange) => {
  const { result } = range;
  post({ range }, result.ok && !(result.summary instanceof ExecutionAccumulator) ? ExecutionAccumulator.transferables(result.summary) : []);
};

// Reads the thread's region and what it takes of the others', then says it is done. Progress goes as small messages
// before the ranges, only when the command shows it (which the worker that plans learns with the rules).
async function read(table: ReadTable, region: number, progress?: (piece: number, records: number, bytes: number) => void): Promise<void> {
  await readPieces(table, region, postRange, { progress });
  post({ finished: true });
}

const postProgress = (piece: number, records: number, bytes: number) => post({ piece, records, bytes });

const given = workerData as WorkerData | ScoutData | undefined;
if (given !== undefined && 'scout' in given) {
  const { path, format, ...planning } = given.scout;
  const plan = await planInput(path, format, planning);
  post({ plan });
  if (plan !== undefined) {
    // Region 1 is read now; the rules, and whether to tell progress, come once the main thread has loaded.
    const orders = nextMessage<ScoutOrders>();
    let tellProgress = false;
    void orders.then((known) => (tellProgress = known.tellProgress));
    await read({ ...planTable(plan), rules: orders.then(({ rules }) => rules) }, 1, (piece, records, bytes) => {
      if (tellProgress) postProgress(piece, records, bytes);
    });
  }
  // Without a plan the main thread reads the input in one piece, and ends this worker.
} else {
  const { table, region, tellProgress } = given ?? (await nextMessage<WorkerData>());
  await read(table, region, tellProgress ? postProgress : undefined);
}
