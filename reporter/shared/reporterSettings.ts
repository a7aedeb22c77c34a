import { join, resolve } from 'node:path';
// Each from its own module, never from the library's entry (src/index.ts): the test workers read these settings, and the
// entry would load every renderer and export into each worker (docs/architecture.md, "What a run loads").
import { DEFAULT_ENVIRONMENT, DEFAULT_OUTPUT_PATH, type SettingsFileInput } from '../../src/config/settings.js';
import { readSettingsFileSync, settingsFileLocation, settingsFileRead } from '../../src/config/readSettingsFile.js';
import { resolveSettings, type Settings } from '../../src/config/resolveSettings.js';
import type { ReadFile } from '../../src/io/writeReportAtomically.js';
import {
  environmentSettings,
  optionSettings,
  settingsFileSettings,
  type EnvironmentRecord,
  type SettingsSource,
} from '../../src/config/settingsSources.js';

/**
 * Options of `['quality-evidence/reporter', { ... }]` in playwright.config.ts:
 * exactly the keys of `quality-evidence.config.json` (see
 * `schemas/settings.schema.json` for what each does). Each falls back to its
 * QE_* variable, then the settings file, then its default.
 */
export type QualityEvidenceReporterOptions = SettingsFileInput;

/** The environment name when no source gives one (the settings table's default). */
export const DEFAULT_REPORTER_ENVIRONMENT = DEFAULT_ENVIRONMENT;

/** What the reporter runs with: the settings (the report's path absolute), and the options it ignored. */
export type ReporterSettings = Settings & {
  /** Options that were ignored, each a warning to print: keys that are not ours and no near miss of one. */
  readonly ignoredOptions: readonly string[];
  /** The settings file (read or looked for): no report file may replace it. */
  readonly settingsFile: ReadFile;
};

// Keys Playwright itself adds to every reporter's options (`_`-prefixed ones are skipped too).
const PLAYWRIGHT_OPTION_KEYS = new Set(['configDir', 'onlyFailures']);

/**
 * Resolves the reporter's settings: its options (as Playwright hands them,
 * with its own `configDir` and `_`-prefixed keys), then the QE_* variables,
 * then `quality-evidence.config.json` (named by QE_CONFIG_PATH, or beside
 * the Playwright config), then the defaults. Throws one ConfigurationError
 * naming every bad option, variable or file key, or an InputUnreadableError
 * when the file QE_CONFIG_PATH names cannot be read.
 */
export function resolveReporterSettings(
  rawOptions: Readonly<Record<string, unknown>>,
  env: EnvironmentRecord,
  cwd: string,
): ReporterSettings {
  const configDir = typeof rawOptions['configDir'] === 'string' ? rawOptions['configDir'] : cwd;
  const options = optionSettings(rawOptions, { owner: 'quality-evidence/reporter', base: configDir, ignoredKeys: PLAYWRIGHT_OPTION_KEYS });
  const sources: SettingsSource[] = [options, environmentSettings(env)];
  const { namedPath } = settingsFileLocation(env, configDir);
  const location = { namedPath: namedPath === undefined ? undefined : resolve(cwd, namedPath), defaultFolder: configDir };
  const settingsFile = readSettingsFileSync(location);
  if (settingsFile !== undefined) sources.push(settingsFileSettings(settingsFile.path, settingsFile.text));
  const settings = resolveSettings(sources, {
    // A relative path resolves against the folder of the Playwright config, as Playwright's own reporters' do.
    defaults: { outputFile: join(configDir, DEFAULT_OUTPUT_PATH) },
    ignored: ['inputPath'],
    subject: 'quality-evidence/reporter settings',
  });
  return {
    ...settings,
    outputFile: resolve(cwd, settings.outputFile),
    ignoredOptions: options.ignored ?? [],
    settingsFile: settingsFileRead(location),
  };
}
