import { buildReport } from '../../src/report/qualityReport.js';
import { formatReport } from '../../src/report/renderers/json.js';
import { ExecutionAccumulator } from '../../src/summary/executionAccumulator.js';
import { mulberry32, normal } from '../support/latencyTrials.js';

// How many bytes the latency histograms add to quality-summary.json
// (npm run bench:histogram): 200 endpoints, each with n calls drawn from a
// log-normal distribution (median 100 ms, spread sigma on the log scale),
// times to the microsecond as Playwright gives them. The generator is
// mulberry32 in integer arithmetic, seeded, so every run prints the same.

const ENDPOINTS = 200;
const rows = [
  '| calls per endpoint | sigma | buckets per endpoint (median) | histogram bytes per endpoint | report bytes per endpoint |',
  '|---:|---:|---:|---:|---:|',
];
for (const calls of [10, 100, 1000, 10_000]) {
  for (const sigma of [0.25, 1]) {
    const random = mulberry32(calls * 31 + Math.round(sigma * 100));
    const accumulator = new ExecutionAccumulator(750);
    for (let endpoint = 0; endpoint < ENDPOINTS; endpoint++) {
      for (let call = 0; call < calls; call++) {
        accumulator.addExecution(`GET /service-${endpoint}/items`, 200, Math.round(100 * Math.exp(sigma * normal(random)) * 1000) / 1000);
      }
    }
    const report = buildReport(accumulator.result(), { environment: 'bench', slowResponseThresholdMs: 750 });
    const text = formatReport(report);
    const histogramBytes = [...text.matchAll(/,\n {6}"latencyHistogram": \{[^}]*\}/g)].reduce(
      (sum, [match]) => sum + Buffer.byteLength(match),
      0,
    );
    const buckets = report.endpoints.map((endpoint) => endpoint.latencyHistogram.bins.length).sort((a, b) => a - b)[ENDPOINTS / 2]!;
    rows.push(
      `| ${calls.toLocaleString('en-US')} | ${sigma} | ${buckets} | ` +
        `${Math.round(histogramBytes / ENDPOINTS).toLocaleString('en-US')} | ` +
        `${Math.round(Buffer.byteLength(text) / ENDPOINTS).toLocaleString('en-US')} |`,
    );
  }
}
console.log(rows.join('\n'));
