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
  private adopted: { readonly samples: Float64Array; sorted: boolean; readonly sum: readonly number[] | undefined }[] = [];

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

  /**
   * Takes `samples` as part of this buffer, without copying: the caller must
   * not change them afterwards. `sum`, when given, is their exact sum's
   * partials, worked out where the samples came from.
   */
  adopt(samples: Float64Array, sorted = false, sum?: readonly number[]): void {
    if (samples.length > 0) this.adopted.push({ samples, sorted, sum });
  }

  /** The exact sum of every sample. */
  exactSum(): ExactSum {
    const sum = new ExactSum();
    sum.addAll(this.values.subarray(0, this.size));
    for (const part of this.adopted) {
      if (part.sum === undefined) sum.addAll(part.samples);
      else sum.merge(part.sum);
    }
    return sum;
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
  // A double's exact sum needs at most about 40 non-overlapping partials.
  private partials = new Float64Array(8);
  private count = 0;

  add(value: number): void {
    let partials = this.partials;
    let x = value;
    let kept = 0;
    for (let index = 0; index < this.count; index++) {
      let y = partials[index]!;
      if (Math.abs(x) < Math.abs(y)) {
        const swap = x;
        x = y;
        y = swap;
      }
      const high = x + y;
      const low = y - (high - x);
      if (low !== 0) partials[kept++] = low;
      x = high;
    }
    if (kept === partials.length) {
      partials = new Float64Array(partials.length * 2);
      partials.set(this.partials);
      this.partials = partials;
    }
    partials[kept] = x;
    this.count = kept + 1;
  }

  addAll(values: Float64Array): void {
    for (let index = 0; index < values.length; index++) this.add(values[index]!);
  }

  merge(other: ExactSum | readonly number[]): void {
    for (const partial of other instanceof ExactSum ? other.toPartials() : other) this.add(partial);
  }

  /** The partials, as plain data (to cross a thread boundary). */
  toPartials(): number[] {
    return Array.from(this.partials.subarray(0, this.count));
  }

  /** The exact sum, correctly rounded to a float. */
  value(): number {
    const { partials } = this;
    let index = this.count;
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

// A double's bits as two unsigned 32-bit halves (little-endian: [low, high]).
const words = new Uint32Array(2);
const float = new Float64Array(words.buffer);

function floatOf(high: number, low: number): number {
  words[0] = low;
  words[1] = high;
  return float[0]!;
}

// The rank-th smallest sample (1-based) over sorted runs of non-negative
// floats: the least bit pattern whose float has at least `rank` samples at
// or below it, found by bisecting the high word, then the low word.
function select(runs: readonly Float64Array[], rank: number, max: number): number {
  float[0] = max;
  let lowHigh = 0;
  let highHigh = words[1]!;
  const enough = (high: number, low: number): boolean => countAtMost(runs, floatOf(high, low)) >= rank;
  while (lowHigh < highHigh) {
    const middle = Math.floor((lowHigh + highHigh) / 2);
    if (enough(middle, 0xffffffff)) highHigh = middle;
    else lowHigh = middle + 1;
  }
  let lowLow = 0;
  let highLow = 0xffffffff;
  while (lowLow < highLow) {
    const middle = Math.floor((lowLow + highLow) / 2);
    if (enough(lowHigh, middle)) highLow = middle;
    else lowLow = middle + 1;
  }
  return floatOf(lowHigh, lowLow) + 0;
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
