import { runTrials } from '../support/latencyTrials.js';

// The table of docs/baseline: how often the baseline's latency test says each verdict on data whose truth is known.
const TRIALS = 1000;
const rows: string[] = ['| sigma | n | shift | slower | faster | noChange | tooFewSamples |', '|---|---|---|---|---|---|---|'];
for (const sigma of [0.25, 0.5, 1]) {
  for (const samples of [5, 20, 200]) {
    for (const shift of [1, 1.2]) {
      const counts = runTrials({ samples, shift, sigma, trials: TRIALS, seed: 20261124 + samples });
      rows.push(
        `| ${sigma} | ${samples} | ${shift === 1 ? 'none' : '+20%'} | ${counts.slower} | ${counts.faster} | ${counts.noChange} | ${counts.tooFewSamples} |`,
      );
    }
  }
}
console.log(rows.join('\n'));
