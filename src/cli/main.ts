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
// The rest of the program, as one module (commandProgram.ts).
const { runCommandProgram } = await import('./commandProgram.js');
await runCommandProgram({ args, env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }, early);
