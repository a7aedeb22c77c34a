import { isAbsolute, join } from 'node:path';
import { ConfigurationError, type ConfigurationIssue } from '../errors.js';
import { validationIssuesOf, valueAtPath } from '../issues/issuePath.js';
import { renderValue } from '../renderValue.js';
import { SETTING_DEFAULTS, SETTING_KEYS, SETTINGS, type SettingDefinition, type SettingKey, type SettingValues } from './settings.js';
import { describeSettingPlace, type GivenSetting, type SettingsSource } from './settingsSources.js';

/** The settings every program runs with, given or defaulted (those with a default in the table): the rest may be absent. */
type AlwaysSet = { [Key in SettingKey]: (typeof SETTINGS)[Key] extends { readonly default: unknown } ? Key : never }[SettingKey];

/**
 * The one settings model: what the command, the runners and the reporter run
 * with once every source is resolved. Types come from the settings table;
 * a setting no source gave (and that has no default) has no key.
 */
export type Settings = { readonly [Key in AlwaysSet]: SettingValues[Key] } & {
  readonly [Key in Exclude<SettingKey, AlwaysSet>]?: SettingValues[Key];
};

/**
 * Settings as a library caller or a program may give them: the environment
 * and the slow threshold, and any others; {@link withDefaults} completes them.
 */
export type GivenSettings = Pick<Settings, 'environment' | 'slowResponseThresholdMs'> & {
  readonly [Key in Exclude<SettingKey, 'environment' | 'slowResponseThresholdMs'>]?: Settings[Key] | undefined;
};

/**
 * Given settings completed by the table's defaults, once, where a run opens:
 * the code that uses a setting then never supplies a default of its own.
 */
export function withDefaults<Given extends GivenSettings>(given: Given): Given & Settings {
  const completed: Record<string, unknown> = { ...given };
  for (const [key, fallback] of Object.entries(SETTING_DEFAULTS)) completed[key] ??= fallback;
  return completed as Given & Settings;
}

/** What one program asks of the settings, as data: its own defaults over the table's, what it cannot run without, what it does not read. */
export interface ProgramSettings {
  readonly defaults?: { readonly [Key in SettingKey]?: SettingValues[Key] };
  /** Settings the program cannot run without: absent, each is an "is required" issue. */
  readonly required?: readonly SettingKey[];
  /** Settings the program does not take, left unread in every source (the reporter reads no input file). */
  readonly ignored?: readonly SettingKey[];
  /** What the settings are called in the summary line of a ConfigurationError: `quality-evidence/reporter settings`. */
  readonly subject?: string;
}

/**
 * Resolves settings from sources listed in precedence order (flags, reporter
 * options, variables, settings file): for each setting, the first source
 * that gives it wins, then the program's default, then the table's. Every
 * value every source gives is checked, winning or not, so a broken settings
 * file is reported even where a variable overrides it. Throws one
 * ConfigurationError naming every problem in the user's own words:
 * `QE_OUTPUT_PATH`, `option outputFile`, `outputFile in ./quality-evidence.config.json`.
 * Relative paths come back joined to the folder their source names (the
 * working directory for variables and flags, so those stay relative).
 */
export function resolveSettings(
  sources: readonly SettingsSource[],
  { defaults = {}, required = [], ignored = [], subject }: ProgramSettings = {},
): Settings {
  const issues: ConfigurationIssue[] = sources.flatMap((source) => source.issues);
  const resolved: Partial<Record<SettingKey, unknown>> = {};
  for (const key of SETTING_KEYS) {
    if (ignored.includes(key)) continue;
    const definition: SettingDefinition = SETTINGS[key];
    let winner: { value: unknown } | undefined;
    let anyGiven = false;
    for (const source of sources) {
      const given = source.values[key];
      if (given === undefined) continue;
      anyGiven = true;
      const checked = checkSetting(key, given);
      if ('problems' in checked) issues.push(...checked.problems);
      else winner ??= checked;
    }
    // A setting the program requires takes no default: it is given, or it is an issue.
    const fallback = required.includes(key) ? undefined : key in defaults ? defaults[key] : definition.default;
    if (winner !== undefined) resolved[key] = winner.value;
    else if (fallback !== undefined) resolved[key] = fallback;
    else if (!anyGiven && required.includes(key))
      issues.push({ variable: definition.variable ?? key, message: `is required (${definition.purpose})` });
  }
  if (issues.length > 0) throw new ConfigurationError(issues, subject);
  return resolved as Settings;
}

function checkSetting(
  key: SettingKey,
  given: GivenSetting,
): { readonly value: unknown } | { readonly problems: readonly ConfigurationIssue[] } {
  const definition: SettingDefinition = SETTINGS[key];
  // Node.js decodes the environment and the command line as UTF-8 and puts U+FFFD where bytes are not: the
  // bytes are lost, so a value holding it is refused, as an input's bytes that are not UTF-8 are.
  if (given.isText && typeof given.value === 'string' && given.value.includes('\uFFFD')) {
    return {
      problems: [
        {
          variable: describeSettingPlace(given.place),
          message: 'is not UTF-8 text: it holds bytes that are not valid UTF-8 (Node.js reads them as U+FFFD)',
        },
      ],
    };
  }
  const result = given.isText
    ? definition.text.pipe(definition.value).safeParse(given.value, { reportInput: false })
    : definition.value.safeParse(given.value, { reportInput: false });
  if (!result.success) {
    return {
      problems: validationIssuesOf(result.error).map(({ path, message }) => ({
        variable: describeSettingPlace(given.place, path),
        // A variable or a flag may hold a secret put in the wrong place: its value is never shown.
        message: given.isText ? message : `${message}; got ${renderValue(valueAtPath(given.value, path))}`,
      })),
    };
  }
  const value: unknown = result.data;
  const { base } = given;
  if ((definition.isPath !== true && definition.pathValues !== true) || base === undefined) return { value };
  const resolve = (path: string): string => (isAbsolute(path) ? path : join(base, path));
  if (definition.pathValues === true && typeof value === 'object' && value !== null) {
    return {
      value: Object.fromEntries(Object.entries(value).map(([key, path]) => [key, typeof path === 'string' ? resolve(path) : path])),
    };
  }
  if (typeof value === 'string') return { value: resolve(value) };
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return { value: value.map(resolve) };
  return { value };
}
