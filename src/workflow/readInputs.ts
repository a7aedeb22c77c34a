import { InputUnreadableError } from '../errors.js';
import { isValidUtf8 } from '../input/utf8.js';
import { describeFileSystemFailure } from '../io/describeFileSystemFailure.js';
import type { FileSystem } from '../io/fileSystem.js';
import type { RecordLocation } from '../issues/location.js';
import type { RecordIssue } from '../issues/recordIssue.js';
import { formatFromExtension } from '../readers/detectFormat.js';
import { createReadTally, type InputFormat } from '../readers/recordBatch.js';
import { readRecords, type OpenedInput } from '../readers/readRecords.js';
import type { EvidenceRules } from '../run/evidenceRules.js';
import { ExecutionAccumulator, type SlowExecution } from '../summary/executionAccumulator.js';
import type { EvidenceRun } from '../run/evidenceRun.js';
import type { RangeSummary } from './summariseRange.js';

/** What reading inputs needs from outside: the file system, standard input, and optionally progress and threads. */
export interface InputDependencies {
  /** All file access goes through this; tests pass an in-memory one. */
  readonly fileSystem: FileSystem;
  /** Standard input, for an input named `-`. */
  readonly stdin?: AsyncIterable<Buffer> | undefined;
  /** Told after each batch how many records and bytes have been read so far. */
  readonly progress?: ((records: number, bytes: number) => void) | undefined;
  /**
   * Reads a large JSON or NDJSON file as several ranges at once (worker
   * threads), giving each range's summary in order; undefined when the file
   * should be read in one piece. Without it, every input is read on this thread.
   */
  readonly summariseRanges?: SummariseRanges | undefined;
}

/** See {@link InputDependencies.summariseRanges}. */
export type SummariseRanges = (
  path: string,
  format: 'json' | 'ndjson',
  rules: EvidenceRules,
  /** Told the records and bytes of this input read so far, when progress is shown. */
  progress?: (records: number, bytes: number) => void,
) => Promise<readonly RangeSummary[] | undefined>;

/** One input of a run: a path, or `-` for standard input, and its format when it is forced. */
export interface WorkflowInput {
  readonly path: string;
  readonly format?: InputFormat | undefined;
}

/**
 * Reads the inputs one after another into the run, as one read of their
 * concatenation: each as a stream of located records in batches, or, when
 * threads are given and the input is large, as ranges read at once whose
 * parts the run absorbs. Says how many HAR asset entries were left out,
 * when a HAR file was read.
 */
export async function readInputs(
  run: EvidenceRun,
  inputs: readonly WorkflowInput[],
  rules: EvidenceRules,
  { fileSystem, stdin, progress, summariseRanges }: InputDependencies,
  includeAssets: boolean,
): Promise<{ skippedAssetCount: number | undefined }> {
  const tally = createReadTally();
  const read = { records: 0, bytes: 0 };
  const reportInvalid = run.takeInvalid.bind(run);
  for (const input of inputs) {
    const format = input.path === '-' ? undefined : (input.format ?? formatFromExtension(input.path));
    run.startInput(input.path === '-' ? 'standard input' : input.path);
    // What the progress has said of this input: read again in one piece after its ranges, it is not counted back.
    const told = { records: 0, bytes: 0 };
    if (summariseRanges !== undefined && (format === 'json' || format === 'ndjson')) {
      let rangeBytes = 0;
      const tell =
        progress &&
        ((records: number, bytes: number) => {
          rangeBytes = bytes;
          told.records = read.records + records;
          told.bytes = read.bytes + bytes;
          progress(told.records, told.bytes);
        });
      const ranges = await summariseRanges(input.path, format, rules, tell);
      const parts = ranges === undefined ? undefined : partsOfOneRead(ranges, format, input.path, inputs.length > 1);
      if (parts !== undefined) {
        for (const part of parts) {
          run.absorb(part);
          read.records += part.recordCount;
        }
        read.bytes += rangeBytes;
        progress?.(read.records, read.bytes);
        continue;
      }
    }
    const opened = await openInput(input, fileSystem, stdin);
    const counted = progress === undefined ? opened : { ...opened, chunks: countBytes(opened.chunks, read) };
    for await (const batch of readRecords(counted, { includeAssets, tally, reportInvalid, nameInput: inputs.length > 1 })) {
      run.takeBatch(batch);
      read.records += batch.records.length;
      progress?.(Math.max(read.records, told.records), Math.max(read.bytes, told.bytes));
    }
  }
  return { skippedAssetCount: tally.readHar ? tally.skippedAssetCount : undefined };
}

/**
 * The ranges of one input as parts of one read: locations made absolute
 * (list indexes and lines shifted by the ranges before), and, for a JSON
 * document, its skeleton (the first range's prefix and the last's suffix)
 * checked whole. Undefined when any range could not be read on its own, or
 * the document is not what one read would accept: then it is read in one
 * piece, which also gives the exact message.
 */
function partsOfOneRead(
  ranges: readonly RangeSummary[],
  format: 'json' | 'ndjson',
  path: string,
  nameInput: boolean,
): (RangeSummary & { ok: true })[] | undefined {
  const file = nameInput ? path : undefined;
  const parts: (RangeSummary & { ok: true })[] = [];
  for (const range of ranges) {
    if (!range.ok) return undefined;
    parts.push(range);
  }
  if (format === 'json') {
    const first = parts[0];
    const last = parts[parts.length - 1];
    if (first?.skeleton === undefined || last?.skeleton === undefined || first.list === undefined) return undefined;
    try {
      const bytes = Buffer.concat([first.skeleton, last.skeleton]);
      if (!isValidUtf8(bytes)) return undefined;
      const skeleton: unknown = JSON.parse(bytes.toString('utf8'));
      const list = first.list.path.length === 0 ? skeleton : (skeleton as Record<string, unknown> | null)?.['executions'];
      // A list with elements here is a second "executions" key, which a read in one piece refuses.
      if (!Array.isArray(list) || list.length > 0) return undefined;
    } catch {
      return undefined;
    }
  }
  const listPath = parts[0]?.list?.path.join('.') ?? '';
  let offset = 0;
  return parts.map((part) => {
    const shift = offset;
    offset += part.advance;
    const absolute = (location: RecordLocation, named: string | undefined): RecordLocation => {
      if (location.kind === 'list') return { kind: 'list', listPath, index: location.index + shift, file: named };
      if (location.kind === 'line') return { kind: 'line', line: location.line + shift, file: path };
      return location;
    };
    const issues = part.issues.map((issue): RecordIssue => ({ ...issue, location: absolute(issue.location, file) }));
    // The slowest and the failed executions always name their file.
    const located = <Execution extends { readonly location?: RecordLocation | undefined }>(execution: Execution): Execution =>
      execution.location === undefined ? execution : { ...execution, location: absolute(execution.location, path) };
    const { summary } = part;
    if (summary instanceof ExecutionAccumulator) {
      summary.relocate(located);
      return { ...part, issues };
    }
    const slowest = summary.slowest.map((execution): SlowExecution => located(execution));
    const details = summary.details.map((detail) =>
      detail.evidence === undefined ? detail : { ...detail, evidence: { ...detail.evidence, failed: detail.evidence.failed.map(located) } },
    );
    return { ...part, issues, summary: { ...summary, slowest, details } };
  });
}

async function* countBytes(chunks: AsyncIterable<Buffer>, read: { bytes: number }): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    read.bytes += chunk.length;
    yield chunk;
  }
}

async function openInput(
  { path, format }: WorkflowInput,
  fileSystem: FileSystem,
  stdin: AsyncIterable<Buffer> | undefined,
): Promise<OpenedInput> {
  if (path === '-') {
    if (stdin === undefined) throw new InputUnreadableError('-', 'standard input is not available here');
    return { name: '-', chunks: stdin, format };
  }
  try {
    return { name: path, chunks: failingAsUnreadable(await fileSystem.openChunks(path), path), format };
  } catch (error) {
    throw new InputUnreadableError(path, describeFileSystemFailure(error), { cause: error });
  }
}

// A read that fails half-way (EIO, a file on a network share gone) is the input's failure, named like one that cannot be opened.
async function* failingAsUnreadable(chunks: AsyncIterable<Buffer>, path: string): AsyncGenerator<Buffer> {
  try {
    yield* chunks;
  } catch (error) {
    throw new InputUnreadableError(path, describeFileSystemFailure(error), { cause: error });
  }
}
