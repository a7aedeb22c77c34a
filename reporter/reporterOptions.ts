import { resolve } from 'node:path';
import {
  ConfigurationError,
  loadReportSettings,
  presentValue,
  type ConfigurationIssue,
  type EnvironmentRecord,
  type ReportSettings,
} from '../src/index.js';
import { renderValue } from '../src/renderValue.js';

/** Options of `['quality-evidence/reporter', { ... }]` in playwright.config.ts. */
export interface QualityEvidenceReporterOptions {
  /**
   * Path of the report. A relative path resolves against the folder of the
   * Playwright config. Falls back to QE_OUTPUT_PATH (relative to the working
   * directory), then to `.build/quality-summary.json` beside the config.
   */
  readonly outputFile?: string;
  /** Executions strictly slower than this many milliseconds are slow. Falls back to QE_SLOW_RESPONSE_THRESHOLD_MS, then 750. */
  readonly slowResponseThresholdMs?: number;
  /** Name of the target environment. Falls back to QE_ENVIRONMENT, then `local`. */
  readonly environment?: string;
}

/** The environment name when neither the option nor QE_ENVIRONMENT gives one. */
export const DEFAULT_REPORTER_ENVIRONMENT = 'local';

// Each option stands in for one QE_* variable and goes through the core
// loader's rules; only the names in messages and the path base differ.
const optionVariables = {
  environment: 'QE_ENVIRONMENT',
  slowResponseThresholdMs: 'QE_SLOW_RESPONSE_THRESHOLD_MS',
  outputFile: 'QE_OUTPUT_PATH',
} as const;

type OptionName = keyof typeof optionVariables;

// Keys Playwright itself adds to every reporter's options (`_`-prefixed ones too).
const playwrightKeys = new Set(['configDir', 'onlyFailures']);

// Checks an option's type and turns it into the text its QE_* variable would
// hold; the rules for that text are the core loader's.
function optionText(option: OptionName, value: unknown): { readonly text: string } | { readonly problem: string } {
  if (option === 'slowResponseThresholdMs') {
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return { text: String(value) };
    return { problem: `must be a whole number of milliseconds, 0 or more; got ${renderValue(value)}` };
  }
  if (typeof value === 'string' && value.trim() !== '') return { text: value };
  return { problem: `must be a non-empty string; got ${renderValue(value)}` };
}

/**
 * Resolves the reporter's options (as Playwright hands them, with its own
 * `configDir` and `_`-prefixed keys) over the environment into report
 * settings with an absolute output path. Throws one ConfigurationError naming
 * every bad option or variable.
 */
export function resolveReporterSettings(rawOptions: Readonly<Record<string, unknown>>, env: EnvironmentRecord, cwd: string): ReportSettings {
  const issues: ConfigurationIssue[] = [];
  const merged: Record<string, string | undefined> = { QE_ENVIRONMENT: env['QE_ENVIRONMENT'], QE_SLOW_RESPONSE_THRESHOLD_MS: env['QE_SLOW_RESPONSE_THRESHOLD_MS'], QE_OUTPUT_PATH: env['QE_OUTPUT_PATH'] };
  // How the loader's messages name a variable that an option stood in for.
  const labels = new Map<string, string>();

  for (const [name, value] of Object.entries(rawOptions)) {
    if (playwrightKeys.has(name) || name.startsWith('_')) continue;
    if (!Object.hasOwn(optionVariables, name)) {
      issues.push({ variable: `option "${name}"`, message: `is not an option of quality-evidence/reporter (known: ${Object.keys(optionVariables).join(', ')})` });
      continue;
    }
    const option = name as OptionName;
    if (value === undefined) continue;
    const checked = optionText(option, value);
    if ('problem' in checked) {
      issues.push({ variable: `option "${option}"`, message: checked.problem });
      continue;
    }
    merged[optionVariables[option]] = checked.text;
    labels.set(optionVariables[option], `option "${option}"`);
  }
  merged['QE_ENVIRONMENT'] = presentValue(merged['QE_ENVIRONMENT']) ?? DEFAULT_REPORTER_ENVIRONMENT;

  let settings: ReportSettings | undefined;
  try {
    settings = loadReportSettings(merged);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    issues.push(...error.issues.map((issue) => ({ ...issue, variable: labels.get(issue.variable) ?? issue.variable })));
  }
  if (issues.length > 0 || settings === undefined) throw new ConfigurationError(issues, 'quality-evidence/reporter options');

  const configDir = typeof rawOptions['configDir'] === 'string' ? rawOptions['configDir'] : cwd;
  const outputFromEnvironment = !labels.has('QE_OUTPUT_PATH') && presentValue(env['QE_OUTPUT_PATH']) !== undefined;
  return { ...settings, outputPath: resolve(outputFromEnvironment ? cwd : configDir, settings.outputPath) };
}
