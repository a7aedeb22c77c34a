import { statusCovers } from '../contract/conditionsMet.js';
import { conditionsOfOperation, type Condition, type ListedConditions } from '../contract/conditions.js';
import type { Contract, ContractOperation } from '../contract/contract.js';
import type { QualityReport } from '../report/qualityReport.js';
import type { PositionsMet } from '../summary/conditionTally.js';

/**
 * Which of the conditions an operation's document declares (see
 * src/contract/conditions.ts) a run met, operation by operation: what the
 * report's `contract` section counts and lists, and what `suggest` drafts
 * tests for.
 */

/** How far a run met one bound: reached exactly, and a value outside it sent and answered 4xx. */
export interface BoundCoverage {
  readonly reached: boolean;
  readonly outside: boolean;
}

/** One operation's conditions and which of them the run met. */
export interface OperationConditionCoverage {
  readonly operation: ContractOperation;
  /** Its conditions, in document order. */
  readonly conditions: readonly Condition[];
  /** Index for index with `conditions`: whether the run met each (a bound: both reached and outside). */
  readonly covered: readonly boolean[];
  /** Index for index with `conditions`: for a bound, which of its two halves the run met; undefined for other kinds. */
  readonly bounds: readonly (BoundCoverage | undefined)[];
  /** Calls matched to the operation (0: never called). */
  readonly executionCount: number;
  /** The status codes its calls got, ascending. */
  readonly seenStatuses: readonly string[];
  /** Its calls whose records said which of these conditions they met (the recording fixture's, a HAR file's). */
  readonly examinedCallCount: number;
  /**
   * Whether its calls' records named only another list of its conditions
   * (recorded against another version of the document): what they met is
   * not counted, as their positions mean other conditions.
   */
  readonly otherList: boolean;
  /** The fingerprint of its list (see conditionsOfOperation). */
  readonly fingerprint: string;
}

/**
 * Which of each operation's conditions a report's calls met: those its
 * endpoint's records named (`conditionsMet`, for the operation's list), and
 * two kinds every matched call shows whatever its record carried: the
 * statuses it got (as response coverage counts them: a code, or a range
 * that holds it) and its path parameters, which a call matched to the
 * operation's path sent. One entry per operation, index for index with the
 * contract's; operations sharing a label share its endpoint's calls.
 */
export function conditionCoverageOf(report: QualityReport, contract: Contract): OperationConditionCoverage[] {
  const byLabel = new Map(report.endpoints.map((entry) => [entry.endpoint, entry]));
  // The lists of every operation of a label: a call is examined against the first one's, so another's is no other version.
  const listsOfLabel = new Map<string, Set<string>>();
  contract.operations.forEach((operation, index) => {
    const lists = listsOfLabel.get(operation.label) ?? new Set<string>();
    lists.add(conditionsOfOperation(contract, index).fingerprint);
    listsOfLabel.set(operation.label, lists);
  });
  return contract.operations.map((operation, index) => {
    const listed = conditionsOfOperation(contract, index);
    const entry = byLabel.get(operation.label);
    const evidence =
      entry === undefined
        ? undefined
        : { executionCount: entry.executionCount, statuses: Object.keys(entry.statusCodes).sort(), conditionsMet: entry.conditionsMet };
    return { operation, ...coveredConditions(listed, evidence, listsOfLabel.get(operation.label)) };
  });
}

/** What a run kept of one endpoint's calls that says which conditions they met: a report's endpoint entry, or a history line's. */
export interface ConditionEvidence {
  readonly executionCount: number;
  /** The status codes its calls got, ascending. */
  readonly statuses: readonly string[];
  readonly conditionsMet?: readonly PositionsMet[] | undefined;
}

/**
 * Which of one list of conditions an endpoint's calls met (none: an
 * endpoint that did not run), by the rules of {@link conditionCoverageOf}:
 * the same for this run and for a baseline, so that the two compare.
 */
export function coveredConditions(
  { conditions, fingerprint }: Pick<ListedConditions, 'conditions' | 'fingerprint'>,
  evidence: ConditionEvidence | undefined,
  sameLabelLists?: ReadonlySet<string>,
): Omit<OperationConditionCoverage, 'operation'> {
  const lists = evidence?.conditionsMet ?? [];
  const list = lists.find((candidate) => candidate.fingerprint === fingerprint);
  const met = bitsOf(list?.met);
  const outside = bitsOf(list?.outside);
  const seenStatuses = evidence?.statuses ?? [];
  const called = (evidence?.executionCount ?? 0) > 0;
  const bounds = conditions.map((condition, position) =>
    condition.kind === 'bound' ? { reached: met(position), outside: outside(position) } : undefined,
  );
  const covered = conditions.map((condition, position) => {
    if (condition.kind === 'status') return seenStatuses.some((code) => statusCovers(condition.status, code));
    if (condition.kind === 'parameter' && condition.in === 'path' && called) return true;
    if (condition.kind === 'bound') return met(position) && outside(position);
    return met(position);
  });
  return {
    conditions,
    covered,
    bounds,
    executionCount: evidence?.executionCount ?? 0,
    seenStatuses: [...seenStatuses],
    examinedCallCount: list?.callCount ?? 0,
    // The list of an operation sharing the label (its calls were examined against the first one's) is no other version.
    otherList: list === undefined && lists.length > 0 && !lists.some((entry) => sameLabelLists?.has(entry.fingerprint) === true),
    fingerprint,
  };
}

/**
 * Whether a bit set (see encodePositions) holds a position: read where the
 * list has conditions only, so that a bit set of a report read as a
 * baseline, however long, costs no more than the list.
 */
function bitsOf(encoded: string | undefined): (position: number) => boolean {
  const bytes = Buffer.from(encoded ?? '', 'base64');
  return (position) => ((bytes[position >> 3] ?? 0) & (1 << (position & 7))) !== 0;
}
