// The body of one worker thread: summarises one byte range of one input and
// posts the result back (see src/cli/parallelRanges.ts).
import { createReadStream } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { READ_CHUNK_BYTES } from '../io/fileSystem.js';
import { ExecutionAccumulator } from '../summary/executionAccumulator.js';
import { summariseRange } from '../workflow/summariseRange.js';
import type { WorkerData } from './parallelRanges.js';

const { path, start, end, range, tellProgress } = workerData as WorkerData;
const chunks = createReadStream(path, { start, end: end - 1, highWaterMark: READ_CHUNK_BYTES });
// Progress goes as small messages before the result, only when the command shows it.
const progress = tellProgress ? (records: number, bytes: number) => parentPort?.postMessage({ records, bytes }) : undefined;
const result = await summariseRange(chunks, range, { progress });
// The response-time samples are moved to the main thread, not copied.
parentPort?.postMessage(
  result,
  result.ok && !(result.summary instanceof ExecutionAccumulator) ? ExecutionAccumulator.transferables(result.summary) : [],
);
