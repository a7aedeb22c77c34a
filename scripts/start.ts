import { writeFileTo } from '../src/io/textPieces.js';
import { loadQualityToolConfig } from '../src/config/loadQualityToolConfig.js';
import { nodeFileSystem } from '../src/io/fileSystem.js';
import { runQualityWorkflow } from '../src/workflow/runQualityWorkflow.js';
import { budgetExitCode } from '../src/cli/exitCodes.js';
import { runCli } from '../src/cli/runCli.js';

// The illustrative run (npm start): safe local values and the bundled
// fictional fixture; the real environment is not read.
const illustrativeEnvironment = {
  QE_ENVIRONMENT: 'local-example',
  QE_INPUT_PATH: 'fixtures/quality-executions.json',
};

await runCli('quality-evidence start', async () => {
  const config = loadQualityToolConfig(illustrativeEnvironment);
  const { report, files } = await runQualityWorkflow(config, { fileSystem: nodeFileSystem });
  await writeFileTo(process.stdout, nodeFileSystem, files[0]!);
  return budgetExitCode(report, 'quality-evidence start', process.stderr);
});
