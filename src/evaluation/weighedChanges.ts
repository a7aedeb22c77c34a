import { conditionsOfOperation, type Condition } from '../contract/conditions.js';
import type { Contract } from '../contract/contract.js';
import { evidenceFor, operationKey, type ChangeEvidence, type EvidenceIndex } from '../contract/diff/changeEvidence.js';
import type { ChangedOperation, ContractChange } from '../contract/diff/contractChange.js';
import type { Presence, WeighedChange } from '../contract/diff/weighedChange.js';
import type { HistoryRun } from '../history/historyLine.js';
import type { QualityReport } from '../report/qualityReport.js';
import { decodePositions } from '../summary/conditionTally.js';

export type { Presence, WeighedChange, WeighedEvidence } from '../contract/diff/weighedChange.js';
export { weighedSummary, weighedSummaryLine, type WeighedSummary } from '../contract/diff/weighedChange.js';

/**
 * Each contract change weighed by a run's evidence (issue 38): the tests
 * and calls of its operation, and, for a property or a parameter, how many
 * of the calls carried it, read from the conditions the calls met
 * (docs/contract-diff.md#weighed-by-the-evidence). Pure.
 */

/** What the weighing reads of each endpoint: the conditions its calls met, counted, and how many of its bodies were off the schema or not validated. */
interface ConditionEvidence {
  /** By list fingerprint: how many calls met each position (a position not in the map: none), and the calls checked. */
  readonly lists: Map<string, { readonly counts: Map<number, number>; calls: number }>;
  /** Bodies broken or not validated, when the evidence says (a report does; a history line does not count those not validated). */
  unconforming: number | undefined;
}

/** The evidence a weighing reads: the index of calls and tests, and the conditions, per operation key. */
export interface ChangeWeights {
  readonly index: EvidenceIndex;
  readonly conditions: ReadonlyMap<string, ConditionEvidence>;
}

function conditionEvidenceOf(byKey: Map<string, ConditionEvidence>, label: string): ConditionEvidence {
  const key = operationKey(label);
  let known = byKey.get(key);
  if (known === undefined) byKey.set(key, (known = { lists: new Map(), unconforming: 0 }));
  return known;
}

/**
 * Adds one list of met conditions to an endpoint's: `metCounts` (one count
 * per set bit of `met`, ascending) when the evidence has them; a list whose
 * counts are unknown (a report of an earlier version) is left out, so no
 * count is ever guessed.
 */
function addList(
  evidence: ConditionEvidence,
  list: { readonly fingerprint: string; readonly met: string; readonly metCounts?: readonly number[] | undefined },
  calls: number,
): void {
  if (list.metCounts === undefined) return;
  const positions = decodePositions(list.met);
  if (positions.length !== list.metCounts.length) return;
  let tally = evidence.lists.get(list.fingerprint);
  if (tally === undefined) evidence.lists.set(list.fingerprint, (tally = { counts: new Map(), calls: 0 }));
  tally.calls += calls;
  positions.forEach((position, at) => tally.counts.set(position, (tally.counts.get(position) ?? 0) + list.metCounts![at]!));
}

/** The conditions of a report's endpoints, by operation key. */
export function conditionWeightsOfReport(report: QualityReport): Map<string, ConditionEvidence> {
  const byKey = new Map<string, ConditionEvidence>();
  for (const endpoint of report.endpoints) {
    const evidence = conditionEvidenceOf(byKey, endpoint.endpoint);
    for (const list of endpoint.conditionsMet ?? []) addList(evidence, list, list.callCount);
    if (evidence.unconforming !== undefined)
      evidence.unconforming += (endpoint.bodies?.schemaViolationCount ?? 0) + (endpoint.bodies?.notValidatedCount ?? 0);
  }
  return byKey;
}

/** The conditions of a history's runs, added up: a line does not count the bodies not validated, so a required property's presence is not bounded. */
export function conditionWeightsOfHistory(runs: readonly HistoryRun[]): Map<string, ConditionEvidence> {
  const byKey = new Map<string, ConditionEvidence>();
  for (const run of runs)
    for (const endpoint of run.endpoints) {
      const evidence = conditionEvidenceOf(byKey, endpoint.endpoint);
      evidence.unconforming = undefined;
      for (const list of endpoint.conditionLists ?? []) addList(evidence, list, endpoint.executionCount);
    }
  return byKey;
}

/**
 * Weighs each change by the evidence: the calls and tests of its operation
 * (as `affected` finds them), and where the change is a property or a
 * parameter, how many calls carried it, from the list of conditions of the
 * document the run checked its calls against: BASE's (the change's `base`
 * pointer), else HEAD's. `basePathsOf` gives an operation's base paths.
 */
export function weighChanges(
  changes: readonly ContractChange[],
  base: Contract,
  head: Contract,
  weights: ChangeWeights,
  basePathsOf: (operation: ChangedOperation) => readonly string[] = () => [''],
): WeighedChange[] {
  return changes.map((change) => {
    const evidence: ChangeEvidence = evidenceFor(change, weights.index, basePathsOf(change.operation));
    if (!evidence.exercised) return { ...change, evidence: { exercised: false } };
    const presence = presenceOf(change, evidence.labels, base, head, weights.conditions);
    return {
      ...change,
      evidence: {
        exercised: true,
        calls: evidence.calls,
        ...(evidence.tests === undefined ? {} : { tests: evidence.tests }),
        unlistedTestCount: evidence.unlistedTestCount,
        ...(presence === undefined ? {} : { presence }),
      },
    };
  });
}

function presenceOf(
  change: ContractChange,
  labels: readonly string[],
  base: Contract,
  head: Contract,
  conditions: ReadonlyMap<string, ConditionEvidence>,
): Presence | undefined {
  const { subject } = change;
  if (
    subject.kind !== 'parameter' &&
    !((subject.kind === 'responseProperty' || subject.kind === 'requestProperty') && subject.property.length > 0)
  )
    return undefined;
  const endpoints = [...new Set(labels.map(operationKey))].map((key) => conditions.get(key)).filter((entry) => entry !== undefined);
  const key = operationKey(`${change.operation.method} ${change.operation.path}`);
  for (const [contract, pointer] of [
    [base, change.base],
    [head, change.head],
  ] as const) {
    const index = contract.operations.findIndex((operation) => operationKey(`${operation.method} ${operation.path}`) === key);
    if (index < 0 || (pointer === undefined && subject.kind !== 'parameter')) continue;
    const listed = conditionsOfOperation(contract, index);
    const counted = endpoints.map((entry) => entry.lists.get(listed.fingerprint)).filter((tally) => tally !== undefined);
    if (counted.length === 0) continue;
    const countAt = (position: number): number => counted.reduce((sum, tally) => sum + (tally.counts.get(position) ?? 0), 0);
    const calls = counted.reduce((sum, tally) => sum + tally.calls, 0);
    if (subject.kind === 'parameter') {
      const sent = listed.conditions.findIndex(
        (condition) =>
          condition.kind === 'parameter' && condition.case === 'sent' && condition.name === subject.name && condition.in === subject.in,
      );
      return sent < 0 ? undefined : { direction: 'request', of: calls, present: countAt(sent) };
    }
    const direction = subject.kind === 'responseProperty' ? 'response' : 'request';
    const status = subject.kind === 'responseProperty' ? subject.status : undefined;
    let of = calls;
    if (status !== undefined) {
      const answered = listed.conditions.findIndex((condition) => condition.kind === 'status' && condition.status === status);
      // `default` is no status condition: its responses are not counted apart.
      if (answered < 0) return undefined;
      of = countAt(answered);
    }
    const optional = listed.conditions.findIndex((condition) => isOptionalProperty(condition, pointer!, direction, status));
    if (optional >= 0) return { direction, ...(status === undefined ? {} : { status }), of, present: countAt(optional) };
    // Required where the run checked its bodies: every body that conformed carried it.
    const unconforming = endpoints.reduce<number | undefined>(
      (sum, entry) => (sum === undefined || entry.unconforming === undefined ? undefined : sum + entry.unconforming),
      0,
    );
    if (unconforming === undefined) return undefined;
    return {
      direction,
      ...(status === undefined ? {} : { status }),
      of,
      present: Math.max(0, of - unconforming),
      ...(unconforming > 0 ? { atLeast: true as const } : {}),
    };
  }
  return undefined;
}

function isOptionalProperty(condition: Condition, pointer: string, direction: 'request' | 'response', status: string | undefined): boolean {
  return (
    condition.kind === 'optionalProperty' &&
    condition.where === pointer &&
    condition.direction === direction &&
    (direction === 'request' || condition.status === status)
  );
}
