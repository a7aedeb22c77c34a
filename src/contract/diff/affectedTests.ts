import { escapeControlCharacters } from '../../renderValue.js';
import { compareTests } from '../../compareCodeUnits.js';
import { evidenceFor, type ChangeEvidence, type EvidenceIndex, type EvidenceTest } from './changeEvidence.js';
import type { ChangedOperation, ContractChange } from './contractChange.js';

/**
 * The tests a contract's changes affect (issue 38, `quality-evidence
 * affected`): each change joined with the evidence of its operation, the
 * tests whose recorded calls reach a changed operation, and the changed
 * operations no test calls. Pure; docs/contract-diff.md#the-tests-to-run-affected.
 */

/** How `affected` prints: spec files, a `--grep` pattern of titles, or everything as JSON. */
export const AFFECTED_FORMATS = ['files', 'grep', 'json'] as const;
export type AffectedFormat = (typeof AFFECTED_FORMATS)[number];

/** A change and what the evidence says of its operation. */
export interface AffectedChange {
  readonly change: ContractChange;
  readonly evidence: ChangeEvidence;
}

/** A test whose calls reach a changed operation, and the changes (indexes into `changes`) behind it. */
export interface AffectedTest extends EvidenceTest {
  readonly changes: readonly number[];
}

/** The join. */
export interface AffectedTests {
  /** Every change, in the diff's order: one per operation it touches, never merged (a shared component's change is one per operation). */
  readonly changes: readonly AffectedChange[];
  /** The tests, by file, line and title. */
  readonly tests: readonly AffectedTest[];
  /** Changed operations no test calls (no call at all, or calls outside tests only), in the order of their first change. */
  readonly untested: readonly ChangedOperation[];
  /** Changed operations whose calls the evidence has and whose tests it does not name (a history; a report made from record files). */
  readonly testsUnknown: readonly ChangedOperation[];
  /** Changed operations called by more tests than the evidence names (a report lists at most 10 per endpoint): the tests are incomplete. */
  readonly incomplete: readonly { readonly operation: ChangedOperation; readonly unlistedTestCount: number }[];
}

/**
 * Joins changes with the evidence. `basePathsOf` gives an operation's base
 * paths (by its label), for labels made without the document.
 */
export function affectedTests(
  changes: readonly ContractChange[],
  index: EvidenceIndex,
  basePathsOf: (operation: ChangedOperation) => readonly string[] = () => [''],
): AffectedTests {
  const joined = changes.map((change) => ({ change, evidence: evidenceFor(change, index, basePathsOf(change.operation)) }));
  const tests = new Map<string, { test: EvidenceTest; changes: number[] }>();
  const untested = new Map<string, ChangedOperation>();
  const testsUnknown = new Map<string, ChangedOperation>();
  const incomplete = new Map<string, { operation: ChangedOperation; unlistedTestCount: number }>();
  joined.forEach(({ change, evidence }, at) => {
    const { operation } = change;
    if (!evidence.exercised || (evidence.tests !== undefined && evidence.tests.length === 0 && evidence.unlistedTestCount === 0)) {
      if (!untested.has(operation.label)) untested.set(operation.label, operation);
      return;
    }
    if (evidence.tests === undefined) {
      if (!testsUnknown.has(operation.label)) testsUnknown.set(operation.label, operation);
      return;
    }
    if (evidence.unlistedTestCount > 0 && !incomplete.has(operation.label))
      incomplete.set(operation.label, { operation, unlistedTestCount: evidence.unlistedTestCount });
    for (const test of evidence.tests) {
      const key = JSON.stringify([test.file, test.line, test.title]);
      const known = tests.get(key) ?? { test, changes: [] };
      known.changes.push(at);
      tests.set(key, known);
    }
  });
  return {
    changes: joined,
    tests: [...tests.values()].map(({ test, changes: behind }) => ({ ...test, changes: behind })).sort(compareTests),
    untested: [...untested.values()],
    testsUnknown: [...testsUnknown.values()],
    incomplete: [...incomplete.values()],
  };
}

/** What `affected` prints: the output, and the notes for stderr (what the output cannot show). */
export interface AffectedOutput {
  readonly text: string;
  readonly notes: readonly string[];
}

/**
 * The join in a format. `files`: the spec files, one a line, sorted, each
 * once; `grep`: one pattern for Playwright's `--grep` matching exactly the
 * tests' titles; both print nothing when no test is affected, and give in
 * `notes` every changed operation they cannot name tests for. `json`: the
 * whole join, notes included in it.
 */
export function formatAffectedTests(affected: AffectedTests, index: EvidenceIndex, format: AffectedFormat): AffectedOutput {
  if (format === 'json') return { text: `${JSON.stringify(affectedJson(affected, index), null, 2)}\n`, notes: [] };
  const notes = notesOf(affected, index);
  if (affected.tests.length === 0) return { text: '', notes };
  // A file's control characters escaped: one a line, whatever a report holds.
  const files = [...new Set(affected.tests.map((test) => escapeControlCharacters(test.file)))].sort();
  if (format === 'files') return { text: `${files.join('\n')}\n`, notes };
  return { text: `${grepPatternOf(affected.tests.map((test) => test.title))}\n`, notes };
}

function notesOf(affected: AffectedTests, index: EvidenceIndex): string[] {
  const changeCount = (operation: ChangedOperation) =>
    affected.changes.filter(({ change }) => change.operation.label === operation.label).length;
  const changesOf = (operation: ChangedOperation) => plural(changeCount(operation), 'change');
  const evidence = index.source === 'report' ? 'the report' : `the history's ${plural(index.runCount, 'run')}`;
  const why =
    index.source === 'history'
      ? 'some history lines name no tests (docs/contract-diff.md#the-tests-to-run-affected)'
      : 'the report names no tests (the command made it from record files, not the Playwright reporter)';
  const cutShort =
    index.cutShort === undefined
      ? []
      : [
          `incomplete: the report's run was ${index.cutShort === 'interrupted' ? 'interrupted' : 'timed out'} before its tests were done: ` +
            'tests that did not run made no call, and none of them is named',
        ];
  return [
    ...cutShort,
    ...affected.untested.map((operation) => `untested: ${operation.label} (${changesOf(operation)}): no test in ${evidence} calls it`),
    ...affected.incomplete.map(
      ({ operation, unlistedTestCount }) =>
        `incomplete: ${operation.label} (${changesOf(operation)}): ${plural(unlistedTestCount, 'more test')} called it than ` +
        `${evidence} names (it lists the first few of an endpoint's tests); they are not printed`,
    ),
    ...affected.testsUnknown.map((operation) => {
      const found = affected.changes.find(({ change }) => change.operation.label === operation.label)?.evidence;
      const calls = found?.exercised === true ? found.calls : 0;
      return `tests unknown: ${operation.label} (${changesOf(operation)}): ${plural(calls, 'call')} in ${evidence}, ${why}`;
    }),
  ];
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * One `--grep` pattern matching exactly these titles. Playwright matches
 * `--grep` against a test's path of titles joined by spaces (project, file,
 * describes, title; each suite's and the test's tags after its title),
 * where the report joins them by ` › `. So each title's parts are escaped
 * and joined by a space, tags allowed between and after them, anchored at
 * both ends; wrapped in slashes, which Playwright reads as a regular
 * expression without its default `i` flag, so that case counts.
 */
export function grepPatternOf(titles: readonly string[]): string {
  const unique = [...new Set(titles)].sort();
  const tags = '(?: @\\S+)*';
  // A title holding ` › ` itself is split too: the separator also matches ` › ` as it is.
  const alternatives = unique.map((title) => title.split(' › ').map(escapeRegExp).join(`(?:${tags} | › )`));
  return `/(?:^| )(?:${alternatives.join('|')})${tags}$/`;
}

// Control characters as \uXXXX, which the pattern reads as the character: the pattern stays one line of text.
function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&').replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** The JSON format: { evidence, changes (each with its evidence), tests (each with its changes), untested, testsUnknown, incomplete }. */
function affectedJson(affected: AffectedTests, index: EvidenceIndex) {
  const operationOf = ({ method, path, label, operationId }: ChangedOperation) => ({
    method,
    path,
    label,
    ...(operationId === undefined ? {} : { operationId }),
  });
  const summaryOf = (change: ContractChange) => ({
    rule: change.rule,
    level: change.level,
    operation: change.operation.label,
    message: change.message,
  });
  return {
    evidence: {
      source: index.source,
      runCount: index.runCount,
      testsKnown: index.testsKnown,
      ...(index.cutShort === undefined ? {} : { cutShort: index.cutShort }),
    },
    changes: affected.changes.map(({ change, evidence }) => ({
      ...change,
      operation: operationOf(change.operation),
      evidence: evidence.exercised
        ? {
            exercised: true,
            calls: evidence.calls,
            labels: evidence.labels,
            ...(evidence.tests === undefined
              ? {}
              : {
                  tests: evidence.tests.map(({ file, line, title }) => ({ file, line, title })),
                  unlistedTestCount: evidence.unlistedTestCount,
                }),
          }
        : { exercised: false },
    })),
    tests: affected.tests.map(({ file, line, title, changes }) => ({
      file,
      line,
      title,
      changes: changes.map((at) => summaryOf(affected.changes[at]!.change)),
    })),
    untested: affected.untested.map(operationOf),
    testsUnknown: affected.testsUnknown.map(operationOf),
    incomplete: affected.incomplete.map(({ operation, unlistedTestCount }) => ({ ...operationOf(operation), unlistedTestCount })),
  };
}
