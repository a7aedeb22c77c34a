import { SETTING_FLAG_OPTIONS, SETTING_KEYS, SETTINGS, type SettingDefinition, type SettingKey } from '../config/settings.js';
import type { EnvironmentRecord } from '../config/settingsSources.js';

/**
 * A subcommand that takes some of the settings (check: the exports'; compare:
 * those and the formats, the level and quiet) takes them as the table names
 * them: their flags for `util.parseArgs`, their variables from the
 * environment, and every other setting ignored.
 */

/** The `util.parseArgs` options of these settings' flags. */
export function settingFlagOptions(keys: readonly SettingKey[]): { [flag: string]: (typeof SETTING_FLAG_OPTIONS)[string] } {
  return Object.fromEntries(
    keys.flatMap((key) => {
      const { flag } = SETTINGS[key] as SettingDefinition;
      return flag === undefined ? [] : [[flag.name, SETTING_FLAG_OPTIONS[flag.name]!]];
    }),
  );
}

/** Only these settings' variables of an environment: the command reads no other. */
export function settingVariables(env: EnvironmentRecord, keys: readonly SettingKey[]): EnvironmentRecord {
  const names = keys.flatMap((key) => (SETTINGS[key] as SettingDefinition).variable ?? []);
  return Object.fromEntries(names.flatMap((name) => (env[name] === undefined ? [] : [[name, env[name]]])));
}

/** Every setting but these: what the command ignores (`ignored` of resolveSettings). */
export function settingsBut(keys: readonly SettingKey[]): SettingKey[] {
  return SETTING_KEYS.filter((key) => !keys.includes(key));
}
