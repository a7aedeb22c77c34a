/**
 * Response-time samples and their statistics. Samples are kept as float64 in
 * growable typed arrays (no object per record), so that millions of them
 * cost eight bytes each, and the statistics are exact: percentiles by
 * nearest rank over every sample, never an estimate, and the mean from the
 * exact sum, so no order of files, shards or threads can change a bit.
 */

/** The seven statistics of a set of times in milliseconds; every one is null when there are none, so "no data" never looks fast. */
export interface LatencyStatistics {
  readonly min: number | null;
  /** The exact sum (correctly rounded) over the count, rounded to 3 decimals (the microsecond). */
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

/**
 * A growable array of float64 samples. Arrays merged in from elsewhere (a
 * worker thread's) are adopted as they are, not copied: the statistics are
 * taken over the sorted runs without ever joining them.
 */
export class SampleBuffer {
  private values: Float64Array;
  private size = 0;
  private adopted: { readonly samples: Float64Array; sorted: boolean }[] = [];

  constructor(capacity = 16) {
    this.values = new Float64Array(capacity);
  }

  get length(): number {
    return this.size + this.adopted.reduce((total, part) => total + part.samples.length, 0);
  }

  push(value: number): void {
    if (this.size === this.values.length) this.grow(this.size + 1);
    this.values[this.size++] = value;
  }

  /** Takes `samples` as part of this buffer, without copying: the caller must not change them afterwards. */
  adopt(samples: Float64Array, sorted = false): void {
    if (samples.length > 0) this.adopted.push({ samples, sorted });
  }

  /** Every sample as one array (joined if need be), unsorted: what to hand to another thread. */
  view(): Float64Array {
    if (this.adopted.length > 0) {
      const joined = new Float64Array(this.length);
      joined.set(this.values.subarray(0, this.size));
      let at = this.size;
      for (const { samples } of this.adopted) {
        joined.set(samples, at);
        at += samples.length;
      }
      this.values = joined;
      this.size = joined.length;
      this.adopted = [];
    }
    return this.values.subarray(0, this.size);
  }

  /** The samples as sorted runs (each sorted in place): this buffer's own, and each adopted array. */
  runs(): Float64Array[] {
    const runs: Float64Array[] = [];
    if (this.size > 0) runs.push(this.values.subarray(0, this.size).sort());
    for (const part of this.adopted) {
      if (!part.sorted) part.samples.sort();
      part.sorted = true;
      runs.push(part.samples);
    }
    return runs;
  }

  // Grows by half again: doubling would leave up to half of a large buffer unused.
  private grow(needed: number): void {
    const next = new Float64Array(Math.max(needed, Math.ceil(this.values.length * 1.5), 16));
    next.set(this.values.subarray(0, this.size));
    this.values = next;
  }
}

/**
 * The exact sum of floats, kept as non-overlapping partials (Shewchuk's
 * algorithm, as Python's `math.fsum`): the same value whatever order the
 * numbers are added or merged in.
 */
export class ExactSum {
  private readonly partials: number[] = [];

  add(value: number): void {
    const { partials } = this;
    let x = value;
    let kept = 0;
    for (let index = 0; index < partials.length; index++) {
      let y = partials[index]!;
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const high = x + y;
      const low = y - (high - x);
      if (low !== 0) partials[kept++] = low;
      x = high;
    }
    partials.length = kept;
    partials.push(x);
  }

  addAll(values: Float64Array): void {
    for (let index = 0; index < values.length; index++) this.add(values[index]!);
  }

  merge(other: ExactSum): void {
    for (const partial of other.partials) this.add(partial);
  }

  /** The exact sum, correctly rounded to a float. */
  value(): number {
    const { partials } = this;
    let index = partials.length;
    if (index === 0) return 0;
    let high = partials[--index]!;
    let low = 0;
    while (index > 0) {
      const x = high;
      const y = partials[--index]!;
      high = x + y;
      low = y - (high - x);
      if (low !== 0) break;
    }
    // Half-way cases: round to even the way the exact sum would.
    if (index > 0 && ((low < 0 && partials[index - 1]! < 0) || (low > 0 && partials[index - 1]! > 0))) {
      const y = low * 2;
      const x = high + y;
      if (y === x - high) high = x;
    }
    return high;
  }
}

/**
 * The statistics of samples given as sorted runs, and their exact sum.
 * Percentiles are found by selection over the runs, so the runs are never
 * joined: the k-th smallest of all is the smallest value v with at least k
 * samples at or below it, searched over the ordered bit patterns of
 * non-negative floats.
 */
export function describeRuns(runs: readonly Float64Array[], sum: ExactSum): LatencyStatistics {
  const sources = runs.filter((run) => run.length > 0);
  const count = sources.reduce((total, run) => total + run.length, 0);
  if (count === 0) return NO_STATISTICS;
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  for (const run of sources) {
    min = Math.min(min, run[0]!);
    max = Math.max(max, run[run.length - 1]!);
  }
  const at = (percentile: number): number => (sources.length === 1 ? sources[0]![nearestRank(percentile, count) - 1]! : select(sources, nearestRank(percentile, count), max));
  return { min: min + 0, mean: roundMean(sum.value() / count), p50: at(50), p90: at(90), p95: at(95), p99: at(99), max };
}

/** The statistics of one sorted array. */
export function describeSorted(sorted: Float64Array): LatencyStatistics {
  const sum = new ExactSum();
  sum.addAll(sorted);
  return describeRuns([sorted], sum);
}

const bits = new BigUint64Array(1);
const float = new Float64Array(bits.buffer);

function bitsOf(value: number): bigint {
  float[0] = value + 0; // -0 counts as 0
  return bits[0]!;
}

function floatOf(pattern: bigint): number {
  bits[0] = pattern;
  return float[0]!;
}

// The rank-th smallest sample (1-based) over sorted runs of non-negative floats.
function select(runs: readonly Float64Array[], rank: number, max: number): number {
  let low = 0n;
  let high = bitsOf(max);
  while (low < high) {
    const middle = (low + high) >> 1n;
    if (countAtMost(runs, floatOf(middle)) >= rank) high = middle;
    else low = middle + 1n;
  }
  return floatOf(low);
}

function countAtMost(runs: readonly Float64Array[], value: number): number {
  let total = 0;
  for (const run of runs) {
    let low = 0;
    let high = run.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (run[middle]! <= value) low = middle + 1;
      else high = middle;
    }
    total += low;
  }
  return total;
}

/** Rounded to 3 decimals, and never -0. */
function roundMean(mean: number): number {
  return Math.round(mean * 1000) / 1000 + 0;
}
