import { partsOfSuite } from '../reporter/runner/partialRun.js';
import { expect, test } from './support/test.js';

// Whether a Playwright run ran part of its suite, from its command line as Playwright parses it: such a run is not
// appended to the history unless asked (tests/reporter-history.spec.ts runs Playwright so).

const run = (...args: string[]) => partsOfSuite(['/usr/bin/node', '/p/node_modules/@playwright/test/cli.js', 'test', ...args], null);

test('a whole run: no filter, whatever the options with values or without', () => {
  expect(run()).toStrictEqual([]);
  expect(run('-c', 'e2e/playwright.config.ts', '--workers', '2', '-x', '--shuffle', '--headed', '--reporter=line')).toStrictEqual([]);
  expect(run('--project', 'chromium', 'firefox', '--retries', '1')).toStrictEqual([]);
  expect(run('-u', 'all', '--debug', '--trace', 'on')).toStrictEqual([]);
  // After `--`, the arguments are the suite's own.
  expect(run('--', 'tests/not-a-filter.spec.ts')).toStrictEqual([]);
});

test('a --grep, in each of its spellings, a --grep-invert, --only-changed, --last-failed and a test list are parts of the suite', () => {
  for (const args of [['--grep', 'smoke'], ['-g', 'smoke'], ['--grep=smoke'], ['-gsmoke']])
    expect(run(...args), args.join(' ')).toStrictEqual(['--grep']);
  expect(run('-G', '@slow')).toStrictEqual(['--grep-invert']);
  expect(run('--only-changed', 'main')).toStrictEqual(['--only-changed']);
  expect(run('--only-changed')).toStrictEqual(['--only-changed']);
  expect(run('--last-failed')).toStrictEqual(['--last-failed']);
  expect(run('--test-list', 'tests.txt')).toStrictEqual(['--test-list']);
});

test('a file or line filter is a part of the suite, named; an option’s value is not taken for one', () => {
  expect(run('tests/orders.spec.ts:12')).toStrictEqual(['a file filter (tests/orders.spec.ts:12)']);
  expect(run('--reporter', 'line', 'orders', '--grep', 'lists')).toStrictEqual(['a file filter (orders)', '--grep']);
  expect(run('--project', 'chromium', '--', 'orders')).toStrictEqual([]);
});

test('a shard is a part of the suite; merge-reports, which runs none, is a whole run', () => {
  expect(partsOfSuite(['node', 'cli.js', 'test', '--shard', '2/3'], { current: 2, total: 3 })).toStrictEqual(['shard 2/3']);
  expect(partsOfSuite(['node', 'cli.js', 'merge-reports', './blob-report'], null)).toStrictEqual([]);
  expect(partsOfSuite([], null)).toStrictEqual([]);
});
