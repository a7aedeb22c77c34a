import { expect, test } from './support/test.js';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { repositoryRoot } from './support/runProgram.js';

// `quality-evidence/test` is a drop-in for `@playwright/test`: every name
// Playwright exports, as a value or a type, with `test` (and the default
// export, which is `test`) replaced, and recordRequests besides. Checked on
// what ships: both builds' declarations (the suite's global setup has built
// them) and both builds' modules, against the Playwright this repository
// locks.

// The TypeScript compiler over Playwright's declarations and both builds', and both builds loaded beside
// Playwright: about 8 s of CPU in all, but over the default 30 s a test on a loaded machine; 120 s each.
test.describe.configure({ timeout: 120_000 });

const require = createRequire(import.meta.url);
const playwrightDeclarations = join(dirname(require.resolve('@playwright/test/package.json')), 'index.d.ts');
const builds = { 'ES module': '.build/reporter/test', CommonJS: '.build/cjs/reporter/test' } as const;

/** What a name means to TypeScript: a value, a type, a namespace, or several at once. */
function meaningOf(symbol: ts.Symbol): string {
  return [
    (symbol.flags & ts.SymbolFlags.Value) !== 0 ? 'value' : '',
    (symbol.flags & ts.SymbolFlags.Type) !== 0 ? 'type' : '',
    (symbol.flags & ts.SymbolFlags.Namespace) !== 0 ? 'namespace' : '',
  ]
    .filter(Boolean)
    .join(' and ');
}

/**
 * Every name each declaration file exports, with its meaning, as the compiler
 * sees it through every `export *` and alias.
 */
function exportedNames(files: readonly string[]): Array<Record<string, string>> {
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  return files.map((file) => {
    const source = program.getSourceFile(file);
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`${file} is not a module the compiler can read`);
    return Object.fromEntries(
      checker
        .getExportsOfModule(module)
        .map(
          (symbol) =>
            [symbol.name, meaningOf((symbol.flags & ts.SymbolFlags.Alias) !== 0 ? checker.getAliasedSymbol(symbol) : symbol)] as const,
        ),
    );
  });
}

test('both builds declare every value and type @playwright/test exports, and recordRequests and TestInfoSource besides', () => {
  const [playwright, ...ours] = exportedNames([
    playwrightDeclarations,
    ...Object.values(builds).map((build) => join(repositoryRoot, `${build}.d.ts`)),
  ]);

  expect(Object.keys(playwright ?? {})).toEqual(
    expect.arrayContaining(['APIRequestContext', 'Page', 'PlaywrightTestConfig', 'defineConfig', 'devices', 'expect', 'test', 'default']),
  );
  for (const [index, build] of Object.keys(builds).entries()) {
    expect.soft(ours[index], build).toEqual({ ...playwright, recordRequests: 'value', TestInfoSource: 'type' });
  }
});

/**
 * How each export of a module compares with @playwright/test's export of the
 * same name: the same object, the module's own `test`, or its own alone.
 */
function compareExports(ours: Readonly<Record<string, unknown>>, playwright: Readonly<Record<string, unknown>>): Record<string, string> {
  return Object.fromEntries(
    Object.keys(ours).map((name) => [
      name,
      !(name in playwright) && name !== 'default'
        ? 'ours alone'
        : ours[name] === ours['test'] && ours[name] !== playwright['test']
          ? 'our test'
          : ours[name] === playwright[name]
            ? 'the same'
            : isRecordingRequest(ours[name], playwright[name])
              ? 'our recording request'
              : 'different',
    ]),
  );
}

/** Whether `ours` is Playwright's `request` with only `newContext` its own. */
function isRecordingRequest(ours: unknown, playwright: unknown): boolean {
  if (typeof ours !== 'object' || ours === null || typeof playwright !== 'object' || playwright === null) return false;
  const newContext = (ours as Record<string, unknown>)['newContext'];
  return typeof newContext === 'function' && newContext !== (playwright as Record<string, unknown>)['newContext'];
}

test('the ES module build exports every value of @playwright/test, the same object but for test, default and request', async () => {
  const playwright = (await import('@playwright/test')) as Record<string, unknown>;
  const ours = (await import(pathToFileURL(join(repositoryRoot, `${builds['ES module']}.js`)).href)) as Record<string, unknown>;

  expect(compareExports(ours, playwright)).toEqual({
    ...Object.fromEntries(Object.keys(playwright).map((name) => [name, 'the same'])),
    test: 'our test',
    default: 'our test',
    request: 'our recording request',
    recordRequests: 'ours alone',
  });
});

test('the CommonJS build exports every property of require("@playwright/test"), the same object but for test and request, and test as default', () => {
  const playwright = require('@playwright/test') as Record<string, unknown>;
  const ours = require(join(repositoryRoot, `${builds.CommonJS}.js`)) as Record<string, unknown>;

  expect(Object.keys(playwright)).toEqual(expect.arrayContaining(['defineConfig', 'devices', 'expect', 'request', 'test']));
  expect(compareExports(ours, playwright)).toEqual({
    ...Object.fromEntries(Object.keys(playwright).map((name) => [name, 'the same'])),
    test: 'our test',
    default: 'our test',
    request: 'our recording request',
    recordRequests: 'ours alone',
  });
});
