import { MAX_CONDITION_POSITION, type ConditionsRecord } from '../records/conditionsRecord.js';
import { compareCodeUnits } from './compareCodeUnits.js';

/**
 * One endpoint's conditions met (issue 36), counted from its records'
 * `conditions`: for each list of conditions its records named (by
 * fingerprint; one, unless the document changed within the run), the
 * positions met and those of bounds overstepped, a union. What the report
 * keeps of it are bit sets, so that merged reports and parts add up as a
 * union too: a condition met on any shard is met.
 */

/** What the report keeps of one list: the positions met and overstepped, as bit sets (see {@link encodePositions}). */
export interface ConditionsMetEntry {
  readonly fingerprint: string;
  /** Calls examined against the list (each record that carried it). */
  readonly callCount: number;
  readonly met: string;
  readonly outside: string;
}

/** The positions of one list met and overstepped, as bit sets: a ConditionsMetEntry, or a history line's (which keeps no count). */
export type PositionsMet = Pick<ConditionsMetEntry, 'fingerprint' | 'met' | 'outside'> & { readonly callCount?: number | undefined };

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

  add(conditions: ConditionsRecord): void {
    const list = this.listOf(conditions.fingerprint);
    if (list === undefined) return;
    list.callCount++;
    for (const position of conditions.met) list.met.add(position);
    for (const position of conditions.outside ?? []) list.outside.add(position);
  }

  merge(entries: readonly ConditionsMetEntry[]): void {
    for (const { fingerprint, callCount, met, outside } of entries) {
      const list = this.listOf(fingerprint);
      if (list === undefined) continue;
      list.callCount += callCount;
      for (const position of decodePositions(met)) list.met.add(position);
      for (const position of decodePositions(outside)) list.outside.add(position);
    }
  }

  /** The lists, by fingerprint in code-unit order. */
  result(): ConditionsMetEntry[] {
    return [...this.lists]
      .sort(([a], [b]) => compareCodeUnits(a, b))
      .map(([fingerprint, { callCount, met, outside }]) => ({
        fingerprint,
        callCount,
        met: encodePositions(met),
        outside: encodePositions(outside),
      }));
  }

  private listOf(fingerprint: string): ConditionList | undefined {
    let list = this.lists.get(fingerprint);
    if (list === undefined && this.lists.size < MAX_CONDITION_LISTS)
      this.lists.set(fingerprint, (list = { callCount: 0, met: new Set(), outside: new Set() }));
    return list;
  }
}

interface ConditionList {
  callCount: number;
  readonly met: Set<number>;
  readonly outside: Set<number>;
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
