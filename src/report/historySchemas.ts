import * as z from 'zod';
import { TRENDS, FLAKY_TEST_LIMIT } from './reportLimits.js';

export { TRENDS, FLAKY_TEST_LIMIT } from './reportLimits.js';

/** The report's history sections: each endpoint's trend against the earlier runs of a history file (historyPath). */

/** Where a run came from, as CI gives it; each only where known. */
export const runIdentityShape = {
  time: z.iso.datetime().meta({ description: 'When the run ended, by the run’s clock, UTC' }),
  commit: z.string().min(1).optional().meta({ description: 'GITHUB_SHA, or GitLab’s CI_COMMIT_SHA' }),
  branch: z.string().min(1).optional().meta({ description: 'GITHUB_REF_NAME, or GitLab’s CI_COMMIT_REF_NAME' }),
  runId: z.string().min(1).optional().meta({ description: 'GITHUB_RUN_ID, or GitLab’s CI_PIPELINE_ID' }),
};

export const runIdentitySchema = z.strictObject(runIdentityShape).meta({ title: 'HistoryRunIdentity' });

export type RunIdentity = z.infer<typeof runIdentitySchema>;

export type Trend = (typeof TRENDS)[number];

const trendSchema = z.enum(TRENDS);

const series = (what: string) =>
  z
    .array(z.number().nullable())
    .meta({ description: `${what} in each run of history.runs, oldest first; null where the run did not call the endpoint` });

/** How an endpoint or a test stands across the runs scored (src/history/flakiness.ts). */
export const FLAKINESS_STATES = ['flaky', 'failing', 'steady'] as const;

/** Its score in the second half of the runs scored against the first. */
export const FLAKINESS_TRENDS = ['rising', 'falling', 'stable'] as const;

const flakinessCounts = {
  score: z.number().min(0).max(1).meta({ description: 'Its flaky runs over the runs it ran in, 0 to 1, to 4 decimals' }),
  runCount: z.int().min(1).meta({ description: 'The runs scored (history.flakiness.lastRuns, this run the last) it ran in' }),
  flakyRunCount: z.int().min(0).meta({ description: 'Those runs that were flaky: retried or flip-flop (a run may be both, counted once)' }),
};

const flakinessStateSchema = z.enum(FLAKINESS_STATES).meta({
  description:
    'flaky: at least one flaky run, and not failing; failing: failed in every run it ran in from some run to this one ' +
    '(a regression, never flaky; see docs/history.md); steady: neither',
});

const flakinessTrendSchema = z.enum(FLAKINESS_TRENDS).meta({
  description:
    "rising or falling: its score in the second half of the runs scored against the first's, by at least 0.1 and two standard errors",
});

/** An endpoint's flakiness across the runs scored: the earlier runs of the history and this one. */
export const endpointFlakinessSchema = z
  .strictObject({
    ...flakinessCounts,
    retriedRunCount: z.int().min(0).meta({ description: 'Runs in which a call failed and a retry of its test passed' }),
    flipFlopRunCount: z.int().min(0).meta({
      description: 'Runs in which it failed, no retry making good, and its next run passed, both runs naming the same commit',
    }),
    failedRunCount: z.int().min(0).meta({ description: 'Runs in which a call failed, whether a retry then passed or not' }),
    state: flakinessStateSchema,
    trend: flakinessTrendSchema,
  })
  .meta({ title: 'EndpointFlakiness' });

export type EndpointFlakinessSection = z.infer<typeof endpointFlakinessSchema>;

/** One endpoint against its history. */
export const endpointHistorySchema = z
  .strictObject({
    runCount: z.int().min(0).meta({ description: 'Earlier runs of the history (of this environment) that called the endpoint' }),
    trend: trendSchema.meta({
      description:
        'withinRange, aboveRange or belowRange: the p95 of this run against the range of its earlier p95s ' +
        '(see docs/history.md); new: no earlier run called it; tooFewRuns: fewer earlier runs than history.minimumRuns',
    }),
    p95Median: z
      .number()
      .nullable()
      .meta({ description: 'The median p95 of the earlier runs judged (the last history.windowRuns that called it); null when none did' }),
    p95SpreadPercent: z
      .number()
      .nullable()
      .meta({
        description:
          'The spread of those p95s: their median absolute deviation, in percent of the median (measured on the logarithm ' +
          'of p95 + 1 ms); null below history.minimumRuns',
      }),
    p95Range: z.strictObject({ low: z.number(), high: z.number() }).nullable().meta({
      description:
        'The range of p95 this run is judged against, in milliseconds, after the shift the whole run shares; null below history.minimumRuns',
    }),
    p95: series('The p95 in milliseconds'),
    failureRate: series('Failed executions per execution'),
    flakiness: endpointFlakinessSchema.optional().meta({
      description:
        'Only in a report written with its history (not in one from run.finish alone): the endpoint across the last ' +
        'history.flakiness.lastRuns runs of this environment, this run the last of them',
    }),
  })
  .meta({ title: 'EndpointHistory' });

export type EndpointHistory = z.infer<typeof endpointHistorySchema>;

/** The run's endpoints and tests across the runs scored. */
export const reportFlakinessSchema = z
  .strictObject({
    lastRuns: z.int().min(1).meta({ description: 'The runs scored at most: the flakinessRuns setting (this run the last of them)' }),
    runCount: z.int().min(1).meta({ description: 'The runs scored: the earlier runs of this environment in the window, and this one' }),
    testsScored: z.boolean().meta({
      description:
        "Whether every run scored names its tests (the Playwright reporter's runs do): when false, a test's score counts " +
        'only the runs that name it, and none is scored when this run names none',
    }),
    flakyEndpoints: z.array(z.string()).meta({ description: "This run's endpoints whose state is flaky, in code-unit order" }),
    failingEndpoints: z.array(z.string()).meta({ description: "This run's endpoints whose state is failing, in code-unit order" }),
    flakyTests: z
      .array(
        z.strictObject({
          file: z.string().min(1).meta({ description: "The test's file, relative to the Playwright project's root" }),
          line: z.int().min(1),
          title: z.string().min(1).meta({ description: 'Its title path without the project' }),
          ...flakinessCounts,
          trend: flakinessTrendSchema,
        }),
      )
      .meta({
        description: `This run's tests whose state is flaky, the highest score first (then by file, line and title); at most ${FLAKY_TEST_LIMIT}`,
      }),
    flakyTestCount: z.int().min(0).meta({ description: 'All of those tests, listed or not' }),
  })
  .meta({ title: 'ReportFlakiness' });

export type ReportFlakiness = z.infer<typeof reportFlakinessSchema>;

/** The run against the history file. */
export const reportHistorySchema = z
  .strictObject({
    runCount: z.int().min(0).meta({
      description:
        'Earlier runs read from the history file for this environment (at most historyLimit), which the series of each endpoint span',
    }),
    runs: z
      .array(runIdentitySchema)
      .meta({ description: 'Those runs, oldest first: when each ended, and its commit, branch and run id where CI gave them' }),
    minimumRuns: z.int().min(1).meta({ description: 'Earlier runs of an endpoint its trend needs; below it the trend is tooFewRuns' }),
    windowRuns: z.int().min(1).meta({ description: 'The most recent earlier runs of an endpoint its range is made from' }),
    runShiftPercent: z.number().nullable().meta({
      description:
        'The shift of p95 the whole run shares against history (the median over endpoints with enough runs, at least 5 of them); null with fewer endpoints',
    }),
    runShiftTakenOut: z.boolean().meta({
      description:
        'Whether that shift was taken out before each endpoint was judged: ' +
        "only when the earlier runs swung as far (the machine); a shift past their range is the service's, and the " +
        'endpoints that moved are marked',
    }),
    trendCounts: z
      .strictObject(Object.fromEntries(TRENDS.map((trend) => [trend, z.int().min(0)])) as Record<Trend, z.ZodInt>)
      .meta({ description: 'Endpoints by trend' }),
    aboveRangeEndpoints: z
      .array(z.string())
      .meta({ description: 'Endpoints whose p95 is above their historical range, in code-unit order' }),
    skippedLines: z
      .array(z.strictObject({ line: z.int().min(1), message: z.string() }))
      .optional()
      .meta({ description: 'Only when lines of the history file could not be read: each line number and why; they were left out' }),
    flakiness: reportFlakinessSchema.optional().meta({
      description: 'Only in a report written with its history: flakiness across the last runs (docs/history.md, "Flakiness across runs")',
    }),
  })
  .meta({ title: 'ReportHistory' });

export type ReportHistory = z.infer<typeof reportHistorySchema>;
