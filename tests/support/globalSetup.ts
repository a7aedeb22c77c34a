import { mkdtempSync, readdirSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { choosePropertySeed } from './properties.js';

// The suite's global setup, in the runner before any worker starts (the
// workers inherit the environment it sets).
//
// The run gets a temporary folder of its own, set as TMPDIR for the workers
// and for every child process the specs start (childEnvironment in
// tests/support/runProgram.ts), so that each run counts only what it made
// itself, and two runs on one machine never see each other's files.
//
// Every property of the run draws from one seed, chosen here and printed
// (tests/support/properties.ts), so that a failure anywhere replays with it.
//
// The returned function is the suite's global teardown: every spec removes
// what it creates (tests/support/test.ts), and the teardown proves it.
export default function globalSetup(): () => void {
  // Playwright keeps its transform cache in the temporary folder, and the
  // Playwright runs that specs start would make a new one in the run's folder
  // each time: every Playwright of the run shares the one this runner uses,
  // which outlives the run, as it would without the suite. (PWTEST_CACHE_DIR
  // is its older name, for the floor Playwright of .ci/run.)
  const transformCache =
    process.env['PLAYWRIGHT_TRANSFORM_CACHE_DIR'] ??
    process.env['PWTEST_CACHE_DIR'] ??
    join(tmpdir(), `playwright-transform-cache-${String(process.geteuid?.())}`);
  process.env['PLAYWRIGHT_TRANSFORM_CACHE_DIR'] = transformCache;
  process.env['PWTEST_CACHE_DIR'] = transformCache;
  const run = createRunFolder(tmpdir());
  process.env['TMPDIR'] = run.folder;
  const { seed, why } = choosePropertySeed(process.env);
  process.env['QE_PROPERTY_SEED'] = String(seed);
  // On stderr, so that a reporter writing to stdout (--reporter=json) stays valid.
  process.stderr.write(`Property specs: seed ${seed} (${why}); QE_PROPERTY_SEED=${seed} replays a failure.\n`);
  return run.finish;
}

/** A run's own temporary folder, and what checks it at the end. */
export interface RunFolder {
  readonly folder: string;
  /** Removes the folder when it is empty; when it is not, keeps it for a look and throws, naming what is left. */
  readonly finish: () => void;
}

/** Makes a run's temporary folder, `qe-suite-run-…`, in `parent`. */
export function createRunFolder(parent: string): RunFolder {
  const folder = mkdtempSync(join(parent, 'qe-suite-run-'));
  return {
    folder,
    finish: () => {
      const left = readdirSync(folder).sort();
      if (left.length > 0)
        throw new Error(
          `the suite left ${left.length} entries in its temporary folder ${folder} (kept for a look): ${left.slice(0, 10).join(', ')}`,
        );
      rmdirSync(folder);
    },
  };
}
