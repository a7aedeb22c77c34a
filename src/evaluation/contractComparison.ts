import type { ComparedContract } from '../history/historyBaseline.js';
import type { ContractCoverage } from '../report/contractSchemas.js';
import type { ContractComparison } from '../report/verdictSchemas.js';
import { CONTRACT_CHANGE_LIMIT } from '../report/reportLimits.js';
import { coveragePercentOf } from './contractCoverage.js';

/**
 * What a run did to the API's contract against a baseline, from the two
 * reports' contract sections alone: coverage before and after, operations
 * that started or stopped being called, statuses newly undeclared, and the
 * operations whose bodies off their schema changed in number. Operations
 * are this report's contract's, named by endpoint label (the documents of
 * a pull request may rename an operationId, not the label its calls take);
 * an operation the baseline's contract lacks was never called there. One
 * that this report's contract dropped is left out: it is no longer the
 * contract's. Operations that share a label (the same method and path in
 * two documents) share its calls: counted once, their undeclared statuses
 * together. The baseline may be a history line's (see ComparedContract);
 * which conditions were newly met is compareConditions' (it needs the
 * document).
 */
export function compareContracts(after: ContractCoverage, before: ComparedContract): ContractComparison {
  const operationsAfter = byLabel(after.operations);
  const operationsBefore = byLabel(before.operations);
  const newlyExercised: string[] = [];
  const noLongerExercised: string[] = [];
  const newUndeclared: { operation: string; status: string }[] = [];
  const violations: { operation: string; schemaViolationCount: { before: number | null; after: number }; order: number }[] = [];
  for (const [label, { executionCount, undeclaredStatuses, schemaViolationCount }] of operationsAfter) {
    const earlier = operationsBefore.get(label);
    const calledBefore = (earlier?.executionCount ?? 0) > 0;
    if (executionCount > 0 && !calledBefore) newlyExercised.push(label);
    if (executionCount === 0 && calledBefore) noLongerExercised.push(label);
    const undeclaredBefore = new Set(earlier?.undeclaredStatuses ?? []);
    for (const status of undeclaredStatuses) if (!undeclaredBefore.has(status)) newUndeclared.push({ operation: label, status });
    const violationsBefore = earlier?.schemaViolationCount ?? null;
    if (schemaViolationCount !== (violationsBefore ?? 0))
      violations.push({
        operation: label,
        schemaViolationCount: { before: violationsBefore, after: schemaViolationCount },
        order: violations.length,
      });
  }
  // The largest increase first, decreases last; ties in the document's order.
  const increase = ({ schemaViolationCount: { before, after } }: (typeof violations)[number]) => after - (before ?? 0);
  violations.sort((a, b) => increase(b) - increase(a) || a.order - b.order);
  return {
    operationCoveragePercent: { before: before.operationCoveragePercent, after: after.operationCoveragePercent },
    responseCoveragePercent: { before: before.responseCoveragePercent, after: after.responseCoveragePercent },
    conditionCoveragePercent: {
      before: before.conditionCount === undefined ? null : coveragePercentOf(before.coveredConditionCount ?? 0, before.conditionCount),
      after: after.conditionCoveragePercent,
    },
    newlyExercisedOperations: newlyExercised.slice(0, CONTRACT_CHANGE_LIMIT),
    newlyExercisedOperationCount: newlyExercised.length,
    noLongerExercisedOperations: noLongerExercised.slice(0, CONTRACT_CHANGE_LIMIT),
    noLongerExercisedOperationCount: noLongerExercised.length,
    newUndeclaredStatuses: newUndeclared.slice(0, CONTRACT_CHANGE_LIMIT),
    newUndeclaredStatusCount: newUndeclared.length,
    schemaViolationChanges: violations.slice(0, CONTRACT_CHANGE_LIMIT).map(({ operation, schemaViolationCount }) => ({
      operation,
      schemaViolationCount,
    })),
    schemaViolationChangeCount: violations.length,
  };
}

/** What an operation label's calls did, over the operations that share it, in the document's order of their first. */
interface LabelledOperation {
  readonly executionCount: number;
  /** Ascending, each once. */
  readonly undeclaredStatuses: readonly string[];
  readonly schemaViolationCount: number;
}

// A Map, never a property lookup: a label may be "GET /__proto__".
function byLabel(operations: ComparedContract['operations']): Map<string, LabelledOperation> {
  const labelled = new Map<string, LabelledOperation>();
  for (const operation of operations) {
    const first = labelled.get(operation.endpoint);
    const undeclared = new Set([...(first?.undeclaredStatuses ?? []), ...operation.undeclaredStatuses]);
    labelled.set(operation.endpoint, {
      executionCount: operation.executionCount,
      undeclaredStatuses: [...undeclared].sort(),
      schemaViolationCount: operation.schemaViolationCount,
    });
  }
  return labelled;
}
