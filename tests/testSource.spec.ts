import { join } from 'node:path';
import {
  aliasTargetsOf,
  withoutJsonComments,
  mergesTests,
  playwrightRequestModuleOf,
  takesRecordingTest,
  testModuleOf,
  testSourceOf,
  testSourceOfFile,
} from '../reporter/runner/testSource.js';
import { globalHookRequestHints, unrecordedCallHints } from '../reporter/runner/unrecordedHints.js';
import { expect, test } from './support/test.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';

// Where a spec takes its `test` from, read from its source: the file the
// unrecorded-calls hint names as the one to change.

test('the module of the test binding, from an import or a require, renamed or not; none in a comment', () => {
  expect(testModuleOf(`import { expect, test } from '@playwright/test';`)).toBe('@playwright/test');
  expect(testModuleOf(`import { expect } from '@playwright/test';\nimport { test } from "./fixtures";`)).toBe('./fixtures');
  expect(testModuleOf(`import { it as test } from '../support/test.js';`)).toBe('../support/test.js');
  expect(testModuleOf(`import base, { type Page, test } from 'quality-evidence/test';`)).toBe('quality-evidence/test');
  expect(testModuleOf(`const { test, expect } = require('./fixtures');`)).toBe('./fixtures');
  expect(testModuleOf(`const { base: test } = require("@fixtures/api");`)).toBe('@fixtures/api');
  expect(
    testModuleOf(`// import { test } from '@playwright/test';\n/* import { test } from './x'; */\nimport { test as base } from './y';`),
  ).toBeUndefined();
});

test('a relative import resolves to the fixture file, through a .js specifier, a missing extension or a folder index', async () => {
  const files = new Set(['/p/tests/fixtures.ts', '/p/support/test.ts', '/p/tests/api/index.ts']);
  const isFile = (path: string) => files.has(path);
  expect(await testSourceOf('/p/tests/a.spec.ts', `import { test } from './fixtures';`, isFile)).toEqual({
    kind: 'fixture file',
    path: '/p/tests/fixtures.ts',
  });
  expect(await testSourceOf('/p/tests/a.spec.ts', `import { test } from '../support/test.js';`, isFile)).toEqual({
    kind: 'fixture file',
    path: '/p/support/test.ts',
  });
  expect(await testSourceOf('/p/tests/a.spec.ts', `import { test } from './api';`, isFile)).toEqual({
    kind: 'fixture file',
    path: '/p/tests/api/index.ts',
  });
  expect(await testSourceOf('/p/tests/a.spec.ts', `import { test } from './nowhere';`, isFile)).toEqual({
    kind: 'module',
    specifier: './nowhere',
  });
  expect(await testSourceOf('/p/tests/a.spec.ts', `import { test } from '@fixtures';`, isFile)).toEqual({
    kind: 'module',
    specifier: '@fixtures',
  });
  expect(await testSourceOf('/p/tests/a.spec.ts', `import { test } from '@playwright/test';`, isFile)).toEqual({ kind: 'playwright' });
  expect(await testSourceOf('/p/tests/a.spec.ts', `test('global', () => {});`, isFile)).toEqual({ kind: 'unknown' });
});

test("a spec file is read, and its fixture file found, through the reporter's file system; a spec that cannot be read tells nothing", async () => {
  const fileSystem = new MemoryFileSystem({ '/p/tests/a.spec.ts': `import { test } from './fixtures';`, '/p/tests/fixtures.ts': '' }).place(
    '/p/tests/fixtures',
    'folder',
  );
  expect(await testSourceOfFile('/p/tests/a.spec.ts', fileSystem)).toEqual({ kind: 'fixture file', path: '/p/tests/fixtures.ts' });
  expect(await testSourceOfFile('/p/tests/gone.spec.ts', fileSystem)).toEqual({ kind: 'unknown' });
});

test(`a path alias of the nearest tsconfig (paths, baseUrl; comments and trailing commas allowed) resolves to the fixture \
file, as Playwright's loader resolves it`, async () => {
  const fileSystem = new MemoryFileSystem({
    '/p/tsconfig.json': `{
      // Aliases of the suite (restful-booker's, ankushnikure/playwright-restful-booker-api)
      "compilerOptions": { "baseUrl": "./src", "paths": { "@fixtures/*": ["fixtures/*"], "@api": ["api/index.ts"], }, },
      /* a block comment */ "include": ["**/*.ts"], "exclude": ["a//b"],
    }`,
    '/p/tests/booking/get.spec.ts': `import { test, expect } from "@fixtures/api.fixture";`,
    '/p/tests/booking/other.spec.ts': `import { test } from "@unknown/thing";`,
    '/p/src/fixtures/api.fixture.ts': `import { test as base } from "@playwright/test";`,
  });
  expect(await testSourceOfFile('/p/tests/booking/get.spec.ts', fileSystem)).toEqual({
    kind: 'fixture file',
    path: '/p/src/fixtures/api.fixture.ts',
  });
  expect(await testSourceOfFile('/p/tests/booking/other.spec.ts', fileSystem)).toEqual({ kind: 'module', specifier: '@unknown/thing' });
  expect(aliasTargetsOf('@api', { baseDir: '/p/src', paths: { '@api': ['api/index.ts'] } })).toEqual(['/p/src/api/index.ts']);
  expect(aliasTargetsOf('@apis/x', { baseDir: '/p/src', paths: { '@api/*': ['api/*'] } })).toEqual([]);
  expect(JSON.parse(withoutJsonComments('{ "a": "/* not a comment */", "b": ["**/*.ts", "x//y"], // gone\n "c": 1, /* gone */ }'))).toEqual(
    { a: '/* not a comment */', b: ['**/*.ts', 'x//y'], c: 1 },
  );
});

test("a fixture file that builds test with Playwright's mergeTests is told apart, under any local name", () => {
  expect(
    mergesTests(
      `import { mergeTests as mergeMultipleFixtures } from "@playwright/test";\nexport const test = mergeMultipleFixtures(a, b);`,
    ),
  ).toBe(true);
  expect(mergesTests(`import { expect, mergeTests } from 'playwright/test';`)).toBe(true);
  expect(mergesTests(`import { mergeTests } from 'quality-evidence/test';`)).toBe(false);
  expect(mergesTests(`import { test as base } from '@playwright/test';\nexport const test = base.extend({});`)).toBe(false);
  expect(mergesTests(`// import { mergeTests } from '@playwright/test';`)).toBe(false);
});

test('a spec whose fixture file merges tests is told so, the fixture file read through the file system', async () => {
  const fileSystem = new MemoryFileSystem({
    '/p/api/a.spec.ts': `import { test } from '../fixtures/merged';`,
    '/p/fixtures/merged.ts': `import { mergeTests } from '@playwright/test';\nimport { auth } from './auth';\nexport const test = mergeTests(auth);`,
  });
  expect(await testSourceOfFile('/p/api/a.spec.ts', fileSystem)).toEqual({
    kind: 'fixture file',
    path: '/p/fixtures/merged.ts',
    merges: true,
  });
  const [hint] = unrecordedCallHints(
    [{ spec: '/p/api/a.spec.ts', count: 2, source: { kind: 'fixture file', path: '/p/fixtures/merged.ts', merges: true } }],
    '/p',
  );
  expect(hint).toBe(
    '  - fixtures/merged.ts: 2 calls from api/a.spec.ts, which take test from this file; ' +
      "record them by adding quality-evidence's test to this file's mergeTests call: " +
      "import { test as recorded } from 'quality-evidence/test', then mergeTests(recorded, …) " +
      '(not by importing it in the specs)',
  );
});

test('a spec whose fixture file takes test from quality-evidence/test already is told so: its calls went out some other way', async () => {
  const fileSystem = new MemoryFileSystem({
    '/p/tests/a.spec.js': `import { test } from '../support/baseTest';`,
    '/p/support/baseTest.js': `import { test as base, expect, request } from 'quality-evidence/test';\nexport const test = base.extend({});`,
  });
  const source = await testSourceOfFile('/p/tests/a.spec.js', fileSystem);
  expect(source).toEqual({ kind: 'fixture file', path: '/p/support/baseTest.js', records: true });
  expect(unrecordedCallHints([{ spec: '/p/tests/a.spec.js', count: 3, source }], '/p')).toEqual([
    '  - support/baseTest.js: 3 calls from tests/a.spec.js, which take test from this file; ' +
      "this file takes test from 'quality-evidence/test' already, " +
      "so they were sent some other way (a context from @playwright/test's request, or another HTTP client); " +
      "make contexts with the request that 'quality-evidence/test' exports, or record them with recordExecution",
  ]);
  expect(takesRecordingTest(`const { test: base } = require('quality-evidence/test');`)).toBe(true);
  expect(takesRecordingTest(`import { test as base } from '@playwright/test';\nimport { expect } from 'quality-evidence/test';`)).toBe(
    false,
  );
});

test('the hint names each file to change: the spec, the fixture file for its specs, or what could not be told', () => {
  const cwd = '/p';
  const hints = unrecordedCallHints(
    [
      { spec: join(cwd, 'tests/plain.spec.ts'), count: 1, source: { kind: 'playwright' } },
      { spec: join(cwd, 'tests/b.spec.ts'), count: 2, source: { kind: 'fixture file', path: join(cwd, 'tests/fixtures.ts') } },
      { spec: join(cwd, 'tests/a.spec.ts'), count: 1, source: { kind: 'fixture file', path: join(cwd, 'tests/fixtures.ts') } },
      { spec: join(cwd, 'tests/alias.spec.ts'), count: 1, source: { kind: 'module', specifier: '@fixtures' } },
      { spec: join(cwd, 'tests/odd\n.spec.ts'), count: 1, source: { kind: 'unknown' } },
    ],
    cwd,
  );
  expect(hints).toEqual([
    '  - tests/alias.spec.ts: 1 call; its test comes from "@fixtures", which could not be followed: ' +
      "record them where that module takes test from @playwright/test, by taking it from 'quality-evidence/test' there",
    '  - tests/fixtures.ts: 3 calls from tests/a.spec.ts, tests/b.spec.ts, which take test from this file; ' +
      "record them by having this file take test from 'quality-evidence/test' instead of '@playwright/test' " +
      '(not by importing it in the specs)',
    "  - tests/odd\\u000a.spec.ts: 1 call; record them by taking test from 'quality-evidence/test', in this file or in the fixture file it takes test from",
    "  - tests/plain.spec.ts: 1 call; record them with: import { test, expect } from 'quality-evidence/test'",
  ]);
});

test(`a spec that takes test from quality-evidence/test already is told where such calls come from: a context of \
@playwright/test's request, often in a helper`, () => {
  // Seen adopting a suite whose API client classes made their contexts with request from @playwright/test.
  expect(unrecordedCallHints([{ spec: '/p/tests/users.spec.ts', count: 2, source: { kind: 'quality-evidence' } }], '/p')).toEqual([
    '  - tests/users.spec.ts: 2 calls; its test already comes from quality-evidence/test, ' +
      "so they were sent some other way: most often a context made with the request of '@playwright/test', " +
      "in this file or a helper it calls (an API client class); import request from 'quality-evidence/test' there, or " +
      'record them with recordExecution',
  ]);
});

test("a global setup's request is Playwright's when it is imported or required from @playwright/test or playwright/test, renamed or not", () => {
  expect(playwrightRequestModuleOf(`import { request, type FullConfig } from '@playwright/test';`)).toBe('@playwright/test');
  expect(playwrightRequestModuleOf(`import { expect, request as api } from "playwright/test";`)).toBe('playwright/test');
  expect(playwrightRequestModuleOf(`const { request } = require('@playwright/test');`)).toBe('@playwright/test');
  expect(playwrightRequestModuleOf(`const { request: pw } = require('@playwright/test');`)).toBe('@playwright/test');
  expect(
    playwrightRequestModuleOf(`import { request } from 'quality-evidence/test';\nimport { expect } from '@playwright/test';`),
  ).toBeUndefined();
  expect(playwrightRequestModuleOf(`import { requestContext, request$ } from '@playwright/test';`)).toBeUndefined();
  expect(playwrightRequestModuleOf(`// import { request } from '@playwright/test';\nexport default async () => {};`)).toBeUndefined();
});

test('the global setup hint names each file relative to the working folder, in order, its control characters escaped', () => {
  expect(
    globalHookRequestHints(
      [
        { file: '/p/setup/teardown.ts', module: 'playwright/test' },
        { file: '/p/global\nsetup.ts', module: '@playwright/test' },
      ],
      '/p',
    ),
  ).toEqual([
    'global\\u000asetup.ts calls the API with request from @playwright/test, which the report cannot see: ' +
      "import { request } from 'quality-evidence/test' there",
    "setup/teardown.ts calls the API with request from playwright/test, which the report cannot see: import { request } from 'quality-evidence/test' there",
  ]);
});
