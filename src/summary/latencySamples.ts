import type { LatencyHistogram } from './latencyHistogram.js';

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
  /**
   * Only where some of the times are known only summarised (a report's,
   * merged): `histogram`, the percentiles read from the histogram, within
   * `relativeError` of the exact ones; min, max and the mean stay exact.
   */
  readonly source?: 'histogram';
  readonly relativeError?: number;
}

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
 * A growable store of float64 samples. Its own samples fill an array that
 * doubles from 4 up to 1 Ki samples (8 KiB), copied as it grows, then chunks
 * of 1 Ki that are never copied; at most one is partly empty, so an endpoint
 * wastes at most 8 KiB however many samples it has, and one of a few calls
 * holds one small array and no list of chunks (full chunks are cut from
 * slabs, see slabChunk). A thread that hands its samples on sorts each
 * chunk where it is (see seal and arrays); otherwise the chunks are joined
 * once, into one sorted run, when the statistics are taken. Arrays merged in from elsewhere (a
 * worker thread's) are adopted as they are, not copied: the statistics are
 * taken over sorted runs without ever joining them. The lists start as one
 * shared empty list each (frozen), replaced by a list of its own on first
 * use: tens of thousands of endpoints' buffers hold no empty lists.
 */
export class SampleBuffer {
  private filled: Float64Array[] = NO_CHUNKS;
  private current: Float64Array;
  private used = 0;
  private adopted: AdoptedSamples[] = NO_ADOPTED;
  // Times known only by their count, exact sum and histogram (a report's): counted in every total, in no sorted run.
  private summarised: SummarisedTimes[] = NO_SUMMARISED;
  // Whether each own chunk is sorted (after runs()), so sorting again is skipped.
  private ownSorted = false;

  /** `capacity`: room for that many samples at once; none by default, so a buffer that only adopts arrays, or stays empty, costs no storage. */
  constructor(capacity = 0) {
    this.current = capacity === 0 ? NO_SAMPLES : new Float64Array(capacity);
  }

  get length(): number {
    return this.ownLength() + this.adopted.reduce((total, part) => total + part.samples.length, 0) + this.summarisedLength();
  }

  /** How many of the times are known only summarised (see {@link adoptSummarised}). */
  summarisedLength(): number {
    return this.summarised.reduce((total, part) => total + part.count, 0);
  }

  push(value: number): void {
    this.ownSorted = false;
    if (this.used === this.current.length) {
      if (this.current.length < MAX_CHUNK) {
        const length = Math.max(FIRST_CHUNK, this.current.length * 2);
        const grown = length === MAX_CHUNK ? slabChunk() : new Float64Array(length);
        grown.set(this.current);
        this.current = grown;
      } else {
        this.filled = withItem(this.filled, this.current);
        this.current = slabChunk();
        this.used = 0;
      }
    }
    this.current[this.used++] = value;
  }

  /**
   * Takes `samples` as part of this buffer, without copying: the caller must
   * not change them afterwards. `sum`, when given, is their exact sum's
   * partials, worked out where the samples came from.
   */
  adopt(samples: Float64Array, sorted = false, sum?: readonly number[], histogram?: FlatHistogram): void {
    if (samples.length > 0) this.adopted = withItem(this.adopted, { samples, sorted, sum, histogram });
  }

  /**
   * Takes times known only by their count, exact sum and histogram (a
   * report's, which keeps no time): they count in the length, the sum and
   * the histogram, and in no sorted run, so statistics over them are read
   * from the histogram.
   */
  adoptSummarised(times: SummarisedTimes): void {
    if (times.count > 0) this.summarised = withItem(this.summarised, times);
  }

  /** The summarised times taken (see {@link adoptSummarised}). */
  summarisedParts(): readonly SummarisedTimes[] {
    return this.summarised;
  }

  /**
   * Sorts this buffer's own samples and works out their exact sum and, when
   * `histogramOf` is given, their histogram, keeping them with the samples:
   * what a thread does before it hands its samples on, so that the one that
   * merges them neither sorts nor sums them again. Each chunk is sorted
   * where it is, a run of its own, not joined into one array: a join would
   * hold every sample twice until the chunks are collected (20 MB of 5M
   * records' on the thread that reads half of them). The chunks sealed
   * together carry one sum and one histogram, on the first; the others
   * carry an empty sum and an empty histogram.
   */
  seal(histogramOf?: (sorted: readonly Float64Array[]) => FlatHistogram): void {
    if (this.ownLength() === 0) return;
    const own = [...this.filled, this.current.subarray(0, this.used)];
    const { partials, histogram } = sortedAndSummed(own, (sorted) => histogramOf?.(sorted));
    this.clearOwn();
    this.adoptRuns(own, true, partials, histogram);
  }

  /**
   * Takes arrays as part of this buffer, as {@link adopt} takes one: `sum`
   * and `histogram`, when given, are of them all. The first array carries
   * them; the others an empty sum and an empty histogram.
   */
  adoptRuns(runs: readonly Float64Array[], sorted: boolean, sum?: readonly number[], histogram?: FlatHistogram): void {
    runs
      .filter((run) => run.length > 0)
      .forEach((samples, index) => {
        if (index === 0) this.adopt(samples, sorted, sum, histogram);
        else this.adopt(samples, sorted, sum === undefined ? undefined : NO_PARTIALS, histogram === undefined ? undefined : NO_HISTOGRAM);
      });
  }

  private clearOwn(): void {
    this.filled = NO_CHUNKS;
    this.current = NO_SAMPLES;
    this.used = 0;
    this.ownSorted = false;
  }

  /** Takes another buffer's samples as part of this one, without copying: `other` must not be used afterwards. */
  adoptBuffer(other: SampleBuffer): void {
    for (const chunk of other.filled) this.adopt(chunk, other.ownSorted);
    this.adopt(other.current.subarray(0, other.used), other.ownSorted);
    for (const part of other.adopted) this.adopted = withItem(this.adopted, part);
    for (const part of other.summarised) this.summarised = withItem(this.summarised, part);
    other.clear();
  }

  /**
   * What the histogram of every sample is made of: the histograms counted
   * where adopted samples came from, and the sorted runs of the rest (the
   * summarised times have histograms of their own, see summarisedParts).
   */
  histogramParts(): { readonly histograms: FlatHistogram[]; readonly runs: Float64Array[] } {
    const histograms = this.adopted.flatMap(({ histogram }) => (histogram === undefined ? [] : [histogram]));
    if (histograms.length === 0) return { histograms, runs: this.runs() };
    if (histograms.length === this.adopted.length && this.ownLength() === 0) return { histograms, runs: [] };
    const withHistogram = new Set(this.adopted.filter(({ histogram }) => histogram !== undefined).map(({ samples }) => samples));
    return { histograms, runs: this.runs().filter((run) => !withHistogram.has(run)) };
  }

  /** The exact sum of every sample. */
  exactSum(): ExactSum {
    const sum = new ExactSum();
    for (const chunk of this.filled) sum.addAll(chunk);
    sum.addAll(this.current.subarray(0, this.used));
    for (const part of this.adopted) {
      if (part.sum === undefined) sum.addAll(part.samples);
      else sum.merge(part.sum);
    }
    for (const part of this.summarised) sum.merge(part.sum);
    return sum;
  }

  /** Lets every sample go: the buffer is empty afterwards. */
  clear(): void {
    this.clearOwn();
    this.adopted = NO_ADOPTED;
    this.summarised = NO_SUMMARISED;
  }

  /**
   * Every sample as arrays, unsorted: the own chunks (the last a view of
   * what it holds) and the adopted arrays, none empty. `take`: the arrays
   * themselves, and the buffer lets them go (empty afterwards): what a thread
   * hands on moves to the other thread as it is, never held twice, as a copy
   * would hold it until the chunks are collected. Otherwise copies.
   */
  arrays(take: boolean): Float64Array[] {
    const arrays = [...this.filled, this.current.subarray(0, this.used), ...this.adopted.map(({ samples }) => samples)].filter(
      (array) => array.length > 0,
    );
    if (!take) return arrays.map((array) => array.slice());
    this.clear();
    return arrays;
  }

  /** Every sample as one array (joined if need be), unsorted: what to hand to another thread. */
  view(): Float64Array {
    const own = this.own();
    if (this.adopted.length === 0) return own;
    const joined = new Float64Array(this.length);
    joined.set(own);
    let at = own.length;
    for (const { samples } of this.adopted) {
      joined.set(samples, at);
      at += samples.length;
    }
    this.adopted = NO_ADOPTED;
    this.setOwn(joined);
    return joined;
  }

  /**
   * The samples as sorted runs (each sorted in place, none copied but the
   * last own chunk, trimmed to what it holds): each own chunk, and each
   * adopted array. Statistics are taken over the runs as they are.
   */
  runs(): Float64Array[] {
    const runs: Float64Array[] = [];
    // The own chunks joined into one array, sorted once: one run per thread keeps the selection over every endpoint's
    // runs cheap. Samples in one array are read where they are (a view of its filled part, nothing copied).
    const own = this.filled.length > 0 ? this.joinOwn() : this.current.subarray(0, this.used);
    if (own.length > 0) {
      if (!this.ownSorted) own.sort();
      runs.push(own);
    }
    this.ownSorted = true;
    for (const part of this.adopted) {
      if (!part.sorted) part.samples.sort();
      part.sorted = true;
      runs.push(part.samples);
    }
    return runs;
  }

  private ownLength(): number {
    return this.filled.reduce((total, chunk) => total + chunk.length, 0) + this.used;
  }

  // This buffer's own samples as one array: the chunks joined once, when they are read.
  private own(): Float64Array {
    if (this.filled.length === 0) return this.current.subarray(0, this.used);
    return this.joinOwn();
  }

  private joinOwn(): Float64Array {
    const joined = new Float64Array(this.ownLength());
    let at = 0;
    for (const chunk of this.filled) {
      joined.set(chunk, at);
      at += chunk.length;
    }
    joined.set(this.current.subarray(0, this.used), at);
    this.setOwn(joined);
    return joined;
  }

  private setOwn(samples: Float64Array): void {
    this.ownSorted = false;
    this.filled = NO_CHUNKS;
    this.current = samples;
    this.used = samples.length;
  }
}

/** Samples adopted from elsewhere, with what was worked out of them there. */
interface AdoptedSamples {
  readonly samples: Float64Array;
  sorted: boolean;
  readonly sum: readonly number[] | undefined;
  readonly histogram: FlatHistogram | undefined;
}

// The shared empty lists a buffer starts with: frozen, so that a push into one, instead of a list of its own, throws.
const NO_CHUNKS = Object.freeze([]) as unknown as Float64Array[];
const NO_ADOPTED = Object.freeze([]) as unknown as AdoptedSamples[];
const NO_SUMMARISED = Object.freeze([]) as unknown as SummarisedTimes[];
// The sum and the histogram of a sealed chunk after the first (see SampleBuffer.seal): the first's count its samples.
const NO_PARTIALS: readonly number[] = Object.freeze([]);
const NO_HISTOGRAM: FlatHistogram = Object.freeze({ zeroCount: 0, bins: new Float64Array(0) });

/**
 * `list` with `item` at its end: a short list (or the shared empty one) made
 * anew exactly as long by concat (pushed to, a list grows room for 17),
 * a long one pushed to.
 */
function withItem<Item>(list: Item[], item: Item): Item[] {
  if (list.length < 8) return list.concat([item]);
  list.push(item);
  return list;
}

const MAX_CHUNK = 1024;

/** The first chunk of a buffer's own samples: small, as most endpoints of a run with many see a few calls per status. */
const FIRST_CHUNK = 4;

/**
 * Full-size chunks are cut from slabs of 8 MiB (1,024 chunks), one slab in
 * use per thread, not allocated one by one: the C library gives an
 * allocation this large pages of its own and gives them back when the slab
 * is collected, whereas 8 KiB chunks come from its heap, which keeps their
 * pages once they are freed (on 5M NDJSON records, 40 MB held while the
 * report was written, long after the samples were let go). A slab's pages
 * count only once written to. A worker thread's slabs move to the main
 * thread with its samples (see SampleBuffer.arrays): a slab moved away is
 * empty (detached), and the next chunk comes from a new one.
 */
const SLAB_CHUNKS = 1024;
let slab = new Float64Array(0);
let slabUsed = 0;

function slabChunk(): Float64Array {
  if (slabUsed + MAX_CHUNK > slab.length) {
    slab = new Float64Array(SLAB_CHUNKS * MAX_CHUNK);
    slabUsed = 0;
  }
  slabUsed += MAX_CHUNK;
  return slab.subarray(slabUsed - MAX_CHUNK, slabUsed);
}

/** The storage of a buffer with none of its own: shared, as nothing is ever written to an empty array. */
const NO_SAMPLES = new Float64Array(0);

/** A latency histogram as flat data (see latencyHistogram.ts): its zero count and its `[bucket, count]` pairs one after another. */
export interface FlatHistogram {
  readonly zeroCount: number;
  readonly bins: Float64Array;
}

/** Times known only by their count, the partials of their exact sum and their histogram (as the report gives it): what a report keeps of them. */
export interface SummarisedTimes {
  readonly count: number;
  readonly sum: readonly number[];
  readonly histogram: LatencyHistogram;
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

  /** The exact sum of `values`. */
  static of(values: Float64Array): ExactSum {
    const sum = new ExactSum();
    sum.addAll(values);
    return sum;
  }

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
    if (other instanceof ExactSum && other !== this) {
      // Read in place: partials are added one at a time, so this sum's own array may grow meanwhile, never the other's.
      const { partials, count } = other;
      for (let index = 0; index < count; index++) this.add(partials[index]!);
      return;
    }
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
 * Sorts each run where it is and works out their exact sum's partials and
 * their histogram (`histogramOf` the sorted runs): what a thread does to its
 * samples before it hands them on (SampleBuffer.seal, and
 * ExecutionAccumulator's data for another thread), so that the thread that
 * merges them neither sorts nor sums them again.
 */
export function sortedAndSummed<Histogram>(
  runs: readonly Float64Array[],
  histogramOf: (sorted: readonly Float64Array[]) => Histogram,
): { readonly partials: number[]; readonly histogram: Histogram } {
  const sum = new ExactSum();
  for (const run of runs) sum.addAll(run.sort());
  return { partials: sum.toPartials(), histogram: histogramOf(runs) };
}

/**
 * Where the rank-th smallest sample (1-based) most likely lies, `[low,
 * high]`, or undefined when there is no telling: a histogram's bucket that
 * holds that rank (latencyHistogram.ts, rankGuide). Only a guide: the
 * samples are counted against its bounds, and a rank they do not hold is
 * selected without it.
 */
export type RankGuide = (rank: number) => readonly [low: number, high: number] | undefined;

/**
 * The statistics of samples given as sorted runs, and their exact sum.
 * Percentiles are found by selection over the runs, so the runs are never
 * joined: the k-th smallest of all is the smallest value v with at least k
 * samples at or below it, searched over the ordered bit patterns of
 * non-negative floats; or, with a guide, counted and gathered within its
 * bounds (two searches a run, not some thirty).
 */
export function describeRuns(runs: readonly Float64Array[], sum: ExactSum, guide?: RankGuide): LatencyStatistics {
  let sources = runs.filter((run) => run.length > 0);
  const count = sources.reduce((total, run) => total + run.length, 0);
  if (count === 0) return NO_STATISTICS;
  // Few samples, or many runs for their samples (tens of thousands of small endpoints' runs): joining and sorting them costs less than searching them.
  if (sources.length > 1 && (count <= SMALL_JOIN || joinCost(count) < selectCost(count, sources.length)))
    sources = [joinedSorted(sources, count)];
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  for (const run of sources) {
    min = Math.min(min, run[0]!);
    max = Math.max(max, run[run.length - 1]!);
  }
  const at = (percentile: number): number => {
    const rank = nearestRank(percentile, count);
    if (sources.length === 1) return sources[0]![rank - 1]!;
    const bounds = guide?.(rank);
    return (bounds === undefined ? undefined : selectWithin(sources, rank, bounds)) ?? select(sources, rank, min, max);
  };
  return { min: min + 0, mean: roundMean(sum.value() / count), p50: at(50), p90: at(90), p95: at(95), p99: at(99), max };
}

// The rank-th smallest over sorted runs when it lies within [low, high]: the runs' windows narrowed to the bounds (the
// samples below counted), then, while more than MAX_CANDIDATES lie within (a bucket of the run-wide histogram holds
// thousands), probed at the bounds' middle, as select probes; those left are gathered and sorted. Undefined when the
// rank falls outside the bounds.
function selectWithin(runs: readonly Float64Array[], rank: number, [low, high]: readonly [number, number]): number | undefined {
  const windows = new RunWindows(runs);
  windows.keepWithin(low, high);
  if (rank <= windows.below || rank > windows.below + windows.inQuestion()) return undefined;
  while (windows.inQuestion() > MAX_CANDIDATES) {
    const middle = low + (high - low) / 2;
    if (!(middle > low && middle < high)) break;
    if (windows.probe(middle, rank)) high = middle;
    else low = middle;
  }
  return windows.gathered().sort()[rank - windows.below - 1]! + 0;
}

/** Up to this many samples, runs are joined and sorted rather than searched. */
const SMALL_JOIN = 512;

// Rough costs, in comparisons: sorting n samples, and selecting four percentiles over r runs by bisecting the float patterns.
function joinCost(count: number): number {
  return 2 * count * Math.log2(count);
}

function selectCost(count: number, runs: number): number {
  return 4 * 48 * runs * (Math.log2(count / runs) + 1);
}

// Small joins are made in one scratch array (the statistics are read at once and nothing keeps it): no storage per endpoint.
const scratch = new Float64Array(SMALL_JOIN);

function joinedSorted(runs: readonly Float64Array[], count: number): Float64Array {
  return concatenated(runs, count <= SMALL_JOIN ? scratch.subarray(0, count) : new Float64Array(count)).sort();
}

/** The arrays one after another, in `into` (exactly as long as they together), or in a new array. */
export function concatenated(
  arrays: readonly Float64Array[],
  into = new Float64Array(arrays.reduce((total, array) => total + array.length, 0)),
): Float64Array {
  let at = 0;
  for (const array of arrays) {
    into.set(array, at);
    at += array.length;
  }
  return into;
}

/** The statistics of one sorted array. */
export function describeSorted(sorted: Float64Array): LatencyStatistics {
  return describeRuns([sorted], ExactSum.of(sorted));
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
// floats. The high 32 bits of a float's pattern are bisected first (values
// with the same high word lie within one part in a million of each other);
// the samples that share the answer's high word are then gathered, sorted,
// and counted into. Each run keeps a window of the samples still in
// question: a probe searches only there and narrows it, and a run whose
// window empties is searched no more (every endpoint's runs together, for
// the run-wide percentiles, are thousands of runs of a few hundred samples).
function select(runs: readonly Float64Array[], rank: number, min: number, max: number): number {
  const windows = new RunWindows(runs);
  float[0] = min + 0;
  let lowHigh = words[1]!;
  float[0] = max;
  let highHigh = words[1]!;
  while (lowHigh < highHigh) {
    const middle = Math.floor((lowHigh + highHigh) / 2);
    if (windows.probe(floatOf(middle, 0xffffffff), rank)) highHigh = middle;
    else lowHigh = middle + 1;
  }
  // The windows now hold exactly the samples whose high word is the answer's; `below` samples are smaller.
  if (windows.inQuestion() > MAX_CANDIDATES) {
    // Many samples share the high word (a run of equal times): bisect the low word too.
    let lowLow = 0;
    let highLow = 0xffffffff;
    while (lowLow < highLow) {
      const middle = Math.floor((lowLow + highLow) / 2);
      if (windows.probe(floatOf(lowHigh, middle), rank)) highLow = middle;
      else lowLow = middle + 1;
    }
    return floatOf(lowHigh, lowLow) + 0;
  }
  const candidates = windows.gathered().sort();
  return candidates[rank - windows.below - 1]! + 0;
}

const MAX_CANDIDATES = 4096;

/**
 * Per run, the window [low, high) of its samples that may still be the one
 * selected: those before it are known to be smaller, those after larger.
 */
class RunWindows {
  /** How many samples lie before the windows (known smaller). */
  below = 0;
  private readonly runs: readonly Float64Array[];
  private readonly low: Int32Array;
  private readonly high: Int32Array;
  /** The runs whose window holds a sample, first `open` of them. */
  private readonly order: Int32Array;
  private open: number;
  private readonly cut: Int32Array;

  constructor(runs: readonly Float64Array[]) {
    this.runs = runs;
    this.low = new Int32Array(runs.length);
    this.high = Int32Array.from(runs, (run) => run.length);
    this.order = Int32Array.from(runs, (_, index) => index);
    this.open = runs.length;
    this.cut = new Int32Array(runs.length);
  }

  /**
   * Whether at least `rank` samples are at most `value`. The windows are
   * narrowed to the side the answer lies on: to the samples at most `value`
   * when it is true, to those above it when it is false.
   */
  probe(value: number, rank: number): boolean {
    const { runs, low, high, order, cut } = this;
    let atMost = this.below;
    for (let at = 0; at < this.open; at++) {
      const run = order[at]!;
      const index = upperBoundWithin(runs[run]!, value, low[run]!, high[run]!);
      cut[run] = index;
      atMost += index - low[run]!;
    }
    const enough = atMost >= rank;
    let kept = 0;
    for (let at = 0; at < this.open; at++) {
      const run = order[at]!;
      if (enough) high[run] = cut[run]!;
      else {
        this.below += cut[run]! - low[run]!;
        low[run] = cut[run]!;
      }
      if (low[run]! < high[run]!) order[kept++] = run;
    }
    this.open = kept;
    return enough;
  }

  /** Narrows the windows to the samples within [low, high]: those below are counted, those above left out. */
  keepWithin(low: number, high: number): void {
    let kept = 0;
    for (let at = 0; at < this.open; at++) {
      const run = this.order[at]!;
      const samples = this.runs[run]!;
      const from = lowerBoundWithin(samples, low, this.low[run]!, this.high[run]!);
      this.below += from - this.low[run]!;
      this.low[run] = from;
      this.high[run] = upperBoundWithin(samples, high, from, this.high[run]!);
      if (from < this.high[run]) this.order[kept++] = run;
    }
    this.open = kept;
  }

  /** How many samples the windows hold. */
  inQuestion(): number {
    let count = 0;
    for (let at = 0; at < this.open; at++) count += this.high[this.order[at]!]! - this.low[this.order[at]!]!;
    return count;
  }

  /** The samples the windows hold, in one array. */
  gathered(): Float64Array {
    const into = new Float64Array(this.inQuestion());
    let filled = 0;
    for (let at = 0; at < this.open; at++) {
      const run = this.order[at]!;
      const window = this.runs[run]!.subarray(this.low[run], this.high[run]);
      into.set(window, filled);
      filled += window.length;
    }
    return into;
  }
}

/** The index of the first sample at least `value` in `run[from, to)` (sorted), or `to`. */
function lowerBoundWithin(run: Float64Array, value: number, from: number, to: number): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (run[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The index of the first sample above `value` in `run[from, to)` (sorted), or `to`. */
function upperBoundWithin(run: Float64Array, value: number, from: number, to: number): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (run[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Rounded to 3 decimals, and never -0. */
/** Milliseconds rounded to 3 decimals (the microsecond), as the report gives means and sums: sums of such numbers merge alike in any grouping. */
export function roundToMicroseconds(milliseconds: number): number {
  return Math.round(milliseconds * 1000) / 1000 + 0;
}

function roundMean(mean: number): number {
  return Math.round(mean * 1000) / 1000 + 0;
}
