import { DEFAULT_MIN_EXECUTIONS_FOR_INCREASE, LIMITED_STATISTICS, type Budgets, type EndpointBudgets } from '../config/budgets.js';
import { isIncompleteRun, type QualityReport } from '../report/qualityReport.js';
import type { BudgetResult, BudgetVerdict } from '../report/verdictSchemas.js';
import { compareCodeUnits } from '../summary/summariseExecutions.js';

/**
 * Quality budgets: limits a report must hold, judged like k6 thresholds. A
 * limit is inclusive (a measured value equal to it holds), and a budget
 * whose measurement is missing (no executions, an endpoint that did not
 * run) is breached: missing evidence never passes.
 */

type Limits = EndpointBudgets;
type Measured = QualityReport['endpoints'][number] | undefined;

/**
 * Judges a report against budgets. The report's `baseline` section, when it
 * has one, is what `maxP95IncreasePercent` compares with; without one that
 * budget cannot be judged (the caller refuses it before the run). A run
 * that stopped before its tests were done (interrupted, timed out) never
 * passes: each budget is judged on what it recorded, and the verdict fails.
 */
export function evaluateBudgets(report: QualityReport, budgets: Budgets): BudgetVerdict {
  const results: BudgetResult[] = [];
  judgeLimits(budgets, undefined, report, results);
  if (budgets.maxP95IncreasePercent !== undefined) judgeIncrease(budgets.maxP95IncreasePercent, report, budgets, undefined, results);
  for (const endpoint of Object.keys(budgets.endpoints ?? {}).sort(compareCodeUnits)) {
    const endpointBudgets = budgets.endpoints![endpoint]!;
    const measured = report.endpoints.find((entry) => entry.endpoint === endpoint);
    judgeLimits(endpointBudgets, endpoint, measured, results);
    if (endpointBudgets.maxP95IncreasePercent !== undefined) judgeIncrease(endpointBudgets.maxP95IncreasePercent, report, budgets, endpoint, results);
  }
  return { passed: results.every((result) => result.passed) && !isIncompleteRun(report.runStatus), results };
}

/** Whether budgets ask for a comparison with a baseline. */
export function needsBaseline(budgets: Budgets): boolean {
  return budgets.maxP95IncreasePercent !== undefined || Object.values(budgets.endpoints ?? {}).some((endpoint) => endpoint.maxP95IncreasePercent !== undefined);
}

// The limits of the whole run (measured = the report) or of one endpoint (measured = its entry, or undefined when it did not run).
function judgeLimits(limits: Limits, endpoint: string | undefined, measured: QualityReport | Measured, results: BudgetResult[]): void {
  const push = (budget: string, limit: number, actual: number | null, holds: (actual: number) => boolean): void => {
    results.push({ budget, ...(endpoint === undefined ? {} : { endpoint }), limit, actual, passed: actual !== null && holds(actual) });
  };
  const ran = measured !== undefined;
  const executions = measured?.executionCount ?? null;
  const failed = measured?.failedExecutionCount ?? null;
  if (limits.minExecutions !== undefined) push('minExecutions', limits.minExecutions, executions, (actual) => actual >= limits.minExecutions!);
  if (limits.maxFailedExecutions !== undefined) push('maxFailedExecutions', limits.maxFailedExecutions, failed, (actual) => actual <= limits.maxFailedExecutions!);
  if (limits.maxFailureRate !== undefined) {
    const rate = executions === null || failed === null || executions === 0 ? null : failed / executions;
    push('maxFailureRate', limits.maxFailureRate, rate, (actual) => actual <= limits.maxFailureRate!);
  }
  if (limits.maxSlowExecutions !== undefined) push('maxSlowExecutions', limits.maxSlowExecutions, measured?.slowExecutionCount ?? null, (actual) => actual <= limits.maxSlowExecutions!);
  if (limits.maxNoResponseCount !== undefined) push('maxNoResponseCount', limits.maxNoResponseCount, measured?.noResponseCount ?? null, (actual) => actual <= limits.maxNoResponseCount!);
  for (const statistic of LIMITED_STATISTICS) {
    const limit = limits.responseTimeMs?.[statistic];
    if (limit !== undefined) push(`responseTimeMs.${statistic}`, limit, ran ? measured.responseTimeMs[statistic] : null, (actual) => actual <= limit);
  }
}

// maxP95IncreasePercent: each endpoint (or the one named) with enough executions in both runs, by label.
function judgeIncrease(limit: number, report: QualityReport, budgets: Budgets, only: string | undefined, results: BudgetResult[]): void {
  const comparison = report.baseline;
  // No baseline, or a named endpoint that did not run: the evidence is missing.
  if (comparison === undefined || (only !== undefined && !comparison.endpoints.some((entry) => entry.endpoint === only))) {
    results.push({ budget: 'maxP95IncreasePercent', ...(only === undefined ? {} : { endpoint: only }), limit, actual: null, passed: false });
    return;
  }
  for (const entry of comparison.endpoints) {
    if (only !== undefined && entry.endpoint !== only) continue;
    const needed = budgets.endpoints?.[entry.endpoint]?.minExecutions ?? DEFAULT_MIN_EXECUTIONS_FOR_INCREASE;
    const { before, after } = entry.executionCount;
    if (before === null || after === null || before < needed || after < needed || entry.p95.changePercent === null) continue;
    results.push({ budget: 'maxP95IncreasePercent', endpoint: entry.endpoint, limit, actual: entry.p95.changePercent, passed: entry.p95.changePercent <= limit });
  }
}
