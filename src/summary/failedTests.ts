import { compareCodeUnits } from './compareCodeUnits.js';
import { testKeyOf, type TestIdentity } from './endpointEvidence.js';

/**
 * The tests that failed, named beside the endpoints their calls reached, so
 * that a reader goes from a failed test to the calls behind it and back. A
 * Playwright run gives the tests (its `unexpected` outcomes, those its
 * `tests.failed` counts); the run's tallies give the endpoints each one
 * called. Kept small: a run whose every test failed names the worst few.
 */

/** How many failed tests a report names: those with most failed calls first (`tests.failed` says how many failed in all). */
export const FAILED_TEST_LIMIT = 20;

/** How many endpoints a failed test names: those where its calls failed first. */
export const FAILED_TEST_ENDPOINT_LIMIT = 10;

/** One endpoint a test's calls reached: how many calls, and how many of them failed. */
export interface TestEndpoint {
  readonly endpoint: string;
  readonly calls: number;
  readonly failedCalls: number;
}

/** A failed test as the report names it: the test, and the endpoints its calls reached. */
export interface FailedTest extends TestIdentity {
  /** Those where its calls failed first (most failed calls), then by most calls, then by label; at most {@link FAILED_TEST_ENDPOINT_LIMIT}. */
  readonly endpoints: readonly TestEndpoint[];
  /** How many endpoints its calls reached, listed or not. */
  readonly endpointCount: number;
}

/** A failed test as a run's feeder gives it: the reporter, the test alone; a merge, what its report said of it too. */
export type FailedTestFact = TestIdentity & { readonly endpoints?: readonly TestEndpoint[]; readonly endpointCount?: number };

/**
 * The failed tests a report names: each test once (a test named twice, by
 * two merged reports, is one), with the endpoints the run's tallies found
 * its calls reached (`endpointsOf`) and those the facts already gave added
 * up; the most failed calls first, then by file, line, column and title; at
 * most {@link FAILED_TEST_LIMIT}.
 */
export function failedTestsOf(facts: readonly FailedTestFact[], endpointsOf: (key: string) => readonly TestEndpoint[]): FailedTest[] {
  const byKey = new Map<string, { identity: TestIdentity; endpoints: Map<string, TestEndpoint>; counted: number }>();
  for (const { endpoints = [], endpointCount, ...identity } of facts) {
    const key = testKeyOf(identity);
    const known = byKey.get(key) ?? { identity, endpoints: new Map<string, TestEndpoint>(), counted: 0 };
    byKey.set(key, known);
    for (const entry of endpoints) addCalls(known.endpoints, entry);
    known.counted = Math.max(known.counted, endpointCount ?? endpoints.length);
  }
  const tests = [...byKey].map(([key, { identity, endpoints, counted }]) => {
    // The tallies count every call of the run: where a merged report's own list says the same endpoint, the larger count is the whole.
    for (const found of endpointsOf(key)) {
      const given = endpoints.get(found.endpoint);
      if (given === undefined || given.calls < found.calls) endpoints.set(found.endpoint, found);
    }
    const ordered = [...endpoints.values()].sort(
      (a, b) => b.failedCalls - a.failedCalls || b.calls - a.calls || compareCodeUnits(a.endpoint, b.endpoint),
    );
    const failedCalls = ordered.reduce((sum, entry) => sum + entry.failedCalls, 0);
    return {
      failedCalls,
      // A merged report's count of endpoints it did not list stands for what no tally here holds.
      test: { ...identity, endpoints: ordered.slice(0, FAILED_TEST_ENDPOINT_LIMIT), endpointCount: Math.max(ordered.length, counted) },
    };
  });
  return tests
    .sort(
      (a, b) =>
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
  endpoints.set(
    entry.endpoint,
    known === undefined
      ? { endpoint: entry.endpoint, calls: entry.calls, failedCalls: entry.failedCalls }
      : { endpoint: entry.endpoint, calls: known.calls + entry.calls, failedCalls: known.failedCalls + entry.failedCalls },
  );
}
