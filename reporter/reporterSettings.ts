import { join, resolve } from 'node:path';
import { DEFAULT_OUTPUT_PATH, DEFAULT_SLOW_RESPONSE_THRESHOLD_MS, settingsFileLocation, type EnvironmentRecord } from '../src/index.js';
import { definedRules, RULE_REQUIREMENTS } from '../src/config/loadQualityToolConfig.js';
import type { Budgets } from '../src/config/budgets.js';
import type { ReportFormat } from '../src/config/settings.js';
import type { EvidenceRules } from '../src/records/evidenceRules.js';
import type { JudgementSettings } from '../src/workflow/judgement.js';
import { readSettingsFileSync, settingsFileRead } from '../src/config/readSettingsFile.js';
import type { ReadFile } from '../src/io/writeReportAtomically.js';
import { resolveSettings } from '../src/config/resolveSettings.js';
import { environmentSettings, optionSettings, settingsFileSettings, type SettingsSource } from '../src/config/settingsSources.js';

/** Options of `['quality-evidence/reporter', { ... }]` in playwright.config.ts; also the keys of `quality-evidence.config.json`. */
export interface QualityEvidenceReporterOptions {
  /**
   * Path of the report. A relative path resolves against the folder of the
   * Playwright config. Falls back to QE_OUTPUT_PATH (relative to the working
   * directory), then to `outputFile` in the settings file (relative to its
   * folder), then to `.build/quality-summary.json` beside the config.
   */
  readonly outputFile?: string;
  /** Executions strictly slower than this many milliseconds are slow. Falls back to QE_SLOW_RESPONSE_THRESHOLD_MS, the settings file, then 750. */
  readonly slowResponseThresholdMs?: number;
  /** Name of the target environment. Falls back to QE_ENVIRONMENT, the settings file, then `local`. */
  readonly environment?: string;
  /** When true, no closing line with the report's path and numbers. Falls back to QE_QUIET, the settings file, then false. */
  readonly quiet?: boolean;
  /**
   * Statuses that are not failures, run-wide: `"100-399,404"`, or an array
   * of codes and range strings. Falls back to QE_EXPECTED_STATUSES, the
   * settings file, then `100-399` (failed means 400 or above).
   */
  readonly expectedStatuses?: string | readonly (number | string)[];
  /** Expected statuses per endpoint label (after templating), overriding the run-wide rule: `{ "DELETE /booking/:id": "200-299,403" }`. */
  readonly expectedStatusesByEndpoint?: Readonly<Record<string, string | readonly (number | string)[]>>;
  /** Route templates such as `/orders/:orderId`; a label that matches one is reported as the template. Falls back to QE_ROUTES. */
  readonly routes?: readonly string[];
  /** `auto` or `none`; falls back to QE_ENDPOINT_GROUPING, then auto for the recording fixture's labels and none for recordExecution's. */
  readonly endpointGrouping?: 'auto' | 'none';
  /**
   * Quality budgets, as an object (the budgets file's content) or a budgets
   * file's path; a breach marks the run failed and says why on stderr.
   * Falls back to QE_BUDGETS_PATH, then the settings file.
   */
  readonly budgets?: Budgets | string;
  /** A previous report (main's) to compare with; falls back to QE_BASELINE_PATH, then the settings file. */
  readonly baselinePath?: string;
  /**
   * The files written beside the JSON report (which is always written):
   * `json`, `markdown` (also appended to $GITHUB_STEP_SUMMARY when it is set),
   * `html`. Falls back to QE_REPORT_FORMATS, the settings file, then all three.
   */
  readonly formats?: readonly ('json' | 'markdown' | 'html')[] | string;
}

/** The environment name when no source gives one. */
export const DEFAULT_REPORTER_ENVIRONMENT = 'local';

/** What the reporter runs with. */
export interface ReporterSettings extends EvidenceRules, JudgementSettings {
  readonly environment: string;
  /** Absolute path of the report. */
  readonly outputPath: string;
  readonly quiet: boolean;
  /** The files written beside the JSON report; absent: all. */
  readonly formats?: readonly ReportFormat[] | undefined;
  /** Options that were ignored, each a warning to print: keys that are not ours and no near miss of one. */
  readonly ignoredOptions: readonly string[];
  /** The settings file (read or looked for): no report file may replace it. */
  readonly settingsFile: ReadFile;
}

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
export function resolveReporterSettings(rawOptions: Readonly<Record<string, unknown>>, env: EnvironmentRecord, cwd: string): ReporterSettings {
  const configDir = typeof rawOptions['configDir'] === 'string' ? rawOptions['configDir'] : cwd;
  const options = optionSettings(rawOptions, { owner: 'quality-evidence/reporter', base: configDir, ignoredKeys: PLAYWRIGHT_OPTION_KEYS });
  const sources: SettingsSource[] = [options, environmentSettings(env)];
  const { namedPath } = settingsFileLocation(env, configDir);
  const location = { namedPath: namedPath === undefined ? undefined : resolve(cwd, namedPath), defaultFolder: configDir };
  const settingsFile = readSettingsFileSync(location);
  if (settingsFile !== undefined) sources.push(settingsFileSettings(settingsFile.path, settingsFile.text));
  const settings = resolveSettings(
    sources,
    {
      environment: { default: DEFAULT_REPORTER_ENVIRONMENT },
      slowResponseThresholdMs: { default: DEFAULT_SLOW_RESPONSE_THRESHOLD_MS },
      outputFile: { default: join(configDir, DEFAULT_OUTPUT_PATH) },
      quiet: { default: false },
      ...RULE_REQUIREMENTS,
    },
    'quality-evidence/reporter settings',
  );
  return {
    environment: settings.environment,
    slowResponseThresholdMs: settings.slowResponseThresholdMs,
    outputPath: resolve(cwd, settings.outputFile),
    quiet: settings.quiet,
    ...definedRules(settings),
    ignoredOptions: options.ignored ?? [],
    settingsFile: settingsFileRead(location),
  };
}
