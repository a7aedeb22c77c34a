import type { EvidenceTest } from './changeEvidence.js';
import { countByLevel, type ChangeLevel, type ContractChange } from './contractChange.js';

/**
 * A contract change weighed by a run's evidence (issue 38): what the
 * evidence says of its operation, and how many calls carried what changed.
 * Made by `weighChanges` (src/evaluation/weighedChanges.ts), which reads a
 * report's or a history's counts; listed by `contract-diff --report`, in a
 * run's `contract.changes` and in the pull-request comment.
 */

/** How many of an operation's calls carried a property (or sent a parameter). */
export interface Presence {
  /** `response`: of the responses answered with `status`; `request`: of the calls that sent a body or parameters. */
  readonly direction: 'request' | 'response';
  /** A response property's: the status key of its response (`200`, `2XX`). */
  readonly status?: string | undefined;
  /** The calls examined: answered with that status, or (request) checked against the operation's conditions. */
  readonly of: number;
  /** How many carried it; with `atLeast`, a lower bound (a required property, some bodies off the schema or not validated). */
  readonly present: number;
  readonly atLeast?: true | undefined;
}

/** What the evidence says of one change: as `affected` joins it, and how many calls carried what changed, where the evidence counts it. */
export type WeighedEvidence =
  | { readonly exercised: false }
  | {
      readonly exercised: true;
      readonly calls: number;
      /** The tests that made them; absent when the evidence names no tests (a history file, a report made from record files). */
      readonly tests?: readonly EvidenceTest[] | undefined;
      /** Tests that called the operation beyond those listed (a report lists at most 10 per endpoint). */
      readonly unlistedTestCount: number;
      readonly presence?: Presence | undefined;
    };

export interface WeighedChange extends ContractChange {
  readonly evidence: WeighedEvidence;
}

/** How many changes of each level, and of the breaking ones how many the evidence exercised. */
export interface WeighedSummary extends Readonly<Record<ChangeLevel, number>> {
  readonly breakingExercised: number;
}

export function weighedSummary(changes: readonly WeighedChange[]): WeighedSummary {
  const breakingExercised = changes.filter((change) => change.level === 'breaking' && change.evidence.exercised).length;
  return { ...countByLevel(changes), breakingExercised };
}

/** What the evidence is: whether it names tests, and how many runs it adds up. */
export interface EvidenceKind {
  readonly testsKnown: boolean;
  readonly runCount: number;
}

/**
 * `3 breaking changes: 2 exercised by 7 tests, 1 not exercised by any test`:
 * the tests counted once however many changes they reach; `at least` when a
 * report left some unlisted; calls instead of tests when the evidence names
 * none (a history: `2 exercised by 310 calls in 20 runs`).
 */
export function weighedSummaryLine(changes: readonly WeighedChange[], evidence: EvidenceKind): string {
  return breakingChangesLine(weighedSummary(changes), changes, evidence);
}

/**
 * The summary line of changes of which only some are listed (a report lists
 * the first 100, breaking first): counts from `summary`, the tests (or
 * calls) from the listed ones, `at least` when an exercised breaking change
 * is not listed.
 */
export function breakingChangesLine(summary: WeighedSummary, listed: readonly WeighedChange[], evidence: EvidenceKind): string {
  const { breaking, breakingExercised } = summary;
  const head = `${breaking} breaking change${breaking === 1 ? '' : 's'}`;
  if (breaking === 0) return head;
  const exercised = listed.flatMap((change) => (change.level === 'breaking' && change.evidence.exercised ? [change.evidence] : []));
  const partial = exercised.length < breakingExercised;
  const parts: string[] = [];
  if (breakingExercised > 0) {
    if (evidence.testsKnown) {
      const tests = new Set(exercised.flatMap((found) => (found.tests ?? []).map((test) => `${test.file}:${test.line} ${test.title}`)));
      const atLeast = partial || exercised.some((found) => found.unlistedTestCount > 0) ? 'at least ' : '';
      parts.push(`${breakingExercised} exercised by ${atLeast}${tests.size} test${tests.size === 1 ? '' : 's'}`);
    } else {
      const calls = exercised.reduce((sum, found) => sum + found.calls, 0);
      const runs = evidence.runCount === 1 ? '' : ` in ${evidence.runCount} runs`;
      parts.push(`${breakingExercised} exercised by ${partial ? 'at least ' : ''}${calls} call${calls === 1 ? '' : 's'}${runs}`);
    }
  }
  const unexercised = breaking - breakingExercised;
  if (unexercised > 0) parts.push(`${unexercised} not exercised by any test`);
  return `${head}: ${parts.join(', ')}`;
}
