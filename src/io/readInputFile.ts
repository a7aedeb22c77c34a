import { closeSync, openSync, readSync } from 'node:fs';
import { constants } from 'node:buffer';
import { InputLimitError, InputSyntaxError, InputUnreadableError, QualityEvidenceError } from '../errors.js';
import { lineAndColumnInText } from '../input/lineBreaks.js';
import { describeInvalidUtf8, firstInvalidUtf8 } from '../input/utf8.js';
import { groupDigits, quotePath } from '../renderValue.js';
import { describeFileSystemFailure } from './describeFileSystemFailure.js';
import { READ_CHUNK_BYTES, type FileSystem } from './fileSystem.js';

/**
 * The most a settings file or a budgets file may hold: 16 MiB. People write
 * these files; budgets for all 50,000 endpoints a report can hold, at about
 * 100 bytes each, take 5 MB, so the limit leaves room three times over and
 * still stops `/dev/zero` or an endless pipe in a few milliseconds.
 */
export const CONFIGURATION_FILE_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * The most a report read back (a baseline, the report `check` judges) may
 * hold: the longest string Node.js can make (about 512 MiB), which a report
 * must become to be parsed, and past which this tool never writes one.
 */
export const REPORT_FILE_LIMIT_BYTES = constants.MAX_STRING_LENGTH;

/**
 * Reads a file the run was told to read as text, as strictly as an input:
 * - a missing or unreadable file is an InputUnreadableError (66) naming the
 *   path and what the file is (`input file` by default; `budgets file`, ...);
 * - a file longer than `limitBytes` is an InputLimitError (65), found after
 *   reading one byte past the limit, so a device (`/dev/zero`), a FIFO or an
 *   endless pipe costs no more memory than the limit;
 * - a byte that is not valid UTF-8 is an InputSyntaxError (65) with its line
 *   and column, never a U+FFFD; it is found in the chunk it arrives in
 *   (`/dev/urandom` fails at once).
 * A leading byte-order mark stays in the text (the JSON parser skips it).
 */
export async function readInputFile(
  fileSystem: FileSystem,
  inputPath: string,
  what = 'input file',
  limitBytes = REPORT_FILE_LIMIT_BYTES,
): Promise<string> {
  const text = new BoundedText(inputPath, what, limitBytes);
  try {
    for await (const chunk of await fileSystem.openChunks(inputPath)) text.push(chunk);
  } catch (error) {
    if (error instanceof QualityEvidenceError) throw error;
    throw unreadable(inputPath, what, error);
  }
  return text.finish();
}

/**
 * {@link readInputFile}, synchronously, from the real file system: for the
 * Playwright reporter's constructor, which is synchronous. A missing file is
 * an InputUnreadableError whose cause carries the code (`ENOENT`).
 */
export function readInputFileSync(inputPath: string, what = 'input file', limitBytes = REPORT_FILE_LIMIT_BYTES): string {
  const text = new BoundedText(inputPath, what, limitBytes);
  let descriptor: number;
  try {
    descriptor = openSync(inputPath, 'r');
  } catch (error) {
    throw unreadable(inputPath, what, error);
  }
  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
      let read: number;
      try {
        read = readSync(descriptor, chunk, 0, chunk.length, null);
      } catch (error) {
        throw unreadable(inputPath, what, error);
      }
      if (read === 0) break;
      text.push(chunk.subarray(0, read));
    }
  } finally {
    closeSync(descriptor);
  }
  return text.finish();
}

/**
 * Bytes already in memory (a Playwright attachment's body) as text, by the
 * same rules: at most `limitBytes`, strict UTF-8. The message names the
 * bytes by `what` alone (`execution attachment of test "orders › list" (attempt 1)`).
 */
export function decodeInputBytes(bytes: Buffer, what: string, limitBytes = REPORT_FILE_LIMIT_BYTES): string {
  const text = new BoundedText(undefined, what, limitBytes);
  text.push(bytes);
  return text.finish();
}

function unreadable(path: string, what: string, error: unknown): InputUnreadableError {
  return new InputUnreadableError(path, describeFileSystemFailure(error), { cause: error, what });
}

/** The bytes of one file as they arrive, held within a limit and checked for UTF-8 chunk by chunk. */
class BoundedText {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  // The bytes up to here are valid UTF-8; a sequence cut by a chunk's end waits for the next.
  private checked = 0;
  private pending: Buffer = Buffer.alloc(0);

  constructor(
    private readonly path: string | undefined,
    private readonly what: string,
    private readonly limitBytes: number,
  ) {}

  push(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.limitBytes) {
      const named = this.path === undefined ? '' : ` ${quotePath(this.path)}`;
      throw new InputLimitError(`the ${this.what}${named} is larger than ${describeBytes(this.limitBytes)}, the most it may hold`);
    }
    this.chunks.push(chunk);
    const bytes = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const complete = completeUtf8Length(bytes);
    this.check(bytes, complete);
    this.checked += complete;
    this.pending = Buffer.from(bytes.subarray(complete));
  }

  finish(): string {
    // A sequence cut short by the end of the file is invalid too.
    this.check(this.pending, this.pending.length);
    const bytes = Buffer.concat(this.chunks, this.size);
    this.chunks.length = 0;
    return bytes.toString('utf8');
  }

  private check(bytes: Buffer, end: number): void {
    const invalid = firstInvalidUtf8(bytes, 0, end);
    if (invalid < 0) return;
    const all = Buffer.concat(this.chunks);
    const offset = this.checked + invalid;
    const before = all.toString('utf8', 0, offset);
    throw new InputSyntaxError(describeInvalidUtf8(all, offset, 'file'), lineAndColumnInText(before, before.length), {
      file: this.path,
      what: this.what,
    });
  }
}

// The length of `bytes` without a multi-byte sequence that its end cuts short (at most 3 bytes), which the next chunk may complete.
function completeUtf8Length(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if (byte < 0x80) return bytes.length;
    if (byte >= 0xc0) {
      const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return length > back ? bytes.length - back : bytes.length;
    }
  }
  return bytes.length;
}

/** A byte count for a message: `16 MiB`, or `536,870,888 bytes (about 512 MiB)` when it is no whole number of MiB. */
function describeBytes(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024);
  if (Number.isInteger(mebibytes)) return `${mebibytes} MiB`;
  return mebibytes < 1 ? `${groupDigits(bytes)} bytes` : `${groupDigits(bytes)} bytes (about ${Math.round(mebibytes)} MiB)`;
}
