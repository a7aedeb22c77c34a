import { testLatencyChange } from '../../src/evaluation/latencyChange.js';
import type { LatencyVerdict } from '../../src/report/verdictSchemas.js';
import { histogramOfRuns, type LatencyHistogram } from '../../src/summary/latencyHistogram.js';

/**
 * Seeded trials of the baseline's latency test on data whose truth is
 * known: two runs of n times each, drawn from one log-normal distribution
 * (median 100 ms, spread sigma on the log scale), the second run's times
 * multiplied by `shift` (1 for none, 1.2 for 20% slower). The generator is
 * mulberry32 (32-bit integer arithmetic), normals by Box-Muller.
 */
export interface TrialSettings {
  readonly samples: number;
  readonly shift: number;
  readonly sigma: number;
  readonly trials: number;
  readonly seed: number;
  readonly significanceLevel?: number;
}

export function runTrials({ samples, shift, sigma, trials, seed, significanceLevel }: TrialSettings): Record<LatencyVerdict, number> {
  const random = mulberry32(seed);
  const draw = (scale: number): LatencyHistogram => {
    const times = new Float64Array(samples);
    for (let index = 0; index < samples; index++) times[index] = Math.round(scale * 100 * Math.exp(sigma * normal(random)) * 1000) / 1000;
    return histogramOfRuns([times.sort()]);
  };
  const counts: Record<LatencyVerdict, number> = { slower: 0, faster: 0, noChange: 0, tooFewSamples: 0 };
  for (let trial = 0; trial < trials; trial++) counts[testLatencyChange(draw(1), draw(shift), significanceLevel).verdict]++;
  return counts;
}

/** mulberry32: a well-known 32-bit generator in integer arithmetic, seeded; numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal number by Box-Muller. */
export function normal(random: () => number): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
