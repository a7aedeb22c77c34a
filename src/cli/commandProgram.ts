import type { EarlyWorkers } from './earlyWorkers.js';
import { runCommand } from './runCommand.js';
import type { CommandContext } from './summariseCommand.js';
import { runCli } from './runCli.js';
import { nodeFileSystem } from '../io/fileSystem.js';
import { createParallelRanges } from './parallelRanges.js';
import { HOLD_WRITE_VARIABLE, holdWritesForTests } from './holdWritesForTests.js';

/** What main.ts reads of the process and hands on. */
export type ProcessParts = Pick<CommandContext, 'args' | 'env' | 'stdin' | 'stdout'> & { readonly stderr: NodeJS.WritableStream };

/**
 * The `quality-evidence` command once its early workers are started
 * (main.ts): one module that imports the rest statically, so that the
 * bundle loads it with the chunks it shares, not a chunk per import (each of
 * which Node resolves, reads and links on its own: 66 modules before a
 * record was read, 51 now).
 */
export async function runCommandProgram(parts: ProcessParts, early: EarlyWorkers): Promise<void> {
  await runCli(
    'quality-evidence',
    () =>
      runCommand({
        ...parts,
        // A test-only hook, inert unless its variable is set (src/cli/holdWritesForTests.ts).
        fileSystem: holdWritesForTests(nodeFileSystem, parts.env[HOLD_WRITE_VARIABLE], parts.stderr),
        programName: 'quality-evidence',
        summariseRanges: createParallelRanges({ early }),
      }),
    { takesArguments: true },
  );
}
