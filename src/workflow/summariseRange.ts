import { InputLimitError, InputSyntaxError } from '../errors.js';
import { CARRIAGE_RETURN, countLineBreaks } from '../input/lineBreaks.js';
import type { RecordIssue } from '../issues/recordIssue.js';
import { JsonListScanner, type ListPath } from '../readers/jsonListScanner.js';
import { readNdjsonRecords } from '../readers/ndjsonReader.js';
import type { RecordBatch } from '../readers/recordBatch.js';
import type { EvidenceRules } from '../records/evidenceRules.js';
import type { ExecutionData } from '../summary/executionAccumulator.js';
import { UnexplainedRecordError } from '../records/validateRecordList.js';
import { RecordIntake } from './recordIntake.js';

/**
 * One byte range of one input, summarised on its own (in a worker thread),
 * so that a large input is read by several threads at once and their
 * summaries merged. Ranges start and end between records: after a newline
 * in NDJSON; before an element of the list in a JSON document, a guess the
 * range before confirms (it must end between two elements) and a syntax
 * error inside the range rejects.
 */
export interface InputRange {
  readonly format: 'json' | 'ndjson';
  /** Which part of the input: the first holds the document's start, the last its end. */
  readonly first: boolean;
  readonly last: boolean;
  /** For a JSON range after the first: where the list is, as the first range found it. */
  readonly list?: { readonly path: ListPath; readonly depth: number } | undefined;
  readonly rules: EvidenceRules;
}

/** What a range yields: its summary, its problems with locations relative to the range, and what merging needs. */
export type RangeSummary =
  | {
      readonly ok: true;
      readonly summary: ExecutionData;
      readonly issues: readonly RecordIssue[];
      readonly recordCount: number;
      readonly invalidRecordCount: number;
      readonly unlistedRecordCount: number;
      /** JSON: the list elements the range read; NDJSON: its newlines. Offsets for the ranges after it. */
      readonly advance: number;
      /** JSON, first range: the list's path and depth; first and last: the skeleton bytes outside the list. */
      readonly list?: { readonly path: ListPath; readonly depth: number } | undefined;
      readonly skeleton?: Uint8Array | undefined;
    }
  /** The range could not be read on its own (a syntax error, or a guess the content refutes): read the input in one piece. */
  | { readonly ok: false; readonly reason: string };

/** Summarises one range from its bytes. Records are validated with locations relative to the range. */
export async function summariseRange(chunks: AsyncIterable<Buffer>, range: InputRange): Promise<RangeSummary> {
  const intake = new RecordIntake(range.rules);
  const take = intake.takeBatch.bind(intake);
  try {
    const extra = range.format === 'ndjson' ? await readNdjsonRange(chunks, take) : await readJsonRange(chunks, range, take);
    const { issues, recordCount, invalidRecordCount, unlistedRecordCount } = intake.validation.snapshot();
    return { ok: true, summary: intake.accumulator.toData({ sorted: true }), issues, recordCount, invalidRecordCount, unlistedRecordCount, ...extra };
  } catch (error) {
    // A syntax error, or an invalid record (a worker thread loads no zod to explain it): the input is read again in one piece, which says exactly what is wrong.
    if (error instanceof InputSyntaxError || error instanceof UnexplainedRecordError || error instanceof InputLimitError) return { ok: false, reason: error.message };
    throw error;
  }
}

async function readNdjsonRange(chunks: AsyncIterable<Buffer>, take: (batch: RecordBatch) => void): Promise<{ advance: number }> {
  // Lines end as the reader ends them (LF, CRLF, a CR alone); a range starts after a LF.
  let newlines = 0;
  let afterCarriageReturn = false;
  async function* counted(): AsyncGenerator<Buffer> {
    for await (const chunk of chunks) {
      newlines += countLineBreaks(chunk, 0, chunk.length, afterCarriageReturn).count;
      if (chunk.length > 0) afterCarriageReturn = chunk[chunk.length - 1] === CARRIAGE_RETURN;
      yield chunk;
    }
  }
  for await (const batch of readNdjsonRecords(counted(), '')) take(batch);
  return { advance: newlines };
}

async function readJsonRange(
  chunks: AsyncIterable<Buffer>,
  range: InputRange,
  take: (batch: RecordBatch) => void,
): Promise<{ advance: number; list?: { path: ListPath; depth: number }; skeleton?: Uint8Array }> {
  const scanner = range.first ? new JsonListScanner([[], ['executions']]) : new JsonListScanner([], { continueList: range.list });
  for await (const chunk of chunks) {
    const { elements, firstIndex } = scanner.push(chunk);
    if (elements.length === 0) continue;
    take({ records: elements, location: (index) => ({ kind: 'list', listPath: '', index: firstIndex + index }) });
  }
  const tail = scanner.finish();
  if (tail.elements.length > 0) take({ records: tail.elements, location: (index) => ({ kind: 'list', listPath: '', index: tail.firstIndex + index }) });
  const skeleton = scanner.endRange();
  if (!range.last && !scanner.isBetweenElements()) throw new InputSyntaxError('the range does not end between two records', undefined);
  if (range.last && scanner.openListDepth() !== undefined) throw new InputSyntaxError('the list does not end in the last range', undefined);
  const path = scanner.foundListPath();
  const depth = range.first ? scanner.openListDepth() : range.list?.depth;
  const list = path === undefined || depth === undefined ? undefined : { path, depth };
  return { advance: scanner.elementsRead(), ...(list === undefined ? {} : { list }), ...(range.first || range.last ? { skeleton } : {}) };
}
