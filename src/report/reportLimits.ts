/**
 * The report's limits and fixed lists, apart from its schemas (which use
 * them): what a run needs to build a report loads no schema (see
 * buildReport.ts).
 */

/** The most statuses an endpoint's `newStatuses` lists; `newStatusCount` counts them all. */
export const NEW_STATUS_LIMIT = 10;

/** The most entries each list of `baseline.contract` holds; its `…Count` beside it counts them all. */
export const CONTRACT_CHANGE_LIMIT = 100;

/** The most conditions `baseline.contract.newlyMetConditions` and `noLongerMetConditions` each list; their counts count them all. */
export const CONDITION_CHANGE_LIMIT = 50;

/** How an endpoint's p95 stands against its history (src/evaluation/historyTrend.ts). */
export const TRENDS = ['withinRange', 'aboveRange', 'belowRange', 'new', 'tooFewRuns'] as const;

/** The most flaky tests `history.flakiness.flakyTests` lists; `flakyTestCount` counts them all. */
export const FLAKY_TEST_LIMIT = 50;

/** How many changes the report lists; the summary counts them all. */
export const MAX_LISTED_CONTRACT_CHANGES = 100;

/** How many unmet conditions an operation lists; the rest are counted. */
export const MAX_LISTED_UNMET_CONDITIONS = 50;
