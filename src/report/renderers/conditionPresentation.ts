import { pointerTokens } from '../../contract/documentPointers.js';
import type { ContractCoverage, ContractOperationCoverage, UnmetCondition } from '../contractSchemas.js';
import type { ContractComparison } from '../verdictSchemas.js';
import { contractCoverageChange, countOf, formatCount, formatCoverage } from './presentation.js';

/**
 * What every rendering says of the conditions a contract declares (issue
 * 36), in the same words: the line beside operation coverage, and, for the
 * Markdown and the page, what each operation called never met, grouped by
 * kind, worst-covered operations first. Every name and value here is the
 * document's: a rendering shows a {@link TextPart}'s `code` as text from
 * input (escaped, shortened, in code), its plain strings as its own words.
 */

type ConditionKind = UnmetCondition['kind'];

/** The kinds in the order every rendering groups them (the report's), each with its title. */
const KIND_TITLES: { readonly [Kind in ConditionKind]: string } = {
  parameter: 'Parameters',
  enumValue: 'Enum values',
  branch: 'Branches',
  optionalProperty: 'Optional properties',
  status: 'Statuses',
  bound: 'Bounds',
};
const KIND_ORDER = Object.keys(KIND_TITLES) as ConditionKind[];

/** The run's conditions not examined: its records said which status each call got and which path it took, nothing of what it sent. */
export const CONDITIONS_NOT_EXAMINED =
  'conditions not examined: the records say only statuses and paths (record with the fixture or a HAR file)';

/** The run's conditions met not counted: its records named another version of each operation's conditions. */
export const CONDITIONS_OF_OTHER_VERSION = 'conditions not counted: the calls were recorded against another version of the document';

/**
 * Whether an operation was called and what its calls sent was never known,
 * so that its count of conditions met says less than it seems: its calls'
 * records said nothing of its conditions (records without the fixture or a
 * HAR file) or named another version of them, and it has some unmet
 * condition other than a status (statuses, and the path parameters a
 * matched call sent, are known from every call).
 */
export function conditionDepthUnknown(operation: ContractOperationCoverage): boolean {
  const { conditions } = operation;
  if (operation.executionCount === 0) return false;
  if (conditions.examinedCallCount > 0 && conditions.otherDocumentVersion !== true) return false;
  return unmetOf(conditions) > unmetOfKind(operation, 'status');
}

/**
 * The line beside operation coverage: `10 of 17 conditions met (58.82%)`;
 * when no call's record said what it sent and that leaves conditions other
 * than statuses unmet, that they were not examined (or not counted, when
 * the records named another version of the document) instead of a
 * percentage lower than the suite's. None when every condition the
 * document declares is a status: the line would repeat response coverage.
 */
export function conditionCoverageText(contract: ContractCoverage): string | undefined {
  const statuses = contract.operations.reduce((sum, operation) => sum + (operation.conditions.kinds.status?.conditionCount ?? 0), 0);
  if (contract.conditionCount === statuses) return undefined;
  if (contract.examinedCallCount === 0) {
    const unknown = contract.operations.filter(conditionDepthUnknown);
    if (unknown.length > 0)
      return unknown.every((operation) => operation.conditions.otherDocumentVersion === true)
        ? CONDITIONS_OF_OTHER_VERSION
        : CONDITIONS_NOT_EXAMINED;
  }
  return conditionsMetText(contract);
}

/**
 * The contract's coverage against the baseline, conditions met before →
 * after among it (presentation's contractCoverageChange), as this run's
 * contract section bears out: none when every condition it declares is a
 * status (the change would repeat response coverage's), and, when its
 * calls' records said nothing of what they sent, that they were not
 * examined (or not counted) instead of a fall no suite made.
 */
export function contractCoverageChangeText(comparison: ContractComparison, contract: ContractCoverage | undefined): string {
  if (contract === undefined || comparison.conditionCoveragePercent === undefined) return contractCoverageChange(comparison);
  const line = conditionCoverageText(contract);
  if (line !== undefined && line !== CONDITIONS_NOT_EXAMINED && line !== CONDITIONS_OF_OTHER_VERSION)
    return contractCoverageChange(comparison);
  const { conditionCoveragePercent: _, ...withoutConditions } = comparison;
  return [contractCoverageChange(withoutConditions), ...(line === undefined ? [] : [line])].join(' · ');
}

/** An operation's line: `8 of 13 conditions met (61.54%)`, or what its calls left unknown. */
export function operationConditionsText(operation: ContractOperationCoverage): string {
  if (!conditionDepthUnknown(operation)) return conditionsMetText(operation.conditions);
  return operation.conditions.otherDocumentVersion === true
    ? 'conditions beyond statuses and paths not counted: its calls were recorded against another version of the document'
    : 'conditions beyond statuses and paths not examined: its calls’ records said no more';
}

function conditionsMetText({
  conditionCount,
  coveredConditionCount,
  conditionCoveragePercent,
}: {
  readonly conditionCount: number;
  readonly coveredConditionCount: number;
  readonly conditionCoveragePercent: number | null;
}): string {
  const percent = conditionCoveragePercent === null ? '' : ` (${formatCoverage(conditionCoveragePercent)})`;
  return `${formatCount(coveredConditionCount)} of ${countOf(conditionCount, 'condition')} met${percent}`;
}

/** One kind of an operation's unmet conditions: `Enum values, 2 of 4 never met`, and those the report lists, in document order. */
export interface UnmetConditionGroup {
  readonly kind: ConditionKind;
  readonly title: string;
  /** Unmet conditions of this kind, counted whole (the report lists at most 50 of an operation's). */
  readonly unmetCount: number;
  readonly conditionCount: number;
  readonly listed: readonly UnmetCondition[];
}

/** An operation called with conditions it never met. */
export interface OperationUnmetConditions {
  readonly operation: ContractOperationCoverage;
  /** Whether what its calls sent was known ({@link conditionDepthUnknown}); when not, only its statuses are grouped. */
  readonly depthKnown: boolean;
  readonly groups: readonly UnmetConditionGroup[];
}

/**
 * The operations called that left conditions unmet, worst-covered first:
 * those whose calls said what they sent, by the lowest share of conditions
 * met, then the most unmet, then the contract's order; then, in the same
 * order, those whose calls did not, with only their statuses never
 * answered (what else they met is unknown). Each gives its unmet
 * conditions by kind in the report's fixed order. Operations never called
 * are left out: every condition of theirs is unmet, and the renderings list
 * them as never called.
 */
export function unmetConditionsWorstFirst(contract: ContractCoverage): OperationUnmetConditions[] {
  const listed: { readonly entry: OperationUnmetConditions; readonly position: number }[] = [];
  contract.operations.forEach((operation, position) => {
    if (operation.executionCount === 0) return;
    const depthKnown = !conditionDepthUnknown(operation);
    const groups = KIND_ORDER.filter((kind) => depthKnown || kind === 'status').flatMap((kind): UnmetConditionGroup[] => {
      const unmetCount = unmetOfKind(operation, kind);
      if (unmetCount === 0) return [];
      const conditionCount = operation.conditions.kinds[kind]?.conditionCount ?? 0;
      const ofKind = operation.conditions.unmet.filter((condition) => condition.kind === kind);
      return [{ kind, title: KIND_TITLES[kind], unmetCount, conditionCount, listed: ofKind }];
    });
    if (groups.length > 0) listed.push({ entry: { operation, depthKnown, groups }, position });
  });
  const percent = (entry: OperationUnmetConditions) => entry.operation.conditions.conditionCoveragePercent ?? 100;
  return listed
    .sort(
      (a, b) =>
        Number(b.entry.depthKnown) - Number(a.entry.depthKnown) ||
        percent(a.entry) - percent(b.entry) ||
        unmetOf(b.entry.operation.conditions) - unmetOf(a.entry.operation.conditions) ||
        a.position - b.position,
    )
    .map(({ entry }) => entry);
}

function unmetOf(conditions: ContractOperationCoverage['conditions']): number {
  return conditions.conditionCount - conditions.coveredConditionCount;
}

function unmetOfKind(operation: ContractOperationCoverage, kind: ConditionKind): number {
  const counts = operation.conditions.kinds[kind];
  return counts === undefined ? 0 : counts.conditionCount - counts.coveredConditionCount;
}

/** A group's title with its counts: `Enum values, 2 of 4 never met`. */
export function unmetGroupText(group: UnmetConditionGroup): string {
  return `${group.title}, ${formatCount(group.unmetCount)} of ${formatCount(group.conditionCount)} never met`;
}

/** A piece of a condition in words: the rendering's own words, or `{ code }`, text from the document shown as input is. */
export type TextPart = string | { readonly code: string };

/**
 * One unmet condition in words a reader follows without the document
 * (its pointer, `where`, shown beside it): `limit` (query): never left
 * out; `status = "available"` (query): never sent; `oneOf` branch 2
 * (request body): never matched; `tag` (response `200`): never present;
 * `404`: never answered; `limit maximum 100` (query): never reached; one
 * above it answered 4xx.
 */
export function unmetConditionParts(condition: UnmetCondition): TextPart[] {
  if (condition.kind === 'bound') return [...conditionSubjectParts(condition), `: ${boundHalvesText(condition)}`];
  return [...conditionSubjectParts(condition), `: never ${metVerbOf(condition)}`];
}

/**
 * A condition met in the baseline and not now, in the words of
 * {@link unmetConditionParts} with the verb of a change: `status =
 * "available"` (query): no longer sent; a bound says which halves this run
 * left: `limit maximum 100` (query): no longer met (never reached; one above
 * it answered 4xx).
 */
export function noLongerMetConditionParts(condition: UnmetCondition): TextPart[] {
  if (condition.kind === 'bound') return [...conditionSubjectParts(condition), `: no longer met (${boundHalvesText(condition)})`];
  return [...conditionSubjectParts(condition), `: no longer ${metVerbOf(condition)}`];
}

/**
 * A condition met now and not in the baseline: `status = "available"`
 * (query): now sent; `limit maximum 100` (query): now reached, and one
 * above it answered 4xx.
 */
export function newlyMetConditionParts(condition: UnmetCondition): TextPart[] {
  if (condition.kind === 'bound')
    return [...conditionSubjectParts(condition), `: now reached, and one ${BEYOND[condition.keyword]} answered 4xx`];
  return [...conditionSubjectParts(condition), `: now ${metVerbOf(condition)}`];
}

/** What meeting a condition other than a bound is: a parameter `sent` or `left out`, a value `sent` or `answered`, a branch `matched`. */
function metVerbOf(condition: Exclude<UnmetCondition, { kind: 'bound' }>): string {
  switch (condition.kind) {
    case 'parameter':
      return condition.case === 'sent' ? 'sent' : 'left out';
    case 'enumValue':
      return condition.direction === 'request' ? 'sent' : 'answered';
    case 'branch':
      return 'matched';
    case 'optionalProperty':
      return 'present';
    case 'status':
      return 'answered';
  }
}

/** A bound's two halves as the run that did not meet it went: `never reached; one above it answered 4xx`. */
function boundHalvesText(condition: Extract<UnmetCondition, { kind: 'bound' }>): string {
  return `${condition.reached ? 'reached' : 'never reached'}; ${condition.outside ? 'one' : 'none'} ${BEYOND[condition.keyword]} answered 4xx`;
}

/** What a condition is, without what became of it: `status = "available"` (query), `oneOf` branch 2 (request body), `404`. */
function conditionSubjectParts(condition: UnmetCondition): TextPart[] {
  switch (condition.kind) {
    case 'parameter':
      return [{ code: condition.name }, ` (${condition.in})`];
    case 'enumValue': {
      const name = condition.parameter?.name ?? propertyNameOf(condition.where);
      // A value read from JSON; a report edited by hand may leave it out.
      const value = condition.value === undefined ? 'undefined' : JSON.stringify(condition.value);
      return [{ code: name === undefined ? value : `${name} = ${value}` }, ...placeOf(condition)];
    }
    case 'branch': {
      const index = Number(pointerTokens(condition.where)?.at(-1));
      const name = propertyNameOf(condition.where);
      return [
        { code: condition.keyword },
        Number.isInteger(index) ? ` branch ${formatCount(index + 1)}` : ' branch',
        ...(name === undefined ? [] : [' of ', { code: name }]),
        ...placeOf(condition),
      ];
    }
    case 'optionalProperty':
      return [{ code: condition.name }, ...placeOf(condition)];
    case 'status':
      return [{ code: condition.status }];
    case 'bound': {
      const name = condition.parameter?.name ?? propertyNameOf(condition.where);
      const bound = `${condition.keyword} ${String(condition.value)}`;
      return [
        { code: name === undefined ? bound : `${name} ${bound}` },
        ...placeOf({ direction: 'request', parameter: condition.parameter }),
      ];
    }
  }
}

/** Conditions of the comparison's lists, each operation's together, in the order the comparison gives them. */
export interface OperationConditionChanges {
  readonly operation: string;
  readonly conditions: readonly UnmetCondition[];
}

/** The comparison's list of conditions newly met or no longer met, grouped by operation (its entries come each operation's together). */
export function conditionChangesByOperation(
  changes: readonly { readonly operation: string; readonly condition: UnmetCondition }[],
): OperationConditionChanges[] {
  const groups: { operation: string; conditions: UnmetCondition[] }[] = [];
  for (const { operation, condition } of changes) {
    const last = groups.at(-1);
    if (last?.operation === operation) last.conditions.push(condition);
    else groups.push({ operation, conditions: [condition] });
  }
  return groups;
}

/** A value outside each bound, in words. */
const BEYOND: { readonly [Keyword in Extract<UnmetCondition, { kind: 'bound' }>['keyword']]: string } = {
  minimum: 'below it',
  exclusiveMinimum: 'at or below it',
  maximum: 'above it',
  exclusiveMaximum: 'at or above it',
  minLength: 'shorter',
  maxLength: 'longer',
  minItems: 'with fewer items',
  maxItems: 'with more items',
};

/** Where a value or a body goes: ` (query)` for a parameter's, ` (request body)`, ` (response `200`)`. */
function placeOf({
  direction,
  status,
  parameter,
}: {
  readonly direction: 'request' | 'response';
  readonly status?: string | undefined;
  readonly parameter?: { readonly in: string } | undefined;
}): TextPart[] {
  if (parameter !== undefined) return [` (${parameter.in})`];
  if (direction === 'request') return [' (request body)'];
  return status === undefined ? [' (response body)'] : [' (response ', { code: status }, ')'];
}

/**
 * The property a body's condition belongs to: the key after the last
 * `properties` of its pointer (`#/components/schemas/Pet/properties/kind/enum/1`
 * gives `kind`), read pairwise from the start so that a property named
 * `properties` is a name; none when the pointer names no property (the body
 * itself, an array's items).
 */
function propertyNameOf(where: string): string | undefined {
  const tokens = pointerTokens(where) ?? [];
  let name: string | undefined;
  for (let index = 0; index < tokens.length - 1; index++) {
    if (tokens[index] !== 'properties') continue;
    name = tokens[index + 1];
    index++;
  }
  return name;
}
