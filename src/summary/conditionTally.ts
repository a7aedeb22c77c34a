import type { ConditionsRecord } from '../records/conditionsRecord.js';
import { MAX_CONDITION_POSITION } from '../records/conditionsRules.js';
import { compareCodeUnits } from '../compareCodeUnits.js';

/**
 * One endpoint's conditions met (issue 36), counted from its records'
 * `conditions`: for each list of conditions its records named (by
 * fingerprint; one, unless the document changed within the run), the
 * positions met and those of bounds overstepped, a union, and how many
 * calls met each position met (issue 38). What the report keeps of it are
 * bit sets and counts, so that merged reports and parts add up as a union
 * and a sum: a condition met on any shard is met, by the calls of all.
 */

/** What the report keeps of one list: the positions met and overstepped, as bit sets (see {@link encodePositions}). */
export interface ConditionsMetEntry {
  readonly fingerprint: string;
  /** Calls examined against the list (each record that carried it). */
  readonly callCount: number;
  readonly met: string;
  /**
   * The calls that met each position of `met`, in ascending position order (one count per set bit). Absent when
   * unknown: in a report of a version before counts, and in a merge of one with others (counts are never guessed).
   */
  readonly metCounts?: readonly number[] | undefined;
  readonly outside: string;
}

/** The positions of one list met and overstepped, as bit sets: a ConditionsMetEntry, or a history line's (which keeps no call count). */
export type PositionsMet = Pick<ConditionsMetEntry, 'fingerprint' | 'met' | 'outside' | 'metCounts'> & {
  readonly callCount?: number | undefined;
};

/**
 * The length of the longest bit set that positions a record may name make
 * (up to MAX_CONDITION_POSITION): a report or a history line holding a
 * longer one was not written by a run, and is refused before it is read.
 */
export const MAX_POSITIONS_LENGTH = Math.ceil((MAX_CONDITION_POSITION + 1) / 8 / 3) * 4;

/** Lists of conditions kept per endpoint; a record naming another is not counted (a hostile input must not grow memory without bound). */
export const MAX_CONDITION_LISTS = 8;

export class ConditionTally {
  private readonly lists = new Map<string, ConditionList>();

  /** Counts one record's conditions: its positions are ascending and each once (the record schema), so each adds one call. */
  add(conditions: ConditionsRecord): void {
    const list = this.listOf(conditions.fingerprint);
    if (list === undefined) return;
    list.callCount++;
    list.met.set(conditions.met);
    list.outside.set(conditions.outside ?? []);
    const counts = list.metCounts;
    if (counts !== undefined) for (const position of conditions.met) counts.add(position, 1);
  }

  /**
   * Adds entries a report or a part kept. An entry that met some position and gives no counts (a report of a
   * version before them), or counts that do not line up with its positions, leaves the list's counts unknown.
   */
  merge(entries: readonly ConditionsMetEntry[]): void {
    for (const { fingerprint, callCount, met, metCounts, outside } of entries) {
      const list = this.listOf(fingerprint);
      if (list === undefined) continue;
      list.callCount += callCount;
      list.met.or(Buffer.from(met, 'base64'));
      list.outside.or(Buffer.from(outside, 'base64'));
      const counts = list.metCounts;
      if (counts === undefined) continue;
      const positions = decodePositions(met);
      if (metCounts === undefined ? positions.length > 0 : metCounts.length !== positions.length) {
        list.metCounts = undefined;
        continue;
      }
      positions.forEach((position, index) => {
        counts.add(position, metCounts![index]!);
      });
    }
  }

  /** The lists, by fingerprint in code-unit order. */
  result(): ConditionsMetEntry[] {
    return [...this.lists]
      .sort(([a], [b]) => compareCodeUnits(a, b))
      .map(([fingerprint, { callCount, met, metCounts, outside }]) => ({
        fingerprint,
        callCount,
        met: met.encoded(),
        ...(metCounts === undefined ? {} : { metCounts: metCounts.inOrder() }),
        outside: outside.encoded(),
      }));
  }

  private listOf(fingerprint: string): ConditionList | undefined {
    let list = this.lists.get(fingerprint);
    if (list === undefined && this.lists.size < MAX_CONDITION_LISTS)
      this.lists.set(fingerprint, (list = { callCount: 0, met: new BitSet(), metCounts: new PositionCounts(), outside: new BitSet() }));
    return list;
  }
}

interface ConditionList {
  callCount: number;
  readonly met: BitSet;
  /** Calls by position met; undefined once counts are unknown. */
  metCounts: PositionCounts | undefined;
  readonly outside: BitSet;
}

/** Positions below this are counted in an array (at most 32 KB a list); those above, which no real operation has, in a Map. */
const DENSE_POSITIONS = 4096;

/**
 * Calls per position met: an array by position for the positions operations have, a Map past DENSE_POSITIONS, so that
 * memory grows with the positions met and not with the highest one (a record may name position 999,999). Measured on 3
 * million records of 12 positions each, a Map alone made the add three times as slow as before counts, the array 1.6
 * times. Every position with a count is set in the list's `met`, and every one set has a count.
 */
class PositionCounts {
  private dense = new Float64Array(0);
  private readonly sparse = new Map<number, number>();

  add(position: number, calls: number): void {
    if (position >= DENSE_POSITIONS) {
      this.sparse.set(position, (this.sparse.get(position) ?? 0) + calls);
      return;
    }
    if (position >= this.dense.length) {
      const grown = new Float64Array(Math.min(DENSE_POSITIONS, Math.max(position + 1, this.dense.length * 2)));
      grown.set(this.dense);
      this.dense = grown;
    }
    this.dense[position]! += calls;
  }

  /** The counts, in ascending position order: one for each position met. */
  inOrder(): number[] {
    const counts: number[] = [];
    for (const count of this.dense) if (count > 0) counts.push(count);
    for (const [, count] of [...this.sparse].sort(([a], [b]) => a - b)) counts.push(count);
    return counts;
  }
}

/** Positions as the bytes of their bit set (see {@link encodePositions}), grown as positions come: a union is a byte-wise or. */
class BitSet {
  private bytes = new Uint8Array(0);

  set(positions: readonly number[]): void {
    for (const position of positions) {
      this.grow((position >> 3) + 1);
      this.bytes[position >> 3]! |= 1 << (position & 7);
    }
  }

  or(other: Uint8Array): void {
    this.grow(other.length);
    for (let index = 0; index < other.length; index++) this.bytes[index]! |= other[index]!;
  }

  encoded(): string {
    let length = this.bytes.length;
    while (length > 0 && this.bytes[length - 1] === 0) length--;
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, length).toString('base64');
  }

  private grow(length: number): void {
    if (length <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(length, this.bytes.length * 2));
    grown.set(this.bytes);
    this.bytes = grown;
  }
}

/**
 * Positions as a bit set in base64: position `p` is bit `p % 8` (the least
 * significant first) of byte `⌊p / 8⌋`; no trailing zero byte; `''` for none.
 */
export function encodePositions(positions: Iterable<number>): string {
  let highest = -1;
  for (const position of positions) if (position > highest) highest = position;
  if (highest < 0) return '';
  const bytes = new Uint8Array((highest >> 3) + 1);
  for (const position of positions) bytes[position >> 3]! |= 1 << (position & 7);
  return Buffer.from(bytes).toString('base64');
}

/**
 * What is wrong with a list's counts (`metCounts`) against its positions (`met`): one count per position met, or the
 * counts would be read as another position's calls. Undefined when they line up, or when there are none.
 */
export function metCountsMismatch(met: string, metCounts: readonly number[] | undefined): string | undefined {
  if (metCounts === undefined) return undefined;
  const positionCount = countPositions(met);
  return metCounts.length === positionCount
    ? undefined
    : `metCounts holds ${metCounts.length} counts, but met holds ${positionCount} positions: one count per position met`;
}

/** How many positions a bit set holds (see {@link encodePositions}), counted without listing them. */
function countPositions(bits: string): number {
  const bytes = Buffer.from(bits, 'base64');
  let count = 0;
  for (const byte of bytes) for (let rest = byte; rest !== 0; rest &= rest - 1) count++;
  return count;
}

/** The positions a bit set holds, ascending (see {@link encodePositions}). */
export function decodePositions(bits: string): number[] {
  const bytes = Buffer.from(bits, 'base64');
  const positions: number[] = [];
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index]!;
    if (byte === 0) continue;
    for (let bit = 0; bit < 8; bit++) if ((byte & (1 << bit)) !== 0) positions.push(index * 8 + bit);
  }
  return positions;
}
