import type { ContractCoverage, ContractOperationCoverage } from '../contractSchemas.js';
import { conditionCoverageText } from './conditionPresentation.js';
import { countOf, formatCount, numberFormat } from './presentation.js';

/**
 * What every rendering says of the contract, in the same words: the
 * coverage numbers, the operations that answered statuses they do not
 * declare (worst first), and the operations never called, by tag.
 */

const PERCENT = numberFormat({ maximumFractionDigits: 2 });

/** `4 of 9 operations called (44.44%)`. */
export function operationCoverageText(contract: ContractCoverage): string {
  return (
    `${formatCount(contract.exercisedOperationCount)} of ${countOf(contract.operationCount, 'operation')} ` +
    `called${percentText(contract.operationCoveragePercent)}`
  );
}

/** `4 of 9 declared responses seen (44.44%)`. */
export function responseCoverageText(contract: ContractCoverage): string {
  return (
    `${formatCount(contract.exercisedResponseCount)} of ${countOf(contract.declaredResponseCount, 'declared response')} ` +
    `seen${percentText(contract.responseCoveragePercent)}`
  );
}

/** The coverage numbers of a headline: operations, responses, conditions, undeclared statuses, unmatched endpoints. */
export function contractNumbers(contract: ContractCoverage): string[] {
  const undeclared = contract.operations.reduce((sum, operation) => sum + operation.undeclaredStatuses.length, 0);
  const conditions = conditionCoverageText(contract);
  return [
    operationCoverageText(contract),
    responseCoverageText(contract),
    ...(conditions === undefined ? [] : [conditions]),
    `${formatCount(undeclared)} undeclared ${undeclared === 1 ? 'status' : 'statuses'}`,
    `${countOf(contract.unmatchedEndpoints.length, 'endpoint')} matching no operation`,
    ...(contract.validatedCount + contract.notValidatedCount === 0 ? [] : [bodiesText(contract)]),
  ];
}

/** `2 of 6 bodies off their schema (1 not validated)`: said only where bodies were checked. */
export function bodiesText({
  validatedCount,
  schemaViolationCount,
  notValidatedCount,
}: {
  validatedCount: number;
  schemaViolationCount: number;
  notValidatedCount: number;
}): string {
  const validated = `${formatCount(schemaViolationCount)} of ${formatCount(validatedCount)} ${validatedCount === 1 ? 'body' : 'bodies'} off their schema`;
  return notValidatedCount === 0 ? validated : `${validated} (${formatCount(notValidatedCount)} not validated)`;
}

/**
 * Operations whose bodies broke their schemas, worst first: the most bodies
 * off their schema, then the most calls, then the document's order.
 */
export function violationsWorstFirst(contract: ContractCoverage): ContractOperationCoverage[] {
  return contract.operations
    .map((operation, position) => ({ operation, position }))
    .filter(({ operation }) => operation.schemaViolationCount > 0)
    .sort(
      (a, b) =>
        b.operation.schemaViolationCount - a.operation.schemaViolationCount ||
        b.operation.executionCount - a.operation.executionCount ||
        a.position - b.position,
    )
    .map(({ operation }) => operation);
}

/** One counted violation in words: `response /items/*\/price: type ×2` (the whole body is `(body)`). */
export function violationText({ body, pointer, keyword, count }: ContractOperationCoverage['topViolations'][number]): string {
  return `${body} ${pointer === '' ? '(body)' : pointer}: ${keyword} ×${formatCount(count)}`;
}

/** How many of an operation's most frequent violations a rendering lists. */
export const SHOWN_VIOLATIONS = 3;

function percentText(percent: number | null): string {
  return percent === null ? '' : ` (${PERCENT.format(percent)}%)`;
}

/**
 * Operations that answered statuses they do not declare, worst first: the
 * most undeclared statuses, then the most calls, then the document's order.
 */
export function undeclaredWorstFirst(contract: ContractCoverage): ContractOperationCoverage[] {
  return contract.operations
    .map((operation, position) => ({ operation, position }))
    .filter(({ operation }) => operation.undeclaredStatuses.length > 0)
    .sort(
      (a, b) =>
        b.operation.undeclaredStatuses.length - a.operation.undeclaredStatuses.length ||
        b.operation.executionCount - a.operation.executionCount ||
        a.position - b.position,
    )
    .map(({ operation }) => operation);
}

/** What an operation is called in a list: its label, and its operationId when it has one. */
export function operationName(operation: ContractOperationCoverage): {
  readonly endpoint: string;
  readonly operationId?: string | undefined;
} {
  return { endpoint: operation.endpoint, operationId: operation.operationId };
}

/** The tag an operation is listed under: its first, or none. */
export const UNTAGGED = '(no tag)';

/**
 * The operations never called, grouped by their first tag (each listed
 * once; those without a tag last, under {@link UNTAGGED}), tags in the
 * order the document first uses them, operations in the document's order.
 */
export function untestedByTag(contract: ContractCoverage): { readonly tag: string; readonly operations: ContractOperationCoverage[] }[] {
  const groups = new Map<string, ContractOperationCoverage[]>();
  for (const operation of contract.operations) {
    if (operation.executionCount > 0) continue;
    const tag = operation.tags[0] ?? UNTAGGED;
    groups.set(tag, [...(groups.get(tag) ?? []), operation]);
  }
  const untagged = groups.get(UNTAGGED);
  groups.delete(UNTAGGED);
  const ordered = [...groups].map(([tag, operations]) => ({ tag, operations }));
  return untagged === undefined ? ordered : [...ordered, { tag: UNTAGGED, operations: untagged }];
}
