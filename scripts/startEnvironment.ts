import { startEarlyWorkers } from '../src/cli/earlyWorkers.js';

// The environment-driven run (npm run start:environment): the only program
// that hands the real process environment to the configuration loader. A
// settings file (QE_CONFIG_PATH, or ./quality-evidence.config.json) gives
// what the variables leave out. When GITHUB_STEP_SUMMARY names a file, the
// Markdown summary is appended to it.

// A large QE_INPUT_PATH's worker threads start first and load while this
// thread loads the rest of the program (src/cli/earlyWorkers.ts).
const inputPath = process.env['QE_INPUT_PATH'];
const early = startEarlyWorkers(inputPath === undefined ? [] : [inputPath]);
const { runFromEnvironment } = await import('./environmentRun.js');
await runFromEnvironment(early);
