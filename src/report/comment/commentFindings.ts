import { baselineChanges, isRegression, type ChangeKind } from '../renderers/presentation.js';
import type { QualityReport } from '../qualityReport.js';
import { testPlace, type FlakinessWords } from '../sections/history.js';
import type { UnmetCondition } from '../contractSchemas.js';
import type { BaselineComparison, ContractComparison } from '../verdictSchemas.js';

/**
 * What a pull-request comment says, decided from a report's `baseline`
 * section before a word is written: the regressions, the improvements and
 * what held, each endpoint once. The renderer (./renderComment.ts) only
 * writes these down; a new kind of finding (a new status, a contract change)
 * gets its kind here and its row there.
 */

/** A report that holds a comparison with its base: what a comment is made of. */
export type ComparedReport = QualityReport & { readonly baseline: BaselineComparison };

/** One endpoint's entry of the comparison. */
export type ComparedEndpoint = BaselineComparison['endpoints'][number];

/** One endpoint of the report, with its tests and failed calls. */
export type ReportEndpoint = QualityReport['endpoints'][number];

/** What held: an endpoint the test judged unchanged, or could not judge on so few samples. */
export type HeldKind = 'unchanged' | 'too few samples';

/** Changes that are neither better nor worse: an endpoint new in this run, or one that ran only in the base. */
export type OtherKind = 'new' | 'missing';

/** One endpoint in a comment: how it changed, its comparison entry and its statistics in this run (absent for one that no longer ran). */
export interface Finding<Kind extends string = string> {
  readonly endpoint: string;
  readonly kind: Kind;
  readonly entry?: ComparedEndpoint | undefined;
  readonly now?: ReportEndpoint | undefined;
}

/**
 * What got worse besides an endpoint's latency and failures, in the order a
 * comment lists them: an endpoint's statuses new against the base, an
 * endpoint newly flaky (in the run), an endpoint, then a test, newly flaky
 * across runs, then the contract's statuses newly undeclared, more
 * bodies off their schema, operations no longer exercised, conditions met
 * in the base and not now (issue 36: a regression of what the suite
 * exercises, as an operation no longer exercised is), a coverage that went
 * down. `bodies off their schema changed` counts the changes the report did
 * not list, which may be more or fewer.
 */
export const STATUS_AND_CONTRACT_REGRESSIONS = [
  'new statuses',
  'newly flaky',
  'newly flaky across runs',
  'newly flaky test across runs',
  'new undeclared status',
  'more bodies off their schema',
  'bodies off their schema changed',
  'no longer exercised',
  'condition no longer met',
  'coverage down',
] as const;

/** What got better besides an endpoint's latency and failures, in the order a comment lists them. */
export const STATUS_AND_CONTRACT_IMPROVEMENTS = [
  'no longer flaky',
  'fewer bodies off their schema',
  'newly exercised',
  'condition newly met',
  'coverage up',
] as const;

export type StatusOrContractKind = (typeof STATUS_AND_CONTRACT_REGRESSIONS)[number] | (typeof STATUS_AND_CONTRACT_IMPROVEMENTS)[number];

/** A count or a coverage percent in the base and now. */
export interface BeforeAfter {
  readonly before: number | null;
  readonly after: number | null;
}

/**
 * One change of an endpoint's statuses or flakiness, or of the contract:
 * one row of a comment. A report lists at most 100 entries of each of the
 * contract's lists and counts the rest; those it did not list are one
 * finding, with no subject, that counts them (`unlisted`).
 */
export interface StatusOrContractChange<Kind extends StatusOrContractKind = StatusOrContractKind> {
  readonly kind: Kind;
  /** The endpoint or the operation, by label; for a coverage, what it covers (`operations`, `responses`, `conditions`). */
  readonly subject?: string | undefined;
  /** An endpoint's new statuses, or the status an operation's document does not declare. */
  readonly statuses?: readonly string[] | undefined;
  /** An endpoint's new statuses beyond those the report lists (ten at most). */
  readonly moreStatuses?: number | undefined;
  /** Bodies off their schema (a count) or a coverage (a percent), in the base and now. */
  readonly change?: BeforeAfter | undefined;
  /** A condition newly met or no longer met, as the report lists it (for one no longer met, how far this run went). */
  readonly condition?: UnmetCondition | undefined;
  /** For the finding with no subject: the entries of this kind the report counted and did not list. */
  readonly unlisted?: number | undefined;
  /** An endpoint or a test newly flaky across runs: its flakiness (its subject a test's `file:line › title`). */
  readonly flakiness?: FlakinessWords | undefined;
}

/** An endpoint or a test flaky across runs, as a comment names it: a label, or a test's `file:line › title`. */
export interface FlakyAcrossRuns {
  readonly subject: string;
  readonly test: boolean;
  readonly flakiness?: FlakinessWords | undefined;
}

/** Everything a comment lists, each group in the order it is shown. */
export interface CommentFindings {
  /** Newly failing, failing more, slower: largest change first within each kind (presentation's baselineChanges). */
  readonly regressions: readonly Finding<ChangeKind>[];
  /** Statuses, flakiness and the contract that got worse, in the order of {@link STATUS_AND_CONTRACT_REGRESSIONS}. */
  readonly statusAndContractRegressions: readonly StatusOrContractChange<(typeof STATUS_AND_CONTRACT_REGRESSIONS)[number]>[];
  /** Recovered, failing less, faster. */
  readonly improvements: readonly Finding<ChangeKind>[];
  /** Flakiness and the contract that got better, in the order of {@link STATUS_AND_CONTRACT_IMPROVEMENTS}. */
  readonly statusAndContractImprovements: readonly StatusOrContractChange<(typeof STATUS_AND_CONTRACT_IMPROVEMENTS)[number]>[];
  /** Endpoints new in this run, then those that ran only in the base. */
  readonly others: readonly Finding<OtherKind>[];
  /** Endpoints with too few samples to judge, then unchanged ones, each by label: shown folded. */
  readonly held: readonly Finding<HeldKind>[];
  /**
   * Only when the base scored no flakiness across runs and this report did: the endpoints and tests flaky across runs now, said
   * as flaky, not newly flaky (no regression: the base cannot tell).
   */
  readonly flakyAcrossRuns?: { readonly runCount: number; readonly flaky: readonly FlakyAcrossRuns[] } | undefined;
}

/**
 * Whether a comment has nothing to report: no regression and no
 * improvement, of an endpoint, its statuses or flakiness, or the contract.
 * New endpoints and endpoints that no longer ran are listed when a comment
 * is written, but alone they make none: a pull request that adds a test gets
 * no comment for it until something it measures changes.
 */
export function hasNothingToReport(findings: CommentFindings): boolean {
  return regressionCount(findings) === 0 && improvementCount(findings) === 0;
}

/** The regressions a comment reports: one a row, and a row of entries the report did not list counts them. */
export function regressionCount(findings: CommentFindings): number {
  return findings.regressions.length + entriesOf(findings.statusAndContractRegressions);
}

/** The improvements a comment reports, counted as {@link regressionCount} counts. */
export function improvementCount(findings: CommentFindings): number {
  return findings.improvements.length + entriesOf(findings.statusAndContractImprovements);
}

/** How many entries of the report a finding stands for: one, or those it counts for the report that did not list them. */
export function entriesOfChange(change: StatusOrContractChange): number {
  return change.unlisted ?? 1;
}

function entriesOf(changes: readonly StatusOrContractChange[]): number {
  return changes.reduce((total, change) => total + entriesOfChange(change), 0);
}

/** The findings of a report against its base. */
export function findingsOf(report: ComparedReport): CommentFindings {
  const now = new Map(report.endpoints.map((endpoint) => [endpoint.endpoint, endpoint]));
  const regressions: Finding<ChangeKind>[] = [];
  const improvements: Finding<ChangeKind>[] = [];
  const others: Finding<OtherKind>[] = [];
  const changed = new Set<string>();
  for (const { endpoint, kind, entry } of baselineChanges(report)) {
    changed.add(endpoint);
    const finding = { endpoint, kind, entry, now: now.get(endpoint) };
    if (kind === 'new' || kind === 'missing') others.push({ ...finding, kind });
    else if (isRegression(kind)) regressions.push(finding);
    else improvements.push(finding);
  }
  // Too few samples first: an endpoint the test could not judge is named, so that no one reads it as unchanged.
  const held: Finding<HeldKind>[] = [];
  for (const kind of ['too few samples', 'unchanged'] as const)
    for (const entry of report.baseline.endpoints) {
      if (changed.has(entry.endpoint) || (entry.latencyVerdict === 'tooFewSamples') !== (kind === 'too few samples')) continue;
      held.push({ endpoint: entry.endpoint, kind, entry, now: now.get(entry.endpoint) });
    }
  const acrossRuns = flakyAcrossRunsOf(report);
  const { worse, better } = statusAndContractChanges(report.baseline, acrossRuns?.baseScored === true ? acrossRuns.flaky : []);
  return {
    regressions,
    statusAndContractRegressions: worse,
    improvements,
    statusAndContractImprovements: better,
    others,
    held,
    ...(acrossRuns === undefined || acrossRuns.baseScored || acrossRuns.flaky.length === 0
      ? {}
      : { flakyAcrossRuns: { runCount: acrossRuns.runCount, flaky: acrossRuns.flaky } }),
  };
}

/**
 * The endpoints, then the tests, the comparison names as newly flaky across
 * runs (every one flaky now, when the base scored none), each with its
 * flakiness as this report gives it.
 */
function flakyAcrossRunsOf(report: ComparedReport): { baseScored: boolean; runCount: number; flaky: FlakyAcrossRuns[] } | undefined {
  const compared = report.baseline.flakinessAcrossRuns;
  const scored = report.history?.flakiness;
  if (compared === undefined || scored === undefined) return undefined;
  const byLabel = new Map(report.endpoints.map((endpoint) => [endpoint.endpoint, endpoint.history?.flakiness]));
  const testKey = ({ file, line, title }: { file: string; line: number; title: string }) => JSON.stringify([file, line, title]);
  const byTest = new Map(scored.flakyTests.map((test) => [testKey(test), test]));
  return {
    baseScored: compared.baseScored,
    runCount: scored.runCount,
    flaky: [
      ...compared.newlyFlakyEndpoints.map((endpoint) => ({ subject: endpoint, test: false, flakiness: byLabel.get(endpoint) })),
      ...(compared.newlyFlakyTests ?? []).map((test) => ({
        subject: testPlace(test),
        test: true,
        flakiness: byTest.get(testKey(test)),
      })),
    ],
  };
}

type Worse = StatusOrContractChange<(typeof STATUS_AND_CONTRACT_REGRESSIONS)[number]>;
type Better = StatusOrContractChange<(typeof STATUS_AND_CONTRACT_IMPROVEMENTS)[number]>;

/**
 * The endpoints' new statuses and flakiness (in the run, then across runs: those newly flaky across runs given), and the
 * contract's changes, each as the report lists them, split by direction.
 */
function statusAndContractChanges(
  comparison: BaselineComparison,
  newlyFlakyAcrossRuns: readonly FlakyAcrossRuns[],
): { worse: Worse[]; better: Better[] } {
  const worse: Worse[] = [];
  const better: Better[] = [];
  for (const { endpoint, newStatuses = [], newStatusCount = 0 } of comparison.endpoints)
    if (newStatusCount > 0)
      worse.push({ kind: 'new statuses', subject: endpoint, statuses: newStatuses, moreStatuses: newStatusCount - newStatuses.length });
  for (const { endpoint, flakiness } of comparison.endpoints)
    if (flakiness === 'newlyFlaky') worse.push({ kind: 'newly flaky', subject: endpoint });
  for (const { subject, test, flakiness } of newlyFlakyAcrossRuns)
    worse.push({ kind: test ? 'newly flaky test across runs' : 'newly flaky across runs', subject, flakiness });
  for (const { endpoint, flakiness } of comparison.endpoints)
    if (flakiness === 'noLongerFlaky') better.push({ kind: 'no longer flaky', subject: endpoint });
  const { contract } = comparison;
  if (contract === undefined) return { worse, better };
  const unlisted = (listed: number, total: number) => total - listed;
  for (const { operation, status } of contract.newUndeclaredStatuses)
    worse.push({ kind: 'new undeclared status', subject: operation, statuses: [status] });
  const undeclared = unlisted(contract.newUndeclaredStatuses.length, contract.newUndeclaredStatusCount);
  if (undeclared > 0) worse.push({ kind: 'new undeclared status', unlisted: undeclared });
  schemaViolationChanges(contract, worse, better);
  for (const operation of contract.noLongerExercisedOperations) worse.push({ kind: 'no longer exercised', subject: operation });
  const gone = unlisted(contract.noLongerExercisedOperations.length, contract.noLongerExercisedOperationCount);
  if (gone > 0) worse.push({ kind: 'no longer exercised', unlisted: gone });
  const noLongerMet = contract.noLongerMetConditions ?? [];
  for (const { operation, condition } of noLongerMet) worse.push({ kind: 'condition no longer met', subject: operation, condition });
  const unmet = unlisted(noLongerMet.length, contract.noLongerMetConditionCount ?? noLongerMet.length);
  if (unmet > 0) worse.push({ kind: 'condition no longer met', unlisted: unmet });
  for (const operation of contract.newlyExercisedOperations) better.push({ kind: 'newly exercised', subject: operation });
  const fresh = unlisted(contract.newlyExercisedOperations.length, contract.newlyExercisedOperationCount);
  if (fresh > 0) better.push({ kind: 'newly exercised', unlisted: fresh });
  const newlyMet = contract.newlyMetConditions ?? [];
  for (const { operation, condition } of newlyMet) better.push({ kind: 'condition newly met', subject: operation, condition });
  const met = unlisted(newlyMet.length, contract.newlyMetConditionCount ?? newlyMet.length);
  if (met > 0) better.push({ kind: 'condition newly met', unlisted: met });
  for (const [subject, change] of [
    ['operations', contract.operationCoveragePercent],
    ['responses', contract.responseCoveragePercent],
    ...(contract.conditionCoveragePercent === undefined ? [] : [['conditions', contract.conditionCoveragePercent] as const]),
  ] as const) {
    // A side with nothing to cover (null) is no coverage to compare.
    if (change.before === null || change.after === null || change.before === change.after) continue;
    if (change.after < change.before) worse.push({ kind: 'coverage down', subject, change });
    else better.push({ kind: 'coverage up', subject, change });
  }
  return { worse, better };
}

/**
 * Bodies off their schema, more (a regression) or fewer (an improvement); an
 * operation the base's contract lacks counts from 0. The report lists the
 * largest increase first and the decreases last, 100 at most: when the last
 * it lists is a decrease, those it left out are decreases too; else they
 * may be either, and are one regression that says so.
 */
function schemaViolationChanges(contract: ContractComparison, worse: Worse[], better: Better[]): void {
  let lastListedFewer = false;
  for (const { operation, schemaViolationCount } of contract.schemaViolationChanges) {
    lastListedFewer = (schemaViolationCount.after ?? 0) < (schemaViolationCount.before ?? 0);
    if (lastListedFewer) better.push({ kind: 'fewer bodies off their schema', subject: operation, change: schemaViolationCount });
    else worse.push({ kind: 'more bodies off their schema', subject: operation, change: schemaViolationCount });
  }
  const left = contract.schemaViolationChangeCount - contract.schemaViolationChanges.length;
  if (left <= 0) return;
  if (lastListedFewer) better.push({ kind: 'fewer bodies off their schema', unlisted: left });
  else worse.push({ kind: 'bodies off their schema changed', unlisted: left });
}
