import { compareCodeUnits } from '../compareCodeUnits.js';
import { callCounts, compareCallCounts, testKeyOf, type TestIdentity } from './endpointEvidence.js';

/**
 * The tests that failed, named beside the endpoints their calls reached, so
 * that a reader goes from a failed test to the calls behind it and back. A
 * Playwright run gives the tests (its `unexpected` outcomes, those its
 * `tests.failed` counts); the run's tallies give the endpoints each one
 * called. Kept small: a run whose every test failed names the worst few.
 */

/** How many failed tests a report names: those with most server errors, then most failed calls first (`tests.failed` says how many failed in all). */
export const FAILED_TEST_LIMIT = 20;

/** How many endpoints a failed test names: those where its calls got server errors, then failed, first. */
export const FAILED_TEST_ENDPOINT_LIMIT = 10;

/** One endpoint a test's calls reached: how many calls, and how many of them failed. */
export interface TestEndpoint {
  readonly endpoint: string;
  readonly calls: number;
  readonly failedCalls: number;
  /** Its failed calls that got a server error (5xx) or no response; absent when none did. */
  readonly serverErrorCalls?: number | undefined;
}

/** A failed test as the report names it: the test, and the endpoints its calls reached. */
export interface FailedTest extends TestIdentity {
  /** Those where its calls got most server errors, then most failed calls, then most calls, then by label; at most {@link FAILED_TEST_ENDPOINT_LIMIT}. */
  readonly endpoints: readonly TestEndpoint[];
  /** How many endpoints its calls reached, listed or not. */
  readonly endpointCount: number;
  /** The trace id of its failing attempt, where its calls had one (see RecordIntake.traceOfTest). */
  readonly traceId?: string | undefined;
}

/** A failed test as a run's feeder gives it: the reporter, the test alone; a merge, what its report said of it too. */
export type FailedTestFact = TestIdentity & {
  readonly endpoints?: readonly TestEndpoint[];
  readonly endpointCount?: number;
  readonly traceId?: string | undefined;
};

/**
 * The failed tests a report names: each test once (a test named twice, by
 * two merged reports, is one), with the endpoints the run's tallies found
 * its calls reached (`endpointsOf`) and those the facts already gave added
 * up; the most server errors, then most failed calls first, then by file, line, column and title; at
 * most {@link FAILED_TEST_LIMIT}. Each keeps the trace id the run's records
 * give it (`traceOf`), or else the first its facts give (a merged report's).
 */
export function failedTestsOf(
  facts: readonly FailedTestFact[],
  endpointsOf: (key: string) => readonly TestEndpoint[],
  traceOf: (key: string) => string | undefined = () => undefined,
): FailedTest[] {
  const byKey = new Map<
    string,
    { identity: TestIdentity; endpoints: Map<string, TestEndpoint>; counted: number; traceId?: string | undefined }
  >();
  for (const { endpoints = [], endpointCount, traceId, ...identity } of facts) {
    const key = testKeyOf(identity);
    const known = byKey.get(key) ?? { identity, endpoints: new Map<string, TestEndpoint>(), counted: 0 };
    byKey.set(key, known);
    for (const entry of endpoints) addCalls(known.endpoints, entry);
    known.counted = Math.max(known.counted, endpointCount ?? endpoints.length);
    known.traceId ??= traceId;
  }
  const tests = [...byKey].map(([key, { identity, endpoints, counted, traceId: given }]) => {
    // The tallies count every call of the run: where a merged report's own list says the same endpoint, the larger count is the whole.
    for (const found of endpointsOf(key)) {
      const given = endpoints.get(found.endpoint);
      if (given === undefined || given.calls < found.calls) endpoints.set(found.endpoint, found);
    }
    const ordered = [...endpoints.values()].sort((a, b) => compareCallCounts(a, b) || compareCodeUnits(a.endpoint, b.endpoint));
    const failedCalls = ordered.reduce((sum, entry) => sum + entry.failedCalls, 0);
    const serverErrorCalls = ordered.reduce((sum, entry) => sum + (entry.serverErrorCalls ?? 0), 0);
    return {
      failedCalls,
      serverErrorCalls,
      // A merged report's count of endpoints it did not list stands for what no tally here holds.
      test: {
        ...identity,
        endpoints: ordered.slice(0, FAILED_TEST_ENDPOINT_LIMIT),
        endpointCount: Math.max(ordered.length, counted),
        ...traceOfTest(traceOf(key) ?? given),
      },
    };
  });
  return tests
    .sort(
      (a, b) =>
        b.serverErrorCalls - a.serverErrorCalls ||
        b.failedCalls - a.failedCalls ||
        compareCodeUnits(a.test.file, b.test.file) ||
        a.test.line - b.test.line ||
        a.test.column - b.test.column ||
        compareCodeUnits(a.test.title, b.test.title),
    )
    .slice(0, FAILED_TEST_LIMIT)
    .map(({ test }) => test);
}

function addCalls(endpoints: Map<string, TestEndpoint>, entry: TestEndpoint): void {
  const known = endpoints.get(entry.endpoint);
  endpoints.set(entry.endpoint, {
    endpoint: entry.endpoint,
    ...callCounts(
      (known?.calls ?? 0) + entry.calls,
      (known?.failedCalls ?? 0) + entry.failedCalls,
      (known?.serverErrorCalls ?? 0) + (entry.serverErrorCalls ?? 0),
    ),
  });
}

function traceOfTest(traceId: string | undefined): { readonly traceId?: string } {
  return traceId === undefined ? {} : { traceId };
}
