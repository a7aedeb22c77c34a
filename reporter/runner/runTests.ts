import type { Suite, TestCase } from '@playwright/test/reporter';
import type { RunTest } from '../../src/exports/exportContext.js';
import type { TestIdentity } from '../../src/summary/endpointEvidence.js';
import { testIdentityOf } from './feedAttempts.js';

/**
 * The run's tests as the CTRF export lists them, from Playwright's own
 * outcome of each: expected is passed (a test expected to fail that failed
 * too), unexpected is failed, flaky is passed and flaky, skipped is skipped;
 * a test whose last attempt was interrupted is `other`. The counts are the
 * report's `tests`: passed here is its passed and flaky together. Given
 * the run's `endpointsOfTests` (once it finished), each test names the
 * endpoints its calls reached, which the history line keeps.
 */
export function runTestsOf(
  suite: Suite | undefined,
  rootDir: string,
  endpointsOfTests?: (tests: readonly TestIdentity[]) => readonly (readonly string[])[],
): RunTest[] {
  const tests = suite?.allTests() ?? [];
  const identities = tests.map((test) => testIdentityOf(test, rootDir));
  const endpoints = endpointsOfTests?.(identities);
  return tests.map((test, index) => runTestOf(test, identities[index]!, endpoints?.[index]));
}

function runTestOf(test: TestCase, identity: TestIdentity, endpoints: readonly string[] | undefined): RunTest {
  const last = test.results[test.results.length - 1];
  const outcome = test.outcome();
  const { title, file, line } = identity;
  const project = test.parent.project()?.name;
  // The describe blocks between the file and the test, the file first.
  const path = test.titlePath().slice(2, -1).filter(Boolean);
  const status =
    last?.status === 'interrupted' ? 'other' : outcome === 'unexpected' ? 'failed' : outcome === 'skipped' ? 'skipped' : 'passed';
  const message = status === 'failed' ? firstLineOf(last?.errors[0]?.message) : undefined;
  return {
    name: title,
    status,
    durationMs: last?.duration ?? 0,
    file,
    line,
    suite: [file, ...path.slice(1)],
    retries: Math.max(0, test.results.length - 1),
    flaky: outcome === 'flaky',
    ...(project === undefined || project === '' ? {} : { project }),
    ...(message === undefined ? {} : { message }),
    ...(endpoints === undefined ? {} : { endpoints }),
  };
}

// An error's first line, without the terminal's colour codes.
function firstLineOf(message: string | undefined): string | undefined {
  const line = message
    // eslint-disable-next-line no-control-regex -- the escape character starts each colour code
    ?.replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')[0]
    ?.trim();
  return line === undefined || line === '' ? undefined : line;
}
