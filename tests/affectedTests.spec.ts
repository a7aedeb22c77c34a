import { affectedTests, formatAffectedTests, grepPatternOf } from '../src/contract/diff/affectedTests.js';
import { evidenceIndexOfHistory, evidenceIndexOfReport } from '../src/contract/diff/changeEvidence.js';
import type { ChangeRule } from '../src/contract/diff/changeRules.js';
import type { ContractChange } from '../src/contract/diff/contractChange.js';
import { expect, test } from './support/test.js';

// `affected`'s join and formats (issue 38), on hand-made change lists and
// reports: the tests whose calls reach a changed operation, each once with
// every change behind it; the spec files; a --grep pattern that matches
// exactly their titles as Playwright matches them; untested operations named.

function changeOf(label: string, rule: ChangeRule = 'response-property-removed', component?: string): ContractChange {
  const [method, path] = label.split(' ') as [string, string];
  return {
    rule,
    level: 'breaking',
    operation: { method, path, label },
    ...(component === undefined ? {} : { component }),
    subject: { kind: 'responseProperty', status: '200', property: ['email'] },
    message: 'response 200: property email removed',
  };
}

function testOf(file: string, line: number, title: string) {
  return { title, file, line, column: 3, calls: 2, failedCalls: 0 };
}

const report = evidenceIndexOfReport({
  tests: { total: 4, passed: 4, failed: 0, flaky: 0, skipped: 0 },
  endpoints: [
    {
      endpoint: 'GET /users/{id}',
      executionCount: 6,
      tests: [testOf('users.spec.ts', 12, 'users.spec.ts › users › reads one'), testOf('admin.spec.ts', 3, 'admin.spec.ts › audits')],
      testCount: 2,
    },
    {
      endpoint: 'GET /orders/{id}',
      executionCount: 2,
      tests: [testOf('orders.spec.ts', 8, 'orders.spec.ts › reads (one) order?'), testOf('admin.spec.ts', 3, 'admin.spec.ts › audits')],
      testCount: 2,
    },
    { endpoint: 'POST /setup', executionCount: 1 },
  ],
});

test("a shared component's change reaches every operation using it: one change each, each test once with the changes behind it", () => {
  const changes = [
    changeOf('GET /users/{id}', undefined, '#/components/schemas/User'),
    changeOf('GET /orders/{id}', undefined, '#/components/schemas/User'),
  ];
  const affected = affectedTests(changes, report);
  expect(affected.changes.map(({ change }) => change.operation.label)).toEqual(['GET /users/{id}', 'GET /orders/{id}']);
  expect(affected.tests.map(({ file, line, changes: behind }) => [file, line, behind])).toEqual([
    ['admin.spec.ts', 3, [0, 1]],
    ['orders.spec.ts', 8, [1]],
    ['users.spec.ts', 12, [0]],
  ]);
  expect(affected.untested).toEqual([]);
});

test('files: the spec files, sorted, each once; untested operations on the notes, never dropped', () => {
  const changes = [changeOf('GET /users/{id}'), changeOf('GET /orders/{id}'), changeOf('DELETE /users/{id}'), changeOf('POST /setup')];
  const output = formatAffectedTests(affectedTests(changes, report), report, 'files');
  expect(output.text).toBe('admin.spec.ts\norders.spec.ts\nusers.spec.ts\n');
  expect(output.notes).toEqual([
    'untested: DELETE /users/{id} (1 change): no test in the report calls it',
    'untested: POST /setup (1 change): no test in the report calls it',
  ]);
});

test('no change prints nothing, in files and grep alike', () => {
  expect(formatAffectedTests(affectedTests([], report), report, 'files')).toEqual({ text: '', notes: [] });
  expect(formatAffectedTests(affectedTests([], report), report, 'grep')).toEqual({ text: '', notes: [] });
});

/** The text Playwright matches --grep against: the root's empty title, the project, the file, describes, the title, then tags, by spaces. */
function grepTitleOf(project: string, parts: readonly string[], tags: readonly string[] = []): string {
  return ['', project, ...parts, ...tags].join(' ');
}

/** As Playwright reads a pattern written /…/ (util.ts forceRegExp): its flags, none here. */
function playwrightRegExp(pattern: string): RegExp {
  const match = /^\/(.*)\/([gi]*)$/.exec(pattern);
  expect(match).not.toBeNull();
  return new RegExp(match![1]!, match![2]);
}

test('grep: one pattern matching exactly the affected titles, as Playwright joins them, case and special characters included', () => {
  const output = formatAffectedTests(affectedTests([changeOf('GET /orders/{id}')], report), report, 'grep');
  const pattern = playwrightRegExp(output.text.trimEnd());
  expect(pattern.test(grepTitleOf('', ['orders.spec.ts', 'reads (one) order?']))).toBe(true);
  expect(pattern.test(grepTitleOf('chromium', ['orders.spec.ts', 'reads (one) order?'], ['@smoke']))).toBe(true);
  expect(pattern.test(grepTitleOf('', ['admin.spec.ts', 'audits']))).toBe(true);
  expect(pattern.test(grepTitleOf('', ['orders.spec.ts', 'reads (one) order? twice']))).toBe(false);
  expect(pattern.test(grepTitleOf('', ['orders.spec.ts', 'READS (one) order?']))).toBe(false);
  expect(pattern.test(grepTitleOf('', ['orders.spec.ts', 'reads one order']))).toBe(false);
  expect(pattern.test(grepTitleOf('', ['users.spec.ts', 'users', 'reads one']))).toBe(false);
  expect(pattern.test(grepTitleOf('', ['xadmin.spec.ts', 'audits']))).toBe(false);
});

test("grep: a describe's tags between the titles still match", () => {
  const pattern = playwrightRegExp(grepPatternOf(['users.spec.ts › users › reads one']));
  expect(pattern.test(grepTitleOf('', ['users.spec.ts', 'users', '@api', 'reads one'], ['@fast']))).toBe(true);
  expect(pattern.test(grepTitleOf('', ['users.spec.ts', 'users', 'reads one']))).toBe(true);
});

test('json: every change with its evidence, every test with the changes behind it, the untested operations', () => {
  const changes = [changeOf('GET /users/{id}'), changeOf('DELETE /users/{id}')];
  const json = JSON.parse(formatAffectedTests(affectedTests(changes, report), report, 'json').text) as Record<string, unknown>;
  expect(json).toEqual({
    evidence: { source: 'report', runCount: 1, testsKnown: true },
    changes: [
      {
        ...changes[0],
        evidence: {
          exercised: true,
          calls: 6,
          labels: ['GET /users/{id}'],
          tests: [
            { file: 'admin.spec.ts', line: 3, title: 'admin.spec.ts › audits' },
            { file: 'users.spec.ts', line: 12, title: 'users.spec.ts › users › reads one' },
          ],
          unlistedTestCount: 0,
        },
      },
      { ...changes[1], evidence: { exercised: false } },
    ],
    tests: [
      {
        file: 'admin.spec.ts',
        line: 3,
        title: 'admin.spec.ts › audits',
        changes: [expect.objectContaining({ operation: 'GET /users/{id}' })],
      },
      {
        file: 'users.spec.ts',
        line: 12,
        title: 'users.spec.ts › users › reads one',
        changes: [expect.objectContaining({ operation: 'GET /users/{id}' })],
      },
    ],
    untested: [{ method: 'DELETE', path: '/users/{id}', label: 'DELETE /users/{id}' }],
    testsUnknown: [],
    incomplete: [],
  });
});

test('an operation called by more tests than the report lists is said incomplete on the notes', () => {
  const index = evidenceIndexOfReport({
    tests: { total: 12, passed: 12, failed: 0, flaky: 0, skipped: 0 },
    endpoints: [{ endpoint: 'GET /users/{id}', executionCount: 20, tests: [testOf('a.spec.ts', 1, 'a.spec.ts › a')], testCount: 12 }],
  });
  const output = formatAffectedTests(affectedTests([changeOf('GET /users/{id}')], index), index, 'files');
  expect(output).toEqual({
    text: 'a.spec.ts\n',
    notes: [
      "incomplete: GET /users/{id} (1 change): 11 more tests called it than the report names (it lists the first few of an endpoint's tests); " +
        'they are not printed',
    ],
  });
});

test('a history names no tests: its exercised operations are said tests unknown, with their calls; the others untested', () => {
  const index = evidenceIndexOfHistory([{ endpoints: [{ endpoint: 'GET /users/:id', executionCount: 3 }] }, { endpoints: [] }]);
  const output = formatAffectedTests(affectedTests([changeOf('GET /users/{id}'), changeOf('GET /pets')], index), index, 'files');
  expect(output).toEqual({
    text: '',
    notes: [
      "untested: GET /pets (1 change): no test in the history's 2 runs calls it",
      "tests unknown: GET /users/{id} (1 change): 3 calls in the history's 2 runs, " +
        'some history lines name no tests (docs/contract-diff.md#the-tests-to-run-affected)',
    ],
  });
});

test('a title or file with a line break still prints one line: the pattern matches it by escape, the file is escaped', () => {
  const pattern = grepPatternOf(['a.spec.ts › two\nlines']);
  expect(pattern.includes('\n')).toBe(false);
  expect(playwrightRegExp(pattern).test(grepTitleOf('', ['a.spec.ts', 'two\nlines']))).toBe(true);
  const index = evidenceIndexOfReport({
    tests: { total: 1, passed: 1, failed: 0, flaky: 0, skipped: 0 },
    endpoints: [{ endpoint: 'GET /a', executionCount: 1, tests: [testOf('a\n--config=x.spec.ts', 1, 't')], testCount: 1 }],
  });
  expect(formatAffectedTests(affectedTests([changeOf('GET /a')], index), index, 'files').text).toBe('a\\u000a--config=x.spec.ts\n');
});

test('a report of a run cut short says so first: the tests that did not run are named nowhere', () => {
  const index = evidenceIndexOfReport({
    runStatus: 'interrupted',
    tests: { total: 2, passed: 1, failed: 0, flaky: 0, skipped: 1 },
    endpoints: [{ endpoint: 'GET /a', executionCount: 1, tests: [testOf('a.spec.ts', 1, 'a.spec.ts › a')], testCount: 1 }],
  });
  const affected = affectedTests([changeOf('GET /a')], index);
  expect(formatAffectedTests(affected, index, 'files')).toEqual({
    text: 'a.spec.ts\n',
    notes: [
      "incomplete: the report's run was interrupted before its tests were done: tests that did not run made no call, and none of them is named",
    ],
  });
  expect(JSON.parse(formatAffectedTests(affected, index, 'json').text)).toMatchObject({ evidence: { cutShort: 'interrupted' } });
});

test('a history whose every line names its tests names the tests that called an operation in any of its runs, none unlisted', () => {
  const index = evidenceIndexOfHistory([
    {
      endpoints: [
        { endpoint: 'GET /pets', executionCount: 1 },
        { endpoint: 'GET /users/:id', executionCount: 2 },
      ],
      tests: [
        { file: 'b.spec.ts', line: 4, title: 'b.spec.ts › reads one', endpoints: [1] },
        { file: 'p.spec.ts', line: 1, title: 'p.spec.ts › pets', endpoints: [0] },
        { file: 'z.spec.ts', line: 9, title: 'z.spec.ts › later' },
      ],
    },
    {
      endpoints: [{ endpoint: 'GET /users/{id}', executionCount: 3 }],
      tests: [
        { file: 'a.spec.ts', line: 2, title: 'a.spec.ts › reads', endpoints: [0] },
        { file: 'b.spec.ts', line: 4, title: 'b.spec.ts › reads one', endpoints: [0] },
      ],
    },
  ]);
  expect(formatAffectedTests(affectedTests([changeOf('GET /users/{id}')], index), index, 'files')).toEqual({
    text: 'a.spec.ts\nb.spec.ts\n',
    notes: [],
  });
});

test('a history with one line that names no tests says its tests are unknown, though its other lines name some', () => {
  const index = evidenceIndexOfHistory([
    { endpoints: [{ endpoint: 'GET /users/:id', executionCount: 3 }] },
    { endpoints: [{ endpoint: 'GET /users/:id', executionCount: 1 }], tests: [{ file: 'a.spec.ts', line: 2, title: 'a', endpoints: [0] }] },
  ]);
  expect(formatAffectedTests(affectedTests([changeOf('GET /users/{id}')], index), index, 'files').notes).toEqual([
    "tests unknown: GET /users/{id} (1 change): 4 calls in the history's 2 runs, " +
      'some history lines name no tests (docs/contract-diff.md#the-tests-to-run-affected)',
  ]);
});
