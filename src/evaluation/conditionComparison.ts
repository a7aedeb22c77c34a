import type { Contract } from '../contract/contract.js';
import type { ComparedRun } from '../history/historyBaseline.js';
import type { QualityReport } from '../report/qualityReport.js';
import type { ConditionChange } from '../report/verdictSchemas.js';
import { CONDITION_CHANGE_LIMIT, CONTRACT_CHANGE_LIMIT } from '../report/reportLimits.js';
import { conditionCoverageOf, coveredConditions, type ConditionEvidence } from './conditionCoverage.js';
import { unmetConditionOf } from './contractCoverage.js';

/** What the comparison with a baseline says of the conditions: those newly met, those no longer met, and the operations not compared. */
export interface ConditionComparison {
  readonly newlyMetConditions: ConditionChange[];
  readonly newlyMetConditionCount: number;
  readonly noLongerMetConditions: ConditionChange[];
  readonly noLongerMetConditionCount: number;
  readonly conditionListChangedOperations: string[];
  readonly conditionListChangedOperationCount: number;
}

/**
 * Which conditions of the contract's operations the run met that the
 * baseline did not, and the reverse, from the two runs and the document
 * alone. A run keeps what it met as positions in its operation's list, which
 * mean the same conditions only in the same list: an operation is compared
 * where the baseline counted the list this run counts (the same
 * fingerprint), its met conditions taken by the same rules as this run's
 * (coveredConditions: the records' positions, the statuses seen, the path
 * parameters of any call). An operation the baseline did not call, or its
 * contract lacked, met none there, in whatever list: what it meets now is
 * newly met. One the baseline called with another list (the document
 * changed its conditions) is named instead, its conditions not compared.
 * Operations in the contract's order, each one's conditions in document
 * order. Undefined when the baseline counted no conditions (a version
 * before they were counted): there is nothing to compare with.
 */
export function compareConditions(report: QualityReport, contract: Contract, baseline: ComparedRun): ConditionComparison | undefined {
  const before = baseline.contract;
  if (before?.conditionCount === undefined) return undefined;
  // Maps, never property lookups: a label may be "GET /__proto__".
  const listsBefore = new Map<string, Set<string>>();
  for (const { endpoint, conditions } of before.operations) {
    const lists = listsBefore.get(endpoint) ?? new Set<string>();
    if (conditions?.fingerprint !== undefined) lists.add(conditions.fingerprint);
    listsBefore.set(endpoint, lists);
  }
  const evidenceBefore = new Map<string, ConditionEvidence>();
  for (const entry of baseline.endpoints ?? []) {
    const statuses = entry.statuses ?? Object.keys(entry.statusCodes ?? {}).sort();
    evidenceBefore.set(entry.endpoint, { executionCount: entry.executionCount, statuses, conditionsMet: entry.conditionsMet });
  }
  const newlyMet: ConditionChange[] = [];
  const noLongerMet: ConditionChange[] = [];
  let newlyMetCount = 0;
  let noLongerMetCount = 0;
  const changed = new Set<string>();
  for (const now of conditionCoverageOf(report, contract)) {
    const label = now.operation.label;
    const lists = listsBefore.get(label);
    const evidence = evidenceBefore.get(label);
    const calledBefore = lists !== undefined && (evidence?.executionCount ?? 0) > 0;
    if (calledBefore && !lists.has(now.fingerprint)) {
      changed.add(label);
      continue;
    }
    const then = coveredConditions(now, calledBefore ? evidence : undefined);
    now.conditions.forEach((condition, position) => {
      const metNow = now.covered[position] === true;
      if (metNow === (then.covered[position] === true)) return;
      if (metNow) {
        if (newlyMetCount++ < CONDITION_CHANGE_LIMIT)
          newlyMet.push({ operation: label, condition: unmetConditionOf(condition, then.bounds[position]) });
      } else if (noLongerMetCount++ < CONDITION_CHANGE_LIMIT)
        noLongerMet.push({ operation: label, condition: unmetConditionOf(condition, now.bounds[position]) });
    });
  }
  return {
    newlyMetConditions: newlyMet,
    newlyMetConditionCount: newlyMetCount,
    noLongerMetConditions: noLongerMet,
    noLongerMetConditionCount: noLongerMetCount,
    conditionListChangedOperations: [...changed].slice(0, CONTRACT_CHANGE_LIMIT),
    conditionListChangedOperationCount: changed.size,
  };
}
