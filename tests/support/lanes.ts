/**
 * The suite's three lanes (Playwright projects in playwright.config.ts), by
 * spec file name under tests/. `npm test` runs all three; `npm run test:unit`
 * the first alone.
 *
 * - unit: the pure core, the clock and the renderers, in this process: no
 *   child process, worker thread, browser or compiled `.build`, so the lane
 *   needs no build and takes seconds (tests/suite.spec.ts holds each listed
 *   file to that);
 * - stress: generated cases by the ten thousand, kills, the hostile corpus
 *   and endless inputs;
 * - e2e: everything else, which is every spec not listed here: the compiled
 *   programs in child processes, the packed package, real Playwright runs,
 *   Chromium. A new spec lands there until it is listed, so it always gets
 *   the build it may need.
 */
export const UNIT_SPECS: readonly string[] = [
  'affectedTests.spec.ts',
  'textPieces.spec.ts',
  'reportText.spec.ts',
  'evidenceRunRelease.spec.ts',
  'apiCalls.spec.ts',
  'changeEvidence.spec.ts',
  'weighedChanges.spec.ts',
  'contractChangesRendering.spec.ts',
  'bodyConformance.spec.ts',
  'callsOutsideTests.spec.ts',
  'baseline.spec.ts',
  'budgets.spec.ts',
  'commentRendering.spec.ts',
  'conditionChangeRendering.spec.ts',
  'conditionRendering.spec.ts',
  'failureExcerpt.spec.ts',
  'failedTests.spec.ts',
  'latencyChange.spec.ts',
  'latencyHistogram.spec.ts',
  'historyTrend.spec.ts',
  'historyLine.spec.ts',
  'dashboardModel.spec.ts',
  'flakiness.spec.ts',
  'flakinessAcrossRuns.spec.ts',
  'mergeReports.spec.ts',
  'commandProgress.spec.ts',
  'config.spec.ts',
  'comparePairs.spec.ts',
  'conditionJudgement.spec.ts',
  'contractComparison.spec.ts',
  'contractConditions.spec.ts',
  'conditionsMet.spec.ts',
  'traceContext.spec.ts',
  'traceLinks.spec.ts',
  'contractCoverage.spec.ts',
  'contractDiff.spec.ts',
  'contractLoading.spec.ts',
  'documentLinks.spec.ts',
  'endpointKeys.spec.ts',
  'endpointLabels.spec.ts',
  'exitCodes.spec.ts',
  'expectedStatuses.spec.ts',
  'exportFormats.spec.ts',
  'helpers-clock.spec.ts',
  'learnedTemplates.spec.ts',
  'workerOptions.spec.ts',
  'helpers-pollUntil.spec.ts',
  'helpers-retryBounded.spec.ts',
  'helpers-summariseChecks.spec.ts',
  'helpers-usage.spec.ts',
  'issuePaths.spec.ts',
  'jsonSchemas.spec.ts',
  'jsonSyntaxLocation.spec.ts',
  'judgement.spec.ts',
  'messageEscaping.spec.ts',
  'normalisation.spec.ts',
  'operationMatching.spec.ts',
  'partialRun.spec.ts',
  'publicApi.spec.ts',
  'readers.spec.ts',
  'recordScanner.spec.ts',
  'recordLimits.spec.ts',
  'renderingLimits.spec.ts',
  'reporter-example.spec.ts',
  'serverErrors.spec.ts',
  'settings.spec.ts',
  'sourceSplit.spec.ts',
  'suite.spec.ts',
  'summary.spec.ts',
  'summaryAccumulator.spec.ts',
  'suggest.spec.ts',
  'suggestCommand.spec.ts',
  'terminalReport.spec.ts',
  'testSource.spec.ts',
  'validation.spec.ts',
  'workflow.spec.ts',
  'workflowLint.spec.ts',
];

/** See {@link UNIT_SPECS}. */
export const STRESS_SPECS: readonly string[] = [
  'crashSafety.spec.ts',
  'hostileCorpus.spec.ts',
  'hostileInputs.spec.ts',
  'properties.spec.ts',
];
