import { z } from 'zod';
import { ConfigurationError, type ConfigurationIssue } from '../errors.js';

/** The environment as the outermost runner sees it: untrusted text values. */
export type EnvironmentRecord = Readonly<Record<string, string | undefined>>;

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
}

/** The documented local example threshold (SPEC 2.1). */
export const DEFAULT_SLOW_RESPONSE_THRESHOLD_MS = 750;
/** Where the report goes when QE_OUTPUT_PATH is absent or whitespace only. */
export const DEFAULT_OUTPUT_PATH = '.build/quality-summary.json';

/**
 * The rule for every `QE_*` value: trimmed, and absent when nothing is left.
 * Exported so that the reporter, which falls back to these variables, judges
 * presence by the same rule.
 */
export function presentValue(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === '' ? undefined : trimmed;
}

const text = z.preprocess((value) => (typeof value === 'string' ? presentValue(value) : value), z.string().optional());

// Digits only: rejects "slow", "12abc", "NaN", "-5", "Infinity", "1e3" and "7.5",
// which Number() would partly accept. Messages never repeat the value.
const wholeMilliseconds = z
  .string()
  .regex(/^\d+$/, { error: 'must be a whole non-negative number of milliseconds written in digits' })
  .transform(Number)
  .refine(Number.isSafeInteger, { error: 'is too large to be a number of milliseconds' });

const environmentSchema = z.object({
  QE_ENVIRONMENT: text.pipe(z.string({ error: 'is required (the name of the target environment)' })),
  QE_SLOW_RESPONSE_THRESHOLD_MS: text.pipe(wholeMilliseconds.optional()),
  QE_INPUT_PATH: text.pipe(z.string({ error: 'is required (the path of the input file of execution records)' })),
  QE_OUTPUT_PATH: text.pipe(
    z
      .string()
      .refine((path) => !/[\\/]$/.test(path), { error: 'must name a file, not a folder (it ends with a path separator)' })
      .optional(),
  ),
});

/** Everything about a report but its input: what the Playwright reporter needs. */
export type ReportSettings = Omit<QualityToolConfig, 'inputPath'>;

const reportSettingsSchema = environmentSchema.omit({ QE_INPUT_PATH: true });

/**
 * Turns an environment record into a QualityToolConfig. The environment is a
 * parameter: this function never reads `process.env`. Every problem is
 * reported at once in one ConfigurationError.
 */
export function loadQualityToolConfig(env: EnvironmentRecord): QualityToolConfig {
  const values = parseEnvironment(environmentSchema, env);
  const { environment, slowResponseThresholdMs, outputPath } = toReportSettings(values);
  return { environment, slowResponseThresholdMs, inputPath: values.QE_INPUT_PATH, outputPath };
}

/**
 * The same rules as {@link loadQualityToolConfig} for QE_ENVIRONMENT,
 * QE_SLOW_RESPONSE_THRESHOLD_MS and QE_OUTPUT_PATH, without the input path.
 */
export function loadReportSettings(env: EnvironmentRecord): ReportSettings {
  return toReportSettings(parseEnvironment(reportSettingsSchema, env));
}

function parseEnvironment<Schema extends z.ZodObject>(schema: Schema, env: EnvironmentRecord): z.output<Schema> {
  const picked = Object.fromEntries(Object.keys(schema.shape).map((name) => [name, env[name]]));
  const result = schema.safeParse(picked, { reportInput: false });
  if (!result.success) throw new ConfigurationError(result.error.issues.map(toConfigurationIssue));
  return result.data;
}

function toReportSettings(values: z.output<typeof reportSettingsSchema>): ReportSettings {
  return {
    environment: values.QE_ENVIRONMENT,
    slowResponseThresholdMs: values.QE_SLOW_RESPONSE_THRESHOLD_MS ?? DEFAULT_SLOW_RESPONSE_THRESHOLD_MS,
    outputPath: values.QE_OUTPUT_PATH ?? DEFAULT_OUTPUT_PATH,
  };
}

function toConfigurationIssue(issue: z.core.$ZodIssue): ConfigurationIssue {
  return { variable: String(issue.path[0]), message: issue.message };
}
