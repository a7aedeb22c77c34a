import { InputSyntaxError } from '../errors.js';
import { describeJsonParseFailure } from '../input/parseInputJson.js';
import { CARRIAGE_RETURN, countLineBreaks, LINE_FEED } from '../input/lineBreaks.js';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE, SPACE, TAB } from '../input/jsonBytes.js';
import { describeInvalidUtf8, firstInvalidUtf8, isValidUtf8 } from '../input/utf8.js';
import { ScannedColumns } from './recordBatch.js';
import { scanRecordAt, skipBlanks, type EndpointBytes, type ScannedFields } from './recordScanner.js';

/**
 * Streams the elements of one list inside a JSON document (`executions` of
 * `{ "executions": [...] }`, the document itself when it is an array, or
 * `log.entries` of a HAR file) without ever holding the document as one
 * string: bytes go in chunk by chunk, and each chunk's complete elements come
 * out parsed by one `JSON.parse` of `[` + their text + `]`. Everything outside
 * the list (the skeleton) is kept, with the list emptied, and parsed at the
 * end, so the document's syntax is checked whole and its top-level shape can
 * be judged exactly as `JSON.parse` would see it.
 *
 * The scanner tracks only what it needs to find element boundaries: string
 * state, nesting depth, and the keys on the way to the list. Syntax errors are
 * found by `JSON.parse` and located by line and column (the column counts
 * characters from the start of the line when that start is in the buffer at
 * hand, bytes otherwise). Lines end at LF, CRLF or a CR alone.
 * Bytes are decoded strictly as UTF-8: an invalid byte is a syntax error at
 * its place. A second key naming the list (`"executions"` twice) is refused:
 * `JSON.parse` would keep only the last list, dropping the records of the
 * first without a word.
 */

const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);

/** The largest element (one record, one HAR entry) the scanner holds, in bytes. */
const DEFAULT_MAX_ELEMENT_BYTES = 64 * 1024 * 1024;
/** The largest carried element that is scanned again from its start, for the fast path's sake. */
const MAX_RESCAN_BYTES = 1024 * 1024;
/** The largest skeleton (the document outside the list) the scanner holds, in bytes. */
const MAX_SKELETON_BYTES = 64 * 1024 * 1024;

/** The parsed elements of one chunk, with the list index of the first. */
export interface ElementBatch {
  readonly elements: readonly unknown[];
  readonly firstIndex: number;
  /** When every element was a record the byte scanner read: their fields (`elements` then holds undefined). */
  readonly scanned?: ScannedColumns;
}

/**
 * The records of `buffer[0, end)` (elements between two of the list's
 * commas: whitespace, a record, a comma, …) when the byte scanner reads every
 * one; undefined when any is not of the usual shape, and the chunk is then
 * parsed as a whole. Scanned records are valid JSON, so a successful scan
 * proves the cut as a successful parse does.
 */
function scanElements(buffer: Buffer, end: number, endpoints: EndpointBytes): { count: number; columns: ScannedColumns } | undefined {
  const columns = new ScannedColumns(buffer, endpoints);
  const fields: ScannedFields = { endpoint: 0, statusCode: 0, responseTimeMs: 0, idStart: -1, idEnd: -1 };
  let count = 0;
  for (let at = 0; ;) {
    const start = skipBlanks(buffer, at, end);
    const after = scanRecordAt(buffer, start, end, endpoints, fields);
    if (after < 0) return undefined;
    columns.add(count++, fields, 0, start, after);
    at = skipBlanks(buffer, after, end);
    if (at === end) return { count, columns };
    if (buffer[at] !== COMMA) return undefined;
    at++;
  }
}

/** Where the list is: `[]` for a top-level array, `['executions']`, `['log', 'entries']`. */
export type ListPath = readonly string[];

/** What the scanner found once the document has ended. */
export interface ScannedDocument {
  /** The document with the list emptied, parsed; undefined when the list was never found. */
  readonly skeleton: unknown;
  /** Whether a list was found at one of the paths (`foundListPath` says which). */
  readonly listFound: boolean;
}

interface SkeletonSegment {
  /** Byte offset of the segment in the skeleton. */
  readonly skeletonOffset: number;
  /** Byte offset of the segment in the document. */
  readonly documentOffset: number;
  /** 1-based line of the segment's first byte, and the document offset where that line starts. */
  readonly line: number;
  readonly lineStart: number;
}

/**
 * Where the scan stands in the document. Each place is scanned by a method of
 * its own, which stops at the byte where the place changes.
 *
 * - `before list`: in the skeleton, the list not found yet. Every byte is
 *   skeleton: the earlier chunks' bytes are in `skeletonParts`, this chunk's
 *   run from `segmentStart`. `keys` holds the keys on the way down, for a `[`
 *   at the end of a list path to open the list.
 * - `between elements`: just after the list's `[`, or after a comma between
 *   its elements (the only place where a range may end and the next begin).
 *   `depth` is `listDepth` and `openers` ends with the list's `[`; no string
 *   is open. The next significant byte starts an element, or `]` closes an
 *   empty list.
 * - `in element`: from an element's first byte to the `,` or `]` that ends it
 *   at the list's depth; `depth` is `listDepth` or deeper. `elementStart` is
 *   its first byte in the buffer being scanned, `elementLine` and
 *   `elementLineStart` the line there. An element's bytes are not skeleton:
 *   the elements a chunk completes (`batchStart` to `batchEnd`, `batchCount`
 *   of them) are parsed at its end, and an element that goes on is carried to
 *   the next chunk.
 * - `after list`: in the skeleton again, from the list's `]` (a new segment,
 *   from `segmentStart`). No list opens again; a second key naming it is
 *   refused.
 *
 * In every place, `openers` and `depth` are the brackets open around the
 * byte being scanned, `line` and `lineStart` its line and the document offset
 * where that line starts, and `base` the document offset of the buffer's
 * first byte. A string may be open (`inString`) across chunks in the skeleton
 * or in an element; a key's string (in the skeleton, at a depth where keys
 * matter) starts at `stringStart`, its bytes from earlier chunks in
 * `pendingString`.
 */
type Place = 'before list' | 'between elements' | 'in element' | 'after list';

/**
 * A push parser for one document. `push` each chunk in order and take the
 * batch it returns; `end` when the input ends.
 */
export class JsonListScanner {
  private readonly listPaths: readonly ListPath[];
  /** The deepest level at which keys lead to the list: deeper keys need no tracking. */
  private readonly keyDepth: number;
  private readonly maxElementBytes: number;
  private readonly records: EndpointBytes | undefined;

  /** Where the scan stands; `Place` says what the fields below mean in each place. */
  private place: Place = 'before list';

  // Lexical state, carried across chunks.
  private depth = 0;
  /** The open brackets, innermost last: `{` or `[`. A close must match it, as JSON.parse would insist. */
  private readonly openers: number[] = [];
  private inString = false;
  private escaped = false;
  private line = 1;
  private lineStart = 0;
  /** Whether the byte just before the next buffer is a CR (its LF, first in the next buffer, ends no new line). */
  private afterCarriageReturn = false;
  /** Document offset of the first byte of the buffer being scanned. */
  private base = 0;
  private carry: Buffer | undefined;
  /** Whether the carried bytes were scanned already (the fast path carries bytes it has not scanned). */
  private carryScanned = true;
  private fastPathOff = false;
  private started = false;
  /** Line, and document offset of its start, at the first byte of the buffer being scanned. */
  private bufferLine = 1;
  private bufferLineStart = 0;
  private bufferAfterCarriageReturn = false;

  // The keys on the way down: keys[d] is the last key read at depth d + 1.
  private readonly keys: (string | undefined)[] = [];
  /** The list paths whose key was read once already. */
  private readonly listKeysSeen = new Set<ListPath>();
  private stringStart = -1;
  /** The bytes of a key that began in an earlier chunk. */
  private pendingString: Buffer | undefined;
  private lastString: string | undefined;
  /** The first bytes, while there are too few to tell whether they start with a byte-order mark. */
  private opening: Buffer | undefined;

  // The list.
  private listDepth = -1;
  private listPath: ListPath | undefined;
  private elementStart = 0;
  private elementLine = 1;
  private elementLineStart = 0;
  private elementCount = 0;
  // The elements completed in the buffer being scanned.
  private batchStart = -1;
  private batchEnd = -1;
  private batchCount = 0;

  // The skeleton: every byte outside the list's elements.
  private readonly skeletonParts: Buffer[] = [];
  private skeletonBytes = 0;
  private readonly segments: SkeletonSegment[] = [];
  private segmentStart = 0;

  /**
   * @param options.continueList for a scanner that starts in the middle of a
   * document (a worker's range): the list's path and depth, the range
   * starting between two elements of it.
   * @param options.records for a list of execution records: the endpoints
   * the byte scanner (recordScanner.ts) interns, so that a chunk of records
   * of the usual shape is read from its bytes rather than parsed.
   */
  constructor(
    listPaths: readonly ListPath[],
    {
      maxElementBytes = DEFAULT_MAX_ELEMENT_BYTES,
      continueList,
      records,
    }: {
      maxElementBytes?: number;
      continueList?: { readonly path: ListPath; readonly depth: number } | undefined;
      records?: EndpointBytes | undefined;
    } = {},
  ) {
    this.records = records;
    // A scanner that continues a list watches for its key too: a second one after the list is refused.
    this.listPaths = continueList === undefined || continueList.path.length === 0 ? listPaths : [...listPaths, continueList.path];
    this.keyDepth = Math.max(0, ...this.listPaths.map((path) => path.length));
    this.maxElementBytes = maxElementBytes;
    if (continueList !== undefined) {
      this.started = true;
      this.listPath = continueList.path;
      this.listKeysSeen.add(this.listPaths[this.listPaths.length - 1]!);
      this.place = 'between elements';
      this.listDepth = continueList.depth;
      this.depth = continueList.depth;
      // The brackets around the list: objects on the way down, the list itself last.
      for (let level = 1; level < continueList.depth; level++) this.openers.push(OPEN_BRACE);
      this.openers.push(OPEN_BRACKET);
      this.startSegment(0);
    }
  }

  /**
   * The fast path, between elements of the list: cut the buffer at its last
   * comma that follows `}` or `]` and parse everything before it at once,
   * without scanning it byte by byte. A successful parse proves the cut: text
   * that starts at an element and parses as a list of values ends between
   * elements (a cut inside a string or a nested value cannot parse). When
   * the parse fails, the byte scan takes over and finds the truth.
   */
  private tryFastPath(buffer: Buffer, firstIndex: number): ElementBatch | undefined {
    const cut = lastCommaAfterValue(buffer);
    if (cut < 0) return undefined;
    // Invalid UTF-8 is found, and located, by the byte scan.
    if (!isValidUtf8(buffer, 0, cut)) return undefined;
    const scanned = this.records === undefined ? undefined : scanElements(buffer, cut, this.records);
    let elements: unknown;
    if (scanned !== undefined) elements = new Array<undefined>(scanned.count);
    else {
      try {
        elements = JSON.parse(`[${buffer.toString('utf8', 0, cut)}]`);
      } catch {
        return undefined;
      }
    }
    if (!Array.isArray(elements) || elements.length === 0) return undefined;
    const breaks = countLineBreaks(buffer, 0, cut, this.afterCarriageReturn);
    this.line += breaks.count;
    if (breaks.lastLineStart >= 0) this.lineStart = this.base + breaks.lastLineStart;
    this.afterCarriageReturn = false;
    this.elementCount += elements.length;
    this.base += cut + 1;
    if (cut + 1 < buffer.length) {
      this.carry = buffer.subarray(cut + 1);
      this.carryScanned = false;
      if (this.carry.length > this.maxElementBytes) this.fastPathOff = true;
    }
    return { elements, firstIndex, ...(scanned === undefined ? {} : { scanned: scanned.columns }) };
  }

  // Back to the state at the open element's first byte: between elements, at the list's depth.
  private rewindToElementStart(): void {
    this.depth = this.listDepth;
    this.openers.length = this.listDepth;
    this.inString = false;
    this.escaped = false;
    this.place = 'between elements';
    this.line = this.elementLine;
    this.lineStart = this.elementLineStart;
  }

  /** The elements still held back by the fast path, scanned: call once the input has ended, before `end` or `endRange`. */
  finish(): ElementBatch {
    this.fastPathOff = true;
    if (this.carry === undefined || this.carryScanned) return { elements: [], firstIndex: this.elementCount };
    return this.push(Buffer.alloc(0));
  }

  /** Whether the scan stands between two elements of the list: where a range may end and the next begin. */
  isBetweenElements(): boolean {
    return this.place === 'between elements' && this.carry === undefined;
  }

  /** The list's depth, once it is open. */
  openListDepth(): number | undefined {
    return this.listIsOpen() ? this.listDepth : undefined;
  }

  /** How many elements of the list were read so far. */
  elementsRead(): number {
    return this.elementCount;
  }

  /**
   * Ends a range of a document without judging the document: returns the
   * skeleton bytes this range saw (the prefix up to the list's `[`, or the
   * suffix from its `]`), for the caller to join and parse. Throws when the
   * range ends inside an element.
   */
  endRange(): Buffer {
    if (!this.carryScanned) throw new Error('internal error: call finish() before endRange()');
    if (this.carry !== undefined && this.carry.length > 0) {
      this.bufferLine = this.elementLine;
      this.bufferLineStart = this.elementLineStart;
      throw this.syntaxErrorAt(this.carry, this.carry.length, 'Unexpected end of JSON input');
    }
    return Buffer.concat(this.skeletonParts, this.skeletonBytes);
  }

  /** Scans one chunk; returns the elements it completed, parsed. */
  push(input: Buffer): ElementBatch {
    const chunk = this.started ? input : this.takeOpening(input);
    if (chunk === undefined) return { elements: [], firstIndex: this.elementCount };
    const joined = this.joinCarry(chunk);
    const buffer = this.started ? joined.buffer : this.startDocument(joined.buffer);
    const firstIndex = this.elementCount;
    if (joined.scanFrom === 0 && !this.fastPathOff && this.isBetweenElements()) {
      const fast = this.tryFastPath(buffer, firstIndex);
      if (fast !== undefined) return fast;
    }
    this.batchStart = -1;
    this.batchEnd = -1;
    this.batchCount = 0;
    const length = buffer.length;
    try {
      this.scanBuffer(buffer, joined.scanFrom);
    } catch (error) {
      // The elements this buffer completed lie before the byte the scan stopped at: a defect of theirs comes first,
      // as it does when a chunk ends after them and they are parsed before the scan reads on.
      if (error instanceof InputSyntaxError && this.batchStart >= 0)
        this.parseBatch(buffer, this.batchStart, this.batchEnd, this.batchCount, firstIndex);
      throw error;
    }
    const batch = this.batchStart < 0 ? [] : this.parseBatch(buffer, this.batchStart, this.batchEnd, this.batchCount, firstIndex);
    this.keepRest(buffer);
    // A carried element starts after a byte that is not a CR; otherwise the next buffer follows this one's last byte (an empty one changes nothing).
    this.afterCarriageReturn = !this.carries() && (length > 0 ? buffer[length - 1] === CARRIAGE_RETURN : this.afterCarriageReturn);
    return { elements: batch, firstIndex };
  }

  // Scans the buffer from `from` to its end, place by place.
  private scanBuffer(buffer: Buffer, from: number): void {
    const length = buffer.length;
    for (let at = from; at < length;) {
      switch (this.place) {
        case 'before list':
        case 'after list':
          at = this.scanSkeleton(buffer, at);
          break;
        case 'between elements':
          at = this.scanBetweenElements(buffer, at);
          break;
        case 'in element':
          at = this.scanElement(buffer, at);
          break;
      }
    }
  }

  // Before the first byte: a byte-order mark may be split over the first chunks, so too few bytes to tell are held back.
  private takeOpening(input: Buffer): Buffer | undefined {
    const chunk = this.opening === undefined ? input : Buffer.concat([this.opening, input]);
    this.opening = undefined;
    if (chunk.length < 3 && BYTE_ORDER_MARK.subarray(0, chunk.length).equals(chunk)) {
      this.opening = chunk;
      return undefined;
    }
    return chunk;
  }

  // The document's first buffer: a leading byte-order mark is not part of the document.
  private startDocument(chunk: Buffer): Buffer {
    this.started = true;
    let buffer = chunk;
    if (chunk.subarray(0, 3).equals(BYTE_ORDER_MARK)) {
      buffer = chunk.subarray(3);
      this.base = 3;
      this.lineStart = 3;
    }
    this.startSegment(this.base);
    return buffer;
  }

  /**
   * The buffer to scan, the chunk after any bytes carried from the last one,
   * and where its scan starts; sets the line at its first byte, for
   * `syntaxErrorAt`. A carried part starts after a byte that is not a CR.
   */
  private joinCarry(chunk: Buffer): { buffer: Buffer; scanFrom: number } {
    const carry = this.carry;
    if (carry === undefined) {
      this.bufferLine = this.line;
      this.bufferLineStart = this.lineStart;
      this.bufferAfterCarriageReturn = this.afterCarriageReturn;
      return { buffer: chunk, scanFrom: 0 };
    }
    this.carry = undefined;
    this.bufferAfterCarriageReturn = false;
    if (!this.carryScanned) {
      // The fast path held these bytes back unscanned: the scan stands between elements, before them.
      this.carryScanned = true;
      this.bufferLine = this.line;
      this.bufferLineStart = this.lineStart;
      return { buffer: chunk.length === 0 ? carry : Buffer.concat([carry, chunk]), scanFrom: 0 };
    }
    if (this.listIsOpen() && !this.fastPathOff && carry.length <= MAX_RESCAN_BYTES) {
      // The carried element was scanned, but the scan can start over at its
      // first byte, where it stood between elements: that lets the fast path
      // take the whole buffer. Only for a small element: scanning a large one
      // again at every chunk would cost the square of its size.
      this.rewindToElementStart();
      this.bufferLine = this.line;
      this.bufferLineStart = this.lineStart;
      return { buffer: Buffer.concat([carry, chunk]), scanFrom: 0 };
    }
    // A large element: the scan goes on where it stopped, after the carried bytes.
    this.bufferLine = this.elementLine;
    this.bufferLineStart = this.elementLineStart;
    return { buffer: Buffer.concat([carry, chunk]), scanFrom: carry.length };
  }

  // Before or after the list: brackets, and the keys on the way to the list. Stops after the `[` that opens it.
  private scanSkeleton(buffer: Buffer, from: number): number {
    const length = buffer.length;
    let at = this.inString ? this.skipString(buffer, from) + 1 : from;
    for (; at < length; at++) {
      const byte = buffer[at]!;
      if (byte === QUOTE) {
        this.inString = true;
        this.stringStart = this.depth <= this.keyDepth ? at : -1;
        at = this.skipString(buffer, at + 1);
      } else if (byte === SPACE || byte === LINE_FEED || byte === CARRIAGE_RETURN || byte === TAB) {
        if (byte === CARRIAGE_RETURN || byte === LINE_FEED) this.countLineBreak(buffer, at);
      } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        this.openers.push(byte);
        const opensList = byte === OPEN_BRACKET && this.opensList();
        this.depth++;
        if (this.depth <= this.keys.length) this.keys.length = this.depth - 1;
        this.lastString = undefined;
        if (opensList) {
          this.openList(buffer, at);
          return at + 1;
        }
      } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        this.closeBracket(buffer, at, byte);
      } else if (byte === COLON && this.lastString !== undefined) {
        this.keys[this.depth - 1] = this.lastString;
        this.lastString = undefined;
        this.noteListKey(buffer, at);
      }
    }
    return length;
  }

  // Between elements: whitespace, then an element's first byte, or the `]` of an empty list.
  private scanBetweenElements(buffer: Buffer, from: number): number {
    const length = buffer.length;
    for (let at = from; at < length; at++) {
      const byte = buffer[at]!;
      if (byte === SPACE || byte === LINE_FEED || byte === CARRIAGE_RETURN || byte === TAB) {
        if (byte === CARRIAGE_RETURN || byte === LINE_FEED) this.countLineBreak(buffer, at);
        continue;
      }
      // `[,`, `,,` and `,]` are not JSON.
      if (byte === COMMA || (byte === CLOSE_BRACKET && this.elementCount > 0))
        throw this.syntaxErrorAt(buffer, at, `Unexpected token '${byte === COMMA ? ',' : ']'}'`);
      if (byte === CLOSE_BRACKET) {
        this.closeList(at);
        return at + 1;
      }
      this.place = 'in element';
      this.elementStart = at;
      this.elementLine = this.line;
      this.elementLineStart = this.lineStart;
      return at;
    }
    return length;
  }

  // In an element: strings and brackets, up to the `,` or `]` at the list's depth that ends it.
  private scanElement(buffer: Buffer, from: number): number {
    const length = buffer.length;
    let at = this.inString ? this.skipString(buffer, from) + 1 : from;
    for (; at < length; at++) {
      const byte = buffer[at]!;
      if (byte === QUOTE) {
        this.inString = true;
        this.stringStart = -1;
        at = this.skipString(buffer, at + 1);
      } else if (byte === SPACE || byte === LINE_FEED || byte === CARRIAGE_RETURN || byte === TAB) {
        if (byte === CARRIAGE_RETURN || byte === LINE_FEED) this.countLineBreak(buffer, at);
      } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        this.openers.push(byte);
        this.depth++;
      } else if ((byte === COMMA || byte === CLOSE_BRACKET) && this.depth === this.listDepth) {
        this.elementCount++;
        this.batchCount++;
        if (this.batchStart < 0) this.batchStart = this.elementStart;
        this.batchEnd = at;
        if (byte === COMMA) this.place = 'between elements';
        else this.closeList(at);
        return at + 1;
      } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        this.closeBracket(buffer, at, byte);
      }
    }
    return length;
  }

  // Inside a string, from `from`: the index of its closing quote, or the buffer's length when it goes on in the next chunk.
  private skipString(buffer: Buffer, from: number): number {
    const length = buffer.length;
    let escaped = this.escaped;
    for (let at = from; at < length; at++) {
      const byte = buffer[at]!;
      // JSON strings hold no raw control characters: a newline here means the string was never closed.
      if (byte < SPACE) throw this.syntaxErrorAt(buffer, at, 'Bad control character in string literal');
      if (escaped) escaped = false;
      else if (byte === BACKSLASH) escaped = true;
      else if (byte === QUOTE) {
        this.inString = false;
        this.escaped = false;
        if (this.stringStart >= 0) this.closeKeyCandidate(buffer, at);
        return at;
      }
    }
    this.escaped = escaped;
    return length;
  }

  // A CR or LF outside strings: a line ends at a CR, and at a LF unless a CR is just before it.
  private countLineBreak(buffer: Buffer, at: number): void {
    const previous = at > 0 ? buffer[at - 1] : this.bufferAfterCarriageReturn ? CARRIAGE_RETURN : undefined;
    if (buffer[at] === CARRIAGE_RETURN || previous !== CARRIAGE_RETURN) this.line++;
    this.lineStart = this.base + at + 1;
  }

  // A `}` or `]` must close the innermost open bracket, and be of its kind.
  private closeBracket(buffer: Buffer, at: number, byte: number): void {
    const opener = this.openers.pop();
    if (opener !== (byte === CLOSE_BRACE ? OPEN_BRACE : OPEN_BRACKET))
      throw this.syntaxErrorAt(buffer, at, `Unexpected token '${byte === CLOSE_BRACE ? '}' : ']'}'`);
    this.depth--;
    this.lastString = undefined;
  }

  // The list's `[`, at `at`: the skeleton keeps the bytes up to it.
  private openList(buffer: Buffer, at: number): void {
    this.place = 'between elements';
    this.listDepth = this.depth;
    this.skeletonParts.push(buffer.subarray(this.segmentStart, at + 1));
    this.skeletonBytes += at + 1 - this.segmentStart;
  }

  // The list's `]`, at `at`: the skeleton goes on from it, in a new segment.
  private closeList(at: number): void {
    this.place = 'after list';
    this.openers.pop();
    this.depth--;
    this.segmentStart = at;
    this.startSegment(this.base + at);
  }

  private listIsOpen(): boolean {
    return this.place === 'between elements' || this.place === 'in element';
  }

  // Whether bytes are held back for the next chunk (a method, so that the compiler does not narrow the field across keepRest).
  private carries(): boolean {
    return this.carry !== undefined;
  }

  /** The path at which the list was found, once it was. */
  foundListPath(): ListPath | undefined {
    return this.listPath;
  }

  /** Ends the document: checks what remains and the skeleton, and says what was found. */
  end(): ScannedDocument {
    if (!this.carryScanned) throw new Error('internal error: call finish() before end()');
    if (this.opening !== undefined) {
      const opening = this.opening;
      this.opening = undefined;
      this.started = true;
      this.startSegment(0);
      this.skeletonParts.push(opening);
      this.skeletonBytes += opening.length;
    }
    if (!this.started) this.startSegment(0);
    if (this.carry !== undefined && this.carry.length > 0) {
      // The input ended inside an element.
      this.bufferLine = this.elementLine;
      this.bufferLineStart = this.elementLineStart;
      throw this.syntaxErrorAt(this.carry, this.carry.length, 'Unexpected end of JSON input');
    }
    if (this.listIsOpen()) {
      // The input ended inside the list, between elements.
      return this.failAtEnd();
    }
    const skeletonBytes = Buffer.concat(this.skeletonParts, this.skeletonBytes);
    const invalid = firstInvalidUtf8(skeletonBytes);
    if (invalid >= 0) throw this.skeletonErrorAt(invalid, describeInvalidUtf8(skeletonBytes, invalid));
    const skeletonText = skeletonBytes.toString('utf8');
    let skeleton: unknown;
    try {
      skeleton = JSON.parse(skeletonText) as unknown;
    } catch (error) {
      throw this.skeletonSyntaxError(skeletonText, error);
    }
    return { skeleton, listFound: this.listPath !== undefined };
  }

  private failAtEnd(): never {
    throw new InputSyntaxError('Unexpected end of JSON input', { line: this.line, column: this.base - this.lineStart + 1 });
  }

  // A string closed at a depth where keys matter: remember it, in case a colon follows.
  private closeKeyCandidate(buffer: Buffer, end: number): void {
    const start = this.stringStart;
    this.stringStart = -1;
    const bytes =
      this.pendingString === undefined ? buffer.subarray(start, end + 1) : Buffer.concat([this.pendingString, buffer.subarray(0, end + 1)]);
    this.pendingString = undefined;
    try {
      this.lastString = bytes.length > 4096 ? undefined : (JSON.parse(bytes.toString('utf8')) as string);
    } catch {
      this.lastString = undefined;
    }
  }

  // A key just read: when it names a list (`"executions"` at the top), it must be the first such key.
  private noteListKey(buffer: Buffer, at: number): void {
    for (const path of this.listPaths) {
      if (path.length !== this.depth || !path.every((key, index) => this.keys[index] === key)) continue;
      if (this.listKeysSeen.has(path)) {
        throw this.syntaxErrorAt(
          buffer,
          at,
          `the key ${JSON.stringify(path.at(-1))} appears twice; JSON keeps only the last, which would drop the records ` +
            'of the first without a word, so a document must hold one',
        );
      }
      this.listKeysSeen.add(path);
    }
  }

  // Whether the `[` about to open, at the current depth, is the list.
  private opensList(): boolean {
    if (this.listPath !== undefined) return false;
    for (const path of this.listPaths) {
      if (path.length !== this.depth) continue;
      if (path.every((key, index) => this.keys[index] === key)) {
        this.listPath = path;
        return true;
      }
    }
    return false;
  }

  private parseBatch(buffer: Buffer, start: number, end: number, count: number, firstIndex: number): unknown[] {
    const invalid = firstInvalidUtf8(buffer, start, end);
    if (invalid >= 0) throw this.syntaxErrorAt(buffer, invalid, describeInvalidUtf8(buffer, invalid));
    const text = buffer.toString('utf8', start, end);
    let elements: unknown;
    try {
      elements = JSON.parse(`[${text}]`);
    } catch {
      elements = undefined;
    }
    if (Array.isArray(elements) && elements.length === count) return elements;
    // Find the element at fault, to say where it is.
    throw this.locateBatchError(buffer, start, end, firstIndex);
  }

  private locateBatchError(buffer: Buffer, start: number, end: number, firstIndex: number): InputSyntaxError {
    const text = `[${buffer.toString('utf8', start, end)}]`;
    try {
      JSON.parse(text);
    } catch (error) {
      const { detail, offset } = describeJsonParseFailure(error, text);
      // Offsets count UTF-16 units of `[` + the elements; turn them into bytes of the buffer.
      const at = offset ?? text.length - 1;
      return this.syntaxErrorAt(buffer, start + Buffer.byteLength(text.slice(1, Math.max(1, at))), detail);
    }
    return this.syntaxErrorAt(buffer, start, `list element ${firstIndex} is not a single JSON value`);
  }

  // After a chunk: keep the open element's bytes for the next chunk, or close the skeleton segment.
  private keepRest(buffer: Buffer): void {
    if (this.listIsOpen()) {
      if (this.place === 'in element') {
        this.carry = buffer.subarray(this.elementStart);
        if (this.carry.length > this.maxElementBytes) {
          throw new InputSyntaxError(
            `list element ${this.elementCount} is larger than ${Math.round(this.maxElementBytes / 1048576)} MB, the most one record may take`,
            { line: this.line, column: this.base + this.elementStart - this.lineStart + 1 },
          );
        }
        this.base += this.elementStart;
        this.elementStart = 0;
      } else {
        this.base += buffer.length;
      }
      return;
    }
    if (this.inString && this.stringStart >= 0) {
      // A key that goes on in the next chunk.
      const part = buffer.subarray(this.stringStart);
      this.pendingString = this.pendingString === undefined ? part : Buffer.concat([this.pendingString, part]);
      this.stringStart = 0;
    }
    this.skeletonParts.push(buffer.subarray(this.segmentStart));
    this.skeletonBytes += buffer.length - this.segmentStart;
    if (this.skeletonBytes > MAX_SKELETON_BYTES) {
      throw new InputSyntaxError(`the document outside its list of records is larger than ${MAX_SKELETON_BYTES / 1048576} MB`, undefined);
    }
    this.segmentStart = 0;
    this.base += buffer.length;
  }

  private startSegment(documentOffset: number): void {
    this.segments.push({ skeletonOffset: this.skeletonBytes, documentOffset, line: this.line, lineStart: this.lineStart });
  }

  // A syntax error at byte `index` of `buffer`, located by line and column in the document.
  private syntaxErrorAt(buffer: Buffer, index: number, detail: string): InputSyntaxError {
    const breaks = countLineBreaks(buffer, 0, Math.min(index, buffer.length), this.bufferAfterCarriageReturn);
    const line = this.bufferLine + breaks.count;
    const lineStart = breaks.lastLineStart >= 0 ? this.base + breaks.lastLineStart : this.bufferLineStart;
    // Columns count characters where the line's start is in this buffer, bytes otherwise.
    const column =
      lineStart >= this.base ? buffer.toString('utf8', lineStart - this.base, index).length + 1 : this.base + index - lineStart + 1;
    return new InputSyntaxError(detail, { line, column });
  }

  private skeletonSyntaxError(skeletonText: string, error: unknown): InputSyntaxError {
    const { detail, offset } = describeJsonParseFailure(error, skeletonText);
    return this.skeletonErrorAt(Buffer.byteLength(skeletonText.slice(0, offset ?? skeletonText.length)), detail);
  }

  // An error at a byte offset of the skeleton, located in the document.
  private skeletonErrorAt(skeletonOffset: number, detail: string): InputSyntaxError {
    const skeleton = Buffer.concat(this.skeletonParts, this.skeletonBytes);
    let segment = this.segments[0]!;
    for (const candidate of this.segments) if (candidate.skeletonOffset <= skeletonOffset) segment = candidate;
    const breaks = countLineBreaks(skeleton, segment.skeletonOffset, Math.min(skeletonOffset, skeleton.length));
    const line = segment.line + breaks.count;
    const lineStart =
      breaks.lastLineStart >= 0 ? segment.documentOffset + (breaks.lastLineStart - segment.skeletonOffset) : segment.lineStart;
    const documentOffset = segment.documentOffset + (skeletonOffset - segment.skeletonOffset);
    const lineStartInSkeleton = segment.skeletonOffset + (lineStart - segment.documentOffset);
    const column =
      lineStart >= segment.documentOffset
        ? skeleton.toString('utf8', lineStartInSkeleton, skeletonOffset).length + 1
        : documentOffset - lineStart + 1;
    return new InputSyntaxError(detail, { line, column });
  }
}

// The last comma whose previous significant byte closes a value (`}` or `]`), or -1.
function lastCommaAfterValue(buffer: Buffer): number {
  let tries = 0;
  for (let comma = buffer.lastIndexOf(COMMA); comma > 0 && tries < 64; comma = buffer.lastIndexOf(COMMA, comma - 1), tries++) {
    let before = comma - 1;
    while (before >= 0) {
      const byte = buffer[before]!;
      if (byte !== SPACE && byte !== LINE_FEED && byte !== CARRIAGE_RETURN && byte !== TAB) break;
      before--;
    }
    if (before >= 0 && (buffer[before] === CLOSE_BRACE || buffer[before] === CLOSE_BRACKET)) return comma;
  }
  return -1;
}
