import type { HistoryRun } from '../history/historyLine.js';
import { rateOf } from './baseline.js';
import type { SkippedHistoryLine } from '../history/historyFile.js';
import type { QualityReport } from '../report/qualityReport.js';
import type { EndpointHistory, ReportHistory, Trend } from '../report/historySchemas.js';
import { TRENDS } from '../report/reportLimits.js';

/**
 * Each endpoint's p95 judged against its own history: the earlier runs of a
 * history file. The rule, chosen to hold on noisy CI machines:
 *
 * - An endpoint no earlier run called is `new`; one called by fewer than
 *   {@link MINIMUM_HISTORY_RUNS} earlier runs is `tooFewRuns`.
 * - Otherwise its range is made from the p95s of the last
 *   {@link HISTORY_WINDOW_RUNS} earlier runs that called it, on a
 *   logarithmic scale (latency noise is a ratio: ln(p95 + 1 ms)): their
 *   median, and their median absolute deviation (MAD), at least 2% so that
 *   perfectly steady numbers still leave room for the histogram's
 *   resolution and the clock's.
 * - The shift the whole run shares (the median of every judged endpoint's
 *   deviation from its median, when at least 5 endpoints are judged) is
 *   taken out first: a machine that is slower as a whole marks no
 *   endpoint, and the shift is reported on its own.
 * - The p95 is outside its range when its modified z-score,
 *   0.6745 × deviation / MAD (Iglewicz and Hoaglin), is beyond 3.5:
 *   `aboveRange` or `belowRange`; else `withinRange`.
 *
 * Median and MAD ignore a few outliers: one slow run out of twenty moves
 * neither, so it neither alarms later nor widens the range.
 */

/** Earlier runs an endpoint needs before it is judged against its history. */
export const MINIMUM_HISTORY_RUNS = 5;

/** The most recent earlier runs of an endpoint its range is made from. */
export const HISTORY_WINDOW_RUNS = 20;

/** Judged endpoints a run needs before the shift they share is taken out. */
const RUN_SHIFT_MINIMUM_ENDPOINTS = 5;

/** The modified z-score beyond which a p95 is out of range (Iglewicz and Hoaglin's outlier rule). */
const MODIFIED_Z_LIMIT = 3.5;

/** The MAD of a normal distribution is 0.6745 standard deviations. */
const MAD_PER_DEVIATION = 0.6745;

/** The smallest spread a range is made with: 2% on the logarithmic scale. */
const SMALLEST_SPREAD = Math.log(1.02);

/** The earlier runs a report is judged against, as its history file gave them. */
export interface EarlierRuns {
  readonly runs: readonly HistoryRun[];
  readonly skippedLines?: readonly SkippedHistoryLine[] | undefined;
  /** Every run's line as the file held it (more than `runs` when the file holds more than the limit): an append keeps them unparsed. */
  readonly lines?: readonly string[] | undefined;
}

/** The history sections of a report: one per endpoint, by label, and the run's. */
export interface HistoryJudgement {
  readonly endpoints: ReadonlyMap<string, EndpointHistory>;
  readonly history: ReportHistory;
}

/**
 * Judges each endpoint of a report against the earlier runs (oldest first)
 * of the report's environment; runs of other environments are left out.
 */
export function judgeAgainstHistory(report: QualityReport, { runs: allRuns, skippedLines = [] }: EarlierRuns): HistoryJudgement {
  const runs = allRuns.filter((run) => run.environment === report.environment);
  const byRun = runs.map((run) => new Map(run.endpoints.map((entry) => [entry.endpoint, entry])));
  const judged: { endpoint: string; logs: number[]; values: number[]; current: number }[] = [];
  const entries = new Map<string, EndpointHistory>();
  for (const entry of report.endpoints) {
    const seen = byRun.map((endpoints) => endpoints.get(entry.endpoint));
    const p95s = seen.map((run) => run?.p95 ?? null);
    const earlier = p95s.filter((value): value is number => value !== null);
    const runCount = seen.filter((run) => run !== undefined).length;
    if (earlier.length >= MINIMUM_HISTORY_RUNS && entry.responseTimeMs.p95 !== null) {
      const window = earlier.slice(-HISTORY_WINDOW_RUNS);
      judged.push({ endpoint: entry.endpoint, logs: window.map(logScale), values: window, current: logScale(entry.responseTimeMs.p95) });
    }
    const window = earlier.slice(-HISTORY_WINDOW_RUNS);
    entries.set(entry.endpoint, {
      runCount,
      trend: runCount === 0 ? 'new' : 'tooFewRuns',
      p95Median: window.length === 0 ? null : round(Math.expm1(median(window.map(logScale))), 3),
      p95SpreadPercent: null,
      p95Range: null,
      p95: p95s,
      failureRate: seen.map((run) => (run === undefined ? null : rateOf(run))),
    });
  }
  const { centred, measuredShift, takenOut } = shiftOfRun(judged, byRun.slice(-HISTORY_WINDOW_RUNS));
  const shift = takenOut ? measuredShift! : 0;
  for (const { endpoint, centre, spread, deviation } of centred) {
    const width = (MODIFIED_Z_LIMIT * spread) / MAD_PER_DEVIATION;
    const moved = centre + shift;
    const score = (MAD_PER_DEVIATION * (deviation - shift)) / spread;
    const trend: Trend = score > MODIFIED_Z_LIMIT ? 'aboveRange' : score < -MODIFIED_Z_LIMIT ? 'belowRange' : 'withinRange';
    const entry = entries.get(endpoint)!;
    entries.set(endpoint, {
      ...entry,
      trend,
      p95SpreadPercent: round(Math.expm1(spread) * 100, 2),
      p95Range: { low: round(Math.max(0, Math.expm1(moved - width)), 3), high: round(Math.expm1(moved + width), 3) },
    });
  }
  const trendCounts = Object.fromEntries(TRENDS.map((trend) => [trend, 0])) as Record<Trend, number>;
  for (const { trend } of entries.values()) trendCounts[trend]++;
  const history: ReportHistory = {
    runCount: runs.length,
    runs: runs.map(({ time, commit, branch, runId }) => ({
      time,
      ...(commit === undefined ? {} : { commit }),
      ...(branch === undefined ? {} : { branch }),
      ...(runId === undefined ? {} : { runId }),
    })),
    minimumRuns: MINIMUM_HISTORY_RUNS,
    windowRuns: HISTORY_WINDOW_RUNS,
    runShiftPercent: measuredShift === undefined ? null : round(Math.expm1(measuredShift) * 100, 2),
    runShiftTakenOut: takenOut,
    trendCounts,
    aboveRangeEndpoints: report.endpoints
      .filter(({ endpoint }) => entries.get(endpoint)?.trend === 'aboveRange')
      .map(({ endpoint }) => endpoint),
    ...(skippedLines.length === 0 ? {} : { skippedLines: skippedLines.map((skipped) => ({ ...skipped })) }),
  };
  return { endpoints: entries, history };
}

/** An endpoint judged against its history: the p95s of its window, on the logarithmic scale and as they were, and its p95 now, logged. */
interface JudgedEndpoint {
  readonly endpoint: string;
  readonly logs: readonly number[];
  readonly values: readonly number[];
  readonly current: number;
}

/**
 * Each judged endpoint's centre, spread and deviation, the shift of p95 they
 * share (at least {@link RUN_SHIFT_MINIMUM_ENDPOINTS} of them), and whether
 * it is taken out: only when the earlier runs (`recentRuns`, the last
 * {@link HISTORY_WINDOW_RUNS}) show the machine swinging so far; a shift past
 * their range is a change of the service.
 */
function shiftOfRun(judged: readonly JudgedEndpoint[], recentRuns: readonly ReadonlyMap<string, { readonly p95: number | null }>[]) {
  const centred = judged.map(({ endpoint, logs, values, current }) => {
    const centre = median(logs);
    // The spread is at least 2%, and at least half a step of the times' own resolution (whole milliseconds have a MAD of 0).
    const spread = Math.max(median(logs.map((value) => Math.abs(value - centre))), SMALLEST_SPREAD, halfStep(values, Math.expm1(centre)));
    return { endpoint, centre, spread, deviation: current - centre };
  });
  const measuredShift = centred.length >= RUN_SHIFT_MINIMUM_ENDPOINTS ? median(centred.map(({ deviation }) => deviation)) : undefined;
  const takenOut = measuredShift !== undefined && isUsualShift(measuredShift, earlierShifts(recentRuns, centred));
  return { centred, measuredShift, takenOut };
}

/**
 * The shift of p95 a run shares against its earlier runs, as a report's
 * `history.runShiftPercent` and `runShiftTakenOut` say it (null with fewer
 * than 5 endpoints judged), for a run that is itself a history line: the
 * dashboard's (src/dashboard/). `earlierP95s` gives, per endpoint of the run
 * with a p95, the p95s of its earlier runs of the environment that had one,
 * oldest first (only the last {@link HISTORY_WINDOW_RUNS} are read); `recentRuns`
 * the last {@link HISTORY_WINDOW_RUNS} earlier runs of the environment, by label.
 */
export function runShiftOf(
  current: readonly { readonly endpoint: string; readonly p95: number; readonly earlierP95s: readonly number[] }[],
  recentRuns: readonly ReadonlyMap<string, { readonly p95: number | null }>[],
): { readonly runShiftPercent: number | null; readonly runShiftTakenOut: boolean } {
  const judged = current
    .filter(({ earlierP95s }) => earlierP95s.length >= MINIMUM_HISTORY_RUNS)
    .map(({ endpoint, p95, earlierP95s }) => {
      const window = earlierP95s.slice(-HISTORY_WINDOW_RUNS);
      return { endpoint, logs: window.map(logScale), values: window, current: logScale(p95) };
    });
  const { measuredShift, takenOut } = shiftOfRun(judged, recentRuns.slice(-HISTORY_WINDOW_RUNS));
  return { runShiftPercent: measuredShift === undefined ? null : round(Math.expm1(measuredShift) * 100, 2), runShiftTakenOut: takenOut };
}

/**
 * Half a step of the times' resolution at the centre, on the logarithmic
 * scale: times in whole milliseconds step by 1 ms (3 ms to 4 ms is a third
 * more), others by their smallest gap; 0 when they do not step.
 */
function halfStep(values: readonly number[], centreMs: number): number {
  const distinct = [...new Set(values)].sort((a, b) => a - b);
  const gaps = distinct.slice(1).map((value, index) => value - distinct[index]!);
  const step = values.every(Number.isInteger) ? 1 : gaps.length === 0 ? 0 : Math.min(...gaps);
  return Math.log1p(centreMs + step / 2) - Math.log1p(centreMs);
}

/**
 * The shift of each earlier run (of the window): the median, over the
 * endpoints judged now that it called, of its p95's distance from their
 * centres; only runs that called enough of them.
 */
function earlierShifts(
  runs: readonly ReadonlyMap<string, { readonly p95: number | null }>[],
  centred: readonly { endpoint: string; centre: number }[],
): number[] {
  return runs.flatMap((endpoints) => {
    const deviations = centred.flatMap(({ endpoint, centre }) => {
      const p95 = endpoints.get(endpoint)?.p95;
      return p95 === undefined || p95 === null ? [] : [logScale(p95) - centre];
    });
    return deviations.length >= RUN_SHIFT_MINIMUM_ENDPOINTS ? [median(deviations)] : [];
  });
}

/** Whether a run's shift is one the earlier runs' shifts hold: within 3.5 modified z-scores of theirs (spread at least 2%). */
function isUsualShift(shift: number, earlier: readonly number[]): boolean {
  if (earlier.length < MINIMUM_HISTORY_RUNS) return false;
  const centre = median(earlier);
  const spread = Math.max(median(earlier.map((value) => Math.abs(value - centre))), SMALLEST_SPREAD);
  return Math.abs((MAD_PER_DEVIATION * (shift - centre)) / spread) <= MODIFIED_Z_LIMIT;
}

// Latency noise is a ratio; the 1 ms keeps times near 0 from looking wildly unsteady.
function logScale(milliseconds: number): number {
  return Math.log1p(milliseconds);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function round(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale + 0;
}
