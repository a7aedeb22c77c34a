import { describeLocation, type RecordLocation } from '../issues/location.js';
import { compareCodeUnits } from '../compareCodeUnits.js';
import type { Mutable } from '../deepReadonly.js';

/**
 * What leads a reader from an endpoint to the calls behind it: the tests
 * that called it (from the Playwright reporter), its first failed calls with
 * where each came from, and its failures that a retry made good or that a
 * passing test made (most often a negative case not declared expected).
 * Kept per endpoint beside its counts, mergeable as they are: lists keep
 * their first entries in input order, counts add up.
 */

/**
 * How many failed executions each endpoint keeps: its server errors first,
 * then its first 5 by place (see compareFailedPlaces), so that the same
 * calls are kept whatever the order of the input files, shards and threads,
 * and a 500 among deliberate 404s is never the one left out.
 */
export const FAILED_EXECUTION_LIMIT = 5;

/** How many tests each endpoint lists (most failed calls first, then most calls); `testCount` gives them all. */
export const ENDPOINT_TEST_LIMIT = 10;

/** A place in a source file: 1-based line and column, the file relative to the Playwright project's root. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** A Playwright test, as the report names it. */
export interface TestIdentity extends SourceLocation {
  /** Its title path, the project first when it has a name: `API › orders.spec.ts › lists orders`. */
  readonly title: string;
  /** Playwright's test id (`TestCase.id`), for a link into Playwright's HTML report. */
  readonly testId?: string | undefined;
}

/** Where a call came from, besides its record: its test, attempt and line (the reporter's records only). */
export interface CallSource {
  readonly test?: TestIdentity | undefined;
  /** 1-based. */
  readonly attempt?: number | undefined;
  /** The call's own line, where Playwright's step gives it. */
  readonly callLocation?: SourceLocation | undefined;
  /** Whether the attempt ended as its test expects (it passed). */
  readonly testPassed?: boolean | undefined;
  /** Whether a later attempt of the same test passed (a retry made this one good). */
  readonly retriedAway?: boolean | undefined;
}

/** One failed call, as the report lists it. */
export interface FailedExecution {
  readonly method: string;
  /** The path, query removed. */
  readonly path: string;
  readonly statusCode?: number;
  readonly errorCode?: string;
  readonly responseTimeMs: number;
  readonly test?: TestIdentity;
  readonly attempt?: number;
  readonly callLocation?: SourceLocation;
  readonly id?: string;
  /** The W3C trace id it was sent under, when its record has one (see src/records/traceContext.ts). */
  readonly traceId?: string;
  /** Its W3C span id, when its record has one. */
  readonly spanId?: string;
  /** Where its record is, as slowestExecutions gives it. */
  readonly location?: RecordLocation;
  /** The first bytes of its response body, secrets replaced (failureExcerptBytes; off by default). */
  readonly excerpt?: string;
  /** Only for a call a web application made in a browser test: `browser`. */
  readonly source?: 'browser';
}

/** What orders failed calls (see compareFailedPlaces): whether the server failed, and where the call is. */
export type FailedPlace = Pick<FailedExecution, 'statusCode' | 'test' | 'attempt' | 'location'>;

/** One test's calls of an endpoint. */
export interface TestCalls extends TestIdentity {
  readonly calls: number;
  readonly failedCalls: number;
  /** Its failed calls that got a server error (5xx) or no response; absent when none did. */
  readonly serverErrorCalls?: number | undefined;
}

/** The counts of a test's calls, `serverErrorCalls` only when there are some. */
export function callCounts(
  calls: number,
  failedCalls: number,
  serverErrorCalls: number,
): Pick<TestCalls, 'calls' | 'failedCalls' | 'serverErrorCalls'> {
  return { calls, failedCalls, ...(serverErrorCalls > 0 ? { serverErrorCalls } : {}) };
}

/** Most server errors, then most failed calls, then most calls first: the order tests and endpoints are named in. */
export function compareCallCounts(a: Omit<TestCalls, keyof TestIdentity>, b: Omit<TestCalls, keyof TestIdentity>): number {
  return (b.serverErrorCalls ?? 0) - (a.serverErrorCalls ?? 0) || b.failedCalls - a.failedCalls || b.calls - a.calls;
}

/** One endpoint's evidence as plain data (to cross a thread boundary, or to be merged). */
export interface EndpointEvidenceData {
  readonly tests: readonly TestCalls[];
  readonly failed: readonly FailedExecution[];
  readonly retriedFailureCount: number;
  /** Failed calls of attempts that passed, by status code (or error code). */
  readonly passingTestFailures: readonly (readonly [string, number])[];
  /** Tests that called the endpoint and are not in `tests`: a report lists at most ENDPOINT_TEST_LIMIT (its testCount says how many). */
  readonly unlistedTestCount?: number;
}

/** What the report gives of one endpoint's evidence. */
export interface EndpointEvidenceResult {
  /** The tests that called it, capped at ENDPOINT_TEST_LIMIT; absent when no record came from a test. */
  readonly tests?: readonly TestCalls[];
  /** How many tests called it, listed or not. */
  readonly testCount?: number;
  /** Its first failed calls; absent when none failed. */
  readonly failedExecutions?: readonly FailedExecution[];
  /** Failed calls from attempts a retry made good (reporter only; absent without tests). */
  readonly flakyFailedExecutionCount?: number;
  /** Failed calls of attempts that passed, by status (or error code), keys ascending; absent when there are none. */
  readonly passingTestFailures?: Readonly<Record<string, number>>;
}

/** An endpoint's evidence being gathered. */
export class EndpointEvidence {
  // Both maps are made on first use: at 50,000 endpoints, a failed call's endpoint of a run without tests has neither.
  private testMap: Map<string, { identity: TestIdentity; calls: number; failedCalls: number; serverErrorCalls: number }> | undefined;
  private failed: FailedExecution[] = [];
  private retriedFailureCount = 0;
  private passingMap: Map<string, number> | undefined;
  private unlistedTestCount = 0;

  /**
   * One call: counted for its test, and kept when it failed and fewer than
   * the limit have. `excerpt` is asked for only when the call is kept: an
   * excerpt of a large body is costly, and most failed calls of a run are not
   * listed.
   */
  add(
    failed: boolean,
    serverError: boolean,
    source: CallSource | undefined,
    execution: () => FailedExecution,
    excerpt?: () => string | undefined,
  ): void {
    const { test } = source ?? {};
    if (test !== undefined) this.countTest(test, 1, failed ? 1 : 0, serverError ? 1 : 0);
    if (!failed) return;
    if (source?.retriedAway === true) this.retriedFailureCount++;
    const kept = execution();
    const text = excerpt !== undefined && this.admits(kept) ? excerpt() : undefined;
    this.keep(text === undefined ? kept : { ...kept, excerpt: text });
    if (source?.testPassed === true) {
      const code = kept.statusCode === undefined ? (kept.errorCode ?? 'NO_RESPONSE') : String(kept.statusCode);
      (this.passingMap ??= new Map()).set(code, (this.passingMap.get(code) ?? 0) + 1);
    }
  }

  /**
   * Whether a failed call at this place would be kept now: what a reader of
   * millions of records asks before it makes the call's record, as most
   * failed calls of a large input are not kept.
   */
  admits(execution: FailedPlace): boolean {
    const { failed } = this;
    return failed.length < FAILED_EXECUTION_LIMIT || compareFailedPlaces(execution, failed[failed.length - 1]!) < 0;
  }

  /**
   * {@link admits} for a call answered with `statusCode` at a line of a
   * file, with no test (a record a reader scanned), told without making its
   * place when the last call kept stands before it (a reader goes down its
   * lines, so all but its first few failed calls do): the call is kept then
   * only as a server error in place of one that is not. About 90,000 failed
   * calls of the 1M bench each made three objects to be asked.
   */
  admitsAtLine(statusCode: number, file: string, line: number): boolean {
    const { failed } = this;
    if (failed.length < FAILED_EXECUTION_LIMIT) return true;
    const last = failed[failed.length - 1]!;
    const lastBefore =
      last.test !== undefined || (last.location?.kind === 'line' && last.location.file === file && last.location.line < line);
    if (lastBefore) return statusCode >= 500 && !isServerError(last);
    return this.admits({ statusCode, location: { kind: 'line', file, line } });
  }

  // Keeps an execution among the first FAILED_EXECUTION_LIMIT by place.
  private keep(execution: FailedExecution): void {
    const { failed } = this;
    if (!this.admits(execution)) return;
    let at = failed.length;
    while (at > 0 && compareFailedPlaces(execution, failed[at - 1]!) < 0) at--;
    // A new list as long as it holds (concat's): a list spliced or pushed into grows room for 17, and most endpoints
    // keep one or two calls.
    this.failed = failed.slice(0, at).concat([execution], failed.slice(at, FAILED_EXECUTION_LIMIT - 1));
  }

  /** Says where each kept failed call is anew (a part read on its own, placed in its whole input): the places keep their order. */
  relocate(locate: (execution: FailedExecution) => FailedExecution): void {
    this.failed = this.failed.map(locate);
  }

  /** Adds what another part gathered; its calls come after this one's. */
  merge(data: EndpointEvidenceData): void {
    for (const { calls, failedCalls, serverErrorCalls = 0, ...identity } of data.tests)
      this.countTest(identity, calls, failedCalls, serverErrorCalls);
    for (const execution of data.failed) this.keep(execution);
    this.retriedFailureCount += data.retriedFailureCount;
    for (const [code, count] of data.passingTestFailures)
      (this.passingMap ??= new Map()).set(code, (this.passingMap.get(code) ?? 0) + count);
    // A test a report left unlisted may be one another report lists: counted twice then, the one count no part can make exact.
    this.unlistedTestCount += data.unlistedTestCount ?? 0;
  }

  toData(): EndpointEvidenceData {
    return {
      tests: [...(this.testMap?.values() ?? [])].map(({ identity, calls, failedCalls, serverErrorCalls }) => ({
        ...identity,
        ...callCounts(calls, failedCalls, serverErrorCalls),
      })),
      failed: [...this.failed],
      retriedFailureCount: this.retriedFailureCount,
      passingTestFailures: [...(this.passingMap ?? [])],
      ...(this.unlistedTestCount === 0 ? {} : { unlistedTestCount: this.unlistedTestCount }),
    };
  }

  result(): EndpointEvidenceResult {
    const result: Mutable<EndpointEvidenceResult> = {};
    this.addResultTo(result);
    return result;
  }

  /**
   * Gives {@link result}'s keys to `target`, one by one in their order:
   * objects given the same keys this way share one hidden class, where a
   * spread of conditional parts gives each a class of its own.
   */
  addResultTo(target: Mutable<EndpointEvidenceResult>): void {
    const tests = [...(this.testMap?.values() ?? [])]
      .map(({ identity, calls, failedCalls, serverErrorCalls }) => ({ ...identity, ...callCounts(calls, failedCalls, serverErrorCalls) }))
      .sort(
        (a, b) =>
          compareCallCounts(a, b) ||
          compareCodeUnits(a.file, b.file) ||
          a.line - b.line ||
          a.column - b.column ||
          compareCodeUnits(a.title, b.title),
      );
    const fromTests = tests.length > 0 || this.unlistedTestCount > 0;
    const passing = [...(this.passingMap ?? [])].sort(([a], [b]) => compareCodeUnits(a, b));
    if (fromTests) {
      target.tests = tests.slice(0, ENDPOINT_TEST_LIMIT);
      target.testCount = tests.length + this.unlistedTestCount;
    }
    if (this.failed.length > 0) target.failedExecutions = [...this.failed];
    if (fromTests) target.flakyFailedExecutionCount = this.retriedFailureCount;
    if (passing.length > 0) target.passingTestFailures = Object.fromEntries(passing);
  }

  /** The calls of one test (by {@link testKeyOf}) this endpoint counted; undefined when the test did not call it. */
  callsOf(key: string): Pick<TestCalls, 'calls' | 'failedCalls' | 'serverErrorCalls'> | undefined {
    const known = this.testMap?.get(key);
    return known === undefined ? undefined : callCounts(known.calls, known.failedCalls, known.serverErrorCalls);
  }

  private countTest(identity: TestIdentity, calls: number, failedCalls: number, serverErrorCalls: number): void {
    const key = testKeyOf(identity);
    const known = this.testMap?.get(key);
    if (known === undefined) (this.testMap ??= new Map()).set(key, { identity, calls, failedCalls, serverErrorCalls });
    else {
      known.calls += calls;
      known.failedCalls += failedCalls;
      known.serverErrorCalls += serverErrorCalls;
    }
  }
}

/**
 * The order failed executions are kept in: server errors (a status of 500
 * or above, or no response) before the others, then a test's calls by the
 * test's file, line, column and title, then the attempt; records read from
 * files by file name, then their position in the file (a list index, a
 * line, a HAR entry). Independent of the order records arrive in.
 */
export function compareFailedPlaces(a: FailedPlace, b: FailedPlace): number {
  const server = Number(isServerError(b)) - Number(isServerError(a));
  if (server !== 0) return server;
  const placeA = placeOf(a);
  const placeB = placeOf(b);
  for (let index = 0; index < Math.max(placeA.length, placeB.length); index++) {
    const x = placeA[index] ?? -1;
    const y = placeB[index] ?? -1;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return compareCodeUnits(String(x), String(y));
  }
  return 0;
}

/** Whether a failed call is the server's: answered with a status of 500 or above, or not at all. */
export function isServerError({ statusCode }: { readonly statusCode?: number | undefined }): boolean {
  return statusCode === undefined || statusCode >= 500;
}

function placeOf({ test, attempt, location }: FailedPlace): readonly (string | number)[] {
  if (test !== undefined) return [0, test.file, test.line, test.column, test.title, attempt ?? 0];
  if (location === undefined) return [2];
  switch (location.kind) {
    case 'list':
      return [1, location.file ?? '', location.index];
    case 'line':
      return [1, location.file, location.line];
    case 'harEntry':
      return [1, location.file, location.index];
    case 'test':
      return [1, location.title, location.attempt];
    case 'document':
      return [1, location.file ?? '', -1];
    case 'described':
      return [2, location.text];
  }
}

/** The key a test is known by wherever a run counts it: its place and title. */
export function testKeyOf({ file, line, column, title }: TestIdentity): string {
  return `${file}\u0000${line}\u0000${column}\u0000${title}`;
}

/** A failed execution's place in words, as slowestExecutions gives it. */
export function failedExecutionWhere(execution: FailedExecution): string | undefined {
  return execution.location === undefined ? undefined : describeLocation(execution.location);
}
