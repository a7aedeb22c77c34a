import { loadQualityToolConfig } from '../src/config/loadQualityToolConfig.js';
import { readSettingsFile, settingsFileLocation } from '../src/config/readSettingsFile.js';
import { nodeFileSystem } from '../src/io/fileSystem.js';
import { runQualityWorkflow } from '../src/workflow/runQualityWorkflow.js';
import { createParallelRanges } from '../src/cli/parallelRanges.js';
import { budgetExitCode } from '../src/cli/exitCodes.js';
import { runCli } from '../src/cli/runCli.js';

// The environment-driven run (npm run start:environment): the only program
// that hands the real process environment to the configuration loader. A
// settings file (QE_CONFIG_PATH, or ./quality-evidence.config.json) gives
// what the variables leave out.
await runCli('quality-evidence start:environment', async () => {
  const settingsFile = await readSettingsFile(nodeFileSystem, settingsFileLocation(process.env, '.'));
  const config = loadQualityToolConfig(process.env, { settingsFile });
  const { report, reportText } = await runQualityWorkflow(config, { fileSystem: nodeFileSystem, summariseRanges: createParallelRanges() });
  process.stdout.write(reportText);
  return budgetExitCode(report, 'quality-evidence start:environment', process.stderr);
});
