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
const [
  { writeFileTo },
  { loadQualityToolConfig },
  { escapeControlCharacters },
  { readSettingsFile, settingsFileLocation, settingsFileRead },
  { nodeFileSystem },
  { runQualityWorkflow },
  { createParallelRanges },
  { budgetExitCode },
  { runCli },
] = await Promise.all([
  import('../src/io/textPieces.js'),
  import('../src/config/loadQualityToolConfig.js'),
  import('../src/renderValue.js'),
  import('../src/config/readSettingsFile.js'),
  import('../src/io/fileSystem.js'),
  import('../src/workflow/runQualityWorkflow.js'),
  import('../src/cli/parallelRanges.js'),
  import('../src/cli/exitCodes.js'),
  import('../src/cli/runCli.js'),
]);

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
