import { compareCodeUnits } from '../compareCodeUnits.js';
import { coveragePercentOf } from '../evaluation/contractCoverage.js';
import { HISTORY_WINDOW_RUNS, runShiftOf } from '../evaluation/historyTrend.js';
import {
  DEFAULT_FLAKINESS_RUNS,
  flakyRunCountOf,
  scoreFlakiness,
  type EndpointFlakiness,
  type Flakiness,
  type FlakinessState,
  type FlakinessTrend,
} from '../history/flakiness.js';
import type { SkippedHistoryLine } from '../history/historyFile.js';
import { isWebAddress, type HistoryEndpoint, type HistoryRun } from '../history/historyLine.js';

/**
 * The history page's numbers (docs/dashboard.md), a pure function of the
 * history file's runs: each run with its verdict, coverage and shift, and
 * each endpoint of each environment with its p50 and p95 over the runs, its
 * range, its failure rate and its flakiness, sorted by what changed most.
 * The page (dashboardPage.ts) only lays these out.
 */

/** What the page is made with. */
export interface DashboardOptions {
  /** The last runs of each environment the failure rate and flakiness are scored over (a whole number from 1). Default 30. */
  readonly flakinessRuns?: number | undefined;
}

/** How a run ended, by the page's rule (docs/dashboard.md, "The verdict"). */
export type RunVerdict = 'passed' | 'failed';

/** One run: a line of the history. */
export interface DashboardRun {
  /** Its place among the history's runs, 0 the oldest. */
  readonly position: number;
  readonly time: string;
  readonly commit: string | undefined;
  readonly branch: string | undefined;
  readonly runId: string | undefined;
  readonly environment: string;
  readonly executionCount: number;
  readonly failedExecutionCount: number;
  /** Failed executions a retry of the same test made good (counted in failedExecutionCount too). */
  readonly retriedFailedExecutionCount: number;
  /** Tests that failed, where the line holds the run's tests; undefined where it does not. */
  readonly failedTestCount: number | undefined;
  /** Whether the run's budgets held, where the line says (runs judged against budgets). */
  readonly budgetsPassed: boolean | undefined;
  readonly verdict: RunVerdict;
  /** The contract's operation and condition coverage in percent, where the run had a contract (null: nothing to cover). */
  readonly contract: { readonly operationCoveragePercent: number | null; readonly conditionCoveragePercent: number | null } | undefined;
  /** The shift of p95 the whole run shares against its environment's earlier runs, as a report's history.runShiftPercent. */
  readonly runShiftPercent: number | null;
  /** Its report, only an http or https URL. */
  readonly reportUrl: string | undefined;
}

/** An endpoint's flakiness over the window (src/history/flakiness.ts). */
export interface DashboardFlakiness {
  readonly score: number;
  /** The runs of the window it ran in: what the score is based on. */
  readonly runCount: number;
  /** Of those, the runs it was flaky in: failed and a retry made good, or failed and passed in its next run with the same commit. */
  readonly flakyRunCount: number;
  readonly state: FlakinessState;
  readonly trend: FlakinessTrend;
}

/** One endpoint of one environment over its runs. */
export interface DashboardEndpoint {
  readonly environment: string;
  readonly endpoint: string;
  /** The runs of its environment that called it. */
  readonly runCount: number;
  /** Its p50 and p95 in each run of its environment, oldest first; null where the run did not call it or had no time. */
  readonly p50s: readonly (number | null)[];
  readonly p95s: readonly (number | null)[];
  /** Of its last run: the latest run of its environment that called it. */
  readonly lastP50: number | null;
  readonly lastP95: number | null;
  /** The least and the greatest p95 over its runs; null when none had one. */
  readonly p95Range: { readonly low: number; readonly high: number } | null;
  /**
   * Its last p95 against the median of the p95s of its earlier runs (the last
   * 20, as a report's history trend reads them), in percent; null without an
   * earlier p95 or with a median of 0. What the endpoints are sorted by.
   */
  readonly p95ChangePercent: number | null;
  /** Its failed executions per execution over the window's runs that called it; null when none did. */
  readonly failureRate: number | null;
  readonly windowExecutionCount: number;
  readonly windowFailedExecutionCount: number;
  /** Its failed executions per execution in its last run. */
  readonly lastFailureRate: number;
  /** Over the window; undefined when it did not run in it. */
  readonly flakiness: DashboardFlakiness | undefined;
}

/** A test that was flaky or failing over the window of its environment. */
export interface DashboardTest {
  readonly environment: string;
  readonly file: string;
  readonly line: number;
  readonly title: string;
  readonly flakiness: DashboardFlakiness;
}

/** The page's numbers. */
export interface DashboardModel {
  /** Oldest first, as the history holds them. */
  readonly runs: readonly DashboardRun[];
  /** What changed most first (see {@link DashboardEndpoint.p95ChangePercent}). */
  readonly endpoints: readonly DashboardEndpoint[];
  /**
   * The tests flaky or failing in the window of their environment (from lines
   * that hold the run's tests), the highest score first, then failing, then
   * by environment, file, line and title.
   */
  readonly tests: readonly DashboardTest[];
  /** The environments of the runs, in code-unit order. */
  readonly environments: readonly string[];
  readonly flakinessRuns: number;
  readonly skippedLines: readonly SkippedHistoryLine[];
}

/** Builds the page's numbers from a history's runs (oldest first). */
export function dashboardModelOf(
  runs: readonly HistoryRun[],
  skippedLines: readonly SkippedHistoryLine[] = [],
  { flakinessRuns = DEFAULT_FLAKINESS_RUNS }: DashboardOptions = {},
): DashboardModel {
  if (!Number.isSafeInteger(flakinessRuns) || flakinessRuns < 1)
    throw new RangeError(`flakinessRuns must be a whole number from 1, not ${String(flakinessRuns)}`);
  const environments = [...new Set(runs.map((run) => run.environment))].sort(compareCodeUnits);
  const shifts = new Map<HistoryRun, number | null>();
  const endpoints: DashboardEndpoint[] = [];
  const tests: DashboardTest[] = [];
  for (const environment of environments) {
    const ofEnvironment = runs.filter((run) => run.environment === environment);
    for (const [run, shift] of runShiftsOf(ofEnvironment)) shifts.set(run, shift);
    const scores = scoreFlakiness(ofEnvironment, { lastRuns: flakinessRuns });
    endpoints.push(...endpointsOf(environment, ofEnvironment, flakinessRuns, scores.endpoints));
    for (const { file, line, title, ...scored } of scores.tests)
      if (scored.state !== 'steady') tests.push({ environment, file, line, title, flakiness: dashboardFlakinessOf(scored) });
  }
  endpoints.sort(byChange);
  // Stable: the scores' own order (file, line, title) within an environment breaks ties.
  tests.sort(
    (a, b) => b.flakiness.score - a.flakiness.score || stateRank(a) - stateRank(b) || compareCodeUnits(a.environment, b.environment),
  );
  return {
    runs: runs.map((run, position) => dashboardRunOf(run, position, shifts.get(run) ?? null)),
    endpoints,
    tests,
    environments,
    flakinessRuns,
    skippedLines,
  };
}

function dashboardRunOf(run: HistoryRun, position: number, runShiftPercent: number | null): DashboardRun {
  const retriedFailedExecutionCount = run.endpoints.reduce((sum, entry) => sum + (entry.flakyFailedExecutionCount ?? 0), 0);
  const failedTestCount = run.tests?.filter((test) => test.outcome === 'failed').length;
  const budgetsPassed = run.budgetsPassed;
  return {
    position,
    time: run.time,
    commit: run.commit,
    branch: run.branch,
    runId: run.runId,
    environment: run.environment,
    executionCount: run.executionCount,
    failedExecutionCount: run.failedExecutionCount,
    retriedFailedExecutionCount,
    failedTestCount,
    budgetsPassed,
    verdict: verdictOf(run.failedExecutionCount - retriedFailedExecutionCount, failedTestCount, budgetsPassed),
    contract:
      run.contract === undefined
        ? undefined
        : {
            operationCoveragePercent: run.contract.operationCoveragePercent,
            conditionCoveragePercent: coveragePercentOf(run.contract.coveredConditionCount, run.contract.conditionCount),
          },
    runShiftPercent,
    reportUrl: webAddressOf(run.reportUrl),
  };
}

/**
 * A run failed when a call failed that no retry made good, a test failed,
 * or its budgets did not hold; else it passed. A run whose only failures a
 * retry made good passed, as Playwright says of it (its flakiness says the rest).
 */
export function verdictOf(unretriedFailures: number, failedTestCount: number | undefined, budgetsPassed: boolean | undefined): RunVerdict {
  return unretriedFailures > 0 || (failedTestCount ?? 0) > 0 || budgetsPassed === false ? 'failed' : 'passed';
}

/** Only an http or https URL is a link, as a line's reportUrl is one (isWebAddress); anything else (javascript:, data:, a relative path) is none. */
export function webAddressOf(text: string | undefined): string | undefined {
  return text !== undefined && isWebAddress(text) ? new URL(text).href : undefined;
}

/** Each run's shift against the earlier runs of the same environment (given oldest first, all of one environment). */
function runShiftsOf(runs: readonly HistoryRun[]): Map<HistoryRun, number | null> {
  const shifts = new Map<HistoryRun, number | null>();
  // A Map, never a property lookup: a label may be "GET /__proto__".
  const earlier = new Map<string, number[]>();
  const recent: Map<string, HistoryEndpoint>[] = [];
  for (const run of runs) {
    const current = run.endpoints.flatMap(({ endpoint, p95 }) =>
      p95 === null ? [] : [{ endpoint, p95, earlierP95s: earlier.get(endpoint) ?? [] }],
    );
    shifts.set(run, runShiftOf(current, recent).runShiftPercent);
    for (const { endpoint, p95 } of run.endpoints) {
      if (p95 === null) continue;
      const known = earlier.get(endpoint);
      if (known === undefined) earlier.set(endpoint, [p95]);
      else {
        known.push(p95);
        // Only the last window is ever read: keep the list short on a long history.
        if (known.length > 2 * HISTORY_WINDOW_RUNS) known.splice(0, known.length - HISTORY_WINDOW_RUNS);
      }
    }
    recent.push(new Map(run.endpoints.map((entry) => [entry.endpoint, entry])));
    if (recent.length > HISTORY_WINDOW_RUNS) recent.shift();
  }
  return shifts;
}

/** Every endpoint the runs of one environment called (given oldest first). */
function endpointsOf(
  environment: string,
  runs: readonly HistoryRun[],
  flakinessRuns: number,
  scores: readonly EndpointFlakiness[],
): DashboardEndpoint[] {
  const firstInWindow = Math.max(0, runs.length - flakinessRuns);
  const flakiness = new Map(scores.map((scored) => [scored.endpoint, scored]));
  const seen = new Map<string, (HistoryEndpoint | undefined)[]>();
  runs.forEach((run, index) => {
    for (const entry of run.endpoints) {
      let series = seen.get(entry.endpoint);
      if (series === undefined) {
        series = new Array<HistoryEndpoint | undefined>(runs.length).fill(undefined);
        seen.set(entry.endpoint, series);
      }
      series[index] = entry;
    }
  });
  return [...seen].map(([endpoint, series]) => {
    const ran = series.filter((entry) => entry !== undefined);
    const last = ran.at(-1)!;
    const p95s = series.map((entry) => entry?.p95 ?? null);
    const known = p95s.filter((value) => value !== null);
    const window = series.slice(firstInWindow).filter((entry) => entry !== undefined);
    const windowExecutionCount = window.reduce((sum, entry) => sum + entry.executionCount, 0);
    const windowFailedExecutionCount = window.reduce((sum, entry) => sum + entry.failedExecutionCount, 0);
    const scored = flakiness.get(endpoint);
    return {
      environment,
      endpoint,
      runCount: ran.length,
      p50s: series.map((entry) => entry?.p50 ?? null),
      p95s,
      lastP50: last.p50,
      lastP95: last.p95,
      p95Range: known.length === 0 ? null : { low: Math.min(...known), high: Math.max(...known) },
      p95ChangePercent: changePercentOf(last.p95, ran.slice(0, -1)),
      failureRate: windowExecutionCount === 0 ? null : windowFailedExecutionCount / windowExecutionCount,
      windowExecutionCount,
      windowFailedExecutionCount,
      lastFailureRate: last.failedExecutionCount / last.executionCount,
      flakiness: scored === undefined ? undefined : dashboardFlakinessOf(scored),
    };
  });
}

// The last p95 against the median of the earlier runs' (the last HISTORY_WINDOW_RUNS that had one), in percent to two decimals.
function changePercentOf(last: number | null, earlierRuns: readonly HistoryEndpoint[]): number | null {
  const earlier = earlierRuns.flatMap(({ p95 }) => (p95 === null ? [] : [p95])).slice(-HISTORY_WINDOW_RUNS);
  if (last === null || earlier.length === 0) return null;
  const centre = median(earlier);
  return centre === 0 ? null : Math.round(((last - centre) / centre) * 10_000) / 100 + 0;
}

/** The greatest change first (either way), endpoints without one last; then by environment and label, in code-unit order. */
function byChange(a: DashboardEndpoint, b: DashboardEndpoint): number {
  const size = (entry: DashboardEndpoint) => (entry.p95ChangePercent === null ? -1 : Math.abs(entry.p95ChangePercent));
  return size(b) - size(a) || compareCodeUnits(a.endpoint, b.endpoint) || compareCodeUnits(a.environment, b.environment);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** What the page shows of a score. */
function dashboardFlakinessOf(flakiness: Flakiness): DashboardFlakiness {
  const { score, ranIn, state, trend } = flakiness;
  return { score, runCount: ranIn.length, flakyRunCount: flakyRunCountOf(flakiness), state, trend };
}

// Flaky before failing at the same score: a failing test's score counts only the flaky runs before it broke.
const stateRank = ({ flakiness }: DashboardTest): number => (flakiness.state === 'flaky' ? 0 : 1);
