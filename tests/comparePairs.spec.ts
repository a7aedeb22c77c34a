import { compareReports } from '../src/evaluation/compareReports.js';
import { formatReport, parseReport, type QualityReport } from '../src/index.js';
import { createEvidenceRun } from '../src/run/evidenceRun.js';
import { mulberry32, normal } from './support/latencyTrials.js';
import { expect, test } from './support/test.js';

// Seeded pairs of reports whose truth is known: each endpoint's times drawn
// from a log-normal distribution (median 100 ms, spread 0.25 on the log
// scale, as a local API's times vary: docs/budgets-and-baseline.md), by
// mulberry32 from a fixed seed, so every run checks the same pairs. BASE and
// HEAD are whole reports, compared as `quality-evidence compare` compares
// them (compareReports, on HEAD as its file reads back).

const SIGMA = 0.25;
const SEED = 20_260_517;

interface PairSettings {
  readonly seed: number;
  readonly endpointCount: number;
  /** The calls of each endpoint in each run: fixed, or drawn between the two bounds. */
  readonly calls: number | readonly [number, number];
  /** Each endpoint's times in HEAD multiplied by this (1: the same distribution). */
  readonly scaleOf?: (endpoint: number) => number;
}

/** BASE and HEAD of one seed, as records. */
function recordsOf({ seed, endpointCount, calls, scaleOf = () => 1 }: PairSettings): { base: object[]; head: object[] } {
  const random = mulberry32(seed);
  const draw = (scale: number): number => Math.round(scale * 100 * Math.exp(SIGMA * normal(random)) * 1000) / 1000;
  const countOf = (): number => (typeof calls === 'number' ? calls : calls[0] + Math.floor(random() * (calls[1] - calls[0] + 1)));
  const run = (scale: (endpoint: number) => number): object[] =>
    Array.from({ length: endpointCount }, (_, endpoint) =>
      Array.from({ length: countOf() }, () => ({
        endpoint: `GET /e${String(endpoint).padStart(2, '0')}`,
        statusCode: 200,
        responseTimeMs: draw(scale(endpoint)),
      })),
    ).flat();
  return { base: run(() => 1), head: run(scaleOf) };
}

/** The report of these records, as a run writes it, judged against `baseline` when one is given. */
function reportOf(records: readonly object[], environment: string, baseline?: QualityReport): QualityReport {
  const judgement = baseline === undefined ? undefined : { baseline: parseReport(formatReport(baseline), 'base.json') };
  const run = createEvidenceRun({ environment, slowResponseThresholdMs: 750 }, { judgement });
  for (const [index, record] of records.entries()) run.take(record, () => ({ kind: 'list', listPath: 'executions', index }));
  return run.finish();
}

/** HEAD compared with BASE from the two reports alone, HEAD as its file reads back. */
function compared(base: QualityReport, head: QualityReport): QualityReport {
  return compareReports(JSON.parse(formatReport(head)) as QualityReport, parseReport(formatReport(base), 'base.json'));
}

test('equal distributions: no endpoint judged slower in at least 99% of the endpoints judged, over 60 seeded pairs of 30 endpoints', () => {
  let judged = 0;
  let slower = 0;
  for (let trial = 0; trial < 60; trial++) {
    const { base, head } = recordsOf({ seed: SEED + trial, endpointCount: 30, calls: [10, 300] });
    const comparison = compared(reportOf(base, 'main'), reportOf(head, 'branch')).baseline!;
    judged += comparison.endpoints.length - comparison.latencyVerdictCounts.tooFewSamples;
    slower += comparison.latencyVerdictCounts.slower;
  }
  expect(judged).toBeGreaterThan(1500);
  expect(slower).toBeLessThanOrEqual(0.01 * judged);
});

test('one endpoint 30% slower at n = 300 among nine unchanged is found, and alone, in each of 40 seeded pairs', () => {
  const found: string[][] = [];
  for (let trial = 0; trial < 40; trial++) {
    const { base, head } = recordsOf({
      seed: SEED + 1000 + trial,
      endpointCount: 10,
      calls: 300,
      scaleOf: (endpoint) => (endpoint === 4 ? 1.3 : 1),
    });
    found.push(compared(reportOf(base, 'main'), reportOf(head, 'branch')).baseline!.slowerEndpoints);
  }
  expect(found).toStrictEqual(Array.from({ length: 40 }, () => ['GET /e04']));
});

test('compare gives what the run with the baseline gives, byte for byte, over 20 seeded pairs', () => {
  for (let trial = 0; trial < 20; trial++) {
    const { base, head } = recordsOf({
      seed: SEED + 2000 + trial,
      endpointCount: 12,
      calls: [1, 80],
      scaleOf: (endpoint) => 1 + endpoint / 20,
    });
    const baseReport = reportOf(base, 'main');
    expect(formatReport(compared(baseReport, reportOf(head, 'branch'))), `seed ${SEED + 2000 + trial}`).toBe(
      formatReport(reportOf(head, 'branch', baseReport)),
    );
  }
});
