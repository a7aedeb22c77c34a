import type { EarlyWorkers } from '../src/cli/earlyWorkers.js';
import { writeFileTo } from '../src/io/textPieces.js';
import { loadQualityToolConfig } from '../src/config/loadQualityToolConfig.js';
import { escapeControlCharacters } from '../src/renderValue.js';
import { readSettingsFile, settingsFileLocation, settingsFileRead } from '../src/config/readSettingsFile.js';
import { nodeFileSystem } from '../src/io/fileSystem.js';
import { runQualityWorkflow } from '../src/workflow/runQualityWorkflow.js';
import { createParallelRanges } from '../src/cli/parallelRanges.js';
import { budgetExitCode } from '../src/cli/exitCodes.js';
import { runCli } from '../src/cli/runCli.js';

/**
 * The environment-driven run once its early workers are started (startEnvironment.ts): one module that imports the
 * rest statically, so that the bundle loads it as one chunk and the few it shares, not one chunk per import.
 */
export async function runFromEnvironment(early: EarlyWorkers): Promise<void> {
  await runCli('quality-evidence start:environment', async () => {
    const location = settingsFileLocation(process.env, '.');
    const settingsFile = await readSettingsFile(nodeFileSystem, location);
    const config = loadQualityToolConfig(process.env, { settingsFile });
    const { report, files, warnings } = await runQualityWorkflow(
      config,
      { fileSystem: nodeFileSystem, summariseRanges: createParallelRanges({ early }) },
      { env: process.env, reads: [settingsFileRead(location)] },
    );
    await writeFileTo(process.stdout, nodeFileSystem, files[0]!);
    for (const warning of warnings)
      process.stderr.write(`quality-evidence start:environment: warning: ${escapeControlCharacters(warning)}\n`);
    return budgetExitCode(report, 'quality-evidence start:environment', process.stderr);
  });
}
