import { InputSyntaxError } from '../errors.js';
import { describeJsonParseFailure } from '../input/parseInputJson.js';
import { CARRIAGE_RETURN, countLineBreaks, LINE_FEED, splitLines } from '../input/lineBreaks.js';
import { describeInvalidUtf8, firstInvalidUtf8 } from '../input/utf8.js';
import { ScannedColumns, type RecordBatch } from './recordBatch.js';
import { EndpointBytes, scanRecord, type ScannedFields } from './recordScanner.js';

/** How an NDJSON input is read. */
export interface NdjsonOptions {
  /**
   * Whether lines of the usual record shape are read by the byte scanner (recordScanner.ts); false parses every line, as before
   * the scanner (a spec holds the two alike). Default true.
   */
  readonly scan?: boolean | undefined;
}

/** The longest line an NDJSON input may have, in bytes: one record never needs more. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Reads NDJSON (JSON Lines): one record per line, blank lines ignored, lines
 * ended by LF, CRLF or a CR alone, a leading byte-order mark ignored, UTF-8
 * decoded strictly. The lines of each chunk are parsed by one `JSON.parse`
 * of `[` + the lines joined by commas + `]`; when that fails, line by line,
 * to name the line at fault. Every record carries its line number. A line
 * is held until it ends, its chunks kept apart (never copied again as each
 * arrives), and a line longer than {@link MAX_LINE_BYTES} is an error, so
 * memory stays bounded for any input, `/dev/zero` included.
 */
export async function* readNdjsonRecords(
  chunks: AsyncIterable<Buffer>,
  file: string,
  { scan = true }: NdjsonOptions = {},
): AsyncGenerator<RecordBatch> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let nextLine = 1;
  // Whether the bytes before the pending ones end with a CR, whose LF may come first in the next chunk.
  let afterCarriageReturn = false;
  const endpoints = scan ? new EndpointBytes() : undefined;
  for await (const chunk of withoutByteOrderMark(chunks)) {
    const end = lastLineBreakEnd(chunk);
    if (end < 0) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes > MAX_LINE_BYTES) throw tooLong(nextLine, file);
      continue;
    }
    // The line begun in earlier chunks is joined with its end alone; the chunk's other whole lines are read where they are, never copied.
    const headEnd = pending.length === 0 ? 0 : firstLineBreakEnd(chunk);
    const head = pending.length === 0 ? undefined : Buffer.concat([...pending, chunk.subarray(0, headEnd)]);
    const lines = chunk.subarray(headEnd, end);
    const linesAfterCarriageReturn = head === undefined ? afterCarriageReturn : chunk[headEnd - 1] === CARRIAGE_RETURN;
    // Both checked before either is parsed, as one stretch of bytes would be: the first invalid byte is the error.
    if (head !== undefined) checkUtf8(head, nextLine, file, false);
    checkUtf8(lines, nextLine + (head === undefined ? 0 : 1), file, linesAfterCarriageReturn);
    pending = end < chunk.length ? [chunk.subarray(end)] : [];
    pendingBytes = chunk.length - end;
    const parts = head === undefined ? [] : [parseLines(head, nextLine, file, false, true, endpoints)];
    parts.push(parseLines(lines, nextLine + parts.length, file, linesAfterCarriageReturn, true, endpoints));
    afterCarriageReturn = chunk[end - 1] === CARRIAGE_RETURN;
    nextLine = parts[parts.length - 1]!.nextLine;
    for (const batch of parts) if (batch.records.length > 0) yield batch;
  }
  if (pendingBytes > 0) {
    const rest = Buffer.concat(pending);
    checkUtf8(rest, nextLine, file, afterCarriageReturn);
    const batch = parseLines(rest, nextLine, file, afterCarriageReturn, false, endpoints);
    if (batch.records.length > 0) yield batch;
  }
}

/** The offset just after the first CR or LF in a chunk that has one. */
function firstLineBreakEnd(chunk: Buffer): number {
  const feed = chunk.indexOf(LINE_FEED);
  const carriageReturn = chunk.indexOf(CARRIAGE_RETURN);
  return (feed < 0 ? carriageReturn : carriageReturn < 0 ? feed : Math.min(feed, carriageReturn)) + 1;
}

/** The offset just after the last CR or LF in a chunk, or -1. */
function lastLineBreakEnd(chunk: Buffer): number {
  const at = Math.max(chunk.lastIndexOf(LINE_FEED), chunk.lastIndexOf(CARRIAGE_RETURN));
  return at < 0 ? -1 : at + 1;
}

async function* withoutByteOrderMark(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let opening: Buffer | undefined = Buffer.alloc(0);
  for await (const chunk of chunks) {
    if (opening === undefined) {
      yield chunk;
      continue;
    }
    opening = Buffer.concat([opening, chunk]);
    if (opening.length < 3 && BYTE_ORDER_MARK.subarray(0, opening.length).equals(opening)) continue;
    yield opening.subarray(0, 3).equals(BYTE_ORDER_MARK) ? opening.subarray(3) : opening;
    opening = undefined;
  }
  if (opening !== undefined && opening.length > 0) yield opening.subarray(0, 3).equals(BYTE_ORDER_MARK) ? opening.subarray(3) : opening;
}

/**
 * Parses whole lines. `endsWithBreak`: the bytes end with a line break (the
 * last chunk may not). `afterCarriageReturn`: a LF first in the bytes ends
 * the line a CR before them ended already. A line of the usual record shape
 * is read by the byte scanner (recordScanner.ts) into columns; every other
 * line is decoded and parsed as before, all of a batch's by one `JSON.parse`.
 */
function parseLines(
  bytes: Buffer,
  firstLine: number,
  file: string,
  afterCarriageReturn: boolean,
  endsWithBreak: boolean,
  endpoints: EndpointBytes | undefined,
): RecordBatch & { nextLine: number } {
  if (endpoints === undefined) return parseWholeLines(bytes, firstLine, file, afterCarriageReturn, endsWithBreak);
  const columns = new ScannedColumns(bytes, endpoints, file);
  const rawLines: string[] = [];
  const rawEntries: number[] = [];
  const lineStart = afterCarriageReturn && bytes[0] === LINE_FEED ? 1 : 0;
  const { line, count } = scanLines(bytes, lineStart, firstLine, endsWithBreak, { endpoints, columns, rawLines, rawEntries });
  // One place a record, made at once when the batch is read (pushed to one by one, the list was copied as it grew: a
  // tenth of a read's garbage); a scanned record's place holds undefined.
  const records = new Array<unknown>(count).fill(undefined);
  parsedLines(rawLines, (index) => columns.lineOf(rawEntries[index]!), file).forEach((record, index) => {
    records[rawEntries[index]!] = record;
  });
  return { records, location: (index) => ({ kind: 'line', line: columns.lineOf(index), file }), scanned: columns, nextLine: line };
}

/** Where {@link scanLines} puts what it reads. */
interface ScannedLines {
  readonly endpoints: EndpointBytes;
  readonly columns: ScannedColumns;
  /** The lines the scanner did not recognise, to be parsed, and the index of each one's record. */
  readonly rawLines: string[];
  readonly rawEntries: number[];
}

/**
 * The loop of {@link parseLines}, a function of its own: it runs once a
 * batch, and compiled apart from what parseLines does after it (parse the
 * lines the scanner left, and make the batch), it never reaches code the
 * compiler saw no run of. Compiled as part of parseLines, while still in its
 * first loop, it was thrown away at the end of every batch (80 times a
 * thread on 1M records). Returns the number of the line after the last, and
 * how many records the lines hold (blank lines hold none).
 */
function scanLines(
  bytes: Buffer,
  from: number,
  firstLine: number,
  endsWithBreak: boolean,
  into: ScannedLines,
): { line: number; count: number } {
  const { endpoints, columns, rawLines, rawEntries } = into;
  let count = 0;
  const hasCarriageReturn = bytes.includes(CARRIAGE_RETURN);
  const fields: ScannedFields = { endpoint: 0, statusCode: 0, responseTimeMs: 0, idStart: -1, idEnd: -1 };
  let line = firstLine;
  let lineStart = from;
  for (;;) {
    const lineEnd = hasCarriageReturn ? lineBreakAt(bytes, lineStart) : bytes.indexOf(LINE_FEED, lineStart);
    const last = lineEnd < 0;
    // The bytes after the last break are a line only when no break ends them (the input's last line).
    if (last && endsWithBreak) break;
    const end = last ? bytes.length : lineEnd;
    if (scanRecord(bytes, lineStart, end, endpoints, fields)) {
      columns.add(count++, fields, line, lineStart, end);
    } else {
      const text = bytes.toString('utf8', lineStart, end);
      if (text.trim() !== '') {
        columns.addUnscanned(count, line);
        rawEntries.push(count++);
        rawLines.push(text);
      }
    }
    line++;
    if (last) break;
    lineStart = lineEnd + (bytes[lineEnd] === CARRIAGE_RETURN && bytes[lineEnd + 1] === LINE_FEED ? 2 : 1);
  }
  return { line, count };
}

/** {@link parseLines} without the scanner: the bytes decoded at once, split into lines, and every line parsed (all of them by one `JSON.parse`). */
function parseWholeLines(
  bytes: Buffer,
  firstLine: number,
  file: string,
  afterCarriageReturn: boolean,
  endsWithBreak: boolean,
): RecordBatch & { nextLine: number } {
  let text = bytes.toString('utf8');
  if (afterCarriageReturn && text.startsWith('\n')) text = text.slice(1);
  const lines = splitLines(text);
  if (endsWithBreak) lines.pop();
  const contents: string[] = [];
  const lineNumbers: number[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.trim() === '') continue;
    contents.push(line);
    lineNumbers.push(firstLine + index);
  }
  return {
    records: parsedLines(contents, (index) => lineNumbers[index]!, file),
    location: (index) => ({ kind: 'line', line: lineNumbers[index]!, file }),
    nextLine: firstLine + lines.length,
  };
}

/** Throws when the bytes (whole lines, the first numbered `firstLine`) are not UTF-8, naming the line and column of the first invalid byte. */
function checkUtf8(bytes: Buffer, firstLine: number, file: string, afterCarriageReturn: boolean): void {
  const invalid = firstInvalidUtf8(bytes);
  if (invalid < 0) return;
  const before = countLineBreaks(bytes, 0, invalid, afterCarriageReturn);
  const line = firstLine + before.count;
  const column = bytes.toString('utf8', Math.max(0, before.lastLineStart), invalid).length + 1;
  throw new InputSyntaxError(`${describeInvalidUtf8(bytes, invalid)} (line ${line} of ${file})`, { line, column });
}

// The offset of the next CR or LF from `from`, or -1.
function lineBreakAt(bytes: Buffer, from: number): number {
  for (let at = from; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === LINE_FEED || byte === CARRIAGE_RETURN) return at;
  }
  return -1;
}

/** Lines parsed, all by one `JSON.parse`; when that fails, line by line, to name the line at fault (`lineOf` its number). */
function parsedLines(lines: readonly string[], lineOf: (index: number) => number, file: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = lines.length === 0 ? [] : JSON.parse(`[${lines.join(',')}]`);
  } catch {
    parsed = undefined;
  }
  // A line holding two values (`1,2`) parses, but as too many elements.
  if (!Array.isArray(parsed) || parsed.length !== lines.length) return lines.map((line, index) => parseLine(line, lineOf(index), file));
  return parsed as unknown[];
}

function parseLine(line: string, lineNumber: number, file: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch (error) {
    const { detail, offset } = describeJsonParseFailure(error, line);
    throw new InputSyntaxError(`${detail} (line ${lineNumber} of ${file} is not a JSON value)`, {
      line: lineNumber,
      column: (offset ?? line.length) + 1,
    });
  }
}

function tooLong(line: number, file: string): InputSyntaxError {
  return new InputSyntaxError(`line ${line} of ${file} is longer than ${MAX_LINE_BYTES / 1048576} MB, the most one record may take`, {
    line,
    column: 1,
  });
}
