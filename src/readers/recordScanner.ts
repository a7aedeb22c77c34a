import { CARRIAGE_RETURN, LINE_FEED } from '../input/lineBreaks.js';
import { BACKSLASH, CLOSE_BRACE, COLON, COMMA, OPEN_BRACE, QUOTE, SPACE, TAB } from '../input/jsonBytes.js';

/**
 * A byte scanner for the usual shape of an execution record on one line:
 * `{"id":"…","statusCode":200,"endpoint":"GET /orders/7","responseTimeMs":12.5}`,
 * its four keys in any order (`id` optional), spaces or tabs between tokens.
 * It reads the status, the endpoint's bytes and the time straight from the
 * input, making no string and no object per record: the endpoint is interned
 * by its bytes ({@link EndpointBytes}), so a label is decoded once per input,
 * not once per record.
 *
 * It recognises only what it is sure of: printable ASCII strings without
 * escapes, a three-digit status of 100 to 599, a time of at most fifteen
 * significant digits without an exponent, each key once and no other key.
 * Anything else (another key, an escape, a negative or exponent time, a
 * status written as text, a syntax error) is not recognised, and the reader
 * hands the line to `JSON.parse` and the record check as before, so strictness
 * and every message stay exactly as they are. A recognised time is the value
 * `JSON.parse` gives: a mantissa below 2^53 over an exact power of ten is
 * correctly rounded by one IEEE division (Clinger's fast path).
 */

/** What {@link scanRecord} read of a recognised record. */
export interface ScannedFields {
  endpoint: number;
  statusCode: number;
  responseTimeMs: number;
  /** Where the `id` string's characters are in the bytes, end exclusive; -1 when the record has none. */
  idStart: number;
  idEnd: number;
}

const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const DOT = 0x2e;

const ID = 1;
const STATUS_CODE = 2;
const ENDPOINT = 4;
const RESPONSE_TIME = 8;
const REQUIRED = STATUS_CODE | ENDPOINT | RESPONSE_TIME;

/** The longest `id` and endpoint recognised, in bytes (ASCII: one byte a character), as the record check allows (MAX_ID_LENGTH, MAX_ENDPOINT_LABEL_LENGTH). */
const MAX_ID_BYTES = 1024;
const MAX_ENDPOINT_BYTES = 2048;
/** The longest time recognised, in milliseconds (MAX_MILLISECONDS): a longer one goes to the record check, which names it. */
const MAX_MILLISECONDS = 86_400_000;
/** Fifteen significant digits are below 2^53, so the mantissa is exact. */
const MAX_SIGNIFICANT_DIGITS = 15;
const MANTISSA_LIMIT = 10 ** MAX_SIGNIFICANT_DIGITS;
/** 10^0 to 10^22: the powers of ten a double holds exactly. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, power) => Number(`1e${power}`));

/** Past JSON's whitespace (an NDJSON line holds no line break, so there only spaces and tabs are met). */
export function skipBlanks(bytes: Uint8Array, at: number, end: number): number {
  for (; at < end; at++) {
    const byte = bytes[at]!;
    // Most tokens follow no blank: one comparison tells.
    if (byte > SPACE || (byte !== SPACE && byte !== TAB && byte !== LINE_FEED && byte !== CARRIAGE_RETURN)) break;
  }
  return at;
}

/** {@link skipBlanks}, its call left out when no blank is there (the usual case, between a record's tokens). */
function afterBlanks(bytes: Uint8Array, at: number, end: number): number {
  return bytes[at]! > SPACE ? at : skipBlanks(bytes, at, end);
}

/** Which of the four keys the bytes at `at` (just after the opening quote) spell, with its closing quote; 0 for none. */
function keyAt(bytes: Uint8Array, at: number, end: number): number {
  // "id" "endpoint" "statusCode" "responseTimeMs": each letter compared with a constant, the hottest comparisons of a read.
  const first = bytes[at];
  if (first === 0x69) return at + 2 < end && bytes[at + 1] === 0x64 && bytes[at + 2] === QUOTE ? ID : 0;
  if (first === 0x65) return at + ENDPOINT_KEY_LENGTH <= end && isEndpointKey(bytes, at) ? ENDPOINT : 0;
  if (first === 0x73) return at + STATUS_CODE_KEY_LENGTH <= end && isStatusCodeKey(bytes, at) ? STATUS_CODE : 0;
  if (first === 0x72) return at + RESPONSE_TIME_KEY_LENGTH <= end && isResponseTimeKey(bytes, at) ? RESPONSE_TIME : 0;
  return 0;
}

// endpoint"
function isEndpointKey(b: Uint8Array, at: number): boolean {
  return (
    b[at + 1] === 0x6e &&
    b[at + 2] === 0x64 &&
    b[at + 3] === 0x70 &&
    b[at + 4] === 0x6f &&
    b[at + 5] === 0x69 &&
    b[at + 6] === 0x6e &&
    b[at + 7] === 0x74 &&
    b[at + 8] === QUOTE
  );
}

// statusCode"
function isStatusCodeKey(b: Uint8Array, at: number): boolean {
  return (
    b[at + 1] === 0x74 &&
    b[at + 2] === 0x61 &&
    b[at + 3] === 0x74 &&
    b[at + 4] === 0x75 &&
    b[at + 5] === 0x73 &&
    b[at + 6] === 0x43 &&
    b[at + 7] === 0x6f &&
    b[at + 8] === 0x64 &&
    b[at + 9] === 0x65 &&
    b[at + 10] === QUOTE
  );
}

// responseTimeMs"
function isResponseTimeKey(b: Uint8Array, at: number): boolean {
  return (
    b[at + 1] === 0x65 &&
    b[at + 2] === 0x73 &&
    b[at + 3] === 0x70 &&
    b[at + 4] === 0x6f &&
    b[at + 5] === 0x6e &&
    b[at + 6] === 0x73 &&
    b[at + 7] === 0x65 &&
    b[at + 8] === 0x54 &&
    b[at + 9] === 0x69 &&
    b[at + 10] === 0x6d &&
    b[at + 11] === 0x65 &&
    b[at + 12] === 0x4d &&
    b[at + 13] === 0x73 &&
    b[at + 14] === QUOTE
  );
}

/** 1 for the bytes a recognised string holds as they are: printable ASCII but the quote and the backslash. */
const PLAIN = new Uint8Array(256);
for (let byte = SPACE; byte <= 0x7e; byte++) PLAIN[byte] = byte === QUOTE || byte === BACKSLASH ? 0 : 1;

const ENDPOINT_KEY_LENGTH = 'endpoint"'.length;
const STATUS_CODE_KEY_LENGTH = 'statusCode"'.length;
const RESPONSE_TIME_KEY_LENGTH = 'responseTimeMs"'.length;
/** Each key's length with its closing quote, by key. */
const KEY_LENGTH = new Uint8Array(RESPONSE_TIME + 1);
KEY_LENGTH[ID] = 3;
KEY_LENGTH[STATUS_CODE] = STATUS_CODE_KEY_LENGTH;
KEY_LENGTH[ENDPOINT] = ENDPOINT_KEY_LENGTH;
KEY_LENGTH[RESPONSE_TIME] = RESPONSE_TIME_KEY_LENGTH;

/**
 * Reads the record on `bytes[start, end)` (one line, without its break) into
 * `out`, its endpoint interned in `endpoints`. Returns false, with `out`
 * unspecified, when the line is not a record this scanner recognises.
 */
export function scanRecord(bytes: Uint8Array, start: number, end: number, endpoints: EndpointBytes, out: ScannedFields): boolean {
  const after = scanRecordAt(bytes, start, end, endpoints, out);
  return after >= 0 && skipBlanks(bytes, after, end) === end;
}

/**
 * Reads the record that starts (after whitespace) at `start`, within
 * `bytes[start, end)`, into `out`: the offset just after its closing brace,
 * or -1 when it is not a record this scanner recognises.
 */
export function scanRecordAt(bytes: Uint8Array, start: number, end: number, endpoints: EndpointBytes, out: ScannedFields): number {
  let at = skipBlanks(bytes, start, end);
  if (bytes[at] !== OPEN_BRACE || at >= end) return -1;
  let seen = 0;
  out.idStart = -1;
  out.idEnd = -1;
  for (;;) {
    at = afterBlanks(bytes, at + 1, end);
    if (bytes[at] !== QUOTE) return -1;
    const key = keyAt(bytes, at + 1, end);
    if (key === 0 || (seen & key) !== 0) return -1;
    seen |= key;
    at = afterBlanks(bytes, at + 1 + KEY_LENGTH[key]!, end);
    if (bytes[at] !== COLON) return -1;
    at = afterBlanks(bytes, at + 1, end);
    if (key === STATUS_CODE) {
      const a = bytes[at]! - DIGIT_0;
      const b = bytes[at + 1]! - DIGIT_0;
      const c = bytes[at + 2]! - DIGIT_0;
      if (at + 3 > end || !(a >= 1 && a <= 5) || !(b >= 0 && b <= 9) || !(c >= 0 && c <= 9)) return -1;
      at += 3;
      const next = bytes[at];
      // 2000, 200.0 and 2e2 are left to JSON.parse and the record check.
      if (next !== undefined && next >= DIGIT_0 && next <= DIGIT_9) return -1;
      if (next === DOT || next === 0x65 || next === 0x45) return -1;
      out.statusCode = a * 100 + b * 10 + c;
    } else if (key === RESPONSE_TIME) {
      const after = scanTime(bytes, at, end, out);
      if (after < 0) return -1;
      at = after;
    } else {
      if (bytes[at] !== QUOTE) return -1;
      const from = at + 1;
      at = from;
      // Printable ASCII, no quote or backslash: the bytes are the characters JSON.parse would give.
      if (key === ID) {
        while (at < end && PLAIN[bytes[at]!] === 1) at++;
        if (at >= end || bytes[at] !== QUOTE || at - from > MAX_ID_BYTES) return -1;
        out.idStart = from;
        out.idEnd = at;
      } else {
        let hash = 0x811c9dc5;
        for (; at < end; at++) {
          const byte = bytes[at]!;
          if (PLAIN[byte] !== 1) break;
          hash = Math.imul(hash ^ byte, 0x01000193);
        }
        if (at >= end || bytes[at] !== QUOTE || at - from > MAX_ENDPOINT_BYTES) return -1;
        const id = endpoints.intern(bytes, from, at, hash);
        if (id < 0) return -1;
        out.endpoint = id;
      }
      at++;
    }
    at = afterBlanks(bytes, at, end);
    const separator = bytes[at];
    if (separator === COMMA) continue;
    if (separator !== CLOSE_BRACE || at >= end) return -1;
    break;
  }
  return (seen & REQUIRED) === REQUIRED ? at + 1 : -1;
}

/**
 * A non-negative JSON number without exponent, of at most fifteen significant digits: the offset after it, or -1.
 * Every test below runs on every time, none only on a rare one (a time below 1 ms, a time with no fraction): code the
 * compiler saw no run of, first reached inside the compiled read loop, throws the loop's code away to compile it again.
 */
function scanTime(bytes: Uint8Array, at: number, end: number, out: ScannedFields): number {
  const start = at;
  let mantissa = 0;
  while (at < end) {
    const digit = bytes[at]! - DIGIT_0;
    if (!(digit >= 0 && digit <= 9)) break;
    mantissa = mantissa * 10 + digit;
    at++;
  }
  // At least one digit, and a leading zero is the whole integer part (JSON has no `007`).
  if (at === start || at - start > (bytes[start] === DIGIT_0 ? 1 : MAX_SIGNIFICANT_DIGITS)) return -1;
  let fraction = 0;
  if (at < end && bytes[at] === DOT) {
    at++;
    const from = at;
    while (at < end) {
      const digit = bytes[at]! - DIGIT_0;
      if (!(digit >= 0 && digit <= 9)) break;
      mantissa = mantissa * 10 + digit;
      at++;
    }
    fraction = at - from;
    if (fraction === 0) return -1;
  }
  // The mantissa holds no leading zero, so it has more than fifteen significant digits exactly when it reaches 10^15
  // (exact below 2^53, and it never falls back below once past).
  if (mantissa >= MANTISSA_LIMIT || fraction >= POWERS_OF_TEN.length) return -1;
  const next = bytes[at];
  if (at < end && (next === 0x65 || next === 0x45)) return -1;
  // 10^0 is 1: a time without fraction is divided by it, exactly, rather than taking a path of its own.
  const value = mantissa / POWERS_OF_TEN[fraction]!;
  if (value > MAX_MILLISECONDS) return -1;
  out.responseTimeMs = value;
  return at;
}

/** How many distinct endpoint byte strings one input interns; past it, records go to JSON.parse (whose labels are cached by string, as before). */
const MAX_INTERNED = 131_072;

/**
 * Endpoint byte strings, each given a small integer the first time it is
 * seen: an open-addressing table of FNV-1a hashes over one arena of bytes.
 * A lookup compares the bytes, so two strings never share an id.
 */
export class EndpointBytes {
  private arena = new Uint8Array(64 * 1024);
  private arenaUsed = 0;
  private starts = new Int32Array(1024);
  private lengths = new Int32Array(1024);
  private hashes = new Int32Array(1024);
  private table = new Int32Array(2048);
  private count = 0;
  private readonly texts: (string | undefined)[] = [];

  /** The id of `bytes[start, end)` (hashed to `hash`), interned on first sight; -1 when the table is full. */
  intern(bytes: Uint8Array, start: number, end: number, hash: number): number {
    const length = end - start;
    const mask = this.table.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.table[slot]!;
      if (entry === 0) break;
      const id = entry - 1;
      if (this.hashes[id] === hash && this.lengths[id] === length && this.sameBytes(id, bytes, start, length)) return id;
    }
    if (this.count >= MAX_INTERNED) return -1;
    return this.add(bytes, start, length, hash);
  }

  /** The endpoint as written, decoded once. */
  text(id: number): string {
    let text = this.texts[id];
    if (text === undefined) {
      const start = this.starts[id]!;
      text = Buffer.from(this.arena.buffer, this.arena.byteOffset + start, this.lengths[id]).toString('latin1');
      this.texts[id] = text;
    }
    return text;
  }

  private sameBytes(id: number, bytes: Uint8Array, start: number, length: number): boolean {
    const { arena } = this;
    const from = this.starts[id]!;
    for (let index = 0; index < length; index++) if (arena[from + index] !== bytes[start + index]) return false;
    return true;
  }

  private add(bytes: Uint8Array, start: number, length: number, hash: number): number {
    const id = this.count++;
    if (id === this.starts.length) {
      this.starts = grown(this.starts);
      this.lengths = grown(this.lengths);
      this.hashes = grown(this.hashes);
    }
    if (this.arenaUsed + length > this.arena.length) {
      const arena = new Uint8Array(Math.max(this.arena.length * 2, this.arenaUsed + length));
      arena.set(this.arena.subarray(0, this.arenaUsed));
      this.arena = arena;
    }
    this.arena.set(bytes.subarray(start, start + length), this.arenaUsed);
    this.starts[id] = this.arenaUsed;
    this.lengths[id] = length;
    this.hashes[id] = hash;
    this.arenaUsed += length;
    if (this.count * 2 > this.table.length) this.rehash();
    else this.place(id);
    return id;
  }

  private place(id: number): void {
    const mask = this.table.length - 1;
    let slot = this.hashes[id]! & mask;
    while (this.table[slot] !== 0) slot = (slot + 1) & mask;
    this.table[slot] = id + 1;
  }

  private rehash(): void {
    this.table = new Int32Array(this.table.length * 2);
    for (let id = 0; id < this.count; id++) this.place(id);
  }
}

function grown(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const larger = new Int32Array(array.length * 2);
  larger.set(array);
  return larger;
}
