import { loadQualityToolConfig } from '../config/loadQualityToolConfig.js';
import { nodeFileSystem } from '../io/fileSystem.js';
import { runQualityWorkflow } from '../workflow/runQualityWorkflow.js';
import { runCli } from './runCli.js';

// The illustrative run (npm start): safe local values and the bundled
// fictional fixture; the real environment is not read.
const illustrativeEnvironment = {
  QE_ENVIRONMENT: 'local-example',
  QE_INPUT_PATH: 'fixtures/quality-executions.json',
};

await runCli('quality-evidence start', async () => {
  const config = loadQualityToolConfig(illustrativeEnvironment);
  const { reportText } = await runQualityWorkflow(config, { fileSystem: nodeFileSystem });
  process.stdout.write(reportText);
});
