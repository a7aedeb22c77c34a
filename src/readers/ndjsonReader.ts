import { InputSyntaxError } from '../errors.js';
import { describeJsonParseFailure } from '../input/readInput.js';
import type { RecordBatch } from './recordBatch.js';

/** The longest line an NDJSON input may have, in bytes: one record never needs more. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

const NEWLINE = 0x0a;

/**
 * Reads NDJSON (JSON Lines): one record per line, blank lines ignored, CRLF
 * accepted, a leading byte-order mark ignored. The lines of each chunk are
 * parsed by one `JSON.parse` of `[` + the lines joined by commas + `]`; when
 * that fails, line by line, to name the line at fault. Every record carries
 * its line number.
 */
export async function* readNdjsonRecords(chunks: AsyncIterable<Buffer>, file: string): AsyncGenerator<RecordBatch> {
  let carry: Buffer | undefined;
  let nextLine = 1;
  let first = true;
  for await (const chunk of chunks) {
    let buffer = carry === undefined ? chunk : Buffer.concat([carry, chunk]);
    if (first && buffer.length < 3 && carry === undefined) {
      carry = buffer;
      continue;
    }
    if (first) {
      first = false;
      if (buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf) buffer = buffer.subarray(3);
    }
    const lastNewline = buffer.lastIndexOf(NEWLINE);
    if (lastNewline < 0) {
      if (buffer.length > MAX_LINE_BYTES) throw tooLong(nextLine, file);
      carry = buffer;
      continue;
    }
    carry = lastNewline === buffer.length - 1 ? undefined : buffer.subarray(lastNewline + 1);
    const batch = parseLines(buffer.toString('utf8', 0, lastNewline), nextLine, file);
    nextLine = batch.nextLine;
    if (batch.records.length > 0) yield batch;
  }
  if (carry !== undefined && carry.length > 0) {
    if (first && carry[0] === 0xef && carry[1] === 0xbb && carry[2] === 0xbf) carry = carry.subarray(3);
    const batch = parseLines(carry.toString('utf8'), nextLine, file);
    if (batch.records.length > 0) yield batch;
  }
}

function parseLines(text: string, firstLine: number, file: string): RecordBatch & { nextLine: number } {
  const lines = text.split('\n');
  const contents: string[] = [];
  const lineNumbers: number[] = [];
  for (let index = 0; index < lines.length; index++) {
    let line = lines[index]!;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() === '') continue;
    contents.push(line);
    lineNumbers.push(firstLine + index);
  }
  const nextLine = firstLine + lines.length;
  let records: unknown;
  try {
    records = contents.length === 0 ? [] : JSON.parse(`[${contents.join(',')}]`);
  } catch {
    records = undefined;
  }
  // A line holding two values (`1,2`) parses, but as too many elements.
  if (!Array.isArray(records) || records.length !== contents.length) records = contents.map((line, index) => parseLine(line, lineNumbers[index]!, file));
  const parsed = records as unknown[];
  return { records: parsed, location: (index) => ({ kind: 'line', line: lineNumbers[index]!, file }), nextLine };
}

function parseLine(line: string, lineNumber: number, file: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch (error) {
    const { detail, offset } = describeJsonParseFailure(error, line);
    throw new InputSyntaxError(`${detail} (line ${lineNumber} of ${file} is not a JSON value)`, { line: lineNumber, column: (offset ?? line.length) + 1 });
  }
}

function tooLong(line: number, file: string): InputSyntaxError {
  return new InputSyntaxError(`line ${line} of ${file} is longer than ${MAX_LINE_BYTES / 1048576} MB, the most one record may take`, { line, column: 1 });
}
