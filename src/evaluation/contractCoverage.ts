import type { Contract, ContractOperation } from '../contract/contract.js';
import type { ContractCoverage, ContractOperationCoverage, OperationConditionsReport, UnmetCondition } from '../report/contractSchemas.js';
import { MAX_LISTED_UNMET_CONDITIONS } from '../report/reportLimits.js';
import type { Condition } from '../contract/conditions.js';
import { conditionCoverageOf, type BoundCoverage, type OperationConditionCoverage } from './conditionCoverage.js';
import type { QualityReport } from '../report/qualityReport.js';
import { compareCodeUnits } from '../compareCodeUnits.js';

type EndpointEntry = QualityReport['endpoints'][number];

const NEVER_CALLED: EndpointEntry['responseTimeMs'] = {
  min: null,
  mean: null,
  p50: null,
  p90: null,
  p95: null,
  p99: null,
  max: null,
  source: 'exact',
};

/**
 * How a report's calls cover a contract. A call counts for an operation when
 * its endpoint label is the operation's (the labeler gives every call it
 * matched the operation's label), so coverage needs no second matching and
 * holds for a report merged from parts. Statuses are judged as OpenAPI
 * declares them: a code, a range (`2XX`, any case) or `default`, which
 * declares every status; `default` counts in no response total, as it names
 * no status a call could be said to have covered.
 */
export function contractCoverage(report: QualityReport, contract: Contract): ContractCoverage {
  const byLabel = new Map(report.endpoints.map((entry) => [entry.endpoint, entry]));
  const conditions = conditionCoverageOf(report, contract);
  const operations = contract.operations.map((operation, index) =>
    operationCoverage(operation, byLabel.get(operation.label), conditionsReportOf(conditions[index]!)),
  );
  const labels = new Set(contract.operations.map((operation) => operation.label));
  const exercisedOperationCount = operations.filter((operation) => operation.executionCount > 0).length;
  let declaredResponseCount = 0;
  let exercisedResponseCount = 0;
  for (const operation of operations) {
    const declared = operation.declaredStatuses.filter((status) => status !== 'default');
    declaredResponseCount += declared.length;
    exercisedResponseCount += declared.length - operation.unseenDeclaredStatuses.length;
  }
  return {
    documents: contract.documents.map(({ path, name, version }) => ({ path: name ?? path, version })),
    operationCount: operations.length,
    exercisedOperationCount,
    operationCoveragePercent: coveragePercentOf(exercisedOperationCount, operations.length),
    declaredResponseCount,
    exercisedResponseCount,
    responseCoveragePercent: coveragePercentOf(exercisedResponseCount, declaredResponseCount),
    ...conditionTotals(operations),
    operations,
    unmatchedEndpoints: report.endpoints
      .filter((entry) => !labels.has(entry.endpoint))
      .map((entry) => ({ endpoint: entry.endpoint, executionCount: entry.executionCount }))
      .sort((a, b) => compareCodeUnits(a.endpoint, b.endpoint)),
    deprecatedOperationsCalled: [
      ...new Set(
        operations.filter((operation) => operation.deprecated && operation.executionCount > 0).map((operation) => operation.endpoint),
      ),
    ],
    validatedCount: sumOf(operations, 'validatedCount'),
    schemaViolationCount: sumOf(operations, 'schemaViolationCount'),
    notValidatedCount: sumOf(operations, 'notValidatedCount'),
  };
}

function operationCoverage(
  operation: ContractOperation,
  entry: EndpointEntry | undefined,
  conditions: OperationConditionsReport,
): ContractOperationCoverage {
  const declaredStatuses = operation.responses.map((response) => response.status);
  const seenStatuses = entry === undefined ? [] : Object.keys(entry.statusCodes).sort();
  const declaresDefault = declaredStatuses.includes('default');
  return {
    ...(operation.operationId === undefined ? {} : { operationId: operation.operationId }),
    method: operation.method,
    path: operation.path,
    endpoint: operation.label,
    tags: [...operation.tags],
    deprecated: operation.deprecated,
    executionCount: entry?.executionCount ?? 0,
    failedExecutionCount: entry?.failedExecutionCount ?? 0,
    declaredStatuses,
    seenStatuses,
    undeclaredStatuses: declaresDefault ? [] : seenStatuses.filter((seen) => !declaredStatuses.some((declared) => covers(declared, seen))),
    unseenDeclaredStatuses: declaredStatuses.filter(
      (declared) => declared !== 'default' && !seenStatuses.some((seen) => covers(declared, seen)),
    ),
    responseTimeMs: { ...(entry?.responseTimeMs ?? NEVER_CALLED) },
    validatedCount: entry?.bodies?.validatedCount ?? 0,
    schemaViolationCount: entry?.bodies?.schemaViolationCount ?? 0,
    notValidatedCount: entry?.bodies?.notValidatedCount ?? 0,
    topViolations: (entry?.bodies?.topViolations ?? []).map((violation) => ({ ...violation })),
    conditions,
  };
}

const CONDITION_KIND_ORDER = ['parameter', 'enumValue', 'branch', 'optionalProperty', 'status', 'bound'] as const;

/** An operation's conditions as the report gives them: counts, counts by kind, and the first unmet ones in document order. */
function conditionsReportOf(coverage: OperationConditionCoverage): OperationConditionsReport {
  const { conditions, covered, bounds } = coverage;
  const kinds: Partial<Record<(typeof CONDITION_KIND_ORDER)[number], { conditionCount: number; coveredConditionCount: number }>> = {};
  for (const kind of CONDITION_KIND_ORDER) {
    let conditionCount = 0;
    let coveredConditionCount = 0;
    conditions.forEach((condition, position) => {
      if (condition.kind !== kind) return;
      conditionCount++;
      if (covered[position] === true) coveredConditionCount++;
    });
    if (conditionCount > 0) kinds[kind] = { conditionCount, coveredConditionCount };
  }
  const unmet: UnmetCondition[] = [];
  let unmetCount = 0;
  conditions.forEach((condition, position) => {
    if (covered[position] === true) return;
    unmetCount++;
    if (unmet.length >= MAX_LISTED_UNMET_CONDITIONS) return;
    unmet.push(unmetConditionOf(condition, bounds[position]));
  });
  const coveredConditionCount = conditions.length - unmetCount;
  return {
    fingerprint: coverage.fingerprint,
    conditionCount: conditions.length,
    coveredConditionCount,
    conditionCoveragePercent: coveragePercentOf(coveredConditionCount, conditions.length),
    examinedCallCount: coverage.examinedCallCount,
    ...(coverage.otherList ? { otherDocumentVersion: true as const } : {}),
    kinds,
    unmet,
    unlistedUnmetCount: unmetCount - unmet.length,
  };
}

/** A condition as the report lists one unmet: a bound with how far the run went (its two halves). */
export function unmetConditionOf(condition: Condition, bound: BoundCoverage | undefined): UnmetCondition {
  if (condition.kind === 'bound') return { ...condition, reached: bound?.reached ?? false, outside: bound?.outside ?? false };
  return { ...condition };
}

/** The conditions over every operation; calls examined counted once per endpoint (operations sharing a label share its calls). */
function conditionTotals(operations: readonly ContractOperationCoverage[]) {
  let conditionCount = 0;
  let coveredConditionCount = 0;
  const examined = new Map<string, number>();
  for (const { endpoint, conditions } of operations) {
    conditionCount += conditions.conditionCount;
    coveredConditionCount += conditions.coveredConditionCount;
    examined.set(endpoint, Math.max(examined.get(endpoint) ?? 0, conditions.examinedCallCount));
  }
  return {
    conditionCount,
    coveredConditionCount,
    conditionCoveragePercent: coveragePercentOf(coveredConditionCount, conditionCount),
    examinedCallCount: [...examined.values()].reduce((sum, count) => sum + count, 0),
  };
}

// Operations that share a label (the same method and path in two documents) share its endpoint: counted once.
function sumOf(
  operations: readonly ContractOperationCoverage[],
  key: 'validatedCount' | 'schemaViolationCount' | 'notValidatedCount',
): number {
  const byEndpoint = new Map(operations.map((operation) => [operation.endpoint, operation[key]]));
  return [...byEndpoint.values()].reduce((sum, count) => sum + count, 0);
}

/** Whether a declared status (`200`, `2XX`, `default`) covers a status code seen (`204`). */
function covers(declared: string, seen: string): boolean {
  if (declared === 'default') return true;
  if (/^[1-5]xx$/i.test(declared)) return declared[0] === seen[0];
  return declared === seen;
}

/** A share in percent as the contract section gives it: rounded to 2 decimals, null when there is nothing to cover. */
export function coveragePercentOf(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 10_000) / 100;
}
