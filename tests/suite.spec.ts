import fc from 'fast-check';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRunFolder } from './support/globalSetup.js';
import { STRESS_SPECS, UNIT_SPECS } from './support/lanes.js';
import { CI_PROPERTY_SEED, choosePropertySeed } from './support/properties.js';
import { createTemporaryFolder, repositoryRoot } from './support/runProgram.js';
import { thrownBy } from './support/failures.js';
import { expect, test } from './support/test.js';

// The suite's own rules. Its lanes (tests/support/lanes.ts) hold what they
// promise: the unit lane runs without a build and in seconds because none of
// its specs starts a process, a thread or a browser, or loads compiled code.
// Every child process gets the run's own temporary folder, which the
// teardown checks. Property seeds are fixed under CI, drawn otherwise, and
// replay a failure.

const testsFolder = join(repositoryRoot, 'tests');
const specFiles = readdirSync(testsFolder).filter((name) => name.endsWith('.spec.ts'));
const sourceOf = (file: string): string => readFileSync(join(testsFolder, file), 'utf8');

test('every listed spec exists, and none is listed twice or in two lanes', () => {
  const listed = [...UNIT_SPECS, ...STRESS_SPECS];
  expect(listed.filter((file) => !specFiles.includes(file))).toEqual([]);
  expect(listed.filter((file, index) => listed.indexOf(file) !== index)).toEqual([]);
});

/**
 * What makes a spec slow or dependent on `.build`, each with what shows it
 * in the spec's import statements (or, for compiled code, anywhere in it).
 */
const OUTSIDE_THE_PROCESS: readonly (readonly [string, 'imports' | 'source', RegExp])[] = [
  ['starts a child process', 'imports', /'node:child_process'|\b(?:runProgram|runWatched)\b[\s,}]/],
  ['starts a worker thread', 'imports', /'node:worker_threads'|parallelRanges\.js'/],
  ['runs Playwright in a project of its own or packs the package', 'imports', /playwrightProject\.js'/],
  ['opens a browser', 'imports', /\bchromium\b/],
  ['mounts a file system', 'imports', /tmpfs\.js'/],
  ['loads compiled code', 'source', /\.build\/(?:src|reporter|scripts|tests|cjs)\//],
];

for (const file of UNIT_SPECS) {
  test(`${file}, in the unit lane, stays in this process and needs no build`, () => {
    const source = sourceOf(file);
    const text = { source, imports: (source.match(/^import\b[^;]*;/gm) ?? []).join('\n') };
    expect(OUTSIDE_THE_PROCESS.filter(([, where, pattern]) => pattern.test(text[where])).map(([what]) => what)).toEqual([]);
  });
}

test('no spec gives a child process an environment of its own making: childEnvironment adds the run’s TMPDIR', () => {
  expect(specFiles.filter((file) => /env:\s*\{\s*PATH:/.test(sourceOf(file)))).toEqual([]);
});

test('every spec that runs git gives it the suite\u2019s identity and none of the machine\u2019s git configuration (GIT_ENVIRONMENT)', () => {
  expect(specFiles.filter((file) => /\(\s*'git',/.test(sourceOf(file)) && !/\bGIT_ENVIRONMENT\b/.test(sourceOf(file)))).toEqual([]);
});

test('every spec that runs tsc, npm, a build or a Playwright run of its own sets a timeout for it: the default 30 s is for specs that do little', () => {
  const heavy = /playwrightProject\.js'|\btsc\b|from 'typescript'|'npm'|build\.mjs/;
  const timed = /test\.setTimeout\(|test\.describe\.configure\(\{[^}]*\btimeout\b/;
  // This file names the patterns without running anything.
  expect(specFiles.filter((file) => file !== 'suite.spec.ts' && heavy.test(sourceOf(file)) && !timed.test(sourceOf(file)))).toEqual([]);
});

test.describe('the run\u2019s temporary folder', () => {
  test('an empty one is removed at the end', async () => {
    const run = createRunFolder(await createTemporaryFolder({}, 'suite'));
    run.finish();
    expect(existsSync(run.folder)).toBe(false);
  });

  test('one holding anything fails the run, naming what is left, and is kept for a look', async () => {
    const run = createRunFolder(await createTemporaryFolder({}, 'suite'));
    writeFileSync(join(run.folder, 'quality-evidence-left-behind'), '');
    expect((thrownBy(run.finish) as Error).message).toBe(
      `the suite left 1 entries in its temporary folder ${run.folder} (kept for a look): quality-evidence-left-behind`,
    );
    expect(readdirSync(run.folder)).toEqual(['quality-evidence-left-behind']);
  });
});

test.describe('the seed of the property specs', () => {
  const draw = () => 12_345;

  test('under CI=true, the fixed one, whatever the draw', () => {
    expect(choosePropertySeed({ CI: 'true' }, draw)).toEqual({ seed: CI_PROPERTY_SEED, why: 'fixed under CI=true' });
  });

  test('elsewhere, a fresh draw', () => {
    expect(choosePropertySeed({}, draw)).toEqual({ seed: 12_345, why: 'random; CI=true fixes it' });
    expect(choosePropertySeed({ CI: '1' }, draw)).toEqual({ seed: 12_345, why: 'random; CI=true fixes it' });
  });

  test('QE_PROPERTY_SEED replays a seed as fast-check prints it, negative too, under CI or not', () => {
    expect(choosePropertySeed({ QE_PROPERTY_SEED: '-1819257', CI: 'true' }, draw)).toEqual({ seed: -1_819_257, why: 'QE_PROPERTY_SEED' });
    expect(choosePropertySeed({ QE_PROPERTY_SEED: '42' }, draw)).toEqual({ seed: 42, why: 'QE_PROPERTY_SEED' });
  });

  test('a QE_PROPERTY_SEED that is not a whole number is refused', () => {
    for (const seed of ['', 'abc', '1.5', '1e3', '12345678901']) {
      expect((thrownBy(() => choosePropertySeed({ QE_PROPERTY_SEED: seed }, draw)) as Error).message).toBe(
        'QE_PROPERTY_SEED must be a whole number, the seed a failing property printed',
      );
    }
  });

  test('a failing property prints its seed, and that seed finds the same counterexample again', () => {
    const failing = fc.property(fc.integer({ min: 0, max: 1_000 }), (value) => value % 7 !== 3);
    const failureWith = (seed: number): string => {
      const error = thrownBy(() => {
        fc.assert(failing, { seed, numRuns: 1_000 });
      });
      return (error as Error).message;
    };
    const first = failureWith(2_024);
    expect(first).toContain('seed: 2024,');
    expect(failureWith(2_024)).toBe(first);
  });
});
