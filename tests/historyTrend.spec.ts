import { judgeAgainstHistory, MINIMUM_HISTORY_RUNS } from '../src/evaluation/historyTrend.js';
import { judgeReport } from '../src/evaluation/judgeReport.js';
import { evaluateBudgets } from '../src/evaluation/evaluateBudgets.js';
import { historyRunOf, runIdentityOf, type HistoryRun } from '../src/history/historyLine.js';
import type { QualityReport } from '../src/report/qualityReport.js';
import { renderHtml } from '../src/report/renderers/html.js';
import { renderMarkdown } from '../src/report/renderers/markdown.js';
import { renderTerminal } from '../src/report/renderers/terminal.js';
import { historyHeadline } from '../src/report/renderers/presentation.js';
import { buildQualityReport } from '../src/workflow/runQualityWorkflow.js';
import { mulberry32, normal } from './support/latencyTrials.js';
import { expect, test } from './support/test.js';

// Twenty seeded runs of a service on a noisy machine (each time log-normal,
// 15% spread; 30 calls per endpoint per run), then the run being judged.
// One endpoint is steady; one shifts 60% slower in the last run; one had a
// single run three times slower in the middle of the history; four more are
// steady (so the run has enough endpoints for a shared shift to be found).

interface Scenario {
  /** The factor each endpoint's times are scaled by in run `run` (1-based; run 21 is the one judged). */
  readonly factor: (endpoint: string, run: number) => number;
  readonly endpoints?: readonly string[];
}

const ENDPOINTS = ['GET /steady', 'GET /shifted', 'GET /noisy', 'GET /other/a', 'GET /other/b', 'GET /other/c', 'GET /other/d'];
const BASE_MS: Readonly<Record<string, number>> = { 'GET /steady': 100, 'GET /shifted': 80, 'GET /noisy': 60 };

function reportOfRun(run: number, random: () => number, { factor, endpoints = ENDPOINTS }: Scenario): QualityReport {
  const executions = endpoints.flatMap((endpoint) =>
    Array.from({ length: 30 }, () => ({
      endpoint,
      statusCode: 200,
      responseTimeMs: Math.round((BASE_MS[endpoint] ?? 40) * factor(endpoint, run) * Math.exp(0.15 * normal(random)) * 10) / 10,
    })),
  );
  return buildQualityReport({ executions }, { environment: 'ci', slowResponseThresholdMs: 750 }).report;
}

/** The 20 earlier runs as history lines, and the 21st run's report judged against them. */
function judgedRun(scenario: Scenario, seed = 7): { report: QualityReport; runs: HistoryRun[] } {
  const random = mulberry32(seed);
  const runs = Array.from({ length: 20 }, (_, index) =>
    historyRunOf(
      reportOfRun(index + 1, random, scenario),
      runIdentityOf(Date.UTC(2026, 10, 1 + index), { GITHUB_SHA: `c${index}`, GITHUB_REF_NAME: 'main' }),
    ),
  );
  return { report: judgeReport(reportOfRun(21, random, scenario), { history: { runs } }), runs };
}

const trendOf = (report: QualityReport, endpoint: string) => report.endpoints.find((entry) => entry.endpoint === endpoint)?.history?.trend;

const shiftedLast: Scenario = {
  factor: (endpoint, run) => (endpoint === 'GET /shifted' && run === 21 ? 1.6 : endpoint === 'GET /noisy' && run === 10 ? 3 : 1),
};

test('twenty seeded runs: the steady endpoint is within its range, the one that shifted in the last run above it, and one noisy run raises no alarm', () => {
  const { report } = judgedRun(shiftedLast);
  expect(trendOf(report, 'GET /steady')).toBe('withinRange');
  expect(trendOf(report, 'GET /shifted')).toBe('aboveRange');
  expect(trendOf(report, 'GET /noisy')).toBe('withinRange');
  expect(report.history?.aboveRangeEndpoints).toEqual(['GET /shifted']);
  expect(report.history?.trendCounts).toEqual({ withinRange: 6, aboveRange: 1, belowRange: 0, new: 0, tooFewRuns: 0 });
});

test('the noisy run leaves the range where it was: its p95 is in the series, and the median stays near the steady value', () => {
  const { report } = judgedRun(shiftedLast);
  const noisy = report.endpoints.find((entry) => entry.endpoint === 'GET /noisy')!.history!;
  const series = noisy.p95.filter((value): value is number => value !== null);
  expect(series).toHaveLength(20);
  // Run 10 was three times slower: the largest p95 by far.
  expect(Math.max(...series)).toBe(series[9]);
  expect(series[9]! / noisy.p95Median!).toBeGreaterThan(2.5);
  // The range is made of the other runs: its top stays below the noisy run's p95.
  expect(noisy.p95Range!.high).toBeLessThan(series[9]!);
});

test('every endpoint of the run is judged against the same twenty runs, the series aligned with history.runs', () => {
  const { report, runs } = judgedRun(shiftedLast);
  expect(report.history?.runCount).toBe(20);
  expect(report.history?.runs).toEqual(runs.map(({ time, commit, branch }) => ({ time, commit, branch })));
  for (const entry of report.endpoints) {
    expect(entry.history?.runCount).toBe(20);
    expect(entry.history?.p95).toHaveLength(20);
    expect(entry.history?.failureRate).toEqual(Array.from({ length: 20 }, () => 0));
  }
});

test('an endpoint ten times faster in the last run is below its range', () => {
  const { report } = judgedRun({ factor: (endpoint, run) => (endpoint === 'GET /steady' && run === 21 ? 0.1 : 1) });
  expect(trendOf(report, 'GET /steady')).toBe('belowRange');
});

test('a whole run slower alike, as the machine swung in earlier runs, marks no endpoint; the shared shift is reported and taken out', () => {
  // Earlier runs swing as a whole by up to ±30%, as a shared CI machine does.
  const { report } = judgedRun({ factor: (_endpoint, run) => (run === 21 ? 1.5 : 1 + 0.3 * Math.sin(run * 1.7)) });
  expect(report.history?.trendCounts.aboveRange).toBe(0);
  expect(report.history?.runShiftTakenOut).toBe(true);
  expect(report.history?.runShiftPercent).toBeGreaterThan(35);
  expect(report.history?.runShiftPercent).toBeLessThan(65);
});

test('a shift past the swings the history shows is a change of the service: it is not taken out, and the endpoints that moved are marked', () => {
  // A steady machine; in this run 4 of the 7 endpoints are three times slower (the median endpoint among them).
  const slowed = new Set(['GET /steady', 'GET /shifted', 'GET /other/a', 'GET /other/b']);
  const { report } = judgedRun({ factor: (endpoint, run) => (run === 21 && slowed.has(endpoint) ? 3 : 1) });
  expect(report.history?.runShiftTakenOut).toBe(false);
  expect(report.history?.aboveRangeEndpoints).toEqual(['GET /other/a', 'GET /other/b', 'GET /shifted', 'GET /steady']);
  expect(report.history?.trendCounts).toMatchObject({ aboveRange: 4, withinRange: 3, belowRange: 0 });
});

test('times in whole milliseconds (a MAD of 0) judge by their resolution: a value the runs often had is within its range, a far one is not', () => {
  const runs = Array.from({ length: 20 }, (_, index) => {
    const p95 = index % 20 < 11 ? 3 : 4;
    const report = buildQualityReport(
      { executions: [{ endpoint: 'GET /health', statusCode: 200, responseTimeMs: p95 }] },
      { environment: 'ci', slowResponseThresholdMs: 750 },
    ).report;
    return historyRunOf(report, runIdentityOf(0, {}));
  });
  const now = buildQualityReport(
    { executions: [{ endpoint: 'GET /health', statusCode: 200, responseTimeMs: 4 }] },
    { environment: 'ci', slowResponseThresholdMs: 750 },
  ).report;
  const judged = judgeAgainstHistory(now, { runs });
  expect(judged.endpoints.get('GET /health')?.trend).toBe('withinRange');
  const slower = buildQualityReport(
    { executions: [{ endpoint: 'GET /health', statusCode: 200, responseTimeMs: 9 }] },
    { environment: 'ci', slowResponseThresholdMs: 750 },
  ).report;
  expect(judgeAgainstHistory(slower, { runs }).endpoints.get('GET /health')?.trend).toBe('aboveRange');
});

test(`an endpoint in no earlier run is new; one in fewer than ${MINIMUM_HISTORY_RUNS} earlier runs has too few runs`, () => {
  const random = mulberry32(3);
  const early = (run: number) =>
    reportOfRun(run, random, { factor: () => 1, endpoints: run > 17 ? ['GET /steady', 'GET /late'] : ['GET /steady'] });
  const runs = Array.from({ length: 20 }, (_, index) => historyRunOf(early(index + 1), runIdentityOf(0, {})));
  const report = judgeReport(reportOfRun(21, random, { factor: () => 1, endpoints: ['GET /steady', 'GET /late', 'GET /brand-new'] }), {
    history: { runs },
  });
  expect(trendOf(report, 'GET /brand-new')).toBe('new');
  expect(report.endpoints.find((entry) => entry.endpoint === 'GET /brand-new')?.history).toMatchObject({
    runCount: 0,
    p95Median: null,
    p95Range: null,
  });
  expect(trendOf(report, 'GET /late')).toBe('tooFewRuns');
  expect(report.endpoints.find((entry) => entry.endpoint === 'GET /late')?.history?.runCount).toBe(3);
  expect(trendOf(report, 'GET /steady')).toBe('withinRange');
});

test("runs of another environment are not this run's history", () => {
  const random = mulberry32(5);
  const runs = Array.from({ length: 10 }, (_, index) => ({
    ...historyRunOf(reportOfRun(index + 1, random, { factor: () => 1 }), runIdentityOf(0, {})),
    environment: 'staging',
  }));
  const judged = judgeAgainstHistory(reportOfRun(11, random, { factor: () => 1 }), { runs });
  expect(judged.history.runCount).toBe(0);
  expect(judged.history.trendCounts.new).toBe(ENDPOINTS.length);
});

test('maxEndpointsAboveHistoricalRange counts the endpoints above their range; per endpoint it measures 1 or 0', () => {
  const { report } = judgedRun(shiftedLast);
  const verdict = evaluateBudgets(report, {
    maxEndpointsAboveHistoricalRange: 0,
    endpoints: { 'GET /steady': { maxEndpointsAboveHistoricalRange: 0 }, 'GET /shifted': { maxEndpointsAboveHistoricalRange: 0 } },
  });
  expect(verdict.results).toEqual([
    { budget: 'maxEndpointsAboveHistoricalRange', limit: 0, actual: 1, passed: false },
    { budget: 'maxEndpointsAboveHistoricalRange', endpoint: 'GET /shifted', limit: 0, actual: 1, passed: false },
    { budget: 'maxEndpointsAboveHistoricalRange', endpoint: 'GET /steady', limit: 0, actual: 0, passed: true },
  ]);
});

test('the renderings show the trend: arrows in the terminal, words and the last values in the Markdown, a sparkline per endpoint on the page', () => {
  const { report } = judgedRun(shiftedLast);
  const terminal = renderTerminal(report, { files: ['q.json'] });
  expect(terminal).toContain('vs history (20 earlier runs): 1 endpoint above its range, 6 within');
  expect(terminal).toMatch(/GET \/shifted .* p95 [\d.,]+ ms \(n=30\) ↑/);
  const markdown = renderMarkdown(report);
  expect(markdown).toContain('### Against the history');
  const shiftedRow = markdown.split('\n').find((line) => line.startsWith('| ') && line.includes('`GET /shifted`'))!;
  expect(shiftedRow).toMatch(
    /^\| ↑ above its range \([\d.,]+–[\d.,]+ ms\) \| `GET \/shifted` \| [\d.,]+ ms \| [\d.,]+ ms \| ([\d.,]+ · ){4}[\d.,]+ ms \|$/,
  );
  const html = renderHtml(report);
  expect(html.match(/<svg class="spark"/g)).toHaveLength(ENDPOINTS.length);
  expect(html).toContain('<td data-label="Trend" data-field="history.trend" data-value="aboveRange">');
  expect(html).toContain('<circle class="now aboveRange"');
});

test('the endpoints with too few runs to judge are one line under the history table, their names folded, never rows of it', () => {
  const random = mulberry32(3);
  const early = (run: number) =>
    reportOfRun(run, random, { factor: () => 1, endpoints: run > 17 ? ['GET /steady', 'GET /late', 'GET /later'] : ['GET /steady'] });
  const runs = Array.from({ length: 20 }, (_, index) => historyRunOf(early(index + 1), runIdentityOf(0, {})));
  const report = judgeReport(reportOfRun(21, random, { factor: () => 1, endpoints: ['GET /steady', 'GET /late', 'GET /later'] }), {
    history: { runs },
  });

  const history = renderMarkdown(report).split('### Against the history\n')[1]?.split('\n### ')[0] ?? '';

  expect(history.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Trend'))).toStrictEqual([
    expect.stringMatching(/^\| → within its range .* \| `GET \/steady` \|/),
  ]);
  expect(history).toContain(
    `<details><summary>2 endpoints with too few runs to judge (fewer than ${MINIMUM_HISTORY_RUNS} earlier runs)</summary>\n\n` +
      '`GET /late`, `GET /later`.\n\n</details>',
  );
});

test('the history line says "their range" of several endpoints above it, "its range" of one', () => {
  const history = { runCount: 20, trendCounts: { aboveRange: 2, withinRange: 6, belowRange: 0, new: 0, tooFewRuns: 0 } };
  expect(historyHeadline(history as never)).toContain('2 endpoints above their range, 6 within');
});

test('the history line says of a whole-run shift whether it is within the swings the history shows (taken out) or past them (a change)', () => {
  const counts = { aboveRange: 0, withinRange: 16, belowRange: 0, new: 0, tooFewRuns: 0 };
  const line = (runShiftPercent: number, runShiftTakenOut: boolean) =>
    historyHeadline({ runCount: 11, trendCounts: counts, runShiftPercent, runShiftTakenOut } as never);
  const judged = 'vs history (11 earlier runs): 0 endpoints above their range, 16 within; the whole run ';
  expect(line(158.4, true)).toBe(`${judged}+158.4% alike, within the swings its history shows: taken out as the machine's`);
  expect(line(-25.58, false)).toBe(`${judged}-25.58%, past the swings its history shows: judged as a change`);
});
