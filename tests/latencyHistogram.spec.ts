import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describeSorted } from '../src/summary/latencySamples.js';
import {
  addedFlatHistograms,
  bucketOf,
  flatHistogram,
  flatHistogramOfRuns,
  HISTOGRAM_RELATIVE_ACCURACY,
  HistogramCounts,
  histogramCount,
  histogramOfRuns,
  histogramPercentile,
  mergedHistogram,
  mergedStatusHistograms,
} from '../src/summary/latencyHistogram.js';
import { propertyParameters } from './support/properties.js';
import { expect, test } from './support/test.js';

// The mergeable latency histogram: DDSketch's logarithmic buckets, read by
// the report's nearest-rank rule, each quantile within 1% of the exact one.

const times = fc.array(fc.oneof(fc.double({ min: 0, max: 86_400_000, noNaN: true }), fc.integer({ min: 0, max: 5000 }), fc.constant(0)), {
  minLength: 1,
  maxLength: 300,
});
const PERCENTILES = [50, 90, 95, 99] as const;
// The bound itself, and the floating-point rounding of the bucket's value.
const BOUND = HISTOGRAM_RELATIVE_ACCURACY * (1 + 1e-9);

test('property: every percentile read from the histogram is within 1% of the exact one, by the same nearest rank', () => {
  fc.assert(
    fc.property(times, (values) => {
      const sorted = Float64Array.from(values).sort();
      const exact = describeSorted(sorted);
      const histogram = histogramOfRuns([sorted]);
      for (const percentile of PERCENTILES) {
        const read = histogramPercentile(histogram, percentile)!;
        const truth = exact[`p${percentile}`]!;
        if (truth === 0) assert.equal(read, 0);
        else assert.ok(Math.abs(read - truth) / truth <= BOUND, `p${percentile}: ${read} read, ${truth} exact`);
      }
    }),
    propertyParameters(2000),
  );
});

test('property: a histogram of sorted runs counts each time in the bucket bucketOf maps it to, however far apart the runs lie', () => {
  // Every scale a time can take: subnormal, tiny, usual, past any recorded time, and runs far apart (a map, not an array);
  // and times at buckets' bounds, a few doubles either side and a part in a billion either side.
  const gamma = (1 + HISTOGRAM_RELATIVE_ACCURACY) / (1 - HISTOGRAM_RELATIVE_ACCURACY);
  const nearBound = fc
    .tuple(fc.integer({ min: -1100, max: 1100 }), fc.integer({ min: -3, max: 3 }), fc.constantFrom(1, 1 - 1e-9, 1 + 1e-9))
    .map(([bucket, doubles, scale]) => {
      const bits = new BigInt64Array(Float64Array.of(gamma ** bucket * scale).buffer);
      bits[0] = bits[0]! + BigInt(doubles);
      return new Float64Array(bits.buffer)[0]!;
    });
  const anyTime = fc.oneof(
    fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true }),
    fc.double({ min: 0, max: 1e-300, noNaN: true }),
    fc.integer({ min: 0, max: 5000 }).map((whole) => whole / 100),
    nearBound,
    nearBound,
    fc.constant(0),
  );
  fc.assert(
    fc.property(fc.array(fc.array(anyTime, { maxLength: 200 }), { minLength: 1, maxLength: 3 }), (parts) => {
      const runs = parts.map((part) => Float64Array.from(part).sort());
      const counts = new Map<number, number>();
      let zeroCount = 0;
      for (const time of parts.flat()) {
        if (time <= 0) zeroCount++;
        else counts.set(bucketOf(time), (counts.get(bucketOf(time)) ?? 0) + 1);
      }
      // Every subnormal time too: the smallest buckets hold one or two times each.
      runs.push(Float64Array.from({ length: 64 }, (_, index) => (index + 1) * Number.MIN_VALUE));
      for (let index = 1; index <= 64; index++) {
        counts.set(bucketOf(index * Number.MIN_VALUE), (counts.get(bucketOf(index * Number.MIN_VALUE)) ?? 0) + 1);
      }
      const { zeroCount: zeros, bins } = flatHistogramOfRuns(runs);
      const expected = [...counts].sort((a, b) => a[0] - b[0]).flat();
      assert.equal(zeros, zeroCount);
      assert.deepEqual([...bins], expected);
      // The same times in one run, made pairs straight away.
      const whole = histogramOfRuns([Float64Array.from(runs.flatMap((run) => [...run])).sort()]);
      assert.equal(whole.zeroCount, zeroCount);
      assert.deepEqual(whole.bins.flat(), expected);
    }),
    propertyParameters(2000),
  );
});

test('runs spanning ever more buckets are counted whole: the scratch the bins are written to grows, and what is read is what was written', () => {
  const gamma = (1 + HISTOGRAM_RELATIVE_ACCURACY) / (1 - HISTOGRAM_RELATIVE_ACCURACY);
  // Each a bucket's middle, twice: far more buckets than any run before it in this worker, so the scratch grows at one of them.
  for (const span of [3_000, 6_000, 12_000, 24_000]) {
    const times = Array.from({ length: span }, (_, index) => gamma ** (index - span / 2) / Math.sqrt(gamma)).flatMap((time) => [
      time,
      time,
    ]);
    const expected = times.filter((_, index) => index % 2 === 0).flatMap((time) => [bucketOf(time), 2]);
    const run = Float64Array.from(times).sort();
    assert.deepEqual([...flatHistogramOfRuns([run]).bins], expected);
    assert.deepEqual([...flatHistogramOfRuns([run.subarray(0, span), run.subarray(span)]).bins], expected);
    assert.deepEqual(histogramOfRuns([run]).bins.flat(), expected);
  }
});

test('property: the flat histograms threads send, added in order, are the histogram of all their times', () => {
  fc.assert(
    fc.property(fc.array(times, { minLength: 1, maxLength: 4 }), (parts) => {
      const flats = parts.map((part) => flatHistogram(histogramOfRuns([Float64Array.from(part).sort()])));
      assert.deepEqual(addedFlatHistograms(flats), histogramOfRuns([Float64Array.from(parts.flat()).sort()]));
    }),
    propertyParameters(2000),
  );
});

test("property: statuses' histograms merged are the histogram of all their times, a bucket of one status alone being that status's pair", () => {
  fc.assert(
    fc.property(fc.array(times, { minLength: 1, maxLength: 5 }), (parts) => {
      const statuses = parts.map((part) => histogramOfRuns([Float64Array.from(part).sort()]));
      const merged = mergedStatusHistograms(statuses);
      assert.deepEqual(merged, histogramOfRuns([Float64Array.from(parts.flat()).sort()]));
      for (const bin of merged.bins) {
        const holders = statuses.filter(({ bins }) => bins.some(([bucket]) => bucket === bin[0]));
        if (holders.length === 1) assert.ok(holders[0]!.bins.includes(bin), `bucket ${bin[0]}: a new pair, not the status's`);
      }
    }),
    propertyParameters(1000),
  );
});

test('property: histograms merge exactly: the histogram of two runs is the merge of theirs, in either order', () => {
  fc.assert(
    fc.property(times, times, (first, second) => {
      const whole = histogramOfRuns([Float64Array.from([...first, ...second]).sort()]);
      for (const [a, b] of [
        [first, second],
        [second, first],
      ] as const) {
        const merged = new HistogramCounts();
        merged.merge(histogramOfRuns([Float64Array.from(a).sort()]));
        merged.merge(histogramOfRuns([Float64Array.from(b).sort()]));
        assert.deepEqual(merged.result(), whole);
      }
    }),
    propertyParameters(2000),
  );
});

test('buckets are stored sparsely, ascending, each holding at least one time; zeros apart', () => {
  const histogram = histogramOfRuns([Float64Array.from([0, 0, 10, 10.1, 500]).sort()]);
  expect(histogram).toStrictEqual({
    relativeAccuracy: 0.01,
    zeroCount: 2,
    bins: [
      [116, 2],
      [311, 1],
    ],
  });
  expect(histogramCount(histogram)).toBe(5);
});

test('an empty histogram has no percentile', () => {
  expect(histogramPercentile({ relativeAccuracy: 0.01, zeroCount: 0, bins: [] }, 95)).toBeNull();
});

test('histograms added together share the pairs of buckets only one of them holds, and add up the counts of a bucket both hold', () => {
  const a = {
    relativeAccuracy: HISTOGRAM_RELATIVE_ACCURACY,
    zeroCount: 1,
    bins: [
      [3, 2],
      [7, 1],
    ] as [number, number][],
  };
  const b = {
    relativeAccuracy: HISTOGRAM_RELATIVE_ACCURACY,
    zeroCount: 0,
    bins: [
      [5, 4],
      [7, 2],
    ] as [number, number][],
  };

  const added = mergedHistogram([a, b]);

  expect(added).toEqual({
    relativeAccuracy: HISTOGRAM_RELATIVE_ACCURACY,
    zeroCount: 1,
    bins: [
      [3, 2],
      [5, 4],
      [7, 3],
    ],
  });
  expect(added.bins[0]).toBe(a.bins[0]);
  expect(added.bins[1]).toBe(b.bins[0]);
  expect(a.bins).toEqual([
    [3, 2],
    [7, 1],
  ]);
  expect(b.bins).toEqual([
    [5, 4],
    [7, 2],
  ]);
});
