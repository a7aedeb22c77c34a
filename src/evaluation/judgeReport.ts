import type { Budgets } from '../config/budgetsSchema.js';
import type { Contract } from '../contract/contract.js';
import type { QualityReport } from '../report/qualityReport.js';
import { compareWithBaseline, type BaselineReport } from './baseline.js';
import { contractCoverage } from './contractCoverage.js';
import { evaluateBudgets } from './evaluateBudgets.js';

/** What a report is judged by: budgets, a baseline report and the API's contract, loaded and checked. */
export interface Judgement {
  readonly budgets?: Budgets | undefined;
  readonly baseline?: BaselineReport | undefined;
  readonly contract?: Contract | undefined;
  /** The significance level of the baseline comparison's latency test; default 0.01. */
  readonly significanceLevel?: number | undefined;
}

/**
 * The report with its judgement: the coverage of the contract, the
 * comparison with the baseline, then the budgets' verdict (which may use
 * both).
 */
export function judgeReport(report: QualityReport, { budgets, baseline, contract, significanceLevel }: Judgement): QualityReport {
  let judged = report;
  if (contract !== undefined) judged = { ...judged, contract: contractCoverage(judged, contract) };
  if (baseline !== undefined) judged = { ...judged, baseline: compareWithBaseline(judged, baseline, { significanceLevel }) };
  return budgets === undefined ? judged : { ...judged, budgets: evaluateBudgets(judged, budgets) };
}
