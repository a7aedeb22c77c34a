import { loadQualityToolConfig } from '../config/loadQualityToolConfig.js';
import { nodeFileSystem } from '../workflow/fileSystem.js';
import { runQualityWorkflow } from '../workflow/runQualityWorkflow.js';
import { runCli } from './runCli.js';

// The environment-driven run (npm run start:environment): the only program
// that hands the real process environment to the configuration loader.
await runCli('quality-evidence start:environment', async () => {
  const config = loadQualityToolConfig(process.env);
  const { reportText } = await runQualityWorkflow(config, { fileSystem: nodeFileSystem });
  process.stdout.write(reportText);
});
