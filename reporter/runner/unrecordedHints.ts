import { displayPath } from '../../src/io/displayPath.js';
import { escapeControlCharacters } from '../../src/renderValue.js';
import { countOf } from '../../src/report/renderers/presentation.js';
import { compareCodeUnits } from '../../src/compareCodeUnits.js';
import type { TestSource } from './testSource.js';

/** The spec files whose tests sent calls that no record accounts for: how many each, and where each takes `test` from. */
export interface UnrecordedSpec {
  /** The spec file's absolute path. */
  readonly spec: string;
  readonly count: number;
  readonly source: TestSource;
}

const FIX = "import { test, expect } from 'quality-evidence/test'";

/**
 * One line per file to change, each naming it and what to change there: a
 * spec that takes `test` from `@playwright/test` is the file; specs that take
 * it from a fixture file of the project are listed under that file, which is
 * the one to change (importing `quality-evidence/test` into such a spec
 * breaks it); where the source cannot be followed, the line says so. Paths
 * are shown relative to `cwd`, their controls escaped.
 */
export function unrecordedCallHints(specs: readonly UnrecordedSpec[], cwd: string): string[] {
  const shown = (path: string) => escapeControlCharacters(displayPath(path, cwd));
  const byFixture = new Map<string, UnrecordedSpec[]>();
  const lines: { file: string; line: string }[] = [];
  for (const entry of specs) {
    const { spec, count, source } = entry;
    if (source.kind === 'fixture file') {
      byFixture.set(source.path, [...(byFixture.get(source.path) ?? []), entry]);
      continue;
    }
    const calls = `${shown(spec)}: ${countOf(count, 'call')}`;
    const advice =
      source.kind === 'playwright'
        ? `record them with: ${FIX}`
        : source.kind === 'quality-evidence'
          ? 'its test already comes from quality-evidence/test, so they were sent some other way: ' +
            "most often a context made with the request of '@playwright/test', " +
            "in this file or a helper it calls (an API client class); import request from 'quality-evidence/test' there, " +
            'or record them with recordExecution'
          : source.kind === 'module'
            ? `its test comes from ${escapeControlCharacters(JSON.stringify(source.specifier))}, ` +
              'which could not be followed: record them where that module takes test from @playwright/test, ' +
              "by taking it from 'quality-evidence/test' there"
            : `record them by taking test from 'quality-evidence/test', in this file or in the fixture file it takes test from`;
    lines.push({ file: shown(spec), line: `${calls}; ${advice}` });
  }
  for (const [fixture, entries] of byFixture) {
    const total = entries.reduce((sum, entry) => sum + entry.count, 0);
    const from = entries.map((entry) => shown(entry.spec)).sort(compareCodeUnits);
    const merges = entries.some((entry) => entry.source.kind === 'fixture file' && entry.source.merges === true);
    const records = entries.some((entry) => entry.source.kind === 'fixture file' && entry.source.records === true);
    const advice = records
      ? "this file takes test from 'quality-evidence/test' already, " +
        "so they were sent some other way (a context from @playwright/test's request, or another HTTP client); " +
        "make contexts with the request that 'quality-evidence/test' exports, or record them with recordExecution"
      : merges
        ? "record them by adding quality-evidence's test to this file's mergeTests call: " +
          "import { test as recorded } from 'quality-evidence/test', then mergeTests(recorded, …) " +
          '(not by importing it in the specs)'
        : `record them by having this file take test from 'quality-evidence/test' instead of '@playwright/test' (not by importing it in the specs)`;
    lines.push({
      file: shown(fixture),
      line: `${shown(fixture)}: ${countOf(total, 'call')} from ${from.join(', ')}, which take test from this file; ${advice}`,
    });
  }
  return lines.sort((a, b) => compareCodeUnits(a.file, b.file)).map(({ line }) => `  - ${line}`);
}

/** A global setup or teardown file that takes `request` from Playwright: its absolute path, and the module as written. */
export interface PlaywrightRequestFile {
  readonly file: string;
  readonly module: string;
}

/**
 * One line per global setup or teardown file that makes its API contexts
 * with Playwright's own `request`: no test runs there, so no step shows its
 * calls, and neither the report nor its count of unrecorded calls can see
 * them. Paths are shown relative to `cwd`, their controls escaped.
 */
export function globalHookRequestHints(files: readonly PlaywrightRequestFile[], cwd: string): string[] {
  return files
    .map(({ file, module }) => ({ shown: escapeControlCharacters(displayPath(file, cwd)), module }))
    .sort((a, b) => compareCodeUnits(a.shown, b.shown))
    .map(
      ({ shown, module }) =>
        `${shown} calls the API with request from ${module}, which the report cannot see: import { request } from 'quality-evidence/test' there`,
    );
}
