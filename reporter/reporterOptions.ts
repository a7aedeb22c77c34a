import { resolve } from 'node:path';
import {
  ConfigurationError,
  loadReportSettings,
  type ConfigurationIssue,
  type EnvironmentRecord,
  type ReportSettings,
} from '../src/index.js';

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

const optionTypes: Record<OptionName, 'string' | 'number'> = { environment: 'string', slowResponseThresholdMs: 'number', outputFile: 'string' };

/**
 * Resolves the reporter's options (as Playwright hands them, with its own
 * `configDir` and `_`-prefixed keys) over the environment into report
 * settings with an absolute output path. Throws one ConfigurationError naming
 * every bad option or variable.
 */
export function resolveReporterSettings(rawOptions: Readonly<Record<string, unknown>>, env: EnvironmentRecord, cwd: string): ReportSettings {
  const issues: ConfigurationIssue[] = [];
  const merged: Record<string, string | undefined> = { QE_ENVIRONMENT: env['QE_ENVIRONMENT'], QE_SLOW_RESPONSE_THRESHOLD_MS: env['QE_SLOW_RESPONSE_THRESHOLD_MS'], QE_OUTPUT_PATH: env['QE_OUTPUT_PATH'] };
  const fromOption = new Set<string>();

  for (const [name, value] of Object.entries(rawOptions)) {
    if (name === 'configDir' || name.startsWith('_')) continue;
    if (!(name in optionVariables)) {
      issues.push({ variable: `option "${name}"`, message: `is not an option of quality-evidence/reporter (known: ${Object.keys(optionVariables).join(', ')})` });
      continue;
    }
    const option = name as OptionName;
    if (value === undefined) continue;
    const expected = optionTypes[option];
    const text = typeof value === 'number' && expected === 'number' ? String(value) : typeof value === 'string' && expected === 'string' && value.trim() !== '' ? value : undefined;
    if (text === undefined) {
      issues.push({ variable: `option "${option}"`, message: `must be a non-empty ${expected}` });
      continue;
    }
    merged[optionVariables[option]] = text;
    fromOption.add(optionVariables[option]);
  }
  if (merged['QE_ENVIRONMENT'] === undefined || merged['QE_ENVIRONMENT'].trim() === '') merged['QE_ENVIRONMENT'] = DEFAULT_REPORTER_ENVIRONMENT;

  let settings: ReportSettings | undefined;
  try {
    settings = loadReportSettings(merged);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    issues.push(...error.issues.map((issue) => ({ ...issue, variable: nameOf(issue.variable, fromOption) })));
  }
  if (issues.length > 0 || settings === undefined) throw new ConfigurationError(issues);

  const configDir = typeof rawOptions['configDir'] === 'string' ? rawOptions['configDir'] : cwd;
  const outputFromEnvironment = !fromOption.has('QE_OUTPUT_PATH') && (env['QE_OUTPUT_PATH']?.trim() ?? '') !== '';
  return { ...settings, outputPath: resolve(outputFromEnvironment ? cwd : configDir, settings.outputPath) };
}

function nameOf(variable: string, fromOption: ReadonlySet<string>): string {
  if (!fromOption.has(variable)) return variable;
  const option = Object.entries(optionVariables).find(([, name]) => name === variable)?.[0];
  return `option "${option ?? variable}"`;
}
