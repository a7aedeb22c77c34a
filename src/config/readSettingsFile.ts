import { join } from 'node:path';
import { InputUnreadableError } from '../errors.js';
import type { FileSystem } from '../io/fileSystem.js';
import { CONFIGURATION_FILE_LIMIT_BYTES, readInputFile, readInputFileSync } from '../io/readInputFile.js';
import type { ReadFile } from '../io/writeReportAtomically.js';
import type { SettingsFileText } from './loadQualityToolConfig.js';
import { SETTINGS_FILE_NAME, SETTINGS_FILE_VARIABLE } from './settings.js';
import { presentValue, type EnvironmentRecord } from './settingsSources.js';

/** Where to look for the settings file. */
export interface SettingsFileLocation {
  /** A path the user named (`QE_CONFIG_PATH`, `--config`): it must exist. */
  readonly namedPath?: string | undefined;
  /** The folder whose `quality-evidence.config.json` is used if it exists. */
  readonly defaultFolder: string;
}

/** The settings-file location an environment names: `QE_CONFIG_PATH`, or the default file in `defaultFolder`. */
export function settingsFileLocation(env: EnvironmentRecord, defaultFolder: string): SettingsFileLocation {
  return { namedPath: presentValue(env[SETTINGS_FILE_VARIABLE]), defaultFolder };
}

/**
 * Reads the settings file: the named one, which must exist (a missing one is
 * an InputUnreadableError, exit 66), or else `quality-evidence.config.json`
 * in the default folder, which is simply not used when it does not exist.
 * It is read as strictly as an input (see {@link readInputFile}): UTF-8, at
 * most {@link CONFIGURATION_FILE_LIMIT_BYTES}.
 */
export async function readSettingsFile(fileSystem: FileSystem, location: SettingsFileLocation): Promise<SettingsFileText | undefined> {
  const path = settingsFilePath(location);
  try {
    return { path, text: await readInputFile(fileSystem, path, 'settings file', CONFIGURATION_FILE_LIMIT_BYTES) };
  } catch (error) {
    if (isMissingDefault(location, error)) return undefined;
    throw error;
  }
}

/**
 * {@link readSettingsFile}, synchronously, from the real file system: for
 * the Playwright reporter, whose constructor is synchronous and must stop
 * the run before any test when the settings are bad.
 */
export function readSettingsFileSync(location: SettingsFileLocation): SettingsFileText | undefined {
  const path = settingsFilePath(location);
  try {
    return { path, text: readInputFileSync(path, 'settings file', CONFIGURATION_FILE_LIMIT_BYTES) };
  } catch (error) {
    if (isMissingDefault(location, error)) return undefined;
    throw error;
  }
}

/**
 * The settings file as a file the run reads, which no report file may
 * replace: the named one, or the default one, even where it does not exist
 * yet (a report written there would be the next run's settings).
 */
export function settingsFileRead(location: SettingsFileLocation): ReadFile {
  return { path: settingsFilePath(location), what: 'settings file', evenIfMissing: location.namedPath === undefined };
}

function settingsFilePath({ namedPath, defaultFolder }: SettingsFileLocation): string {
  return namedPath ?? join(defaultFolder, SETTINGS_FILE_NAME);
}

// An absent default file means "no settings file"; anything else is an error.
function isMissingDefault(location: SettingsFileLocation, error: unknown): boolean {
  const cause = error instanceof InputUnreadableError ? error.cause : undefined;
  const missing = typeof cause === 'object' && cause !== null && 'code' in cause && cause.code === 'ENOENT';
  return location.namedPath === undefined && missing;
}
