import type { Budgets } from '../config/budgetsSchema.js';
import type { QualityReport } from '../report/qualityReport.js';
import { compareWithBaseline, type BaselineReport } from './baseline.js';
import { evaluateBudgets } from './evaluateBudgets.js';

/** What a report is judged by: budgets and a baseline report, loaded and checked. */
export interface Judgement {
  readonly budgets?: Budgets | undefined;
  readonly baseline?: BaselineReport | undefined;
}

/** The report with its judgement: the comparison with the baseline, then the budgets' verdict (which may use that comparison). */
export function judgeReport(report: QualityReport, { budgets, baseline }: Judgement): QualityReport {
  const compared: QualityReport = baseline === undefined ? report : { ...report, baseline: compareWithBaseline(report, baseline) };
  return budgets === undefined ? compared : { ...compared, budgets: evaluateBudgets(compared, budgets) };
}
