import type { ContractChange } from './contractChange.js';
import { compareTests } from '../../compareCodeUnits.js';

/**
 * What a run's evidence says of the operations a contract change touches
 * (issue 38): per operation, the calls and the tests that made them, from a
 * report or from a history file's runs. Pure: the command reads the files.
 *
 * Labels are matched by method and path template with parameter names
 * erased (docs/contract-diff.md#the-tests-to-run-affected): a report made with the same document
 * labels its calls `GET /users/{id}`, as the change's `operation.label`
 * does; one made without it names paths by route templates or grouping,
 * `GET /users/:id`; both are `GET /users/{}` here.
 */

// What the index reads of a report and of a history line, as structural types: the contract imports neither the report
// nor the history (.ci/eslint.config.js); a QualityReport and a HistoryRun are both of these shapes.

/** An endpoint of a report (QualityReport's endpoints) or of a history line (HistoryRun's). */
export interface EndpointEvidence {
  readonly endpoint: string;
  readonly executionCount: number;
  /** Only in a report of the Playwright reporter: the tests that called it, at most ENDPOINT_TEST_LIMIT. */
  readonly tests?: readonly EvidenceTest[] | undefined;
  /** Only with tests: how many tests called it, listed or not. */
  readonly testCount?: number | undefined;
}

/** A test, where it is declared, as the report names it. */
export interface EvidenceTest {
  /** Relative to the Playwright run's root folder, forward slashes: `users.spec.ts`. */
  readonly file: string;
  readonly line: number;
  /** Its title path: `users.spec.ts › users › reads one`. */
  readonly title: string;
}

/** The evidence of the calls of one operation, over every label of the evidence that names it. */
export interface OperationEvidence {
  /** The labels of the report (or history) whose calls are this operation's, sorted. */
  readonly labels: readonly string[];
  /** Its calls, over every run the evidence holds. */
  readonly calls: number;
  /** The tests that made them, sorted by file, line and title; undefined when the evidence names no tests (see EvidenceIndex.testsKnown). */
  readonly tests: readonly EvidenceTest[] | undefined;
  /** Tests that called it and are not in `tests`: a report lists at most ENDPOINT_TEST_LIMIT per endpoint (its testCount says how many). */
  readonly unlistedTestCount: number;
}

/** The evidence of a report or a history, by operation key ({@link operationKey}). */
export interface EvidenceIndex {
  readonly source: 'report' | 'history';
  /** How many runs it adds up: 1 for a report. */
  readonly runCount: number;
  /**
   * Whether it names the tests behind the calls: a report of the Playwright
   * reporter does; a report the command made from record files, and a
   * history file (whose lines name no test: docs/contract-diff.md#the-tests-to-run-affected), do not.
   */
  readonly testsKnown: boolean;
  /** Only for a report of a run cut short (`interrupted`, `timedout`): its tests that did not run made no calls, and are in no list. */
  readonly cutShort?: 'interrupted' | 'timedout' | undefined;
  readonly byKey: ReadonlyMap<string, OperationEvidence>;
}

/** What the evidence says of one change's operation. */
export type ChangeEvidence =
  | ({ readonly exercised: true } & OperationEvidence)
  /** No call of the evidence reached the operation. */
  | { readonly exercised: false };

const LABEL = /^([A-Za-z]+) (\/\S*)$/;
const NAMED_SEGMENT = /^:[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The key a label is matched by: its method in upper case and its path,
 * slashes collapsed and a trailing one dropped, each parameter written `{}`
 * (`{id}`, `:id`, and `{id}` inside a segment as in `{id}.json`). A label
 * that is not a method and a path (one a record named by hand) is its own key.
 */
export function operationKey(label: string): string {
  const match = LABEL.exec(label);
  if (match === null) return label;
  const collapsed = match[2]!.replace(/\/{2,}/g, '/');
  const path = collapsed.length > 1 && collapsed.endsWith('/') ? collapsed.slice(0, -1) : collapsed;
  const segments = path.split('/').map((segment) => (NAMED_SEGMENT.test(segment) ? '{}' : segment.replace(/\{[^{}]*\}/g, '{}')));
  return `${match[1]!.toUpperCase()} ${segments.join('/')}`;
}

/** Tallies of one key while an index is built. */
interface Tally {
  readonly labels: Set<string>;
  calls: number;
  readonly tests: Map<string, EvidenceTest>;
  unlistedTestCount: number;
}

function tallyOf(byKey: Map<string, Tally>, label: string): Tally {
  const key = operationKey(label);
  const known = byKey.get(key);
  if (known !== undefined) {
    known.labels.add(label);
    return known;
  }
  const tally: Tally = { labels: new Set([label]), calls: 0, tests: new Map(), unlistedTestCount: 0 };
  byKey.set(key, tally);
  return tally;
}

function indexOf(source: EvidenceIndex['source'], runCount: number, testsKnown: boolean, byKey: Map<string, Tally>): EvidenceIndex {
  const entries = [...byKey].map(([key, tally]): [string, OperationEvidence] => [
    key,
    {
      labels: [...tally.labels].sort(),
      calls: tally.calls,
      tests: testsKnown ? [...tally.tests.values()].sort(compareTests) : undefined,
      unlistedTestCount: tally.unlistedTestCount,
    },
  ]);
  return { source, runCount, testsKnown, byKey: new Map(entries) };
}

function testKey(test: EvidenceTest): string {
  return JSON.stringify([test.file, test.line, test.title]);
}

/**
 * The evidence of one report: each endpoint's calls and listed tests. Tests
 * are known when the Playwright reporter wrote it (it has `tests`); an
 * endpoint it lists no tests for was called outside tests (a global setup).
 * Where an endpoint's `testCount` exceeds the tests it lists, the others
 * are counted in `unlistedTestCount`, never dropped unsaid.
 */
export function evidenceIndexOfReport(report: {
  readonly endpoints: readonly EndpointEvidence[];
  /** The run's test counts: present only in a report of the Playwright reporter. */
  readonly tests?: object | undefined;
  readonly runStatus?: string | undefined;
}): EvidenceIndex {
  const byKey = new Map<string, Tally>();
  for (const endpoint of report.endpoints) {
    const tally = tallyOf(byKey, endpoint.endpoint);
    tally.calls += endpoint.executionCount;
    const listed = endpoint.tests ?? [];
    for (const { file, line, title } of listed) tally.tests.set(testKey({ file, line, title }), { file, line, title });
    tally.unlistedTestCount += Math.max(0, (endpoint.testCount ?? listed.length) - listed.length);
  }
  const index = indexOf('report', 1, report.tests !== undefined, byKey);
  const { runStatus } = report;
  return runStatus === 'interrupted' || runStatus === 'timedout' ? { ...index, cutShort: runStatus } : index;
}

/** A test of a history line (HistoryRun's `tests`): its endpoints are positions in the line's endpoints. */
export interface HistoryEvidenceTest extends EvidenceTest {
  readonly endpoints?: readonly number[] | undefined;
}

/**
 * The evidence of a history file's runs, all of them (the file keeps the
 * last `historyLimit`): each endpoint's calls added up, and the tests that
 * called it in any run, every one (lines hold them all, uncapped). Tests are
 * known only when every run's line holds its tests (the reporter's lines
 * do; the command's, from record files, and those of earlier versions do
 * not): a run without them made calls no test can be named for
 * (docs/contract-diff.md#the-tests-to-run-affected).
 */
export function evidenceIndexOfHistory(
  runs: readonly { readonly endpoints: readonly EndpointEvidence[]; readonly tests?: readonly HistoryEvidenceTest[] | undefined }[],
): EvidenceIndex {
  const byKey = new Map<string, Tally>();
  for (const run of runs) {
    const tallies = run.endpoints.map((endpoint) => {
      const tally = tallyOf(byKey, endpoint.endpoint);
      tally.calls += endpoint.executionCount;
      return tally;
    });
    for (const { file, line, title, endpoints = [] } of run.tests ?? [])
      for (const position of endpoints) tallies[position]?.tests.set(testKey({ file, line, title }), { file, line, title });
  }
  return indexOf('history', runs.length, runs.length > 0 && runs.every((run) => run.tests !== undefined), byKey);
}

/**
 * What the evidence says of a change's operation: its calls and tests over
 * every label that names it, or not exercised. `basePaths` are the
 * operation's base paths (servers' URL paths, 2.0's `basePath`; `''` for
 * none): a label made without the document names the whole path the call
 * was sent to, `GET /api/users/:id` for `/users/{id}` under `/api`.
 */
export function evidenceFor(
  change: Pick<ContractChange, 'operation'>,
  index: EvidenceIndex,
  basePaths: readonly string[] = [''],
): ChangeEvidence {
  const { method, path } = change.operation;
  const keys = new Set([operationKey(change.operation.label), ...basePaths.map((base) => operationKey(`${method} ${base}${path}`))]);
  const found = [...keys].map((key) => index.byKey.get(key)).filter((entry) => entry !== undefined);
  if (found.length === 0) return { exercised: false };
  const tests = new Map<string, EvidenceTest>();
  for (const entry of found) for (const test of entry.tests ?? []) tests.set(testKey(test), test);
  return {
    exercised: true,
    labels: [...new Set(found.flatMap((entry) => entry.labels))].sort(),
    calls: found.reduce((sum, entry) => sum + entry.calls, 0),
    tests: index.testsKnown ? [...tests.values()].sort(compareTests) : undefined,
    unlistedTestCount: found.reduce((sum, entry) => sum + entry.unlistedTestCount, 0),
  };
}
