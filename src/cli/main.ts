#!/usr/bin/env node
// `quality-evidence`: the command-line tool. The one place that reads the
// process's arguments, environment and streams and hands them on.
import { startEarlyWorkers } from './earlyWorkers.js';
import { isSubcommandName } from './subcommandNames.js';

const args = process.argv.slice(2);
// A large input's worker threads start first and load while this thread loads
// the rest of the program (earlyWorkers.ts): the default command's only, the
// one that reads records.
const early = startEarlyWorkers(isSubcommandName(args[0]) ? [] : args);
const [{ runCommand }, { runCli }, { nodeFileSystem }, { createParallelRanges }, { HOLD_WRITE_VARIABLE, holdWritesForTests }] =
  await Promise.all([
    import('./runCommand.js'),
    import('./runCli.js'),
    import('../io/fileSystem.js'),
    import('./parallelRanges.js'),
    import('./holdWritesForTests.js'),
  ]);

await runCli(
  'quality-evidence',
  () =>
    runCommand({
      args,
      env: process.env,
      // A test-only hook, inert unless its variable is set (src/cli/holdWritesForTests.ts).
      fileSystem: holdWritesForTests(nodeFileSystem, process.env[HOLD_WRITE_VARIABLE], process.stderr),
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      programName: 'quality-evidence',
      summariseRanges: createParallelRanges({ early }),
    }),
  { takesArguments: true },
);
