import { dirname } from 'node:path';
import { InputSyntaxError, type ConfigurationIssue } from '../errors.js';
import { parseInputJson } from '../input/parseInputJson.js';
import { formatIssuePath } from '../issues/issuePath.js';
import { describeType } from '../renderValue.js';
import { OPTION_KEYS, SETTING_KEYS, SETTINGS, SETTINGS_FILE_NAME, type SettingDefinition, type SettingKey } from './settings.js';
import { nearMissOf } from './nearMiss.js';

/** The environment as the outermost program sees it: untrusted text values. */
export type EnvironmentRecord = Readonly<Record<string, string | undefined>>;

/**
 * Where a source gave a setting, in the user's own words: `QE_OUTPUT_PATH`,
 * `--output`, `option outputFile`, `outputFile in ./quality-evidence.config.json`.
 * A place inside the value continues its root in the one path grammar
 * ({@link formatIssuePath}): `option budgets.endpoints["GET /a"].maxFailedExecutions`.
 */
export interface SettingPlace {
  /** The variable, the flag, or the key (already in the path grammar). */
  readonly root: string;
  readonly prefix?: string;
  readonly suffix?: string;
}

/** A setting's place, and the place inside its value when `path` is given. */
export function describeSettingPlace({ root, prefix = '', suffix = '' }: SettingPlace, path: readonly PropertyKey[] = []): string {
  return `${prefix}${formatIssuePath(path, root)}${suffix}`;
}

/** One value of one setting, as a source gave it. */
export interface GivenSetting {
  readonly value: unknown;
  /** Where the value was given, for messages. */
  readonly place: SettingPlace;
  /** Text to be parsed (a variable, a flag), or a typed value (an option, a file). Text values are never shown in messages. */
  readonly isText: boolean;
  /** The folder a relative path in this value is relative to; absent for the working directory. */
  readonly base?: string;
}

/** What one source of settings gives: its values, and what it could not make sense of. */
export interface SettingsSource {
  readonly values: Readonly<Partial<Record<SettingKey, GivenSetting>>>;
  /** Problems with the source as a whole: unknown keys, a file that is not JSON. */
  readonly issues: readonly ConfigurationIssue[];
  /** What is ignored, for a warning: an option that is not ours and is no near miss of one (a host may add keys of its own). */
  readonly ignored?: readonly string[];
}

/**
 * The rule for every `QE_*` value: trimmed, and absent when nothing is left.
 * Exported so that every reader of these variables judges presence alike.
 */
export function presentValue(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** The `QE_*` variables of an environment record. */
export function environmentSettings(env: EnvironmentRecord): SettingsSource {
  const values: Partial<Record<SettingKey, GivenSetting>> = {};
  for (const key of SETTING_KEYS) {
    const { variable } = SETTINGS[key] as SettingDefinition;
    if (variable === undefined) continue;
    const text = presentValue(env[variable]);
    if (text !== undefined) values[key] = { value: text, place: { root: variable }, isText: true };
  }
  return { values, issues: [] };
}

/**
 * The flags of the `quality-evidence` command, as `util.parseArgs` gives them
 * (`{ output: 'x.json', quiet: true }`), named `--output` in messages. Text
 * values go through the same rules as variables and are never shown.
 */
export function flagSettings(flags: Readonly<Record<string, string | boolean | readonly string[] | undefined>>): SettingsSource {
  const values: Partial<Record<SettingKey, GivenSetting>> = {};
  for (const key of SETTING_KEYS) {
    const { flag } = SETTINGS[key] as SettingDefinition;
    if (flag === undefined) continue;
    const value = flags[flag.name];
    if (value === undefined) continue;
    // A repeatable flag (--route a --route b) reads as the comma-separated text of its variable.
    const text = typeof value === 'string' ? value.trim() : typeof value === 'boolean' ? undefined : value.join(',');
    const place = { root: `--${flag.name}` };
    values[key] = text === undefined ? { value, place, isText: false } : { value: text, place, isText: true };
  }
  return { values, issues: [] };
}

/** How {@link optionSettings} names its owner and treats keys it does not own. */
export interface OptionSourceContext {
  /** Who takes these options, for messages: `quality-evidence/reporter`. */
  readonly owner: string;
  /** The folder relative paths are relative to. */
  readonly base: string;
  /** Keys the host adds that are not ours (Playwright's `configDir`); `_`-prefixed keys are always skipped. */
  readonly ignoredKeys?: ReadonlySet<string>;
}

/** Typed options, as a host such as Playwright hands them to the reporter. */
export function optionSettings(
  options: Readonly<Record<string, unknown>>,
  { owner, base, ignoredKeys = new Set() }: OptionSourceContext,
): SettingsSource {
  const values: Partial<Record<SettingKey, GivenSetting>> = {};
  const issues: ConfigurationIssue[] = [];
  const ignored: string[] = [];
  for (const [name, value] of Object.entries(options)) {
    if (ignoredKeys.has(name) || name.startsWith('_')) continue;
    if (!isOptionKey(name)) {
      // A near miss of an option is a typo that would silently lose a setting: an error. Anything
      // else may be a key a newer host adds to every reporter's options: a warning, so that a host's
      // update cannot stop every user's run.
      const meant = nearMissOf(name, OPTION_KEYS);
      if (meant === undefined) ignored.push(`option ${formatIssuePath([name])} is not an option of ${owner}; it is ignored`);
      else
        issues.push({
          variable: `option ${formatIssuePath([name])}`,
          message: `is not an option of ${owner}; did you mean "${meant}"? (known: ${OPTION_KEYS.join(', ')})`,
        });
      continue;
    }
    if (value !== undefined) values[name] = { value, place: { prefix: 'option ', root: formatIssuePath([name]) }, isText: false, base };
  }
  return { values, issues, ignored };
}

/**
 * The settings of a `quality-evidence.config.json` text read from `path`:
 * a JSON object holding the reporter's option keys (and `$schema`). Relative
 * paths in it are relative to the file's folder. Anything else in the file is
 * an issue naming the key and the file.
 */
export function settingsFileSettings(path: string, text: string): SettingsSource {
  const where = ` in ${path}`;
  const read = parseConfigurationJson(path, text);
  if ('issue' in read) return { values: {}, issues: [read.issue] };
  const { document } = read;
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    return { values: {}, issues: [{ variable: path, message: `must hold a JSON object of settings; found ${describeType(document)}` }] };
  }
  const values: Partial<Record<SettingKey, GivenSetting>> = {};
  const issues: ConfigurationIssue[] = [];
  for (const [name, value] of Object.entries(document)) {
    if (name === '$schema') continue;
    if (!isOptionKey(name)) {
      issues.push({
        variable: `${formatIssuePath([name])}${where}`,
        message: `is not a setting of ${SETTINGS_FILE_NAME} (known: ${OPTION_KEYS.join(', ')})`,
      });
      continue;
    }
    values[name] = { value, place: { root: formatIssuePath([name]), suffix: where }, isText: false, base: dirname(path) };
  }
  return { values, issues };
}

/**
 * Parses a configuration file's text (settings, budgets): the document, or
 * the issue that it is not JSON, naming the file with the line and column.
 */
export function parseConfigurationJson(
  path: string,
  text: string,
): { readonly document: unknown } | { readonly issue: ConfigurationIssue } {
  try {
    return { document: parseInputJson(text) };
  } catch (error) {
    if (!(error instanceof InputSyntaxError)) throw error;
    const at = error.line === undefined ? '' : ` at line ${error.line}, column ${String(error.column)}`;
    return { issue: { variable: path, message: `is not well-formed JSON${at}` } };
  }
}

function isOptionKey(name: string): name is (typeof OPTION_KEYS)[number] {
  return (OPTION_KEYS as readonly string[]).includes(name);
}
