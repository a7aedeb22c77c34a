import { InputSyntaxError } from '../errors.js';
import { CARRIAGE_RETURN, countLineBreaks } from '../input/lineBreaks.js';
import { JsonListScanner, type ListPath } from './jsonListScanner.js';
import { readNdjsonRecords } from './ndjsonReader.js';
import type { RecordBatch } from './recordBatch.js';
import { EndpointBytes } from './recordScanner.js';

/**
 * Where a byte range lies in its input. Ranges start and end between
 * records: after a newline in NDJSON; before an element of the list in a
 * JSON document, a guess the range before confirms (it must end between two
 * elements) and a syntax error inside the range rejects.
 */
export interface RangePlace {
  readonly format: 'json' | 'ndjson';
  /** Which part of the input: the first holds the document's start, the last its end. */
  readonly first: boolean;
  readonly last: boolean;
  /** For a JSON range after the first: where the list is, as the first range found it. */
  readonly list?: { readonly path: ListPath; readonly depth: number } | undefined;
}

/** What reading a range tells besides its records: what the ranges after it must know, and what checks the whole. */
export interface RangeRead {
  /** JSON: the list elements the range read; NDJSON: its newlines. Offsets for the ranges after it. */
  readonly advance: number;
  /** JSON, first range: the list's path and depth. */
  readonly list?: { readonly path: ListPath; readonly depth: number };
  /** JSON, first and last range: the skeleton bytes outside the list. */
  readonly skeleton?: Uint8Array;
}

/**
 * Reads the records of one range of an input, in batches with locations
 * relative to the range, handing each batch to `take`. Throws an
 * InputSyntaxError when the range cannot be read on its own.
 */
export function readRange(chunks: AsyncIterable<Buffer>, place: RangePlace, take: (batch: RecordBatch) => void): Promise<RangeRead> {
  return place.format === 'ndjson' ? readNdjsonRange(chunks, take) : readJsonRange(chunks, place, take);
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
  range: RangePlace,
  take: (batch: RecordBatch) => void,
): Promise<{ advance: number; list?: { path: ListPath; depth: number }; skeleton?: Uint8Array }> {
  const records = new EndpointBytes();
  const scanner = range.first
    ? new JsonListScanner([[], ['executions']], { records })
    : new JsonListScanner([], { continueList: range.list, records });
  for await (const chunk of chunks) {
    const { elements, firstIndex, scanned } = scanner.push(chunk);
    if (elements.length === 0) continue;
    take({
      records: elements,
      location: (index) => ({ kind: 'list', listPath: '', index: firstIndex + index }),
      ...(scanned === undefined ? {} : { scanned }),
    });
  }
  const tail = scanner.finish();
  if (tail.elements.length > 0)
    take({
      records: tail.elements,
      location: (index) => ({ kind: 'list', listPath: '', index: tail.firstIndex + index }),
      ...(tail.scanned === undefined ? {} : { scanned: tail.scanned }),
    });
  const skeleton = scanner.endRange();
  if (!range.last && !scanner.isBetweenElements()) throw new InputSyntaxError('the range does not end between two records', undefined);
  if (range.last && scanner.openListDepth() !== undefined) throw new InputSyntaxError('the list does not end in the last range', undefined);
  const path = scanner.foundListPath();
  const depth = range.first ? scanner.openListDepth() : range.list?.depth;
  const list = path === undefined || depth === undefined ? undefined : { path, depth };
  return { advance: scanner.elementsRead(), ...(list === undefined ? {} : { list }), ...(range.first || range.last ? { skeleton } : {}) };
}
