import { z } from 'zod';

/**
 * Every setting of quality-evidence, with the name each source gives it: the
 * `QE_*` variable, the reporter option (which is also the settings-file key)
 * and the flag of the `quality-evidence` command. One table, so that a
 * message can always name a setting in the words the user wrote.
 */

/** Digits only: rejects "slow", "12abc", "NaN", "-5", "Infinity", "1e3" and "7.5", which Number() would partly accept. */
const millisecondsText = z
  .string()
  .regex(/^\d+$/, { error: 'must be a whole non-negative number of milliseconds written in digits' })
  .transform(Number)
  .refine(Number.isSafeInteger, { error: 'is too large to be a number of milliseconds' });

const wholeMilliseconds = z.int({ error: 'must be a whole number of milliseconds, 0 or more' }).min(0, { error: 'must be a whole number of milliseconds, 0 or more' });

const nonEmptyText = z.string({ error: 'must be a non-empty string' }).trim().min(1, { error: 'must be a non-empty string' });

const filePath = nonEmptyText.refine((path) => !/[\\/]$/.test(path), { error: 'must name a file, not a folder (it ends with a path separator)' });

const booleanText = z
  .string()
  .transform((text) => text.toLowerCase())
  .pipe(z.enum(['true', 'false', '1', '0'], { error: 'must be true, false, 1 or 0' }))
  .transform((text) => text === 'true' || text === '1');

/** How one setting is named and checked in each source. */
export interface SettingDefinition {
  /** The `QE_*` variable. */
  readonly variable: string;
  /** The command-line flag, without the leading dashes. */
  readonly flag?: string;
  /** The rule for a typed value (reporter option, settings file). */
  readonly value: z.ZodType;
  /** The rule for a text value (variable, flag): text in, typed value out, then `value` applies. */
  readonly text: z.ZodType<unknown, string>;
  /** Whether the value is a path, resolved against the folder its source names. */
  readonly isPath?: boolean;
  /** What the setting is, for "is required" messages. */
  readonly purpose: string;
  /** What the setting does, for the JSON Schema of the settings file. */
  readonly description: string;
}

/** The settings, in the order messages list them. */
export const SETTINGS = {
  environment: {
    variable: 'QE_ENVIRONMENT',
    flag: 'environment',
    value: nonEmptyText,
    text: z.string(),
    purpose: 'the name of the target environment',
    description: 'Name of the target environment (QE_ENVIRONMENT)',
  },
  slowResponseThresholdMs: {
    variable: 'QE_SLOW_RESPONSE_THRESHOLD_MS',
    flag: 'slow-response-threshold-ms',
    value: wholeMilliseconds,
    text: millisecondsText,
    purpose: 'the slow-response threshold in milliseconds',
    description: 'Executions strictly slower than this many milliseconds are slow (QE_SLOW_RESPONSE_THRESHOLD_MS); default 750',
  },
  inputPath: {
    variable: 'QE_INPUT_PATH',
    value: filePath,
    text: z.string(),
    isPath: true,
    purpose: 'the path of the input file of execution records',
    description: 'Path of the input file of execution records (QE_INPUT_PATH)',
  },
  outputFile: {
    variable: 'QE_OUTPUT_PATH',
    flag: 'output',
    value: filePath,
    text: z.string(),
    isPath: true,
    purpose: 'the path of the report file',
    description: 'Path of the report, relative to the folder of the settings file (QE_OUTPUT_PATH); default .build/quality-summary.json',
  },
  quiet: {
    variable: 'QE_QUIET',
    flag: 'quiet',
    value: z.boolean({ error: 'must be true or false' }),
    text: booleanText,
    purpose: 'whether to print the closing line',
    description: 'When true, the reporter prints no closing line (QE_QUIET); default false',
  },
} as const satisfies Record<string, SettingDefinition>;

/** The name of one setting. */
export type SettingKey = keyof typeof SETTINGS;

/** Every setting's name, in definition order. */
export const SETTING_KEYS = Object.keys(SETTINGS) as readonly SettingKey[];

/** The typed value of each setting. */
export interface SettingValues {
  readonly environment: string;
  readonly slowResponseThresholdMs: number;
  readonly inputPath: string;
  readonly outputFile: string;
  readonly quiet: boolean;
}

/** The settings a reporter option or a settings-file key can give. */
export const OPTION_KEYS = ['environment', 'slowResponseThresholdMs', 'outputFile', 'quiet'] as const satisfies readonly SettingKey[];

/** A setting that a reporter option or a settings-file key can give. */
export type OptionKey = (typeof OPTION_KEYS)[number];

/** The file name looked for when no settings file is named. */
export const SETTINGS_FILE_NAME = 'quality-evidence.config.json';

/** The variable that names a settings file. */
export const SETTINGS_FILE_VARIABLE = 'QE_CONFIG_PATH';

/**
 * `quality-evidence.config.json`: the reporter's options as a file, for runs
 * where Playwright passes the reporter none (`--reporter=quality-evidence/reporter`,
 * `merge-reports --reporter`). `$schema` is allowed, for editors.
 */
export const settingsFileSchema = z
  .strictObject({
    $schema: z.string().optional().meta({ description: 'The JSON Schema of this file, for editors' }),
    ...(Object.fromEntries(OPTION_KEYS.map((key) => [key, SETTINGS[key].value.optional().meta({ description: SETTINGS[key].description })])) as {
      readonly [Key in OptionKey]: z.ZodOptional<(typeof SETTINGS)[Key]['value']>;
    }),
  })
  .meta({ title: 'QualityEvidenceSettings', description: 'Settings of quality-evidence: the same keys as the options of quality-evidence/reporter' });

/** The content of a settings file. */
export type SettingsFile = z.infer<typeof settingsFileSchema>;
