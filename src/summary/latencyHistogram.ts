import {
  nearestRank,
  roundToMicroseconds,
  type ExactSum,
  type FlatHistogram,
  type LatencyStatistics,
  type RankGuide,
} from './latencySamples.js';

/**
 * An endpoint's latency histogram: logarithmic buckets with DDSketch's
 * mapping (Masson, Rim and Lee, VLDB 2019), so that any quantile read from
 * it is within {@link HISTOGRAM_RELATIVE_ACCURACY} of the exact one. Counts
 * add up, so histograms of runs, shards and machines merge exactly. It
 * serves comparisons (the baseline's significance test), merging and the
 * page's distribution chart; the report's percentiles stay exact.
 *
 * Bucket `i` holds the times in (γ^(i-1), γ^i], γ = (1 + α) / (1 - α);
 * its value is 2γ^i / (γ + 1), at most α away from any time in it,
 * relatively. Times of 0 have a bucket of their own. Only the buckets that
 * hold a time are stored, ascending: `[index, count]` pairs.
 */

/** The documented relative error of a quantile read from a histogram: 1%. */
export const HISTOGRAM_RELATIVE_ACCURACY = 0.01;

const GAMMA = (1 + HISTOGRAM_RELATIVE_ACCURACY) / (1 - HISTOGRAM_RELATIVE_ACCURACY);
const LOG_GAMMA = Math.log(GAMMA);

/** A histogram as the report stores it. */
export interface LatencyHistogram {
  readonly relativeAccuracy: number;
  /** Times of exactly 0 ms. */
  readonly zeroCount: number;
  /** `[bucket index, count]`, ascending by index, counts 1 or more. */
  readonly bins: readonly (readonly [number, number])[];
}

/** The bucket a time greater than 0 falls in (0, never -0, for the times just below 1 ms whose quotient rounds up to -0). */
export function bucketOf(milliseconds: number): number {
  return Math.ceil(Math.log(milliseconds) / LOG_GAMMA) + 0;
}

/** The value a bucket stands for: within the relative accuracy of every time in it. */
export function bucketValue(index: number): number {
  return (2 * GAMMA ** index) / (GAMMA + 1);
}

/**
 * Where the samples a histogram counts hold a rank (see RankGuide): the
 * bounds of the bucket that holds it, widened by a part in a billion (the
 * samples are counted against them, so a bound that takes in a neighbour's
 * time costs nothing but that time's place among the candidates). None for
 * a rank among the zeros. Histograms given together are added first (every
 * endpoint's, for the run-wide percentiles).
 */
export function rankGuide(histograms: readonly LatencyHistogram[]): RankGuide {
  const { zeroCount, bins } = histograms.length === 1 ? histograms[0]! : summedCounts(histograms);
  // Where the last rank asked was found: the percentiles are asked in ascending order, so the bins are walked once.
  let [next, seen] = [0, zeroCount];
  return (rank) => {
    if (rank <= zeroCount) return undefined;
    if (rank <= seen) [next, seen] = [0, zeroCount];
    // Indexed, not destructured: this runs once per endpoint, before the JIT has optimised it.
    for (; next < bins.length; next++) {
      const bin = bins[next]!;
      seen += bin[1];
      if (seen >= rank) {
        seen -= bin[1];
        return [GAMMA ** (bin[0] - 1) * (1 - 1e-9), GAMMA ** bin[0] * (1 + 1e-9)];
      }
    }
    return undefined;
  };
}

/** {@link rankGuide} of flat histograms (added first when several). */
export function flatRankGuide(histograms: readonly FlatHistogram[]): RankGuide {
  const { zeroCount, bins } = summedFlatCounts(histograms);
  let [next, seen] = [0, zeroCount];
  return (rank) => {
    if (rank <= zeroCount) return undefined;
    if (rank <= seen) [next, seen] = [0, zeroCount];
    for (; next < bins.length; next += 2) {
      seen += bins[next + 1]!;
      if (seen >= rank) {
        seen -= bins[next + 1]!;
        const bucket = bins[next]!;
        return [GAMMA ** (bucket - 1) * (1 - 1e-9), GAMMA ** bucket * (1 + 1e-9)];
      }
    }
    return undefined;
  };
}

// Flat histograms' counts added (the guide reads counts only): in an array a bucket a place when their buckets span few
// (every endpoint's, for the run-wide percentiles: some 600 buckets), else merged in order.
function summedFlatCounts(histograms: readonly FlatHistogram[]): FlatHistogram {
  let [lowest, highest, zeroCount] = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0];
  for (const { bins, zeroCount: zeros } of histograms) {
    zeroCount += zeros;
    if (bins.length === 0) continue;
    lowest = Math.min(lowest, bins[0]!);
    highest = Math.max(highest, bins[bins.length - 2]!);
  }
  if (lowest > highest) return { zeroCount, bins: new Float64Array(0) };
  if (!(highest - lowest < DENSE_BUCKETS)) return sumOfFlatHistograms(histograms);
  const counts = new Float64Array(highest - lowest + 1);
  for (const { bins } of histograms)
    for (let at = 0; at < bins.length; at += 2) counts[bins[at]! - lowest] = counts[bins[at]! - lowest]! + bins[at + 1]!;
  let used = 0;
  for (let at = 0; at < counts.length; at++) if (counts[at]! > 0) used++;
  const bins = new Float64Array(used * 2);
  let next = 0;
  for (let at = 0; at < counts.length; at++) {
    if (counts[at] === 0) continue;
    bins[next++] = lowest + at;
    bins[next++] = counts[at]!;
  }
  return { zeroCount, bins };
}

/** {@link rankGuide} of histograms made only when a rank is first asked: none when the runs are joined rather than searched. */
export function lazyRankGuide(histograms: () => readonly LatencyHistogram[]): RankGuide {
  let guide: RankGuide | undefined;
  return (rank) => (guide ??= rankGuide(histograms()))(rank);
}

// Histograms' counts added (the guide reads counts only): in an array a bucket a place when their buckets span few
// (every endpoint's, for the run-wide percentiles: some 400 buckets), else merged as the report merges them.
function summedCounts(histograms: readonly LatencyHistogram[]): LatencyHistogram {
  let [lowest, highest, zeroCount] = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0];
  for (const { bins, zeroCount: zeros } of histograms) {
    zeroCount += zeros;
    if (bins.length === 0) continue;
    lowest = Math.min(lowest, bins[0]![0]);
    highest = Math.max(highest, bins[bins.length - 1]![0]);
  }
  if (lowest > highest) return { relativeAccuracy: HISTOGRAM_RELATIVE_ACCURACY, zeroCount, bins: [] };
  if (!(highest - lowest < DENSE_BUCKETS)) return mergedHistogram(histograms);
  const counts = new Float64Array(highest - lowest + 1);
  for (const { bins } of histograms) {
    for (let at = 0; at < bins.length; at++) {
      const bin = bins[at]!;
      counts[bin[0] - lowest] = counts[bin[0] - lowest]! + bin[1];
    }
  }
  const bins: [number, number][] = [];
  counts.forEach((count, at) => {
    if (count > 0) bins.push([lowest + at, count]);
  });
  return { relativeAccuracy: HISTOGRAM_RELATIVE_ACCURACY, zeroCount, bins };
}

const DENSE_BUCKETS = 1 << 16;

/**
 * The buckets a histogram of this relative accuracy can hold: from the one
 * of the smallest time above 0 (5e-324 ms) to the one of the largest
 * finite time. An index outside is no time's.
 */
export function bucketRange(relativeAccuracy: number): { readonly lowest: number; readonly highest: number } {
  const logGamma = Math.log((1 + relativeAccuracy) / (1 - relativeAccuracy));
  return { lowest: Math.ceil(Math.log(Number.MIN_VALUE) / logGamma), highest: Math.ceil(Math.log(Number.MAX_VALUE) / logGamma) };
}

/** A histogram being filled: counts by bucket. */
export class HistogramCounts {
  zeroCount = 0;
  private readonly counts = new Map<number, number>();

  /**
   * Adds sorted times (ascending): each distinct time is mapped once, and
   * each bucket's times are counted together, one addition to the map a
   * bucket rather than a time (a 12,500-time run fills some 600 buckets).
   */
  addSorted(times: Float64Array): void {
    let previous = Number.NaN;
    let bucket = Number.NaN;
    let pending = 0;
    for (let index = 0; index < times.length; index++) {
      const time = times[index]!;
      if (time <= 0) {
        this.zeroCount++;
        continue;
      }
      if (time !== previous) {
        previous = time;
        const next = bucketOf(time);
        if (next !== bucket) {
          if (pending > 0) this.add(bucket, pending);
          bucket = next;
          pending = 0;
        }
      }
      pending++;
    }
    if (pending > 0) this.add(bucket, pending);
  }

  private add(bucket: number, count: number): void {
    this.counts.set(bucket, (this.counts.get(bucket) ?? 0) + count);
  }

  /** Adds a histogram given as flat data (see FlatHistogram). */
  mergeFlat({ zeroCount, bins }: FlatHistogram): void {
    this.zeroCount += zeroCount;
    for (let at = 0; at < bins.length; at += 2) this.add(bins[at]!, bins[at + 1]!);
  }

  /** The counts as flat data: bins ascending. */
  toFlat(): FlatHistogram {
    return flatHistogram(this.result());
  }

  /** Adds another histogram's counts. */
  merge(histogram: LatencyHistogram): void {
    this.zeroCount += histogram.zeroCount;
    for (const [bucket, count] of histogram.bins) this.add(bucket, count);
  }

  result(): LatencyHistogram {
    const bins = [...this.counts].sort(([a], [b]) => a - b);
    return { relativeAccuracy: HISTOGRAM_RELATIVE_ACCURACY, zeroCount: this.zeroCount, bins };
  }
}

/** A histogram as flat data (see FlatHistogram). */
export function flatHistogram({ zeroCount, bins }: LatencyHistogram): FlatHistogram {
  const flat = new Float64Array(bins.length * 2);
  bins.forEach(([bucket, count], index) => {
    flat[index * 2] = bucket;
    flat[index * 2 + 1] = count;
  });
  return { zeroCount, bins: flat };
}

/**
 * Flat histograms added together, each's bins ascending (as threads send
 * them): as {@link mergedHistogram} adds histograms, their bins walked in
 * order, with no map and no sort.
 */
export function addedFlatHistograms(histograms: readonly FlatHistogram[]): LatencyHistogram {
  return histogramOfFlat(sumOfFlatHistograms(histograms));
}

/** {@link addedFlatHistograms}, kept flat. */
export function sumOfFlatHistograms(histograms: readonly FlatHistogram[]): FlatHistogram {
  if (histograms.length === 1) return histograms[0]!;
  let zeroCount = 0;
  for (const histogram of histograms) zeroCount += histogram.zeroCount;
  return { zeroCount, bins: addedFlatBins(histograms.map(({ bins }) => bins)) };
}

// Halves added, then the two, as mergedHistogram adds pairs, but flat: a range's bins become pairs only once added (ten
// ranges of an endpoint's status made ten lists of pairs, and each level of the merge more: most of a run's garbage).
function addedFlatBins(lists: readonly Float64Array[]): Float64Array {
  if (lists.length <= 1) return lists[0] ?? new Float64Array(0);
  const middle = lists.length >> 1;
  const a = addedFlatBins(lists.slice(0, middle));
  const b = addedFlatBins(lists.slice(middle));
  const sum = new Float64Array(a.length + b.length);
  return sum.subarray(0, addBins(a, a.length, b, b.length, sum));
}

/** A flat histogram as the report stores it: `[bucket, count]` pairs. */
export function histogramOfFlat({ zeroCount, bins }: FlatHistogram): LatencyHistogram {
  const pairs: (readonly [number, number])[] = [];
  for (let at = 0; at < bins.length; at += 2) pairs.push([bins[at]!, bins[at + 1]!]);
  return { relativeAccuracy: HISTOGRAM_RELATIVE_ACCURACY, zeroCount, bins: pairs };
}

/**
 * Histograms added together, as {@link mergedHistogram} adds them, in one
 * pass over their bins in order, read by index (this runs once per
 * endpoint, before the JIT has optimised it): a bucket that only one of them
 * holds is that one's pair itself, shared (no one changes a bin), so an
 * endpoint's histogram made of its statuses' holds new pairs only where two
 * statuses share a bucket (17 MB fewer at 50,000 endpoints of a few calls).
 * One histogram alone is given back, its bins shared.
 */
export function mergedStatusHistograms(histograms: readonly LatencyHistogram[]): LatencyHistogram {
  if (histograms.length <= 1) return mergedHistogram(histograms);
  const at = new Array<number>(histograms.length).fill(0);
  const bins: (readonly [number, number])[] = [];
  let zeroCount = 0;
  for (const histogram of histograms) zeroCount += histogram.zeroCount;
  for (;;) {
    let lowest = Number.POSITIVE_INFINITY;
    let holders = 0;
    let holder = 0;
    let count = 0;
    for (let part = 0; part < histograms.length; part++) {
      const bin = histograms[part]!.bins[at[part]!];
      if (bin === undefined) continue;
      if (bin[0] < lowest) {
        lowest = bin[0];
        holders = 1;
        holder = part;
        count = bin[1];
      } else if (bin[0] === lowest) {
        holders++;
        count += bin[1];
      }
    }
    if (holders === 0) break;
    bins.push(holders === 1 ? histograms[holder]!.bins[at[holder]!]! : [lowest, count]);
    for (let part = 0; part < histograms.length; part++) if (histograms[part]!.bins[at[part]!]?.[0] === lowest) at[part]!++;
  }
  return { relativeAccuracy: HISTOGRAM_RELATIVE_ACCURACY, zeroCount, bins };
}

/** The histogram of times given as sorted runs: one run's pairs made straight from its bins, with no flat array between. */
export function histogramOfRuns(runs: readonly Float64Array[]): LatencyHistogram {
  if (runs.length !== 1) return histogramOfFlat(flatHistogramOfRuns(runs));
  const run = runs[0]!;
  let first = 0;
  while (first < run.length && run[first]! <= 0) first++;
  const pairs: (readonly [number, number])[] = [];
  const used = first < run.length ? writeBinsOfRun(run, first) : 0;
  for (let at = 0; at < used; at += 2) pairs.push([binScratch[at]!, binScratch[at + 1]!]);
  return { relativeAccuracy: HISTOGRAM_RELATIVE_ACCURACY, zeroCount: first, bins: pairs };
}

/**
 * The histogram of times given as sorted runs, as flat data: what a thread
 * counts of each status's times before it hands them on. Each run's bins
 * are read off in order (see {@link writeBinsOfRun}) and added into the bins so
 * far, both in scratch arrays of the thread's: the histogram is the one
 * array made (no array a bucket a place, whose length an endpoint of a few
 * calls far apart would pay for each status, and no array a run, 18 MB of
 * garbage a thread at once when 5M records' chunks are sealed).
 */
export function flatHistogramOfRuns(runs: readonly Float64Array[]): FlatHistogram {
  let zeroCount = 0;
  let used = 0;
  for (const run of runs) {
    let first = 0;
    while (first < run.length && run[first]! <= 0) first++;
    zeroCount += first;
    if (first === run.length) continue;
    const added = writeBinsOfRun(run, first);
    if (used === 0) {
      if (sumScratch.length < added) sumScratch = new Float64Array(added * 2);
      sumScratch.set(binScratch.subarray(0, added));
      used = added;
      continue;
    }
    if (mergeScratch.length < used + added) mergeScratch = new Float64Array((used + added) * 2);
    const merged = addBins(sumScratch, used, binScratch, added, mergeScratch);
    [sumScratch, mergeScratch] = [mergeScratch, sumScratch];
    used = merged;
  }
  return { zeroCount, bins: sumScratch.slice(0, used) };
}

// Where flatHistogramOfRuns adds its runs' bins, each thread's own: grown, never made anew.
let sumScratch = new Float64Array(2048);
let mergeScratch = new Float64Array(2048);

// Flat bins `a[0, aUsed)` and `b[0, bUsed)` added into `into`, in order: how many numbers.
function addBins(a: Float64Array, aUsed: number, b: Float64Array, bUsed: number, into: Float64Array): number {
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < aUsed || j < bUsed) {
    if (j >= bUsed || (i < aUsed && a[i]! < b[j]!)) {
      into[k++] = a[i]!;
      into[k++] = a[i + 1]!;
      i += 2;
    } else if (i >= aUsed || b[j]! < a[i]!) {
      into[k++] = b[j]!;
      into[k++] = b[j + 1]!;
      j += 2;
    } else {
      into[k++] = a[i]!;
      into[k++] = a[i + 1]! + b[j + 1]!;
      i += 2;
      j += 2;
    }
  }
  return k;
}

/**
 * A sorted run's `[bucket, count]` pairs, flat and ascending, from `from`
 * on (every time there above 0), written to the thread's scratch
 * (`binScratch`): how many numbers. The run is walked in order, each time
 * compared with the bounds of the bucket it is in and the next (powers of γ,
 * each worked out once a thread), a part in a billion inside each bound: a
 * time within that of a bound, or past the next bucket, is mapped by
 * bucketOf itself. Math.log's error is far smaller, so each time is counted
 * where bucketOf puts it, with a logarithm only for the first time and the
 * buckets the run skips.
 */
function writeBinsOfRun(run: Float64Array, from: number): number {
  // A bin a bucket the run spans at most (not a bin a time: one status's millions of times span some 600 buckets).
  const room = 2 * Math.min(run.length - from, bucketOf(run[run.length - 1]!) - bucketOf(run[from]!) + 1);
  if (binScratch.length < room) binScratch = new Float64Array(room);
  const bins = binScratch;
  let used = 0;
  let bucket = bucketOf(run[from]!);
  let ceiling = ceilingOf(bucket);
  let start = from;
  for (let index = from; index < run.length; index++) {
    const time = run[index]!;
    if (time < ceiling) continue;
    if (index > start) {
      bins[used++] = bucket;
      bins[used++] = index - start;
    }
    start = index;
    const nextCeiling = ceilingOf(bucket + 1);
    // Past the bucket's bound by more than its margin and below the next one's: the next bucket; anything else is mapped.
    if (ceiling > 0 && time >= ceiling * BEYOND_BOUND && time < nextCeiling) {
      bucket++;
      ceiling = nextCeiling;
    } else {
      const next = bucketOf(time);
      // A time in the margin below the bound is still in the bucket: its count goes on.
      if (next === bucket && used >= 2 && bins[used - 2] === bucket) {
        used -= 2;
        start -= bins[used + 1]!;
      }
      bucket = next;
      ceiling = ceilingOf(bucket);
    }
  }
  bins[used++] = bucket;
  bins[used++] = run.length - start;
  return used;
}

// Where writeBinsOfRun writes a run's bins, each thread's own: grown, never made anew.
let binScratch = new Float64Array(2048);

/**
 * A time below a bucket's bound times this is in that bucket or below; one
 * at or past the bound times {@link BEYOND_BOUND} (after dividing it out)
 * is past it.
 */
const INSIDE_BELOW = 1 - 1e-9;
const BEYOND_BOUND = (1 + 1e-9) / INSIDE_BELOW;

/**
 * A part in a billion below the bucket's bound: no time there is past it. 0,
 * no time below it, for the buckets of times below 2^-1000 ms: near and among
 * subnormal doubles a power of γ is rounded too coarsely to tell, and each
 * time is mapped.
 */
function ceilingOf(bucket: number): number {
  const power = powerOfGamma(bucket);
  return power >= 2 ** -1000 ? power * INSIDE_BELOW : 0;
}

/** γ^bucket, worked out once for the buckets of times from about 10^-9 ms to 10^17 ms. */
function powerOfGamma(bucket: number): number {
  const at = bucket - POWERS_FROM;
  if (!(at >= 0 && at < POWERS.length)) return GAMMA ** bucket;
  let power = POWERS[at]!;
  if (Number.isNaN(power)) POWERS[at] = power = GAMMA ** bucket;
  return power;
}

const POWERS_FROM = -1024;
const POWERS = new Float64Array(3072).fill(Number.NaN);

/** Histograms added together: the histogram of all their times (one alone is given back, its bins shared). */
export function mergedHistogram(histograms: readonly LatencyHistogram[]): LatencyHistogram {
  if (histograms.length <= 1) {
    const [only] = histograms;
    return { relativeAccuracy: HISTOGRAM_RELATIVE_ACCURACY, zeroCount: only?.zeroCount ?? 0, bins: only?.bins ?? [] };
  }
  // Halves added, then the two: each bin list is walked once per level, never hashed or sorted.
  const middle = histograms.length >> 1;
  return addedHistograms(mergedHistogram(histograms.slice(0, middle)), mergedHistogram(histograms.slice(middle)));
}

// A bin of one side alone is that side's pair itself, shared (no one changes a bin): an endpoint's histogram made of
// its statuses' holds new pairs only where two statuses share a bucket (17 MB fewer at 50,000 endpoints of a few calls).
function addedHistograms(a: LatencyHistogram, b: LatencyHistogram): LatencyHistogram {
  const bins: (readonly [number, number])[] = [];
  let i = 0;
  let j = 0;
  while (i < a.bins.length || j < b.bins.length) {
    const x = a.bins[i];
    const y = b.bins[j];
    if (y === undefined || (x !== undefined && x[0] < y[0])) {
      bins.push(x!);
      i++;
    } else if (x === undefined || y[0] < x[0]) {
      bins.push(y);
      j++;
    } else {
      bins.push([x[0], x[1] + y[1]]);
      i++;
      j++;
    }
  }
  return { relativeAccuracy: HISTOGRAM_RELATIVE_ACCURACY, zeroCount: a.zeroCount + b.zeroCount, bins };
}

/** How many times a histogram holds. */
export function histogramCount(histogram: LatencyHistogram): number {
  return histogram.bins.reduce((total, [, count]) => total + count, histogram.zeroCount);
}

/**
 * The p-th percentile read from a histogram by the report's rule, nearest
 * rank (the value at rank ceil(p × n / 100)), never an interpolated rank:
 * the value of the bucket that holds that rank; null for an empty one.
 */
export function histogramPercentile(histogram: LatencyHistogram, percentile: number): number | null {
  const count = histogramCount(histogram);
  if (count === 0) return null;
  const rank = nearestRank(percentile, count);
  let seen = histogram.zeroCount;
  if (seen >= rank) return 0;
  for (const [bucket, bucketCount] of histogram.bins) {
    seen += bucketCount;
    if (seen >= rank) return bucketValue(bucket);
  }
  return bucketValue(histogram.bins[histogram.bins.length - 1]![0]);
}

/**
 * The statistics of times known by their histogram, exact sum and bounds
 * (some of them summarised by a report): min and max exact, the mean from
 * the exact sum, the percentiles read from the histogram by nearest rank
 * and kept within [min, max], which holds every true percentile. They say
 * so: `source` is `histogram`.
 */
export function describeHistogram(histogram: LatencyHistogram, sum: ExactSum, min: number, max: number): LatencyStatistics {
  const count = histogramCount(histogram);
  const estimate = { source: 'histogram', relativeError: HISTOGRAM_RELATIVE_ACCURACY } as const;
  if (count === 0) return { min: null, mean: null, p50: null, p90: null, p95: null, p99: null, max: null, ...estimate };
  const percentile = (p: number): number => roundToMicroseconds(Math.min(max, Math.max(min, histogramPercentile(histogram, p)!)));
  const mean = roundToMicroseconds(sum.value() / count);
  return { min: min + 0, mean, p50: percentile(50), p90: percentile(90), p95: percentile(95), p99: percentile(99), max, ...estimate };
}
