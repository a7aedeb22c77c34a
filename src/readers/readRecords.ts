import { InputSyntaxError } from '../errors.js';
import type { RecordIssue } from '../issues/recordIssue.js';
import { formatFromContent, formatFromExtension } from './detectFormat.js';
import { readHarRecords } from './harReader.js';
import { readJsonRecords } from './jsonReader.js';
import { readNdjsonRecords } from './ndjsonReader.js';
import type { InputFormat, ReadTally, RecordBatch } from './recordBatch.js';

/** One input, opened: its name for messages and its bytes. */
export interface OpenedInput {
  /** The path as the user gave it, or `-` for standard input (named "standard input" in messages). */
  readonly name: string;
  readonly chunks: AsyncIterable<Buffer>;
  /** The format to read it as; when absent, from the extension, else from the first bytes. */
  readonly format?: InputFormat | undefined;
}

/** What every reader is told besides its input. */
export interface ReadOptions {
  readonly includeAssets: boolean;
  /** Whether messages name the input: when a run has several. NDJSON lines and HAR entries always name it. */
  readonly nameInput: boolean;
  readonly tally: ReadTally;
  readonly reportInvalid: (issue: RecordIssue) => void;
  /** JSON and NDJSON: whether the byte scanner reads the usual record shape (see recordScanner.ts); false parses every record. Default true. */
  readonly scanRecords?: boolean;
}

/**
 * The records of one input, in batches, whatever its format. A syntax error
 * names the input, its line and its column.
 */
export async function* readRecords(input: OpenedInput, options: ReadOptions): AsyncGenerator<RecordBatch> {
  const file = input.name === '-' ? 'standard input' : input.name;
  const { format, chunks } = await decideFormat(input);
  try {
    if (format === 'ndjson') yield* readNdjsonRecords(chunks, file, { scan: options.scanRecords });
    else if (format === 'har') yield* readHarRecords(chunks, file, options);
    else yield* readJsonRecords(chunks, options.nameInput ? file : undefined, { scan: options.scanRecords });
  } catch (error) {
    if (options.nameInput && error instanceof InputSyntaxError && error.file === undefined) throw error.inFile(file);
    throw error;
  }
}

// Peeks at the first chunk when the format must be told from the content, and puts it back.
async function decideFormat(input: OpenedInput): Promise<{ format: InputFormat; chunks: AsyncIterable<Buffer> }> {
  const named = input.format ?? (input.name === '-' ? undefined : formatFromExtension(input.name));
  if (named !== undefined) return { format: named, chunks: input.chunks };
  const iterator = input.chunks[Symbol.asyncIterator]();
  const first = await iterator.next();
  const head = first.done === true ? Buffer.alloc(0) : first.value;
  async function* replay(): AsyncGenerator<Buffer> {
    if (head.length > 0) yield head;
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value;
  }
  return { format: formatFromContent(head), chunks: replay() };
}
