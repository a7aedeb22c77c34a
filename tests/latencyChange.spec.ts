import { runTrials } from './support/latencyTrials.js';
import { expect, test } from './support/test.js';

// The baseline's latency test on data whose truth is known: 1,000 seeded
// trials each, two runs of n times from one log-normal distribution (median
// 100 ms, spread 0.25 on the log scale), the second unchanged or 20% slower.
// The table of every spread is docs/baseline-and-budgets.md's
// (npm run bench:significance).

const TRIALS = 1000;
const SEED = 20261124;

for (const samples of [5, 20, 200]) {
  test(`two runs from one distribution, n = ${samples}: noChange or tooFewSamples in at least 99% of ${TRIALS} trials`, () => {
    const counts = runTrials({ samples, shift: 1, sigma: 0.25, trials: TRIALS, seed: SEED + samples });
    expect(counts.noChange + counts.tooFewSamples).toBeGreaterThanOrEqual(0.99 * TRIALS);
  });
}

test(`a 20% slower distribution at n = 200: slower in at least 95% of ${TRIALS} trials`, () => {
  const counts = runTrials({ samples: 200, shift: 1.2, sigma: 0.25, trials: TRIALS, seed: SEED + 200 });
  expect(counts.slower).toBeGreaterThanOrEqual(0.95 * TRIALS);
});

test('n = 5 against 5 is too few in every trial: no outcome could reach the 1% level', () => {
  expect(runTrials({ samples: 5, shift: 3, sigma: 0.25, trials: 100, seed: SEED }).tooFewSamples).toBe(100);
});
