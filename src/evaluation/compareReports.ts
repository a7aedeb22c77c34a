import type { Budgets } from '../config/budgetsSchema.js';
import type { Contract } from '../contract/contract.js';
import type { ComparedRun } from '../history/historyBaseline.js';
import type { QualityReport } from '../report/qualityReport.js';
import { compareWithBaseline } from './baseline.js';
import { evaluateBudgets } from './evaluateBudgets.js';

/** How {@link compareReports} judges: the baseline's significance level, and budgets to judge the compared report by. */
export interface ReportComparisonOptions {
  /** The significance level of the latency test; default 0.01. */
  readonly significanceLevel?: number | undefined;
  /** Budgets judged afresh on the compared report; absent, the verdict the report recorded is kept. */
  readonly budgets?: Budgets | undefined;
  /** The document the report was judged against: the conditions newly met and no longer met are listed only with it. */
  readonly contract?: Contract | undefined;
}

/**
 * A report judged against a baseline as a run of its records with that
 * baseline judges it, from the report alone: its contract and history
 * sections are the run's own (a run judges them before the baseline, and
 * they do not depend on it), its `baseline` section is computed afresh (one
 * it held, against another baseline, is replaced), then its budgets. Given
 * budgets are judged on the compared report; without them the verdict the
 * report recorded is kept, which the same budgets give again unless one of
 * them compares with a baseline (`maxP95IncreasePercent`): the caller
 * refuses that case. Keys keep the report's order, the judgement's sections
 * last, as a run writes them. The document, when given, only says which
 * conditions the comparison names: the contract section is the run's own,
 * never counted again.
 */
export function compareReports(
  head: QualityReport,
  base: ComparedRun,
  { significanceLevel, budgets, contract }: ReportComparisonOptions = {},
): QualityReport {
  const { baseline, budgets: recorded, ...report } = head;
  const compared = { ...report, baseline: compareWithBaseline(report, base, { significanceLevel, contract }) };
  if (budgets !== undefined) return { ...compared, budgets: evaluateBudgets(compared, budgets) };
  return recorded === undefined ? compared : { ...compared, budgets: recorded };
}
