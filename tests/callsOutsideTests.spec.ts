import { callsOutsideTestsCollector, receiveCallsOutsideTests, type CallOutsideTests } from '../reporter/shared/callsOutsideTests.js';
import { feedCallsOutsideTests, framesOf } from '../reporter/runner/feedCallsOutsideTests.js';
import { globalHookFilesOf } from '../reporter/runner/playwrightPrivate.js';
import { createEvidenceRun } from '../src/run/evidenceRun.js';
import { expect, test } from './support/test.js';

// Calls made outside any test, in the process where the reporter runs (global setup and teardown): the channel from the
// recording request to the reporter, the stack that tells which file made a call, and the tests they are named for.
// tests/reporter-globalSetup.spec.ts runs them in real Playwright.

const record = { statusCode: 500, endpoint: 'POST /usuarios', responseTimeMs: 3, call: { method: 'POST', url: '/usuarios' } };

test('no collector until a reporter receives calls; then every receiver of the process takes each call, whichever copy of the module installed it', () => {
  const holder = {};
  expect(callsOutsideTestsCollector(holder)).toBeUndefined();
  const first: CallOutsideTests[] = [];
  const second: CallOutsideTests[] = [];
  receiveCallsOutsideTests((call) => first.push(call), holder);
  // Another build of the package (CommonJS beside ES modules) finds the slot by its Symbol.for key.
  (Reflect.get(holder, Symbol.for('quality-evidence.outside-tests')) as { receivers: ((call: CallOutsideTests) => void)[] }).receivers.push(
    (call) => second.push(call),
  );
  callsOutsideTestsCollector(holder)?.({ record, stack: undefined });
  expect([first.length, second.length]).toEqual([1, 1]);
});

test("a call's frames are those below the recording's own, each an absolute file (a file URL read as its path), with its line and column", () => {
  const stack = [
    'Error: call outside tests',
    '    at stackOutsideTests (/p/node_modules/quality-evidence/lib/recordRequests.js:60:12)',
    '    at node:quality-evidence/recorded-call:3:50',
    '    at ApiClient.create (/p/support/api client.ts:12:22)',
    '    at async globalSetup (file:///p/global-setup.ts:4:3)',
    '    at async Promise.all (index 0)',
    '    at node:internal/process/task_queues:95:5',
  ].join('\n');
  expect(framesOf(stack)).toEqual([
    { file: '/p/support/api client.ts', line: 12, column: 22 },
    { file: '/p/global-setup.ts', line: 4, column: 3 },
  ]);
  expect(framesOf(undefined)).toEqual([]);
});

test("Playwright's config gives its global setup and teardown files: every file of its internal config where it has them, else the public one", () => {
  const internal = Symbol('configInternalSymbol');
  const newer = { globalSetup: '/p/a.ts', globalTeardown: null, [internal]: { globalSetups: ['/p/a.ts', '/p/b.ts'], globalTeardowns: [] } };
  expect(globalHookFilesOf(newer)).toEqual({ setups: ['/p/a.ts', '/p/b.ts'], teardowns: [] });
  expect(globalHookFilesOf({ globalSetup: '/p/a.ts', globalTeardown: '/p/z.ts' })).toEqual({ setups: ['/p/a.ts'], teardowns: ['/p/z.ts'] });
  expect(globalHookFilesOf({ globalSetup: null, globalTeardown: null })).toEqual({ setups: [], teardowns: [] });
});

test('a call is named for the setup or teardown file in its stack, relative to the root folder, at line 1; its line: its first frame not in a package', () => {
  const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: 500 });
  const hooks = { setups: ['/p/global-setup.ts', '/p/seed.ts'], teardowns: ['/p/global-teardown.ts'] };
  const stackThrough = (...frames: string[]) =>
    ['Error', '    at node:quality-evidence/recorded-call:3:50', ...frames.map((frame) => `    at ${frame}`)].join('\n');
  feedCallsOutsideTests(
    run,
    [
      // Made in the second setup file, through an API client: named for that file, its line the client's.
      { record, stack: stackThrough('create (/p/support/client.ts:8:5)', 'async seed (/p/seed.ts:3:3)'), phase: 'setup' },
      // A setup that failed: its teardown's calls come before the tests begin, and are the teardown's by their stack.
      {
        record: { ...record, statusCode: 200, endpoint: 'DELETE /sessions' },
        stack: stackThrough('globalTeardown (/p/global-teardown.ts:4:13)'),
        phase: 'setup',
      },
      // After the tests began, with no file of the config in its stack (a function the setup returned, its frame lost): the teardown's first file.
      { record: { ...record, statusCode: 204, endpoint: 'DELETE /usuarios' }, stack: undefined, phase: 'teardown' },
    ],
    { hooks, rootDir: '/p/tests' },
  );
  const report = run.finish();
  expect(report.endpoints.map(({ endpoint, tests }) => ({ endpoint, tests }))).toEqual([
    {
      endpoint: 'DELETE /sessions',
      tests: [{ title: 'global teardown', file: '../global-teardown.ts', line: 1, column: 1, calls: 1, failedCalls: 0 }],
    },
    {
      endpoint: 'DELETE /usuarios',
      tests: [{ title: 'global teardown', file: '../global-teardown.ts', line: 1, column: 1, calls: 1, failedCalls: 0 }],
    },
    {
      endpoint: 'POST /usuarios',
      tests: [{ title: 'global setup', file: '../seed.ts', line: 1, column: 1, calls: 1, failedCalls: 1, serverErrorCalls: 1 }],
    },
  ]);
  expect(report.endpoints[2]?.failedExecutions?.map(({ test: named, callLocation }) => ({ named: named?.title, callLocation }))).toEqual([
    { named: 'global setup', callLocation: { file: '../support/client.ts', line: 8, column: 5 } },
  ]);
});
