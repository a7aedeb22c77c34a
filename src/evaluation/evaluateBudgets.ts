import { LIMITED_STATISTICS, type Budgets, type EndpointBudgets, type OperationBudgets } from '../config/budgetsSchema.js';
import { keyNamesLabel } from '../config/endpointKeyMatch.js';
import type { ContractOperationCoverage } from '../report/contractSchemas.js';
import { ENDPOINT_LABEL_PATTERN } from '../records/recordCheck.js';
import { normaliseEndpoint } from '../records/normaliseExecutionRecords.js';
import type { QualityReport } from '../report/qualityReport.js';
import { isIncompleteRun } from '../report/buildReport.js';
import type { BudgetResult, BudgetVerdict, LatencyVerdict } from '../report/verdictSchemas.js';
import { quoteText } from '../renderValue.js';
import { compareCodeUnits } from '../compareCodeUnits.js';

/**
 * Quality budgets: limits a report must hold, judged like k6 thresholds. A
 * limit is inclusive (a measured value equal to it holds), and a budget
 * whose measurement is missing (no executions, an endpoint that did not
 * run) is breached: missing evidence never passes.
 */

type Limits = EndpointBudgets;
type Endpoint = QualityReport['endpoints'][number];
/** What a limit is measured on: the whole report, one endpoint's entry, or nothing (an endpoint that did not run). */
type Measured = QualityReport | Endpoint | undefined;

/** How the failure budgets count: with the failures a retry made good (the default), or without them. */
interface Counting {
  readonly countFlakyFailures: boolean;
}

/** The failed executions a budget counts: all of them, or those a retry did not make good. */
function failedOf(measured: QualityReport | Endpoint, { countFlakyFailures }: Counting): number {
  return countFlakyFailures ? measured.failedExecutionCount : measured.failedExecutionCount - (measured.flakyFailedExecutionCount ?? 0);
}

/** Every limit but maxP95IncreasePercent, in the order results come: what it limits, and how it is measured. */
const LIMITS: readonly {
  readonly budget: string;
  readonly limitOf: (limits: Limits) => number | undefined;
  readonly measure: (measured: Measured, counting: Counting) => number | null;
}[] = [
  { budget: 'minExecutions', limitOf: (limits) => limits.minExecutions, measure: (measured) => measured?.executionCount ?? null },
  {
    budget: 'maxFailedExecutions',
    limitOf: (limits) => limits.maxFailedExecutions,
    measure: (measured, counting) => (measured === undefined ? null : failedOf(measured, counting)),
  },
  {
    budget: 'maxFailureRate',
    limitOf: (limits) => limits.maxFailureRate,
    measure: (measured, counting) =>
      measured === undefined || measured.executionCount === 0 ? null : failedOf(measured, counting) / measured.executionCount,
  },
  {
    budget: 'maxSlowExecutions',
    limitOf: (limits) => limits.maxSlowExecutions,
    measure: (measured) => measured?.slowExecutionCount ?? null,
  },
  {
    budget: 'maxNoResponseCount',
    limitOf: (limits) => limits.maxNoResponseCount,
    measure: (measured) => measured?.noResponseCount ?? null,
  },
  {
    budget: 'maxEndpointsAboveHistoricalRange',
    limitOf: (limits) => limits.maxEndpointsAboveHistoricalRange,
    measure: aboveHistoricalRange,
  },
  ...LIMITED_STATISTICS.map((statistic) => ({
    budget: `responseTimeMs.${statistic}`,
    limitOf: (limits: Limits) => limits.responseTimeMs?.[statistic],
    measure: (measured: Measured): number | null => measured?.responseTimeMs[statistic] ?? null,
  })),
];

type Contract = NonNullable<QualityReport['contract']>;

/** The limits on the contract's coverage, measured on the report's contract section (none: no data, breached). */
const CONTRACT_LIMITS: readonly {
  readonly budget:
    | 'minOperationCoveragePercent'
    | 'minResponseCoveragePercent'
    | 'minConditionCoveragePercent'
    | 'maxUndeclaredStatuses'
    | 'maxUnmatchedEndpoints'
    | 'maxSchemaViolations'
    | 'maxBreakingChanges'
    | 'maxBreakingChangesExercised';
  readonly measure: (contract: Contract | undefined) => number | null;
}[] = [
  { budget: 'minOperationCoveragePercent', measure: (contract) => contract?.operationCoveragePercent ?? null },
  { budget: 'minResponseCoveragePercent', measure: (contract) => contract?.responseCoveragePercent ?? null },
  // A report of a version before condition coverage (read by check) has none: nothing is measured.
  {
    budget: 'minConditionCoveragePercent',
    measure: (contract) => (contract as Partial<Contract> | undefined)?.conditionCoveragePercent ?? null,
  },
  { budget: 'maxUndeclaredStatuses', measure: (contract) => (contract === undefined ? null : undeclaredStatusCount(contract.operations)) },
  { budget: 'maxUnmatchedEndpoints', measure: (contract) => contract?.unmatchedEndpoints.length ?? null },
  { budget: 'maxSchemaViolations', measure: (contract) => contract?.schemaViolationCount ?? null },
  // The changes since the contract's BASE: a run without openapiBase has no changes section, and measures nothing.
  { budget: 'maxBreakingChanges', measure: (contract) => contract?.changes?.summary.breaking ?? null },
  { budget: 'maxBreakingChangesExercised', measure: (contract) => contract?.changes?.summary.breakingExercised ?? null },
];

/** The contract limits an operation has besides an endpoint's, measured on its entry of the contract section. */
const OPERATION_CONTRACT_LIMITS: readonly {
  readonly budget: 'maxUndeclaredStatuses' | 'maxSchemaViolations' | 'minConditionCoveragePercent';
  readonly measure: (operation: ContractOperationCoverage) => number | null;
}[] = [
  { budget: 'maxUndeclaredStatuses', measure: (operation) => operation.undeclaredStatuses.length },
  { budget: 'maxSchemaViolations', measure: (operation) => operation.schemaViolationCount },
  // One that declares no condition has nothing to cover (null): breached, as missing evidence is.
  {
    budget: 'minConditionCoveragePercent',
    measure: (operation) => (operation as Partial<ContractOperationCoverage>).conditions?.conditionCoveragePercent ?? null,
  },
];

/** Statuses seen that their operation does not declare, once per operation and status. */
function undeclaredStatusCount(operations: readonly ContractOperationCoverage[]): number {
  return operations.reduce((sum, operation) => sum + operation.undeclaredStatuses.length, 0);
}

/**
 * Judges a report against budgets. The report's `baseline` section, when it
 * has one, is what `maxP95IncreasePercent` compares with; without one that
 * budget cannot be judged (the caller refuses it before the run). A run
 * that stopped before its tests were done (interrupted, timed out) never
 * passes: each budget is judged on what it recorded, and the verdict fails.
 */
export function evaluateBudgets(report: QualityReport, budgets: Budgets): BudgetVerdict {
  const results: BudgetResult[] = [];
  const measuredByEndpoint = endpointsByLabel(report);
  const byEndpoint = endpointBudgetsOf(budgets, labelsNamedBy(measuredByEndpoint.keys()));
  const counting: Counting = { countFlakyFailures: budgets.countFlakyFailures ?? true };
  judgeLimits(budgets, undefined, report, results, counting);
  if (budgets.maxP95IncreasePercent !== undefined) judgeIncrease(budgets.maxP95IncreasePercent, report, undefined, results);
  for (const { budget, measure } of CONTRACT_LIMITS) {
    const limit = budgets[budget];
    if (typeof limit !== 'number') continue;
    const actual = measure(report.contract);
    results.push({ budget, limit, actual, passed: holdsLimit(budget, limit, actual) });
  }
  for (const [endpoint, endpointBudgets] of byEndpoint) {
    judgeLimits(endpointBudgets, endpoint, measuredByEndpoint.get(endpoint), results, counting);
    if (endpointBudgets.maxP95IncreasePercent !== undefined)
      judgeIncrease(endpointBudgets.maxP95IncreasePercent, report, endpoint, results);
  }
  for (const [name, operationBudgets] of Object.entries(budgets.operations ?? {}))
    judgeOperation(name, operationBudgets, report, measuredByEndpoint, results, counting);
  const passed = results.every((result) => result.passed) && !isIncompleteRun(report.runStatus);
  return counting.countFlakyFailures ? { passed, results } : { passed, countFlakyFailures: false, results };
}

/**
 * Endpoints above their historical range: for the whole run, how many; for
 * one endpoint, 1 or 0. No history section (no history file, or a report
 * read back without one) measures nothing.
 */
function aboveHistoricalRange(measured: Measured): number | null {
  if (measured === undefined) return null;
  if ('schemaVersion' in measured) return measured.history?.aboveRangeEndpoints.length ?? null;
  return measured.history === undefined ? null : measured.history.trend === 'aboveRange' ? 1 : 0;
}

/** Whether budgets judge endpoints against a history file. */
export function needsHistory(budgets: Budgets): boolean {
  const limited = (limits: { readonly maxEndpointsAboveHistoricalRange?: number | undefined }) =>
    limits.maxEndpointsAboveHistoricalRange !== undefined;
  return limited(budgets) || Object.values(budgets.endpoints ?? {}).some(limited) || Object.values(budgets.operations ?? {}).some(limited);
}

/** Whether budgets count the changes between the contract's BASE (openapiBase) and the run's document. */
export function needsContractBase(budgets: Budgets): boolean {
  return budgets.maxBreakingChanges !== undefined || budgets.maxBreakingChangesExercised !== undefined;
}

/** Whether budgets ask for a comparison with a baseline. */
export function needsBaseline(budgets: Budgets): boolean {
  return (
    budgets.maxP95IncreasePercent !== undefined ||
    Object.values(budgets.endpoints ?? {}).some((endpoint) => endpoint.maxP95IncreasePercent !== undefined)
  );
}

/** Whether a measured value holds a budget's limit: at least the limit for a `min…` budget, at most it for the others; no value never holds. */
function holdsLimit(budget: string, limit: number, actual: number | null): boolean {
  return actual !== null && (budget.startsWith('min') ? actual >= limit : actual <= limit);
}

/**
 * The budgets of one operation, named by its operationId or its endpoint
 * label: an endpoint's limits measured on its endpoint's entry, and its
 * undeclared statuses. A name that is no operation of the contract (or a
 * report without one) measures nothing: each limit is breached.
 */
function judgeOperation(
  name: string,
  limits: OperationBudgets,
  report: QualityReport,
  measuredByEndpoint: ReadonlyMap<string, Endpoint>,
  results: BudgetResult[],
  counting: Counting,
): void {
  const operation = operationNamed(report.contract, name);
  const named = { operation: name, ...(operation === undefined ? {} : { endpoint: operation.endpoint }) };
  for (const { budget, limitOf, measure } of LIMITS) {
    const limit = limitOf(limits);
    if (limit === undefined) continue;
    const actual = measureOperation(operation, budget, (measured) => measure(measured, counting), measuredByEndpoint);
    results.push({ budget, ...named, limit, actual, passed: holdsLimit(budget, limit, actual) });
  }
  for (const { budget, measure } of OPERATION_CONTRACT_LIMITS) {
    const limit = limits[budget];
    if (limit === undefined) continue;
    const actual = operation === undefined ? null : measure(operation);
    results.push({ budget, ...named, limit, actual, passed: holdsLimit(budget, limit, actual) });
  }
}

// An operation's limit, measured on its endpoint's entry; one never called has 0 executions, and no other value.
function measureOperation(
  operation: ContractOperationCoverage | undefined,
  budget: string,
  measure: (measured: Measured) => number | null,
  measuredByEndpoint: ReadonlyMap<string, Endpoint>,
): number | null {
  if (operation === undefined) return null;
  if (budget === 'minExecutions') return operation.executionCount;
  return measure(measuredByEndpoint.get(operation.endpoint));
}

/** The operation an operations budget names: by operationId first, then by endpoint label (normalised as records' labels are). */
function operationNamed(contract: Contract | undefined, name: string): ContractOperationCoverage | undefined {
  const operations = contract?.operations ?? [];
  const label = ENDPOINT_LABEL_PATTERN.test(name) ? normaliseEndpoint(name) : undefined;
  return operations.find((operation) => operation.operationId === name) ?? operations.find((operation) => operation.endpoint === label);
}

/**
 * Where a budget verdict recorded in a report contradicts itself or the
 * report's own numbers, in words; undefined when it agrees throughout.
 * Each result must be a budget this version judges, measure what the report
 * measures (its endpoint's entry, the whole run, the baseline comparison's
 * p95 change), and pass exactly when its value holds its limit; the verdict
 * passes exactly when every result does and the run was not cut short. A
 * report edited by hand, or by a tool that knows a verdict but not its
 * rules, fails here; the limits themselves cannot be checked without the
 * budgets, which `check --budgets` judges afresh.
 */
export function contradictionInVerdict(report: QualityReport, verdict: BudgetVerdict): string | undefined {
  // A report read as a baseline may be older than the per-endpoint statistics: without them its values cannot be measured again, only judged.
  const { endpoints, responseTimeMs } = report as Partial<QualityReport>;
  const remeasurable = endpoints !== undefined && responseTimeMs !== undefined;
  const measuredByEndpoint = remeasurable ? endpointsByLabel(report) : new Map<string, Endpoint>();
  const changeByEndpoint = new Map((report.baseline?.endpoints ?? []).map((entry) => [entry.endpoint, entry]));
  const counting: Counting = { countFlakyFailures: verdict.countFlakyFailures ?? true };
  for (const [index, result] of verdict.results.entries()) {
    const { budget, endpoint, operation: operationName, limit, actual, passed } = result;
    const subject = operationName ?? endpoint;
    const where = `budgets.results[${index}] (${quoteText(budget)}${subject === undefined ? '' : ` of ${quoteText(subject)}`})`;
    const measure = LIMITS.find((entry) => entry.budget === budget)?.measure;
    const contractMeasure = CONTRACT_LIMITS.find((entry) => entry.budget === budget)?.measure;
    let measured: number | null;
    if (operationName !== undefined) {
      const operation = operationNamed(report.contract, operationName);
      if (measure !== undefined) measured = measureOperation(operation, budget, (entry) => measure(entry, counting), measuredByEndpoint);
      else {
        const contractMeasure = OPERATION_CONTRACT_LIMITS.find((entry) => entry.budget === budget)?.measure;
        if (contractMeasure === undefined) return `${where} is not a budget of an operation`;
        measured = operation === undefined ? null : contractMeasure(operation);
      }
    } else if (measure !== undefined) measured = measure(endpoint === undefined ? report : measuredByEndpoint.get(endpoint), counting);
    else if (contractMeasure !== undefined && endpoint === undefined) measured = contractMeasure(report.contract);
    else if (budget === 'maxP95IncreasePercent') {
      const compared = endpoint === undefined ? undefined : changeByEndpoint.get(endpoint);
      measured = compared?.p95.changePercent ?? null;
      if (report.baseline !== undefined && compared?.latencyVerdict !== result.latencyVerdict) {
        return (
          `${where} records the latency verdict ${String(result.latencyVerdict)}, ` +
          `where the report's baseline comparison gives ${String(compared?.latencyVerdict)}`
        );
      }
    } else return `${where} is not a budget`;
    if (remeasurable && actual !== measured)
      return `${where} records ${actual} as measured, where the report's own numbers give ${measured}`;
    const holds =
      budget === 'maxP95IncreasePercent' && result.latencyVerdict !== undefined
        ? holdsIncrease(limit, actual, result.latencyVerdict)
        : holdsLimit(budget, limit, actual);
    if (passed !== holds)
      return (
        `${where} records passed: ${passed}, but ${actual === null ? 'no measured value' : actual} ` +
        `${passed ? 'does not hold' : 'holds'} its limit ${limit}`
      );
  }
  const breached = verdict.results.filter((result) => !result.passed).length;
  const incomplete = isIncompleteRun(report.runStatus);
  if (verdict.passed !== (breached === 0 && !incomplete)) {
    const why =
      breached > 0
        ? `${breached} of its ${verdict.results.length} results failed`
        : incomplete
          ? `the run was ${report.runStatus}`
          : 'every result passed';
    return `budgets.passed is ${verdict.passed}, but ${why}`;
  }
  return undefined;
}

/**
 * The budgets of each endpoint by the label its key names (see
 * labelsNamedBy: normalised as records' labels are, `get  /orders` is
 * `GET /orders`, and `PUT /counterparties/:id` the report's
 * `PUT /counterparties/{id}`), in label order; a Map, so that no label can
 * meet a property of Object.prototype. A key that is not a label (the
 * schema refuses one) is kept as written: it matches no endpoint.
 */
function endpointBudgetsOf(budgets: Budgets, labelOf: (key: string) => string): Map<string, EndpointBudgets> {
  const endpoints = budgets.endpoints ?? {};
  const labelled = Object.keys(endpoints).map((key): [string, EndpointBudgets] => [labelOf(key), endpoints[key]!]);
  return new Map(labelled.sort(([a], [b]) => compareCodeUnits(a, b)));
}

/**
 * The label of the report that an endpoint key names: its own, normalised,
 * when the report has it; else the first label (in code-unit order) its
 * parameter segments stand for (see keyNamesLabel), so that a key written
 * as routes write it names the contract's operation; else the key,
 * normalised, which then names an endpoint that did not run. Labels are
 * indexed by method and length, so a budgets file of many templates is not
 * matched against every label of a large report.
 */
export function labelsNamedBy(labels: Iterable<string>): (key: string) => string {
  const known = new Set(labels);
  const byShape = new Map<string, string[]>();
  for (const label of [...known].sort(compareCodeUnits)) {
    const shape = shapeOf(label);
    const list = byShape.get(shape);
    if (list === undefined) byShape.set(shape, [label]);
    else list.push(label);
  }
  return (key) => {
    if (!ENDPOINT_LABEL_PATTERN.test(key)) return key;
    const label = normaliseEndpoint(key);
    if (known.has(label)) return label;
    return byShape.get(shapeOf(label))?.find((candidate) => keyNamesLabel(label, candidate)) ?? label;
  };
}

/** A label's method and number of path segments: what any label its key names shares with it. */
function shapeOf(label: string): string {
  const space = label.indexOf(' ');
  return `${label.slice(0, space)} ${label.slice(space + 1).split('/').length}`;
}

// The report's endpoints by label; the first entry of a label, should a report hold one twice.
function endpointsByLabel(report: QualityReport): Map<string, Endpoint> {
  const byLabel = new Map<string, Endpoint>();
  for (const entry of report.endpoints) if (!byLabel.has(entry.endpoint)) byLabel.set(entry.endpoint, entry);
  return byLabel;
}

// The limits of the whole run (measured = the report) or of one endpoint (measured = its entry, or undefined when it did not run).
function judgeLimits(limits: Limits, endpoint: string | undefined, measured: Measured, results: BudgetResult[], counting: Counting): void {
  for (const { budget, limitOf, measure } of LIMITS) {
    const limit = limitOf(limits);
    if (limit === undefined) continue;
    const actual = measure(measured, counting);
    results.push({ budget, ...(endpoint === undefined ? {} : { endpoint }), limit, actual, passed: holdsLimit(budget, limit, actual) });
  }
}

/**
 * maxP95IncreasePercent: each endpoint of the comparison (or the one named),
 * by label, with its latency verdict. Only an endpoint judged slower (its
 * change is real) can breach the limit; one judged unchanged or faster
 * holds it whatever its p95 did, and one with too few samples to judge is
 * listed as such, and holds: never left out.
 */
function judgeIncrease(limit: number, report: QualityReport, only: string | undefined, results: BudgetResult[]): void {
  const comparison = report.baseline;
  // No baseline, or a named endpoint that did not run: the evidence is missing.
  if (comparison === undefined || (only !== undefined && !comparison.endpoints.some((entry) => entry.endpoint === only))) {
    results.push({
      budget: 'maxP95IncreasePercent',
      ...(only === undefined ? {} : { endpoint: only }),
      limit,
      actual: null,
      passed: false,
    });
    return;
  }
  for (const entry of comparison.endpoints) {
    if (only !== undefined && entry.endpoint !== only) continue;
    const actual = entry.p95.changePercent;
    results.push({
      budget: 'maxP95IncreasePercent',
      endpoint: entry.endpoint,
      limit,
      actual,
      passed: holdsIncrease(limit, actual, entry.latencyVerdict),
      latencyVerdict: entry.latencyVerdict,
    });
  }
}

/** Whether a p95 change holds maxP95IncreasePercent: only a real slowdown (verdict slower) past the limit breaches it. */
function holdsIncrease(limit: number, actual: number | null, verdict: LatencyVerdict | undefined): boolean {
  return verdict !== 'slower' || (actual !== null && actual <= limit);
}
