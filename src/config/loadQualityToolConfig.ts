import type { EndpointGrouping } from '../records/endpointLabels.js';
import type { StatusListInput } from '../records/statusList.js';
import type { Budgets } from './budgets.js';
import type { ReportFormat } from './settings.js';
import { resolveSettings } from './resolveSettings.js';
import { environmentSettings, settingsFileSettings, type EnvironmentRecord, type SettingsSource } from './settingsSources.js';

export { presentValue, type EnvironmentRecord } from './settingsSources.js';

/** Trusted, typed configuration of one workflow run. */
export interface QualityToolConfig {
  /** Name of the target environment (QE_ENVIRONMENT), trimmed. */
  readonly environment: string;
  /** Responses strictly slower than this many milliseconds are slow (QE_SLOW_RESPONSE_THRESHOLD_MS). Default 750. */
  readonly slowResponseThresholdMs: number;
  /** Path of the input file of execution records (QE_INPUT_PATH), relative to the working directory. */
  readonly inputPath: string;
  /** Path of the report file (QE_OUTPUT_PATH), relative to the working directory. Default `.build/quality-summary.json`. */
  readonly outputPath: string;
  /** Run-wide expected statuses (QE_EXPECTED_STATUSES); absent: 100-399. */
  readonly expectedStatuses?: StatusListInput | undefined;
  /** Expected statuses per endpoint label (settings file only). */
  readonly expectedStatusesByEndpoint?: Readonly<Record<string, StatusListInput>> | undefined;
  /** Route templates (QE_ROUTES). */
  readonly routes?: readonly string[] | undefined;
  /** Endpoint grouping (QE_ENDPOINT_GROUPING); absent: auto for labels derived from URLs, none for labels people wrote. */
  readonly endpointGrouping?: EndpointGrouping | undefined;
  /** Quality budgets: a budgets file's path (QE_BUDGETS_PATH), or the budgets themselves. */
  readonly budgets?: string | Budgets | undefined;
  /** A previous report to compare with (QE_BASELINE_PATH). */
  readonly baselinePath?: string | undefined;
  /** The files written beside the JSON report (QE_REPORT_FORMATS); absent: JSON, Markdown and HTML. */
  readonly formats?: readonly ReportFormat[] | undefined;
}

/** The documented local example threshold (SPEC 2.1). */
export const DEFAULT_SLOW_RESPONSE_THRESHOLD_MS = 750;
/** Where the report goes when QE_OUTPUT_PATH is absent or whitespace only. */
export const DEFAULT_OUTPUT_PATH = '.build/quality-summary.json';

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
  const settings = resolveSettings(sources, {
    environment: { required: true },
    slowResponseThresholdMs: { default: DEFAULT_SLOW_RESPONSE_THRESHOLD_MS },
    inputPath: { required: true },
    outputFile: { default: DEFAULT_OUTPUT_PATH },
    ...RULE_REQUIREMENTS,
  });
  return {
    environment: settings.environment,
    slowResponseThresholdMs: settings.slowResponseThresholdMs,
    inputPath: settings.inputPath,
    outputPath: settings.outputFile,
    ...definedRules(settings),
  };
}

/** The summary rules, the budgets, the baseline and the report formats, each optional: every program asks for them alike. */
export const RULE_REQUIREMENTS = {
  expectedStatuses: { optional: true },
  expectedStatusesByEndpoint: { optional: true },
  routes: { optional: true },
  endpointGrouping: { optional: true },
  budgets: { optional: true },
  baselinePath: { optional: true },
  formats: { optional: true },
} as const;

type RuleKey = keyof typeof RULE_REQUIREMENTS;

/** The rules, budgets, baseline and formats that were given, and no key for those that were not. */
export function definedRules(settings: { readonly [Key in RuleKey]: QualityToolConfig[Key] }): Pick<QualityToolConfig, RuleKey> {
  const defined: { -readonly [Key in RuleKey]?: unknown } = {};
  for (const key of Object.keys(RULE_REQUIREMENTS) as RuleKey[]) if (settings[key] !== undefined) defined[key] = settings[key];
  return defined as Pick<QualityToolConfig, RuleKey>;
}
