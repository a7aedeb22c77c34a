import { dirname, resolve } from 'node:path';
import type { FileSystem } from '../../src/io/fileSystem.js';

/**
 * Where a spec file takes its `test` from, as far as its source tells: the
 * file a user must change so that its API calls are recorded. A spec whose
 * `test` comes from a fixture file of its own must not import
 * `quality-evidence/test` beside it (its tests would fail with `Test has
 * unknown parameter`): the fixture file must take `test` from there.
 */
export type TestSource =
  /** `@playwright/test` (or `playwright/test`): the spec itself is the file to change. */
  | { readonly kind: 'playwright' }
  /** `quality-evidence/test` already. */
  | { readonly kind: 'quality-evidence' }
  /**
   * A fixture file of the project, resolved from a relative import: that file is the one to change.
   * `merges` when it builds `test` with `mergeTests` from `@playwright/test` (its fixtures extend other
   * files' tests): the change there is to add quality-evidence's `test` to the merge. `records` when it
   * takes `test` from `quality-evidence/test` already: its calls went out some other way.
   */
  | { readonly kind: 'fixture file'; readonly path: string; readonly merges?: boolean; readonly records?: boolean }
  /** A module that cannot be followed (a path alias, a package, a relative import to no file found). */
  | { readonly kind: 'module'; readonly specifier: string }
  /** No import of `test` was found (a global, a re-export through `*`, a source that could not be read). */
  | { readonly kind: 'unknown' };

const PLAYWRIGHT_MODULES = new Set(['@playwright/test', 'playwright/test']);
const QUALITY_EVIDENCE_MODULES = new Set(['quality-evidence/test']);

// `import { a, test as b, type C } from 'x'`, with an optional default import first.
const NAMED_IMPORT = /\bimport\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*(['"])([^'"\n]+)\2/g;
// `const { test, expect } = require('x')`, `const { base: test } = require('x')`.
const NAMED_REQUIRE = /\b(?:const|let|var)\s*\{([^}]*)\}\s*=\s*require\s*\(\s*(['"])([^'"\n]+)\2\s*\)/g;
// Block comments, and line comments that take a whole line: an import written in a comment is none.
const COMMENTS = /\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm;

/** The module a spec's source takes its `test` binding from, or undefined when no import of it is found. */
export function testModuleOf(source: string): string | undefined {
  const code = source.replace(COMMENTS, '');
  for (const [pattern, localName] of [
    [NAMED_IMPORT, (specifier: string) => /(?:^|\s)as\s+([\w$]+)$/.exec(specifier)?.[1] ?? specifier.replace(/^type\s+/, '')],
    [NAMED_REQUIRE, (specifier: string) => /:\s*([\w$]+)$/.exec(specifier)?.[1] ?? specifier],
  ] as const) {
    for (const match of code.matchAll(pattern)) {
      const names = (match[1] ?? '').split(',').map((specifier) => localName(specifier.trim()));
      if (names.includes('test')) return match[3];
    }
  }
  return undefined;
}

// What a relative specifier may name on disk: as written, a TypeScript source behind a `.js` specifier, an extension left out, a folder's index.
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const SOURCE_OF_OUTPUT: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};

/**
 * Where the spec at `specPath`, whose text is `source`, takes `test` from.
 * A relative import is resolved to the file it names, as TypeScript and
 * Playwright's loader do for the common cases; `isFile` says whether a path
 * is a file.
 */
export async function testSourceOf(
  specPath: string,
  source: string,
  isFile: (path: string) => boolean | Promise<boolean>,
  aliases?: PathAliases,
): Promise<TestSource> {
  const specifier = testModuleOf(source);
  if (specifier === undefined) return { kind: 'unknown' };
  if (PLAYWRIGHT_MODULES.has(specifier)) return { kind: 'playwright' };
  if (QUALITY_EVIDENCE_MODULES.has(specifier)) return { kind: 'quality-evidence' };
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) {
    // A path alias of the project's tsconfig (`@fixtures/api.fixture`), as Playwright's loader resolves it.
    for (const target of aliasTargetsOf(specifier, aliases)) {
      const found = await fileNamed(target, isFile);
      if (found !== undefined) return { kind: 'fixture file', path: found };
    }
    return { kind: 'module', specifier };
  }
  const found = await fileNamed(resolve(dirname(specPath), specifier), isFile);
  return found === undefined ? { kind: 'module', specifier } : { kind: 'fixture file', path: found };
}

/** The `paths` of a tsconfig, with the folder they resolve against (its `baseUrl`, else its own folder). */
export interface PathAliases {
  readonly baseDir: string;
  readonly paths: Readonly<Record<string, readonly string[]>>;
}

/** The files a specifier may name through the aliases: each target of the first pattern that matches (exact, or with one `*`). */
export function aliasTargetsOf(specifier: string, aliases: PathAliases | undefined): string[] {
  if (aliases === undefined) return [];
  for (const [pattern, targets] of Object.entries(aliases.paths)) {
    const star = pattern.indexOf('*');
    let captured: string | undefined;
    if (star === -1) captured = pattern === specifier ? '' : undefined;
    else if (
      specifier.startsWith(pattern.slice(0, star)) &&
      specifier.endsWith(pattern.slice(star + 1)) &&
      specifier.length >= pattern.length - 1
    ) {
      captured = specifier.slice(star, specifier.length - (pattern.length - star - 1));
    }
    if (captured !== undefined) return targets.map((target) => resolve(aliases.baseDir, target.replace('*', captured)));
  }
  return [];
}

/**
 * The aliases of the tsconfig.json nearest a spec (its folder, then each one
 * up): `compilerOptions.paths` resolved against `baseUrl`; undefined when
 * there is none or it cannot be read. Comments and trailing commas, which
 * tsconfig files allow, are taken out before parsing.
 */
export async function pathAliasesOf(specPath: string, fileSystem: FileSystem): Promise<PathAliases | undefined> {
  for (let folder = dirname(specPath); ; folder = dirname(folder)) {
    const path = resolve(folder, 'tsconfig.json');
    if ((await fileSystem.stat(path).catch(() => undefined))?.kind === 'file') {
      try {
        const text = withoutJsonComments(await fileSystem.readFile(path));
        const { compilerOptions } = JSON.parse(text) as { compilerOptions?: { baseUrl?: unknown; paths?: unknown } };
        const paths = compilerOptions?.paths;
        if (typeof paths !== 'object' || paths === null) return undefined;
        const baseDir = typeof compilerOptions?.baseUrl === 'string' ? resolve(folder, compilerOptions.baseUrl) : folder;
        const entries = Object.entries(paths).filter(
          (entry): entry is [string, string[]] => Array.isArray(entry[1]) && entry[1].every((target) => typeof target === 'string'),
        );
        return { baseDir, paths: Object.fromEntries(entries) };
      } catch {
        return undefined;
      }
    }
    if (dirname(folder) === folder) return undefined;
  }
}

/**
 * A tsconfig's text as JSON: comments and trailing commas taken out, outside
 * strings only (`"include": ["**\/*.ts"]` holds no comment).
 */
export function withoutJsonComments(text: string): string {
  let out = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === '"') {
      const end = endOfString(text, index);
      out += text.slice(index, end);
      index = end - 1;
    } else if (char === '/' && text[index + 1] === '/') {
      while (index < text.length && text[index] !== '\n') index++;
      out += '\n';
    } else if (char === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2);
      index = end === -1 ? text.length : end + 1;
    } else out += char;
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

// The index after the string that opens at `start`, escapes skipped.
function endOfString(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length && text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
  return index + 1;
}

/** The file a path names, as TypeScript and Playwright's loader find it for the common cases; undefined for none. */
async function fileNamed(base: string, isFile: (path: string) => boolean | Promise<boolean>): Promise<string | undefined> {
  const extension = /\.[cm]?jsx?$/.exec(base)?.[0];
  const candidates = [
    ...(extension === undefined ? [] : (SOURCE_OF_OUTPUT[extension] ?? []).map((source) => base.slice(0, -extension.length) + source)),
    base,
    ...EXTENSIONS.map((added) => base + added),
    ...EXTENSIONS.map((added) => resolve(base, `index${added}`)),
  ];
  for (const candidate of candidates) {
    if (await isFile(candidate)) return candidate;
  }
  return undefined;
}

/** Whether a fixture file's source builds its tests with `mergeTests` imported from Playwright. */
export function mergesTests(source: string): boolean {
  const code = source.replace(COMMENTS, '');
  for (const match of code.matchAll(NAMED_IMPORT)) {
    if (!PLAYWRIGHT_MODULES.has(match[3] ?? '')) continue;
    if ((match[1] ?? '').split(',').some((specifier) => /^\s*mergeTests\b/.test(specifier))) return true;
  }
  return false;
}

/** Whether a fixture file's source takes `test`, under any local name, from `quality-evidence/test`. */
export function takesRecordingTest(source: string): boolean {
  return moduleOfImported(source, 'test', QUALITY_EVIDENCE_MODULES) !== undefined;
}

/**
 * The module of Playwright (`@playwright/test`, `playwright/test`) that a
 * source takes `request` from, under any local name, by an import or a
 * require; undefined when it takes it from neither (from
 * `quality-evidence/test`, say). A global setup file that makes its API
 * contexts with that `request` sends calls no report can see.
 */
export function playwrightRequestModuleOf(source: string): string | undefined {
  return moduleOfImported(source, 'request', PLAYWRIGHT_MODULES);
}

/** The first of `modules` that a source imports `name` from (as it is exported, whatever it is called locally), by an import or a require. */
function moduleOfImported(source: string, name: string, modules: ReadonlySet<string>): string | undefined {
  const code = source.replace(COMMENTS, '');
  const imported = new RegExp(`^\\s*${name}\\b(?!\\$)`);
  for (const pattern of [NAMED_IMPORT, NAMED_REQUIRE]) {
    for (const match of code.matchAll(pattern)) {
      if (!modules.has(match[3] ?? '')) continue;
      if ((match[1] ?? '').split(',').some((specifier) => imported.test(specifier))) return match[3];
    }
  }
  return undefined;
}

/**
 * {@link testSourceOf} for a spec file in a file system, read once, and the
 * fixture file it names read too, to tell whether it merges tests and
 * whether it records already; a file
 * that cannot be read tells nothing.
 */
export async function testSourceOfFile(specPath: string, fileSystem: FileSystem): Promise<TestSource> {
  try {
    const text = await fileSystem.readFile(specPath);
    const aliased = testModuleOf(text);
    const aliases = aliased !== undefined && !aliased.startsWith('.') ? await pathAliasesOf(specPath, fileSystem) : undefined;
    const source = await testSourceOf(specPath, text, async (path) => (await fileSystem.stat(path))?.kind === 'file', aliases);
    if (source.kind !== 'fixture file') return source;
    const fixture = await fileSystem.readFile(source.path).catch(() => '');
    return { ...source, ...(mergesTests(fixture) ? { merges: true } : {}), ...(takesRecordingTest(fixture) ? { records: true } : {}) };
  } catch {
    return { kind: 'unknown' };
  }
}
