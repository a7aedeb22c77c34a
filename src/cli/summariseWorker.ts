// The body of one worker thread: summarises one byte range of one input and
// posts the result back (see src/cli/parallelRanges.ts).
import { createReadStream } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { READ_CHUNK_BYTES } from '../io/fileSystem.js';
import { ExecutionAccumulator } from '../summary/executionAccumulator.js';
import { summariseRange, type InputRange } from '../workflow/summariseRange.js';

const { path, start, end, range } = workerData as { path: string; start: number; end: number; range: InputRange };
const chunks = createReadStream(path, { start, end: end - 1, highWaterMark: READ_CHUNK_BYTES });
const result = await summariseRange(chunks, range);
// The response-time samples are moved to the main thread, not copied.
parentPort?.postMessage(
  result,
  result.ok && !(result.summary instanceof ExecutionAccumulator) ? ExecutionAccumulator.transferables(result.summary) : [],
);
