import type { Budgets } from '../config/budgetsSchema.js';
import type { Contract } from '../contract/contract.js';
import type { QualityReport } from '../report/qualityReport.js';
import { compareWithBaseline } from './baseline.js';
import type { ComparedRun } from '../history/historyBaseline.js';
import { contractChangesOf } from './contractChanges.js';
import { contractCoverage } from './contractCoverage.js';
import { evaluateBudgets } from './evaluateBudgets.js';
import { judgeAgainstHistory, type EarlierRuns } from './historyTrend.js';

/** What a report is judged by: budgets, a baseline report and the API's contract, loaded and checked. */
export interface Judgement {
  readonly budgets?: Budgets | undefined;
  /** A baseline report, or a run of the history file. */
  readonly baseline?: ComparedRun | undefined;
  readonly contract?: Contract | undefined;
  /** The contract's BASE (openapiBase): with `contract`, the changes between the two, weighed by the run's evidence. */
  readonly contractBase?: Contract | undefined;
  /** The earlier runs of a history file: each endpoint's trend is judged against them. */
  readonly history?: EarlierRuns | undefined;
  /** What a reader must know of how the run was judged (a baseline named but missing from the history): warnings, not failures. */
  readonly warnings?: readonly string[] | undefined;
  /** The significance level of the baseline comparison's latency test; default 0.01. */
  readonly significanceLevel?: number | undefined;
}

/**
 * The report with its judgement: the coverage of the contract (and its
 * changes since its BASE, weighed by the run's evidence), the trends
 * against the history, the comparison with the baseline, then the budgets' verdict (which may use
 * both).
 */
export function judgeReport(
  report: QualityReport,
  { budgets, baseline, contract, contractBase, history, significanceLevel }: Judgement,
): QualityReport {
  let judged = report;
  if (contract !== undefined) judged = { ...judged, contract: contractCoverage(judged, contract) };
  if (contract !== undefined && contractBase !== undefined)
    judged = { ...judged, contract: { ...judged.contract!, changes: contractChangesOf(judged, contractBase, contract) } };
  if (history !== undefined) {
    const trends = judgeAgainstHistory(judged, history);
    judged = {
      ...judged,
      endpoints: judged.endpoints.map((entry) => ({ ...entry, history: trends.endpoints.get(entry.endpoint)! })),
      history: trends.history,
    };
  }
  if (baseline !== undefined) judged = { ...judged, baseline: compareWithBaseline(judged, baseline, { significanceLevel, contract }) };
  return budgets === undefined ? judged : { ...judged, budgets: evaluateBudgets(judged, budgets) };
}
