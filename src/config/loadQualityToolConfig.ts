import { resolveSettings, type GivenSettings, type ProgramSettings } from './resolveSettings.js';
import { environmentSettings, settingsFileSettings, type EnvironmentRecord, type SettingsSource } from './settingsSources.js';

export { presentValue, type EnvironmentRecord } from './settingsSources.js';

/**
 * Trusted, typed configuration of one workflow run: the settings the runner
 * resolves (see {@link Settings}), with the input file it requires and the
 * report's path under the name the SPEC gives it.
 */
export type QualityToolConfig = Omit<GivenSettings, 'inputPath' | 'outputFile' | 'quiet'> & {
  /** Path of the input file of execution records (QE_INPUT_PATH), relative to the working directory. */
  readonly inputPath: string;
  /** Path of the report file (QE_OUTPUT_PATH), relative to the working directory. Default `.build/quality-summary.json`. */
  readonly outputPath: string;
};

export { DEFAULT_OUTPUT_PATH, DEFAULT_SLOW_RESPONSE_THRESHOLD_MS } from './settings.js';

/** A settings file's path and text, read by the caller (the loader touches no file). */
export interface SettingsFileText {
  readonly path: string;
  readonly text: string;
}

/** What else the loader may take besides the environment. */
export interface LoadConfigOptions {
  /** `quality-evidence.config.json`, when there is one: it gives what the variables leave out. */
  readonly settingsFile?: SettingsFileText | undefined;
}

/**
 * Turns an environment record (and, when given, a settings file's text) into
 * a QualityToolConfig. The environment is a parameter: this function never
 * reads `process.env`. A variable wins over the settings file; every problem
 * is reported at once in one ConfigurationError.
 */
export function loadQualityToolConfig(env: EnvironmentRecord, { settingsFile }: LoadConfigOptions = {}): QualityToolConfig {
  const sources: SettingsSource[] = [environmentSettings(env)];
  if (settingsFile !== undefined) sources.push(settingsFileSettings(settingsFile.path, settingsFile.text));
  const { inputPath, outputFile, quiet, ...settings } = resolveSettings(sources, RUNNER_SETTINGS);
  return { ...settings, inputPath: inputPath!, outputPath: outputFile };
}

/** The runner (`npm run start:environment`): it names its environment and its input, and writes the report where the table says. */
const RUNNER_SETTINGS: ProgramSettings = { required: ['environment', 'inputPath'] };
