#!/usr/bin/env node
// `quality-evidence`: the command-line tool. The one place that reads the
// process's arguments, environment and streams and hands them on.
import { runCommand } from './runCommand.js';
import { runCli } from './runCli.js';
import { nodeFileSystem } from '../io/fileSystem.js';
import { createParallelRanges } from './parallelRanges.js';
import { HOLD_WRITE_VARIABLE, holdWritesForTests } from './holdWritesForTests.js';

await runCli(
  'quality-evidence',
  () =>
    runCommand({
      args: process.argv.slice(2),
      env: process.env,
      // A test-only hook, inert unless its variable is set (src/cli/holdWritesForTests.ts).
      fileSystem: holdWritesForTests(nodeFileSystem, process.env[HOLD_WRITE_VARIABLE], process.stderr),
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      programName: 'quality-evidence',
      summariseRanges: createParallelRanges(),
    }),
  { takesArguments: true },
);
