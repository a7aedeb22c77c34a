import { compareCodeUnits, compareTests } from '../compareCodeUnits.js';
import { DEFAULT_FLAKINESS_RUNS } from '../config/settings.js';
import type { HistoryEndpoint } from './historyLine.js';

/**
 * Flakiness across runs (docs/history.md, "Flakiness across runs"): per
 * endpoint and per test, over the last runs of a history, the runs in which
 * it failed and then passed on a retry, or failed and passed in its next run
 * with the same commit; a score, a state and a trend. Pure: the runs come in
 * as the history file gave them, oldest first.
 */

/** How a test ended in a run, as Playwright's outcome names it (`expected` is passed, `unexpected` failed). */
export type TestOutcomeName = 'passed' | 'failed' | 'flaky' | 'skipped';

/** A test of a run: where it is, its title, how it ended. */
export interface TestOutcome {
  readonly file: string;
  readonly line: number;
  readonly title: string;
  readonly outcome: TestOutcomeName;
}

/** What scoring reads of a run: a history line is one; `tests` where the line holds the run's tests. */
export interface FlakinessRun {
  readonly commit?: string | undefined;
  readonly endpoints: readonly Pick<HistoryEndpoint, 'endpoint' | 'failedExecutionCount' | 'flakyFailedExecutionCount'>[];
  readonly tests?: readonly TestOutcome[] | undefined;
}

export interface FlakinessOptions {
  /** The runs scored: the last this many of the history (a whole number from 1). Default {@link DEFAULT_FLAKINESS_RUNS}. */
  readonly lastRuns?: number;
}

/** The runs scored when no number is given (the flakinessRuns setting's default): about a month of daily runs, or a week of a busy main branch. */
export { DEFAULT_FLAKINESS_RUNS };

/**
 * The trailing run of failures that is a regression even after flaky runs:
 * a failure rate of 50% ends in five failures in a row once in 32 times.
 * Without a flaky run before them, one failure at the end is enough.
 */
export const FAILING_STREAK_AFTER_FLAKES = 5;

/** The least change of the score between the window's halves that is a trend (besides two standard errors). */
export const TREND_MIN_CHANGE = 0.1;

/**
 * `flaky`: at least one flaky run in the window, and not failing;
 * `failing`: failed in every run it ran in from some run to its last (a
 * regression, never flaky); `steady`: neither.
 */
export type FlakinessState = 'flaky' | 'failing' | 'steady';

/** The score in the window's second half against its first. */
export type FlakinessTrend = 'rising' | 'falling' | 'stable';

/** An endpoint's or a test's flakiness. Runs are positions in the runs given (0 the oldest), ascending. */
export interface Flakiness {
  /** The runs of the window it ran in. */
  readonly ranIn: readonly number[];
  /** The runs it failed in: a call or an attempt failed, whether a retry then passed or not. */
  readonly failedIn: readonly number[];
  /** The runs in which it failed and a retry of the same test passed: flaky within the run. */
  readonly retriedIn: readonly number[];
  /** The runs in which it failed, with no retry making good, and its next run passed, both runs naming the same commit. */
  readonly flipFlopIn: readonly number[];
  /** Its flaky runs (retried or flip-flop) over the runs it ran in: 0 to 1. */
  readonly score: number;
  readonly state: FlakinessState;
  readonly trend: FlakinessTrend;
}

export interface EndpointFlakiness extends Flakiness {
  readonly endpoint: string;
}

export interface TestFlakiness extends Flakiness {
  readonly file: string;
  readonly line: number;
  readonly title: string;
}

/** The flakiness of every endpoint and test that ran in the window: endpoints in code-unit order, tests by file, line, title. */
export interface FlakinessScores {
  /** The position of the window's first run in the runs given. */
  readonly firstRun: number;
  /** The runs in the window. */
  readonly runCount: number;
  readonly endpoints: readonly EndpointFlakiness[];
  readonly tests: readonly TestFlakiness[];
}

/** What became of a subject in one run, worst last: it did not run, passed, failed and a retry made good, failed. */
const ABSENT = 0;
const PASSED = 1;
const RETRIED = 2;
const FAILED = 3;
type Observation = typeof ABSENT | typeof PASSED | typeof FAILED | typeof RETRIED;

/** Scores the last runs of a history (oldest first), per endpoint and per test; see docs/history.md. */
export function scoreFlakiness(runs: readonly FlakinessRun[], options: FlakinessOptions = {}): FlakinessScores {
  const lastRuns = options.lastRuns ?? DEFAULT_FLAKINESS_RUNS;
  if (!Number.isSafeInteger(lastRuns) || lastRuns < 1) {
    throw new RangeError(`lastRuns must be a whole number from 1, not ${String(lastRuns)}`);
  }
  const firstRun = Math.max(0, runs.length - lastRuns);
  const window = runs.slice(firstRun);
  const commits = window.map((run) => run.commit);

  const endpoints = new Map<string, Observation[]>();
  const tests = new Map<string, { readonly test: TestOutcome; readonly seen: Observation[] }>();
  window.forEach((run, index) => {
    for (const entry of run.endpoints) {
      const seen = observationsOf(endpoints, entry.endpoint, window.length);
      seen[index] = worse(seen[index]!, endpointObservation(entry));
    }
    for (const test of run.tests ?? []) {
      const key = JSON.stringify([test.file, test.line, test.title]);
      const known = tests.get(key) ?? { test, seen: new Array<Observation>(window.length).fill(ABSENT) };
      tests.set(key, known);
      // The same test twice in a run (projects without names run it) counts once, by its worse outcome.
      known.seen[index] = worse(known.seen[index]!, TEST_OBSERVATIONS[test.outcome]);
    }
  });

  return {
    firstRun,
    runCount: window.length,
    endpoints: [...endpoints]
      .sort(([a], [b]) => compareCodeUnits(a, b))
      .map(([endpoint, seen]) => ({ endpoint, ...flakinessOf(seen, commits, firstRun) })),
    tests: [...tests.values()]
      .sort((a, b) => compareTests(a.test, b.test))
      .map(({ test, seen }) => ({ file: test.file, line: test.line, title: test.title, ...flakinessOf(seen, commits, firstRun) })),
  };
}

/** The runs a score counted as flaky: retried, or failed and passed next (a run can be both, and counts once). */
export function flakyRunCountOf({ retriedIn, flipFlopIn }: Pick<Flakiness, 'retriedIn' | 'flipFlopIn'>): number {
  return new Set([...retriedIn, ...flipFlopIn]).size;
}

const TEST_OBSERVATIONS: Readonly<Record<TestOutcomeName, Observation>> = {
  passed: PASSED,
  failed: FAILED,
  flaky: RETRIED,
  skipped: ABSENT,
};

const worse = (a: Observation, b: Observation): Observation => (a > b ? a : b);

// A Map, never a property lookup: a label may be "GET /__proto__".
function observationsOf(subjects: Map<string, Observation[]>, key: string, length: number): Observation[] {
  const known = subjects.get(key);
  if (known !== undefined) return known;
  const seen = new Array<Observation>(length).fill(ABSENT);
  subjects.set(key, seen);
  return seen;
}

/** Retried only when every failed call came from an attempt a retry made good, as the report's flakyEndpoints. */
function endpointObservation(entry: FlakinessRun['endpoints'][number]): Observation {
  if (entry.failedExecutionCount === 0) return PASSED;
  return (entry.flakyFailedExecutionCount ?? 0) >= entry.failedExecutionCount ? RETRIED : FAILED;
}

function flakinessOf(seen: readonly Observation[], commits: readonly (string | undefined)[], firstRun: number): Flakiness {
  const ranIn: number[] = [];
  const failedIn: number[] = [];
  const retriedIn: number[] = [];
  const flipFlopIn: number[] = [];
  const flaky = new Array<boolean>(seen.length).fill(false);
  let previous = -1; // the last run it ran in, before this one
  for (let index = 0; index < seen.length; index += 1) {
    const observation = seen[index]!;
    if (observation === ABSENT) continue;
    ranIn.push(index);
    if (observation !== PASSED) failedIn.push(index);
    if (observation === RETRIED) {
      retriedIn.push(index);
      flaky[index] = true;
    }
    // The next run it ran in ended in a pass (a retry's included), with the code the failure had.
    if (previous >= 0 && seen[previous] === FAILED && observation !== FAILED && sameCommit(commits[previous], commits[index])) {
      flipFlopIn.push(previous);
      flaky[previous] = true;
    }
    previous = index;
  }
  flipFlopIn.sort((a, b) => a - b);

  const flakyRuns = ranIn.filter((index) => flaky[index]);
  let streak = 0;
  for (let at = ranIn.length - 1; at >= 0 && seen[ranIn[at]!] === FAILED; at -= 1) streak += 1;
  const flakyBeforeStreak = flakyRuns.length > 0; // no run of the streak can be flaky: none is retried, none is followed by a pass
  const state: FlakinessState =
    streak > 0 && (!flakyBeforeStreak || streak >= FAILING_STREAK_AFTER_FLAKES) ? 'failing' : flakyRuns.length > 0 ? 'flaky' : 'steady';

  const shift = (indices: readonly number[]) => indices.map((index) => index + firstRun);
  return {
    ranIn: shift(ranIn),
    failedIn: shift(failedIn),
    retriedIn: shift(retriedIn),
    flipFlopIn: shift(flipFlopIn),
    score: ranIn.length === 0 ? 0 : flakyRuns.length / ranIn.length,
    state,
    trend: trendOf(ranIn, flaky, Math.floor(seen.length / 2)),
  };
}

function sameCommit(before: string | undefined, after: string | undefined): boolean {
  return before !== undefined && before === after;
}

/**
 * Rising or falling when the second half's score differs from the first's by
 * at least {@link TREND_MIN_CHANGE} and two standard errors of the difference
 * (two proportions, pooled): a steady rate of flakes rarely looks like a trend.
 */
function trendOf(ranIn: readonly number[], flaky: readonly boolean[], half: number): FlakinessTrend {
  let firstRuns = 0;
  let firstFlaky = 0;
  let secondRuns = 0;
  let secondFlaky = 0;
  for (const index of ranIn) {
    if (index < half) {
      firstRuns += 1;
      if (flaky[index]) firstFlaky += 1;
    } else {
      secondRuns += 1;
      if (flaky[index]) secondFlaky += 1;
    }
  }
  if (firstRuns === 0 || secondRuns === 0) return 'stable';
  const change = secondFlaky / secondRuns - firstFlaky / firstRuns;
  const pooled = (firstFlaky + secondFlaky) / (firstRuns + secondRuns);
  const standardError = Math.sqrt(pooled * (1 - pooled) * (1 / firstRuns + 1 / secondRuns));
  if (Math.abs(change) < Math.max(TREND_MIN_CHANGE, 2 * standardError)) return 'stable';
  return change > 0 ? 'rising' : 'falling';
}
