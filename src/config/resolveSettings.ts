import { isAbsolute, join } from 'node:path';
import { ConfigurationError, type ConfigurationIssue } from '../errors.js';
import { renderValue } from '../renderValue.js';
import { SETTING_KEYS, SETTINGS, type SettingDefinition, type SettingKey, type SettingValues } from './settings.js';
import type { GivenSetting, SettingsSource } from './settingsSources.js';

/** What a program needs of one setting: it must be given, it falls back to a default, or it may be absent. */
export type SettingRequirement<Value> = { readonly required: true } | { readonly default: Value } | { readonly optional: true };

/** The settings a program asks for, each required or with its default. */
export type SettingRequirements = { readonly [Key in SettingKey]?: SettingRequirement<SettingValues[Key]> };

/** The resolved values of the settings asked for. */
export type ResolvedSettings<Requirements extends SettingRequirements> = {
  readonly [Key in keyof Requirements & SettingKey]: Requirements[Key] extends { readonly optional: true } ? SettingValues[Key] | undefined : SettingValues[Key];
};

/**
 * Resolves settings from sources listed in precedence order (flags, reporter
 * options, variables, settings file): for each setting asked for, the first
 * source that gives it wins, then the default. Every value every source
 * gives is checked, winning or not, so a broken settings file is reported
 * even where a variable overrides it. Throws one ConfigurationError naming
 * every problem in the user's own words: `QE_OUTPUT_PATH`, `option "outputFile"`,
 * `"outputFile" in ./quality-evidence.config.json`. Relative paths come back
 * joined to the folder their source names (the working directory for
 * variables and flags, so those stay relative).
 */
export function resolveSettings<Requirements extends SettingRequirements>(
  sources: readonly SettingsSource[],
  requirements: Requirements,
  subject?: string,
): ResolvedSettings<Requirements> {
  const issues: ConfigurationIssue[] = sources.flatMap((source) => source.issues);
  const resolved: Partial<Record<SettingKey, unknown>> = {};
  for (const key of SETTING_KEYS) {
    const requirement: SettingRequirement<unknown> | undefined = requirements[key];
    if (requirement === undefined) continue;
    let winner: { value: unknown } | undefined;
    let anyGiven = false;
    for (const source of sources) {
      const given = source.values[key];
      if (given === undefined) continue;
      anyGiven = true;
      const checked = checkSetting(key, given);
      if ('problem' in checked) issues.push({ variable: given.name, message: checked.problem });
      else winner ??= checked;
    }
    if (winner !== undefined) resolved[key] = winner.value;
    else if ('default' in requirement) resolved[key] = requirement.default;
    else if (!anyGiven && 'required' in requirement) issues.push({ variable: (SETTINGS[key] as SettingDefinition).variable ?? `"${key}"`, message: `is required (${SETTINGS[key].purpose})` });
  }
  if (issues.length > 0) throw new ConfigurationError(issues, subject);
  return resolved as ResolvedSettings<Requirements>;
}

function checkSetting(key: SettingKey, given: GivenSetting): { readonly value: unknown } | { readonly problem: string } {
  const definition: SettingDefinition = SETTINGS[key];
  const result = given.isText
    ? definition.text.pipe(definition.value).safeParse(given.value, { reportInput: false })
    : definition.value.safeParse(given.value, { reportInput: false });
  if (!result.success) {
    const first = result.error.issues[0];
    // Where in a structured value (a key of an object of settings), when not at its top.
    const where = first === undefined || first.path.length === 0 ? '' : `${first.path.map((part) => (typeof part === 'number' ? `item ${part + 1}` : `at ${JSON.stringify(String(part))}`)).join(', ')}: `;
    // A bad key of a record (an endpoint label) carries its own issue inside.
    const detail = first?.code === 'invalid_key' ? first.issues[0]?.message : first?.message;
    const message = `${where}${detail ?? 'is invalid'}`;
    // A variable or a flag may hold a secret put in the wrong place: its value is never shown.
    return { problem: given.isText ? message : `${message}; got ${renderValue(given.value)}` };
  }
  const value: unknown = result.data;
  if (definition.isPath === true && typeof value === 'string' && given.base !== undefined && !isAbsolute(value)) {
    return { value: join(given.base, value) };
  }
  return { value };
}
