/**
 * Response-time samples and their statistics. Samples are kept as float64 in
 * growable typed arrays (no object per record), so that millions of them
 * cost eight bytes each, and percentiles are exact: nearest rank over every
 * sample, never an estimate.
 */

/** The seven statistics of a set of times in milliseconds; every one is null when there are none, so "no data" never looks fast. */
export interface LatencyStatistics {
  readonly min: number | null;
  /** Rounded to 3 decimals (the microsecond), summed in ascending order: the same whatever order the samples came in. */
  readonly mean: number | null;
  readonly p50: number | null;
  readonly p90: number | null;
  readonly p95: number | null;
  readonly p99: number | null;
  readonly max: number | null;
}

/** The percentiles reported, in order. */
export const PERCENTILES = [50, 90, 95, 99] as const;

const NO_STATISTICS: LatencyStatistics = { min: null, mean: null, p50: null, p90: null, p95: null, p99: null, max: null };

/**
 * The 1-based nearest rank of the p-th percentile of n values:
 * `ceil(p × n / 100)`, in exact integer arithmetic (90 × 10 / 100 is rank 9).
 */
export function nearestRank(percentile: number, count: number): number {
  const scaled = percentile * count;
  return Math.max(1, Math.floor(scaled / 100) + (scaled % 100 === 0 ? 0 : 1));
}

/** A growable array of float64 samples. */
export class SampleBuffer {
  private values: Float64Array;
  private size = 0;

  constructor(capacity = 16) {
    this.values = new Float64Array(capacity);
  }

  get length(): number {
    return this.size;
  }

  push(value: number): void {
    if (this.size === this.values.length) this.grow(this.size + 1);
    this.values[this.size++] = value;
  }

  /** Appends every sample of `samples`, in order. */
  append(samples: Float64Array): void {
    if (samples.length === 0) return;
    if (this.size + samples.length > this.values.length) this.grow(this.size + samples.length);
    this.values.set(samples, this.size);
    this.size += samples.length;
  }

  /** The samples, as a view (not a copy) that the next push may invalidate. */
  view(): Float64Array {
    return this.values.subarray(0, this.size);
  }

  /** The samples as their own exact-length array (to send to another thread). */
  copy(): Float64Array {
    return this.values.slice(0, this.size);
  }

  // Grows by half again: doubling would leave up to half of a large buffer unused.
  private grow(needed: number): void {
    const next = new Float64Array(Math.max(needed, Math.ceil(this.values.length * 1.5), 16));
    next.set(this.view());
    this.values = next;
  }
}

/** The statistics of samples sorted in ascending order. */
export function describeSorted(sorted: Float64Array): LatencyStatistics {
  const count = sorted.length;
  if (count === 0) return NO_STATISTICS;
  let sum = 0;
  for (let index = 0; index < count; index++) sum += sorted[index]!;
  const at = (percentile: number): number => sorted[nearestRank(percentile, count) - 1]!;
  return { min: sorted[0]!, mean: roundMean(sum / count), p50: at(50), p90: at(90), p95: at(95), p99: at(99), max: sorted[count - 1]! };
}

/**
 * The statistics of the union of several sorted arrays, without building it:
 * the arrays are walked in one ascending merge, so the sum is taken in the
 * same order as {@link describeSorted} would take it over the union.
 */
export function describeSortedUnion(arrays: readonly Float64Array[]): LatencyStatistics {
  const sources = arrays.filter((array) => array.length > 0);
  if (sources.length === 1) return describeSorted(sources[0]!);
  const count = sources.reduce((total, array) => total + array.length, 0);
  if (count === 0) return NO_STATISTICS;
  const ranks = PERCENTILES.map((percentile) => nearestRank(percentile, count));
  const found: number[] = [];
  let sum = 0;
  let min = 0;
  let max = 0;
  let rank = 0;
  for (const value of mergeAscending(sources)) {
    rank++;
    sum += value;
    if (rank === 1) min = value;
    for (let index = 0; index < ranks.length; index++) if (ranks[index] === rank) found[index] = value;
    max = value;
  }
  return { min, mean: roundMean(sum / count), p50: found[0]!, p90: found[1]!, p95: found[2]!, p99: found[3]!, max };
}

/** Rounded to 3 decimals, and never -0. */
function roundMean(mean: number): number {
  return Math.round(mean * 1000) / 1000 + 0;
}

// A k-way merge with a binary min-heap of (array, position) cursors.
function* mergeAscending(arrays: readonly Float64Array[]): Generator<number, void, undefined> {
  const heap = arrays.map((array) => ({ array, position: 0 }));
  const value = (cursor: { array: Float64Array; position: number }): number => cursor.array[cursor.position]!;
  const siftDown = (start: number): void => {
    let parent = start;
    for (;;) {
      const left = parent * 2 + 1;
      if (left >= heap.length) return;
      const right = left + 1;
      const child = right < heap.length && value(heap[right]!) < value(heap[left]!) ? right : left;
      if (value(heap[child]!) >= value(heap[parent]!)) return;
      [heap[parent], heap[child]] = [heap[child]!, heap[parent]!];
      parent = child;
    }
  };
  for (let index = Math.floor(heap.length / 2) - 1; index >= 0; index--) siftDown(index);
  while (heap.length > 0) {
    const top = heap[0]!;
    yield value(top);
    top.position++;
    if (top.position === top.array.length) {
      const last = heap.pop()!;
      if (heap.length === 0) return;
      heap[0] = last;
    }
    siftDown(0);
  }
}
