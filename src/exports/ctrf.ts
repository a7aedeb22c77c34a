import type { QualityReport } from '../report/qualityReport.js';
import { isIncompleteRun } from '../report/buildReport.js';
import { budgetSubject, describeIncompleteRun } from '../report/renderers/presentation.js';
import { formatBudgetResult } from '../report/renderers/terminal.js';
import { PACKAGE_VERSION } from '../packageVersion.js';
import { ciRunOf, type ExportContext, type RunTest } from './exportContext.js';

/**
 * The CTRF export (Common Test Report Format, specVersion 0.0.0): the run's
 * Playwright tests as CTRF tests when the reporter made the report;
 * otherwise (the command, merge, check) one test per budget, so that a
 * CTRF tool shows the gate. This package's evidence rides along under
 * `results.extra.qualityEvidence`, its own namespace.
 */

/** The CTRF version the export follows. */
export const CTRF_SPEC_VERSION = '0.0.0';

/** The suite a budget's test is in, when tests are budgets. */
export const CTRF_BUDGET_SUITE = 'quality budgets';

type Status = RunTest['status'];

interface CtrfTest {
  readonly name: string;
  readonly status: Status;
  readonly duration: number;
  readonly message?: string;
  readonly filePath?: string;
  readonly line?: number;
  readonly retries?: number;
  readonly flaky?: boolean;
  readonly suite?: readonly string[];
  readonly type?: string;
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** The export's text: the document, two-space indented. */
export function renderCtrf(report: QualityReport, context: ExportContext): string {
  const tests = context.tests === undefined ? budgetTests(report) : context.tests.map(playwrightTest);
  const count = (status: Status): number => tests.filter((test) => test.status === status).length;
  const start = Math.round(context.startedAtMs ?? context.endedAtMs);
  const stop = Math.round(context.endedAtMs);
  const run = ciRunOf(context.env);
  const environment = {
    testEnvironment: report.environment,
    ...(run.branch === undefined ? {} : { branchName: run.branch }),
    ...(run.commit === undefined ? {} : { commit: run.commit }),
    ...(run.runId === undefined ? {} : { buildId: run.runId }),
    ...(run.pipelineName === undefined ? {} : { buildName: run.pipelineName }),
    ...(run.runUrl === undefined ? {} : { buildUrl: run.runUrl }),
    ...(run.repositoryUrl === undefined ? {} : { repositoryUrl: run.repositoryUrl }),
  };
  const document = {
    reportFormat: 'CTRF',
    specVersion: CTRF_SPEC_VERSION,
    timestamp: new Date(stop).toISOString(),
    generatedBy: `quality-evidence ${PACKAGE_VERSION}`,
    results: {
      tool: context.tests === undefined ? { name: 'quality-evidence', version: PACKAGE_VERSION } : { name: 'playwright' },
      summary: {
        tests: tests.length,
        passed: count('passed'),
        failed: count('failed'),
        skipped: count('skipped'),
        pending: count('pending'),
        other: count('other'),
        ...(context.tests === undefined ? {} : { flaky: tests.filter((test) => test.flaky === true).length }),
        start,
        stop,
        duration: stop - start,
      },
      tests,
      environment,
      extra: { qualityEvidence: evidenceOf(report) },
    },
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

function playwrightTest(test: RunTest): CtrfTest {
  return {
    name: test.name,
    status: test.status,
    duration: Math.round(test.durationMs),
    ...(test.message === undefined ? {} : { message: test.message }),
    filePath: test.file,
    line: test.line,
    retries: test.retries,
    flaky: test.flaky,
    suite: test.suite.length === 0 ? [test.file] : test.suite,
    ...(test.project === undefined ? {} : { extra: { project: test.project } }),
  };
}

/** One test per budget; for a run cut short, one more that fails (its evidence is incomplete, so it passes nothing). */
function budgetTests(report: QualityReport): CtrfTest[] {
  const tests: CtrfTest[] = (report.budgets?.results ?? []).map((result) => {
    const subject = budgetSubject(result);
    return {
      name: subject === undefined ? result.budget : `${result.budget} of ${subject}`,
      status: result.passed ? 'passed' : 'failed',
      duration: 0,
      message: formatBudgetResult(result),
      suite: [CTRF_BUDGET_SUITE],
      type: 'quality budget',
      extra: {
        qualityEvidence: {
          budget: result.budget,
          ...(result.endpoint === undefined ? {} : { endpoint: result.endpoint }),
          limit: result.limit,
          actual: result.actual,
        },
      },
    };
  });
  if (isIncompleteRun(report.runStatus)) {
    tests.push({
      name: 'the run completed, so its evidence is whole',
      status: 'failed',
      duration: 0,
      message: `${describeIncompleteRun(report)}: the evidence is incomplete, so it passes no budget`,
      suite: [CTRF_BUDGET_SUITE],
      type: 'quality budget',
    });
  }
  return tests;
}

/** The evidence under `extra.qualityEvidence`: the run's numbers, its verdict, and each endpoint's counts and percentiles. */
function evidenceOf(report: QualityReport): Record<string, unknown> {
  return {
    reportSchemaVersion: report.schemaVersion,
    executionCount: report.executionCount,
    failedExecutionCount: report.failedExecutionCount,
    slowExecutionCount: report.slowExecutionCount,
    noResponseCount: report.noResponseCount,
    slowResponseThresholdMs: report.slowResponseThresholdMs,
    responseTimeMs: report.responseTimeMs,
    ...(report.runStatus === undefined ? {} : { runStatus: report.runStatus }),
    ...(report.budgets === undefined
      ? {}
      : { budgetsPassed: report.budgets.passed, budgetsBreached: report.budgets.results.filter((result) => !result.passed).length }),
    endpoints: report.endpoints.map((entry) => ({
      endpoint: entry.endpoint,
      executionCount: entry.executionCount,
      failedExecutionCount: entry.failedExecutionCount,
      statusCodes: entry.statusCodes,
      ...(entry.noResponseCount > 0 ? { noResponseCount: entry.noResponseCount } : {}),
      p50: entry.responseTimeMs.p50,
      p95: entry.responseTimeMs.p95,
      p99: entry.responseTimeMs.p99,
    })),
  };
}
