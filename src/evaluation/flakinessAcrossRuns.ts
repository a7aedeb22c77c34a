import { compareCodeUnits, compareTests } from '../compareCodeUnits.js';
import { flakyRunCountOf, scoreFlakiness, type Flakiness, type FlakinessRun } from '../history/flakiness.js';
import type { ComparedRun } from '../history/historyBaseline.js';
import type { HistoryRun } from '../history/historyLine.js';
import type { QualityReport } from '../report/qualityReport.js';
import type { EndpointFlakinessSection, ReportFlakiness } from '../report/historySchemas.js';
import { FLAKY_TEST_LIMIT } from '../report/reportLimits.js';
import type { BaselineComparison } from '../report/verdictSchemas.js';
import type { Judgement } from './judgeReport.js';

/**
 * Flakiness across runs in a report (docs/history.md, "Flakiness across
 * runs"): the earlier runs of the history of the report's environment, and
 * this run last, as its history line gives it (so the rule that scores the
 * history's lines scores it), scored by scoreFlakiness over the last
 * `lastRuns`. Pure.
 */
export interface FlakinessJudgement {
  /** The earlier runs of the history file, oldest first, every environment's: only the report's are scored. */
  readonly earlier: readonly HistoryRun[];
  /** This run, as its history line gives it: its commit, endpoints and, from the reporter, its tests. */
  readonly current: FlakinessRun;
  /** The runs scored at most, this one the last (the flakinessRuns setting). */
  readonly lastRuns: number;
}

/**
 * The report with its flakiness across runs: each endpoint's under
 * `endpoints[].history.flakiness`, the run's under `history.flakiness`. A
 * report not judged against a history is returned as it is.
 */
export function judgeFlakinessAcrossRuns(report: QualityReport, { earlier, current, lastRuns }: FlakinessJudgement): QualityReport {
  if (report.history === undefined) return report;
  const runs = [...earlier.filter((run) => run.environment === report.environment), current];
  const scores = scoreFlakiness(runs, { lastRuns });
  const last = runs.length - 1;
  const window = runs.slice(scores.firstRun);
  // A Map, never a property lookup: a label may be "GET /__proto__".
  const byEndpoint = new Map(scores.endpoints.map((entry) => [entry.endpoint, entry]));
  const endpoints = report.endpoints.map((entry) => {
    const scored = byEndpoint.get(entry.endpoint);
    if (scored === undefined || entry.history === undefined) return entry;
    return { ...entry, history: { ...entry.history, flakiness: endpointFlakinessOf(scored) } };
  });
  const ranNow = (flakiness: Flakiness) => flakiness.ranIn.includes(last);
  const labelsIn = (state: Flakiness['state']) =>
    endpoints.flatMap(({ endpoint, history }) => (history?.flakiness?.state === state ? [endpoint] : [])).sort(compareCodeUnits);
  const flakyTests = scores.tests
    .filter((test) => test.state === 'flaky' && ranNow(test))
    .map(({ file, line, title, ...flakiness }) => ({ file, line, title, ...countsOf(flakiness), trend: flakiness.trend }))
    .sort((a, b) => b.score - a.score || compareTests(a, b));
  const flakiness: ReportFlakiness = {
    lastRuns,
    runCount: scores.runCount,
    testsScored: window.every((run) => run.tests !== undefined),
    flakyEndpoints: labelsIn('flaky'),
    failingEndpoints: labelsIn('failing'),
    flakyTests: flakyTests.slice(0, FLAKY_TEST_LIMIT),
    flakyTestCount: flakyTests.length,
  };
  return { ...report, endpoints, history: { ...report.history, flakiness } };
}

/**
 * The report as published with its history: its flakiness across runs
 * (judgeFlakinessAcrossRuns), and, judged against a baseline, what became
 * flaky since (newlyFlakyOf). Only a report judged against the history and
 * not scored yet: one read back (`compare`, `check`) keeps its own.
 */
export function withFlakinessAcrossRuns(
  report: QualityReport,
  { history, baseline }: Pick<Judgement, 'history' | 'baseline'>,
  current: FlakinessRun,
  lastRuns: number,
): QualityReport {
  if (history === undefined || report.history === undefined || report.history.flakiness !== undefined) return report;
  const scored = judgeFlakinessAcrossRuns(report, { earlier: history.runs, current, lastRuns });
  if (scored.baseline === undefined || baseline === undefined) return scored;
  return { ...scored, baseline: { ...scored.baseline, ...newlyFlakyOf(scored, baseline) } };
}

function countsOf(flakiness: Flakiness): { score: number; runCount: number; flakyRunCount: number } {
  return { score: round(flakiness.score, 4), runCount: flakiness.ranIn.length, flakyRunCount: flakyRunCountOf(flakiness) };
}

function endpointFlakinessOf(flakiness: Flakiness): EndpointFlakinessSection {
  return {
    ...countsOf(flakiness),
    retriedRunCount: flakiness.retriedIn.length,
    flipFlopRunCount: flakiness.flipFlopIn.length,
    failedRunCount: flakiness.failedIn.length,
    state: flakiness.state,
    trend: flakiness.trend,
  };
}

type FlakinessAcrossRuns = NonNullable<BaselineComparison['flakinessAcrossRuns']>;

/**
 * What became flaky across runs since the baseline, when the report scored
 * its flakiness: the endpoints flaky now that the baseline did not have as
 * flaky (steady there, or absent; one failing there is not newly flaky), and
 * the tests flaky now that the baseline did not list, where both scored every
 * run's tests and the baseline listed all its flaky tests. A baseline with no
 * flakiness across runs (a report without a history, a run of the history)
 * names every flaky one, `baseScored` false.
 */
export function newlyFlakyOf(report: QualityReport, baseline: ComparedRun): { flakinessAcrossRuns?: FlakinessAcrossRuns } {
  const now = report.history?.flakiness;
  if (now === undefined) return {};
  const before = baseline.history?.flakiness;
  // Not newly flaky: flaky in the base, or failing there (broken then, flaky as it recovers).
  const notSteadyBefore = new Set(
    (baseline.endpoints ?? []).flatMap(({ endpoint, history }) => {
      const state = history?.flakiness?.state;
      return state === undefined || state === 'steady' ? [] : [endpoint];
    }),
  );
  const newlyFlakyEndpoints = now.flakyEndpoints.filter((endpoint) => !notSteadyBefore.has(endpoint));
  const testKey = ({ file, line, title }: { file: string; line: number; title: string }) => JSON.stringify([file, line, title]);
  const testsBefore = new Set((before?.flakyTests ?? []).map(testKey));
  const testsComparable =
    now.testsScored && (before === undefined || (before.testsScored && before.flakyTestCount === before.flakyTests.length));
  const newlyFlakyTests = now.flakyTests
    .filter((test) => !testsBefore.has(testKey(test)))
    .map(({ file, line, title }) => ({ file, line, title }))
    .sort(compareTests);
  return {
    flakinessAcrossRuns: {
      baseScored: before !== undefined,
      newlyFlakyEndpoints,
      ...(testsComparable ? { newlyFlakyTests } : {}),
    },
  };
}

function round(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale + 0;
}
