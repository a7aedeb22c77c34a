import { DEFAULT_SIGNIFICANCE_LEVEL } from '../config/settings.js';
import type { LatencyVerdict } from '../report/verdictSchemas.js';
import { HISTOGRAM_RELATIVE_ACCURACY, histogramCount, type LatencyHistogram } from '../summary/latencyHistogram.js';

const LOG_GAMMA = Math.log((1 + HISTOGRAM_RELATIVE_ACCURACY) / (1 - HISTOGRAM_RELATIVE_ACCURACY));

/**
 * Whether an endpoint's latency really changed between a baseline and a
 * run: a two-sided Mann-Whitney U test over the two latency histograms.
 * It asks whether a time drawn from one run tends to be larger than one
 * drawn from the other, and makes no assumption about the shape of the
 * distribution (latencies are skewed, with long tails): the right test for
 * small samples of times. The histograms' buckets are its ranks; times in
 * one bucket (within 1% of each other) are ties, and the variance is
 * corrected for them. The p-value comes from the normal approximation with
 * a continuity correction, which errs on the side of "no change" for small
 * samples.
 *
 * A change is `slower` or `faster` when the p-value is below the
 * significance level (default 0.01); `tooFewSamples` when the samples are
 * too small for any outcome to reach it (with 5 and 5 times, the most
 * extreme split gives p = 0.012): the test cannot tell, so it says so
 * rather than `noChange`. How large a change matters is the budgets' to
 * say (maxP95IncreasePercent); this says only whether it is real.
 */

export { DEFAULT_SIGNIFICANCE_LEVEL };

/** The numbers a latency verdict was decided by. */
export interface LatencyTest {
  readonly verdict: LatencyVerdict;
  readonly samplesBefore: number;
  readonly samplesAfter: number;
  /** The two-sided p-value, to 4 significant digits; null when there was nothing to test. */
  readonly pValue: number | null;
}

/**
 * Tests two histograms (see the module comment). `runShift`, in buckets, is
 * the shift every endpoint of the run shares (see runShiftOf): the baseline
 * is moved by it first, so an endpoint is judged against the run it is
 * part of.
 */
export function testLatencyChange(
  before: LatencyHistogram,
  after: LatencyHistogram,
  significanceLevel: number = DEFAULT_SIGNIFICANCE_LEVEL,
  runShift = 0,
): LatencyTest {
  const samplesBefore = histogramCount(before);
  const samplesAfter = histogramCount(after);
  const tooFew = { verdict: 'tooFewSamples', samplesBefore, samplesAfter, pValue: null } as const;
  if (samplesBefore === 0 || samplesAfter === 0 || smallestPValue(samplesBefore, samplesAfter) >= significanceLevel) return tooFew;
  const total = samplesBefore + samplesAfter;
  const mean = (samplesBefore * samplesAfter) / 2;
  // One one-sided test per direction, each against the baseline moved one bucket that way (see RESOLUTION_MARGIN).
  const oneSided = (margin: 1 | -1): number => {
    const { u, tieSum } = uStatistic(before, after, runShift + margin);
    const variance = ((samplesBefore * samplesAfter) / 12) * (total + 1 - tieSum / (total * (total - 1)));
    // Every time in one bucket: nothing tells the runs apart.
    if (variance <= 0) return 1;
    const z = (margin * (u - mean) - 0.5) / Math.sqrt(variance);
    return z <= 0 ? 1 : erfc(z / Math.SQRT2) / 2;
  };
  const slower = oneSided(1);
  const faster = oneSided(-1);
  const pValue = Math.min(1, 2 * Math.min(slower, faster));
  const rounded = Number(pValue.toPrecision(4));
  if (pValue >= significanceLevel) return { verdict: 'noChange', samplesBefore, samplesAfter, pValue: rounded };
  return { verdict: slower <= faster ? 'slower' : 'faster', samplesBefore, samplesAfter, pValue: rounded };
}

/** How many endpoints, each with enough samples in both runs to test, make a run's own shift worth taking out. */
export const RUN_SHIFT_MIN_ENDPOINTS = 5;

/**
 * The shift every endpoint of a run shares against its baseline, when
 * enough endpoints tell it: the median, over the endpoints that have enough
 * samples in both runs to be tested, of the ratio of their p50s, as a whole
 * number of histogram buckets (each 2%); 0 with fewer than
 * {@link RUN_SHIFT_MIN_ENDPOINTS} such endpoints. On a shared CI machine
 * whole runs are faster or slower (another job on the host, a colder
 * cache): every endpoint moves alike, and that is the machine, not a
 * change of one endpoint. Judged against the run's own shift, one endpoint
 * that slowed among others that did not still stands out; a change of the
 * whole service shows as the run's shift, reported on its own.
 */
export function runShiftOf(
  pairs: readonly { readonly p50Before: number | null; readonly p50After: number | null; readonly testable: boolean }[],
): number {
  const logRatios = pairs
    .filter(({ p50Before, p50After, testable }) => testable && p50Before !== null && p50After !== null && p50Before > 0 && p50After > 0)
    .map(({ p50Before, p50After }) => Math.log(p50After! / p50Before!))
    .sort((a, b) => a - b);
  if (logRatios.length < RUN_SHIFT_MIN_ENDPOINTS) return 0;
  const middle = logRatios.length / 2;
  const median = logRatios.length % 2 === 1 ? logRatios[Math.floor(middle)]! : (logRatios[middle - 1]! + logRatios[middle]!) / 2;
  return Math.round(median / LOG_GAMMA) + 0;
}

/** A shift in buckets as a change in percent, to one decimal: 12 buckets is +27.1%. */
export function shiftPercent(buckets: number): number {
  return Math.round((Math.exp(buckets * LOG_GAMMA) - 1) * 1000) / 10 + 0;
}

/**
 * The smallest p-value samples of these sizes can give: every time of one
 * run above every time of the other, no ties. At or above the level, no
 * outcome could be judged a change.
 */
export function smallestPValue(samplesBefore: number, samplesAfter: number): number {
  const total = samplesBefore + samplesAfter;
  const mean = (samplesBefore * samplesAfter) / 2;
  const deviation = Math.sqrt(((samplesBefore * samplesAfter) / 12) * (total + 1));
  return twoSidedP((mean - 0.5) / deviation);
}

/**
 * U of the run after: the number of pairs (a time before, a time after)
 * where the time after is larger, ties counting a half, with every time
 * before moved `margin` buckets; and Σ(t³ - t) over the tie groups (the
 * buckets, both runs together), for the variance.
 */
function uStatistic(before: LatencyHistogram, after: LatencyHistogram, margin: number): { readonly u: number; readonly tieSum: number } {
  let u = 0;
  let tieSum = 0;
  let beforeBelow = 0;
  const group = (countBefore: number, countAfter: number): void => {
    u += countAfter * (beforeBelow + countBefore / 2);
    const tied = countBefore + countAfter;
    tieSum += tied * tied * tied - tied;
    beforeBelow += countBefore;
  };
  group(before.zeroCount, after.zeroCount);
  let i = 0;
  let j = 0;
  const { bins: binsBefore } = before;
  const { bins: binsAfter } = after;
  while (i < binsBefore.length || j < binsAfter.length) {
    const bucketBefore = i < binsBefore.length ? binsBefore[i]![0] + margin : Number.POSITIVE_INFINITY;
    const bucketAfter = j < binsAfter.length ? binsAfter[j]![0] : Number.POSITIVE_INFINITY;
    const bucket = Math.min(bucketBefore, bucketAfter);
    const countBefore = bucketBefore === bucket ? binsBefore[i++]![1] : 0;
    const countAfter = bucketAfter === bucket ? binsAfter[j++]![1] : 0;
    group(countBefore, countAfter);
  }
  return { u, tieSum };
}

/** P(|Z| ≥ z) for a standard normal Z. */
function twoSidedP(z: number): number {
  return Math.min(1, erfc(z / Math.SQRT2));
}

/**
 * The complementary error function, to a relative error below 1.2e-7
 * (Numerical Recipes' erfcc, a Chebyshev fit): ample for p-values judged
 * against a level of 0.01.
 */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}
