import { open, type FileHandle } from 'node:fs/promises';
import { READ_CHUNK_BYTES } from '../io/fileSystem.js';
import type { ListPath } from '../readers/jsonListScanner.js';
import type { EvidenceRules } from '../run/evidenceRules.js';
import { summariseRange, type RangeSummary } from '../workflow/summariseRange.js';

/**
 * One large input cut into pieces (a few MiB each, cut between records as
 * parallelRanges.ts plans), shared by the threads that read it. Each thread
 * owns a region (consecutive pieces) and reads it forward as one range,
 * taking its next piece when it is done with one. A thread done with its own
 * region takes the back half of what is left of the region with the most
 * left, and reads that as one range; and so on until nothing is left. So the
 * threads finish together whatever each one's start or speed (a worker
 * loads its modules first; the machine may be busy with other work), and an
 * input makes few ranges (each range's samples are one more sorted run per
 * endpoint to merge).
 */
export interface PieceTable {
  readonly path: string;
  readonly format: 'json' | 'ndjson';
  readonly rules: EvidenceRules;
  /** For a JSON document: where the list is, as the first piece's opening shows it. */
  readonly list?: { readonly path: ListPath; readonly depth: number } | undefined;
  /** Where each piece starts, then the input's size. */
  readonly starts: readonly number[];
  /** The first piece of each thread's region (the main thread's is 0); a region ends where the next one starts. */
  readonly regions: readonly number[];
  /**
   * Per region, what is left of it (shared by every thread, changed by
   * compare-and-exchange): the next piece its owner takes in the low 16 bits,
   * the end of what is left in the high 16; then, last, 1 once a range
   * failed (no thread takes another piece).
   */
  readonly claims: Int32Array;
}

/**
 * A table as a thread reads it: the worker that planned the input early
 * (earlyWorkers.ts) reads before the run's rules are known, and is given
 * them later.
 */
export type ReadTable = Omit<PieceTable, 'rules'> & { readonly rules: EvidenceRules | Promise<EvidenceRules> };

/** The most pieces an input is cut into: a piece's index fits in 16 bits. */
export const MAX_PIECES = 0xffff;

const frontOf = (claim: number) => claim & 0xffff;
const backOf = (claim: number) => claim >>> 16;
const claimOf = (front: number, back: number) => (back << 16) | front;

/** The claims of a fresh table: each owner has taken its region's first piece already, the rest is left. */
export function initialClaims(regions: readonly number[], pieces: number): Int32Array {
  const claims = new Int32Array(new SharedArrayBuffer(4 * (regions.length + 1)));
  regions.forEach((first, region) => (claims[region] = claimOf(first + 1, regions[region + 1] ?? pieces)));
  return claims;
}

/** A range read: its first piece, and its summary. */
export interface PieceRange {
  readonly piece: number;
  readonly result: RangeSummary;
}

/**
 * Reads the thread's own region, then takes halves of what others left,
 * until nothing is left or a range failed. Each range's summary goes to
 * `onRange` as soon as it is read; `progress` is told each range's records
 * and bytes so far, by its first piece.
 */
export async function readPieces(
  table: ReadTable,
  region: number,
  onRange: (range: PieceRange) => void,
  {
    inThisThread = false,
    progress,
  }: { readonly inThisThread?: boolean; readonly progress?: ((piece: number, records: number, bytes: number) => void) | undefined } = {},
): Promise<void> {
  const { claims, regions } = table;
  const stopped = regions.length;
  if (Atomics.load(claims, stopped) !== 0) return;
  const handle = await open(table.path, 'r');
  try {
    const read = async (first: number, next: () => number | undefined): Promise<boolean> => {
      const last = table.starts.length - 2;
      const place = {
        format: table.format,
        rules: table.rules,
        first: first === 0,
        last: first === last,
        list: first === 0 ? undefined : table.list,
      };
      const taking = (): number | undefined => {
        const piece = next();
        if (piece === last) place.last = true;
        return piece;
      };
      const result = await summariseRange(pieceChunks(handle, table.starts, first, taking), place, {
        inThisThread,
        progress:
          progress &&
          ((records, bytes) => {
            progress(first, records, bytes);
          }),
      });
      onRange({ piece: first, result });
      if (result.ok) return true;
      Atomics.store(claims, stopped, 1);
      for (let other = 0; other < stopped; other++) Atomics.store(claims, other, 0);
      return false;
    };
    if (!(await read(regions[region]!, () => takeNext(claims, region)))) return;
    for (;;) {
      const stolen = stealHalf(claims, stopped);
      if (stolen === undefined) return;
      let piece = stolen.from;
      if (!(await read(piece, () => (++piece < stolen.to ? piece : undefined)))) return;
    }
  } finally {
    await handle.close();
  }
}

/** The owner's next piece of its region, or undefined when none is left. */
function takeNext(claims: Int32Array, region: number): number | undefined {
  for (;;) {
    const claim = Atomics.load(claims, region);
    const front = frontOf(claim);
    const back = backOf(claim);
    if (front >= back) return undefined;
    if (Atomics.compareExchange(claims, region, claim, claimOf(front + 1, back)) === claim) return front;
  }
}

/** The back half of what is left of the region with the most left (pieces from, up to to), or undefined when nothing is left. */
function stealHalf(claims: Int32Array, regions: number): { readonly from: number; readonly to: number } | undefined {
  for (;;) {
    let region = -1;
    let most = 0;
    for (let other = 0; other < regions; other++) {
      const claim = Atomics.load(claims, other);
      const left = backOf(claim) - frontOf(claim);
      if (left > most) [region, most] = [other, left];
    }
    if (region < 0) return undefined;
    const claim = Atomics.load(claims, region);
    const front = frontOf(claim);
    const back = backOf(claim);
    if (front >= back) continue;
    const from = back - Math.ceil((back - front) / 2);
    if (Atomics.compareExchange(claims, region, claim, claimOf(front, from)) === claim) return { from, to: back };
  }
}

/**
 * The bytes of consecutive pieces, from `first` on while `next` gives the
 * following one, in chunks of READ_CHUNK_BYTES at most, the next chunk read
 * while the reader works on this one.
 */
async function* pieceChunks(
  handle: FileHandle,
  starts: readonly number[],
  first: number,
  next: () => number | undefined,
): AsyncGenerator<Buffer> {
  let end = starts[first + 1]!;
  let position = starts[first]!;
  const readAt = async (at: number, length: number): Promise<Buffer> => {
    const buffer = Buffer.allocUnsafe(length);
    const { bytesRead } = await handle.read(buffer, 0, length, at);
    return bytesRead < length ? buffer.subarray(0, bytesRead) : buffer;
  };
  // The next chunk's read, started before this one is handed on; undefined once the pieces taken are read.
  const ahead = (): { readonly reading: Promise<Buffer>; readonly length: number } | undefined => {
    if (position >= end) {
      const piece = next();
      if (piece === undefined) return undefined;
      end = starts[piece + 1]!;
    }
    const length = Math.min(READ_CHUNK_BYTES, end - position);
    const reading = readAt(position, length);
    position += length;
    return { reading, length };
  };
  for (let chunk = ahead(); chunk !== undefined;) {
    const bytes = await chunk.reading;
    // A file that shrank while it was read ends here; the reader then says what is missing.
    if (bytes.length < chunk.length) {
      if (bytes.length > 0) yield bytes;
      return;
    }
    chunk = ahead();
    yield bytes;
  }
}
