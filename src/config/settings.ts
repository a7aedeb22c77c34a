import * as z from 'zod';
import type { DeepReadonly } from '../deepReadonly.js';
import { checkRouteTemplate, ENDPOINT_GROUPINGS } from '../labels/endpointLabels.js';
import { DEFAULT_EXPECTED_STATUSES, parseStatusList, type StatusListInput } from '../records/statusList.js';
import { budgetsSchema, type Budgets } from './budgetsSchema.js';
import { endpointKeyedObject } from './endpointKeys.js';
import { MAX_FAILURE_EXCERPT_BYTES } from '../records/failureExcerpt.js';
import { groupDigits } from '../renderValue.js';

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

const wholeMilliseconds = z
  .int({ error: 'must be a whole number of milliseconds, 0 or more' })
  .min(0, { error: 'must be a whole number of milliseconds, 0 or more' });

const nonEmptyText = z.string({ error: 'must be a non-empty string' }).trim().min(1, { error: 'must be a non-empty string' });

const filePath = nonEmptyText.refine((path) => !/[\\/]$/.test(path), {
  error: 'must name a file, not a folder (it ends with a path separator)',
});

const booleanText = z
  .string()
  .transform((text) => text.toLowerCase())
  .pipe(z.enum(['true', 'false', '1', '0'], { error: 'must be true, false, 1 or 0' }))
  .transform((text) => text === 'true' || text === '1');

/** A list of expected statuses: `"100-399,404"`, or an array of codes and range strings. */
const statusRangeText = String.raw`\s*\d{3}(?:\s*-\s*\d{3})?\s*`;
const statusListRule = 'must be a list of status codes and ranges, such as "200-299,404" (or an array such as [200, "400-404"])';
const statusListValue = z
  .union(
    [
      z.string().regex(new RegExp(`^${statusRangeText}(?:,${statusRangeText})*$`), { error: statusListRule }),
      z.array(z.union([z.int().min(100).max(599), z.string().regex(new RegExp(`^${statusRangeText}$`))], { error: statusListRule })),
    ],
    { error: statusListRule },
  )
  .superRefine((value, context) => {
    const parsed = parseStatusList(value);
    if ('problem' in parsed) context.addIssue({ code: 'custom', message: parsed.problem });
  });

/** Route templates: paths such as `/orders/:orderId`, optionally after a method. */
const routeList = z.array(
  z.string({ error: 'must be a path template string such as /orders/:orderId' }).superRefine((value, context) => {
    const problem = checkRouteTemplate(value);
    if (problem !== undefined) context.addIssue({ code: 'custom', message: problem.problem });
  }),
  { error: 'must be an array of path templates such as ["/orders/:orderId"]' },
);

/** Comma-separated text becomes a list of its non-empty, trimmed items. */
const commaList = z.string().transform((text) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== ''),
);

const excerptRule = `must be a whole number of bytes from 0 to ${MAX_FAILURE_EXCERPT_BYTES}`;

const significanceRule = 'must be a probability above 0 and at most 0.5, such as 0.01';

/** The runs a history file keeps when no source says (historyLimit). */
export const DEFAULT_HISTORY_LIMIT = 100;

/** The most runs a history file may keep: every run's endpoints are read at every run. */
export const MAX_HISTORY_LIMIT = 1000;

const historyLimitRule = `must be a whole number of runs from 1 to ${MAX_HISTORY_LIMIT}`;

/**
 * The runs flakiness is scored over when no source says (flakinessRuns): about a month of daily runs, or a week of a busy
 * main branch (src/history/flakiness.ts).
 */
export const DEFAULT_FLAKINESS_RUNS = 30;

const flakinessRunsRule = `must be a whole number of runs from 1 to ${MAX_HISTORY_LIMIT}`;

const openapiRule = 'must be the path of an OpenAPI document, or an array of paths';

/** OpenAPI documents, as `openapi` and `openapiBase` take them: a path, or an array of paths (a comma-separated variable). */
const openapiPaths = {
  value: z.union([filePath.transform((path) => [path]), z.array(filePath, { error: openapiRule }).min(1, { error: openapiRule })], {
    error: openapiRule,
  }),
  schema: z.union([z.string(), z.array(z.string()).min(1)]),
  text: commaList,
  isPath: true,
} as const;

const reportUrlRule = 'must be an http or https URL, such as https://ci.example/runs/42/quality-summary.html';
const reportUrl = nonEmptyText.refine(
  (text) => {
    try {
      const url = new URL(text);
      return (url.protocol === 'http:' || url.protocol === 'https:') && text.length <= 2048 && !/\s/.test(text);
    } catch {
      return false;
    }
  },
  { error: reportUrlRule },
);

const traceUrlRule =
  'must be an http or https URL with {traceId} where the trace id goes, such as https://grafana.example/explore?traceId={traceId}';
const traceUrlTemplate = nonEmptyText.refine(
  (template) => {
    if (!template.includes('{traceId}')) return false;
    try {
      const url = new URL(template.replaceAll('{traceId}', '0af7651916cd43dd8448eb211c80319c'));
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  },
  { error: traceUrlRule },
);

/** The most client spans the otlp export sends when no source says (see docs/exports.md#spans). */
export const DEFAULT_OTLP_SPAN_LIMIT = 10_000;
/** The most a run may ask for: each held span costs the run about 300 bytes until the export is written. */
export const MAX_OTLP_SPAN_LIMIT = 1_000_000;
const spanLimitRule = `must be a whole number of spans from 0 to ${groupDigits(MAX_OTLP_SPAN_LIMIT)}`;

/** The files a run can write: the JSON report always, and its Markdown and HTML renderings beside it. */
export const REPORT_FORMATS = ['json', 'markdown', 'html'] as const;

/** One of {@link REPORT_FORMATS}. */
export type ReportFormat = (typeof REPORT_FORMATS)[number];

const formatsRule = `must be a list out of ${REPORT_FORMATS.join(', ')}, such as "json,markdown" (or an array such as ["json", "html"])`;
const formatList = z
  .union([z.string().transform((text) => text.split(',').map((item) => item.trim())), z.array(z.string(), { error: formatsRule })], {
    error: formatsRule,
  })
  .pipe(z.array(z.enum(REPORT_FORMATS, { error: formatsRule })).min(1, { error: formatsRule }))
  .transform((formats) => REPORT_FORMATS.filter((format) => formats.includes(format)));

/**
 * The resource types a browser test's request may be counted by as an API call (the `apiCalls` setting); pages, scripts,
 * styles, images, fonts, media and WebSockets never are.
 */
export const API_CALL_RESOURCE_TYPES = ['fetch', 'xhr', 'other'] as const;

const apiCallsRule =
  `must be an object of resourceTypes (out of ${API_CALL_RESOURCE_TYPES.join(', ')}), ` +
  'include and exclude (arrays of URL globs), such as { "include": ["**/api/**"] }';
const urlGlobs = z.array(nonEmptyText, { error: 'must be an array of URL globs, such as ["**/api/**"]' });

/** Which requests of a browser test are API calls. */
const apiCallRules = z.strictObject(
  {
    resourceTypes: z
      .array(
        z.enum(API_CALL_RESOURCE_TYPES, {
          error:
            `must each be one of ${API_CALL_RESOURCE_TYPES.join(', ')}: documents, scripts, styles, images, fonts, media ` +
            'and WebSockets are never API calls',
        }),
        {
          error: `must be an array of resource types out of ${API_CALL_RESOURCE_TYPES.join(', ')}`,
        },
      )
      .optional(),
    include: urlGlobs.optional(),
    exclude: urlGlobs.optional(),
  },
  { error: apiCallsRule },
);

/** The formats of other tools a report can be exported to (src/exports). */
export const EXPORT_KINDS = ['otlp', 'prometheus', 'ctrf', 'junit', 'benchmark-action'] as const;

/** One of {@link EXPORT_KINDS}. */
export type ExportKind = (typeof EXPORT_KINDS)[number];

const exportsRule = `must name each export as kind=path, the kind one of ${EXPORT_KINDS.join(', ')} (such as benchmark-action=out/benchmark.json)`;
const exportMap = z
  .record(z.string(), filePath, {
    error: `must be an object of export kinds and paths, such as { "benchmark-action": "out/benchmark.json" }`,
  })
  .superRefine((value, context) => {
    for (const key of Object.keys(value)) {
      if (!(EXPORT_KINDS as readonly string[]).includes(key))
        context.addIssue({ code: 'custom', message: `is not an export: the kinds are ${EXPORT_KINDS.join(', ')}`, path: [key] });
    }
  })
  .transform((value) => value as Partial<Record<ExportKind, string>>);
const exportText = commaList.transform((items, context) => {
  const exports: Record<string, string> = {};
  for (const item of items) {
    const match = /^([a-z-]+)=(.+)$/.exec(item);
    if (match === null || !(EXPORT_KINDS as readonly string[]).includes(match[1]!)) {
      context.addIssue({ code: 'custom', message: exportsRule });
      return z.NEVER;
    }
    if (match[1]! in exports) {
      context.addIssue({ code: 'custom', message: `names the export ${match[1]!} twice: give each kind one path` });
      return z.NEVER;
    }
    exports[match[1]!] = match[2]!.trim();
  }
  return exports;
});

/** How a setting is given on the command line. */
export interface SettingFlag {
  /** The flag, without the leading dashes: `output` for `--output`. */
  readonly name: string;
  /** A one-letter alias: `o` for `-o`. */
  readonly short?: string;
  /**
   * `text` (`--output x.json`, the default), `switch` (`--quiet`), or `repeatable` text (`--route a --route b`, read as the
   * variable's comma-separated text).
   */
  readonly kind?: 'text' | 'switch' | 'repeatable';
  /** What the flag takes, in the help: `<path>`; a switch takes nothing. */
  readonly argument?: string;
  /** The flag's line in each command's `--help`, after which the variable and the default are added; `\n` continues it. */
  readonly help: string;
  /** How the help states the default, where the default's own text would not say it (`all three`); else `String(default)`. */
  readonly helpDefault?: string;
}

/** How one setting is named and checked in each source. */
export interface SettingDefinition {
  /** The `QE_*` variable; a setting that only a typed source can give (an object) has none. */
  readonly variable?: string;
  /** The command-line flag of the `quality-evidence` command. */
  readonly flag?: SettingFlag;
  /** Whether a reporter option and a settings-file key of this name give it. */
  readonly inFile: boolean;
  /**
   * The value when no source gives one, for every program (a program may set
   * its own; a program that requires the setting takes none). The one place a
   * default lives: the code that uses a setting never supplies its own.
   */
  readonly default?: unknown;
  /** The rule for a typed value (reporter option, settings file). */
  readonly value: z.ZodType;
  /** The shape published in the settings file's JSON Schema, when `value` checks by hand what a schema cannot say. */
  readonly schema?: z.ZodType;
  /** The rule for a text value (variable, flag): text in, typed value out, then `value` applies. */
  readonly text: z.ZodType<unknown, string>;
  /** Whether the value is a path, resolved against the folder its source names. */
  readonly isPath?: boolean;
  /** Whether the value is an object whose values are paths, each resolved as `isPath` resolves one. */
  readonly pathValues?: boolean;
  /** What the setting is, for "is required" messages. */
  readonly purpose: string;
  /** What the setting does, for the JSON Schema of the settings file. */
  readonly description: string;
  /** Whether the exports read it (`context.settings` of src/exports): `check`, which writes only exports, takes it too. */
  readonly forExports?: boolean;
}

/** Where the report goes when no source names a path. */
export const DEFAULT_OUTPUT_PATH = '.build/quality-summary.json';

/**
 * The default significance level of the baseline comparison's latency test: a change is judged real when its p-value is below
 * 1% (src/evaluation/latencyChange.ts).
 */
export const DEFAULT_SIGNIFICANCE_LEVEL = 0.01;

/**
 * When long work shows its progress on stderr (the `progress` setting): `auto` on a terminal outside CI, `always` (plain lines
 * where a terminal's updating line would not do: a CI log, a file), `never`.
 */
export const PROGRESS_MODES = ['auto', 'always', 'never'] as const;

/** One of {@link PROGRESS_MODES}. */
export type ProgressMode = (typeof PROGRESS_MODES)[number];

/** The documented local example threshold (SPEC 2.1). */
export const DEFAULT_SLOW_RESPONSE_THRESHOLD_MS = 750;

/** The environment a report names when no source names one (the runner requires one). */
export const DEFAULT_ENVIRONMENT = 'local';

/** OpenTelemetry's name for a service that has not said its name: the exports' service when no source names one. */
export const DEFAULT_SERVICE_NAME = 'unknown_service';

/**
 * The settings, in the order messages list them. Everything else about a
 * setting is derived from its entry here: its type, the reporter option and
 * settings-file key, the command's flag, the JSON Schema. Adding a setting
 * is an entry here, its documentation, and its spec.
 */
export const SETTINGS = {
  environment: {
    variable: 'QE_ENVIRONMENT',
    flag: { name: 'environment', argument: '<name>', help: 'the target environment' },
    inFile: true,
    default: DEFAULT_ENVIRONMENT,
    value: nonEmptyText,
    text: z.string(),
    purpose: 'the name of the target environment',
    description: 'Name of the target environment (QE_ENVIRONMENT)',
  },
  slowResponseThresholdMs: {
    variable: 'QE_SLOW_RESPONSE_THRESHOLD_MS',
    flag: { name: 'slow-response-threshold-ms', argument: '<ms>', help: 'slower than this is slow' },
    inFile: true,
    default: DEFAULT_SLOW_RESPONSE_THRESHOLD_MS,
    value: wholeMilliseconds,
    text: millisecondsText,
    purpose: 'the slow-response threshold in milliseconds',
    description: 'Executions strictly slower than this many milliseconds are slow (QE_SLOW_RESPONSE_THRESHOLD_MS); default 750',
  },
  inputPath: {
    variable: 'QE_INPUT_PATH',
    inFile: false,
    value: filePath,
    text: z.string(),
    isPath: true,
    purpose: 'the path of the input file of execution records',
    description: 'Path of the input file of execution records (QE_INPUT_PATH)',
  },
  outputFile: {
    variable: 'QE_OUTPUT_PATH',
    flag: { name: 'output', short: 'o', argument: '<path>', help: 'the report file' },
    inFile: true,
    default: DEFAULT_OUTPUT_PATH,
    value: filePath,
    text: z.string(),
    isPath: true,
    purpose: 'the path of the report file',
    description: 'Path of the report, relative to the folder of the settings file (QE_OUTPUT_PATH); default .build/quality-summary.json',
  },
  quiet: {
    variable: 'QE_QUIET',
    flag: { name: 'quiet', short: 'q', kind: 'switch', help: 'print nothing on success' },
    inFile: true,
    default: false,
    value: z.boolean({ error: 'must be true or false' }),
    text: booleanText,
    purpose: 'whether to print the closing line',
    description: 'When true, the reporter prints no closing line (QE_QUIET); default false',
  },
  progress: {
    variable: 'QE_PROGRESS',
    flag: {
      name: 'progress',
      argument: '<auto|always|never>',
      help: 'progress on stderr once work takes over a second; auto: on a terminal outside CI',
    },
    inFile: true,
    default: 'auto',
    value: z.enum(PROGRESS_MODES, { error: `must be one of ${PROGRESS_MODES.join(', ')}` }),
    text: z.string(),
    purpose: 'when progress is shown',
    description:
      'When the command, merge and dashboard show their progress on stderr once work has taken more than a second ' +
      '(QE_PROGRESS): auto, one updating line on a terminal, never in CI or when stderr is not a terminal; always, that line ' +
      'on a terminal outside CI and a plain line every 5 seconds elsewhere (a CI log); never. The reporter shows none; default auto',
  },
  expectedStatuses: {
    variable: 'QE_EXPECTED_STATUSES',
    flag: { name: 'expected-statuses', argument: '<list>', help: 'statuses that are not failures, e.g. 100-399,404' },
    inFile: true,
    default: DEFAULT_EXPECTED_STATUSES,
    value: statusListValue,
    text: z.string(),
    purpose: 'the expected statuses',
    description:
      'Statuses that are not failures, run-wide (QE_EXPECTED_STATUSES): codes and inclusive ranges, comma-separated ' +
      '("100-399,404"), or an array of codes and range strings; default 100-399 (failed means 400 or above)',
  },
  expectedStatusesByEndpoint: {
    inFile: true,
    // A key that is not a label ("__proto__" too) would be statuses dropped without a word.
    value: endpointKeyedObject<typeof statusListValue, StatusListInput>(statusListValue, 'expected statuses', {
      error: 'must be an object of endpoint labels and status lists, such as { "DELETE /booking/:id": "200-299,403" }',
    }),
    text: z.string(),
    purpose: 'the expected statuses per endpoint',
    description:
      'Expected statuses per endpoint label (after route templates and grouping), overriding the run-wide rule: { "DELETE /booking/:id": "200-299,403" }',
  },
  apiCalls: {
    inFile: true,
    value: apiCallRules,
    text: z.string(),
    purpose: 'which browser requests are API calls',
    description:
      'Which requests of the pages that tests drive are API calls, recorded by quality-evidence/test: ' +
      'resourceTypes (default ["fetch", "xhr"]; "other" adds beacons and pings), ' +
      'include and exclude (URL globs: ** any characters, * any but /, ? one), such as { "include": ["**/api/**"] }; ' +
      '{ "resourceTypes": [] } records none',
  },
  routes: {
    variable: 'QE_ROUTES',
    flag: {
      name: 'route',
      kind: 'repeatable',
      argument: '<template>',
      help: 'report labels that match as this route, e.g. /orders/:orderId; repeatable',
    },
    inFile: true,
    value: routeList,
    text: commaList,
    purpose: 'the route templates',
    description:
      'Route templates (QE_ROUTES, comma-separated): paths such as /orders/:orderId, ' +
      'optionally after a method (GET /orders/:orderId); a label that matches one, segment by segment, ' +
      'is reported as the template; the first match wins',
  },
  endpointGrouping: {
    variable: 'QE_ENDPOINT_GROUPING',
    flag: {
      name: 'endpoint-grouping',
      argument: '<auto|none>',
      help: 'auto: ids become :id',
      helpDefault: 'auto for HAR, none for records',
    },
    inFile: true,
    value: z.enum(ENDPOINT_GROUPINGS, { error: `must be one of ${ENDPOINT_GROUPINGS.join(', ')}` }),
    text: z.string(),
    purpose: 'the endpoint grouping',
    description:
      'auto: numeric, UUID and long hex segments become :id, repeated slashes collapse, a trailing slash goes; none: ' +
      'labels stay as they come (QE_ENDPOINT_GROUPING); default auto for labels derived from URLs ' +
      '(HAR, the recording fixture) and none for labels written in records',
  },
  budgets: {
    variable: 'QE_BUDGETS_PATH',
    flag: { name: 'budgets', argument: '<path>', help: 'quality budgets to judge the report by; a breach exits 1' },
    inFile: true,
    value: z
      .unknown()
      .superRefine((value, context) => {
        if (typeof value === 'string') {
          const checked = filePath.safeParse(value);
          if (!checked.success)
            context.addIssue({ code: 'custom', message: checked.error.issues[0]?.message ?? 'must name a budgets file' });
          return;
        }
        const checked = budgetsSchema.safeParse(value, { reportInput: false });
        if (!checked.success)
          for (const issue of checked.error.issues) context.addIssue({ code: 'custom', message: issue.message, path: issue.path });
      })
      // Checked above, with a message per budget rather than a union's.
      .pipe(z.custom<string | Budgets>()),
    schema: z.union([z.string(), budgetsSchema]),
    text: z.string(),
    isPath: true,
    purpose: 'the quality budgets',
    description:
      'Quality budgets: the path of a budgets file (QE_BUDGETS_PATH), or the budgets themselves as an object (schemas/budgets.schema.json)',
  },
  baselinePath: {
    variable: 'QE_BASELINE_PATH',
    flag: { name: 'baseline', argument: '<path>', help: "a previous report (main's) to compare with" },
    inFile: true,
    value: filePath,
    text: z.string(),
    isPath: true,
    purpose: 'the baseline report',
    description: 'Path of a previous quality-summary.json (for example main’s) to compare with (QE_BASELINE_PATH)',
  },
  historyPath: {
    variable: 'QE_HISTORY_PATH',
    flag: { name: 'history', argument: '<path>', help: 'judge each endpoint against this history file, then append this run' },
    inFile: true,
    value: filePath,
    text: z.string(),
    isPath: true,
    purpose: 'the history file',
    description:
      'A JSON Lines file of earlier runs (QE_HISTORY_PATH): each endpoint is judged against its own history ' +
      '(withinRange, aboveRange, belowRange, new, tooFewRuns), and this run is appended to it with the report, ' +
      'unless historyReadOnly',
  },
  historyLimit: {
    variable: 'QE_HISTORY_LIMIT',
    flag: { name: 'history-limit', argument: '<n>', help: 'the runs the history file keeps' },
    inFile: true,
    default: DEFAULT_HISTORY_LIMIT,
    value: z.int({ error: historyLimitRule }).min(1, { error: historyLimitRule }).max(MAX_HISTORY_LIMIT, { error: historyLimitRule }),
    text: z
      .string()
      .regex(/^\d{1,6}$/, { error: historyLimitRule })
      .transform(Number),
    purpose: 'the number of runs the history file keeps',
    description: `The runs the history file keeps; the oldest go (QE_HISTORY_LIMIT); default ${DEFAULT_HISTORY_LIMIT}`,
  },
  historyReadOnly: {
    variable: 'QE_HISTORY_READ_ONLY',
    flag: { name: 'history-read-only', kind: 'switch', help: "read the history file, do not append: a pull request's run" },
    inFile: true,
    default: false,
    value: z.boolean({ error: 'must be true or false' }),
    text: booleanText,
    purpose: 'whether the history file is only read',
    description:
      "When true, the history file is read and not appended to: a pull request's run judged against main's history (QE_HISTORY_READ_ONLY); default false",
  },
  historyPartialRuns: {
    variable: 'QE_HISTORY_PARTIAL_RUNS',
    inFile: true,
    default: false,
    value: z.boolean({ error: 'must be true or false' }),
    text: booleanText,
    purpose: 'whether runs of part of a suite are appended to the history',
    description:
      'The reporter only: when true, a Playwright run of part of its suite (--grep, --grep-invert, a file or line ' +
      'filter, --only-changed, --last-failed, --test-list, a shard) is appended to the history file too; by default ' +
      'such a run is judged against the history and not appended, so that it does not thin the range of every ' +
      'endpoint it did not call (QE_HISTORY_PARTIAL_RUNS); default false',
  },
  flakinessRuns: {
    variable: 'QE_FLAKINESS_RUNS',
    flag: {
      name: 'flakiness-runs',
      argument: '<n>',
      help: "the last runs of the history each endpoint's and test's flakiness is scored over",
    },
    inFile: true,
    default: DEFAULT_FLAKINESS_RUNS,
    value: z.int({ error: flakinessRunsRule }).min(1, { error: flakinessRunsRule }).max(MAX_HISTORY_LIMIT, { error: flakinessRunsRule }),
    text: z
      .string()
      .regex(/^\d{1,6}$/, { error: flakinessRunsRule })
      .transform(Number),
    purpose: 'the number of runs flakiness is scored over',
    description:
      "The last runs of the history file, this run the last of them, each endpoint's and test's flakiness is scored over " +
      `(QE_FLAKINESS_RUNS); default ${DEFAULT_FLAKINESS_RUNS}`,
  },
  dashboardPath: {
    variable: 'QE_DASHBOARD_PATH',
    flag: {
      name: 'dashboard',
      argument: '<path>',
      help: 'also write the history page there, from the history file; the report links to it',
    },
    inFile: true,
    value: filePath,
    text: z.string(),
    isPath: true,
    purpose: 'the history page',
    description:
      'Where to write the history page (QE_DASHBOARD_PATH), such as out/history.html: the page `quality-evidence dashboard` ' +
      "draws, of the history file's runs with this one, written with the report; the report's headline links to it. " +
      'Needs historyPath',
  },
  baselineFromHistory: {
    variable: 'QE_BASELINE_FROM_HISTORY',
    flag: {
      name: 'baseline-from-history',
      argument: '<ref>',
      help: 'the baseline is the last run of this branch or commit in the history',
    },
    inFile: true,
    value: nonEmptyText,
    text: z.string(),
    purpose: 'the branch or commit whose run in the history is the baseline',
    description:
      'A branch or a commit (7 or more hexadecimal digits) whose last run in the history file is the baseline ' +
      '(QE_BASELINE_FROM_HISTORY); for a pull request or merge request, the run of its base commit when the history has ' +
      'it. Needs historyPath; instead of baselinePath',
  },
  significanceLevel: {
    variable: 'QE_SIGNIFICANCE_LEVEL',
    flag: { name: 'significance-level', argument: '<p>', help: 'a latency change against the baseline is real below this p-value' },
    inFile: true,
    default: DEFAULT_SIGNIFICANCE_LEVEL,
    value: z.number({ error: significanceRule }).gt(0, { error: significanceRule }).max(0.5, { error: significanceRule }),
    text: z
      .string()
      .regex(/^(?:0(?:\.\d+)?|\.\d+)$/, { error: significanceRule })
      .transform(Number),
    purpose: 'the significance level of the baseline comparison',
    description:
      "The significance level of the baseline comparison's latency test (QE_SIGNIFICANCE_LEVEL): " +
      "an endpoint is judged slower or faster only when the test's p-value is below it; " +
      `default ${DEFAULT_SIGNIFICANCE_LEVEL}`,
  },
  failureExcerptBytes: {
    variable: 'QE_FAILURE_EXCERPT_BYTES',
    flag: {
      name: 'failure-excerpt-bytes',
      argument: '<n>',
      help: "keep this many bytes of a failed call's body a HAR file kept, secrets replaced",
      helpDefault: '0, off',
    },
    inFile: true,
    default: 0,
    value: z.int({ error: excerptRule }).min(0, { error: excerptRule }).max(MAX_FAILURE_EXCERPT_BYTES, { error: excerptRule }),
    text: z
      .string()
      .regex(/^\d{1,5}$/, { error: excerptRule })
      .transform(Number),
    purpose: "the bytes of a failed call's response body to show",
    description:
      'Off (0) by default, because bodies may hold personal data: ' +
      `the first this many bytes (at most ${MAX_FAILURE_EXCERPT_BYTES}) of the response body of each failed call listed in ` +
      'the report, values under keys that look secret (password, token, secret, authorization, cookie, apiKey, ' +
      'and redactKeys) replaced; never a header (QE_FAILURE_EXCERPT_BYTES)',
  },
  redactKeys: {
    variable: 'QE_REDACT_KEYS',
    inFile: true,
    default: [],
    value: z.array(nonEmptyText, { error: 'must be an array of key names, such as ["ssn", "iban"]' }),
    text: commaList,
    purpose: 'the keys whose values excerpts replace',
    description:
      'More keys whose values a failure excerpt replaces, besides those that look secret ' +
      '(QE_REDACT_KEYS, comma-separated): ["ssn", "iban"]; matched within a key, case, - and _ aside',
  },
  openapi: {
    variable: 'QE_OPENAPI_PATH',
    flag: { name: 'openapi', kind: 'repeatable', argument: '<path>', help: "the API's OpenAPI document: labels, coverage; repeatable" },
    inFile: true,
    ...openapiPaths,
    purpose: "the API's OpenAPI documents",
    description:
      "The API's contract: the path of an OpenAPI document (3.0, 3.1, or Swagger 2.0; " +
      'YAML or JSON), or an array of paths (QE_OPENAPI_PATH, comma-separated); ' +
      'calls are labelled by its operations and the report gains a contract section',
  },
  openapiBase: {
    variable: 'QE_OPENAPI_BASE_PATH',
    flag: {
      name: 'openapi-base',
      kind: 'repeatable',
      argument: '<path>',
      help: 'the BASE OpenAPI document --openapi is compared with: its changes, weighed by the run; repeatable',
    },
    inFile: true,
    ...openapiPaths,
    purpose: 'the OpenAPI documents the contract is compared with',
    description:
      'The BASE of the contract (openapi, HEAD): the path of an OpenAPI document, or an array of paths ' +
      "(QE_OPENAPI_BASE_PATH, comma-separated), such as the document as the pull request's merge base has it; " +
      "the report's contract section gains the changes between the two, each weighed by the run's evidence (needs openapi)",
  },
  exports: {
    variable: 'QE_EXPORTS',
    flag: {
      name: 'export',
      kind: 'repeatable',
      argument: '<kind=path>',
      help: `also write the run for another tool; repeatable: ${EXPORT_KINDS.map((kind) => `${kind}=<file>`).join(', ')}`,
    },
    inFile: true,
    default: {},
    value: exportMap,
    schema: z.partialRecord(z.enum(EXPORT_KINDS), z.string()),
    text: exportText,
    pathValues: true,
    purpose: 'the exports',
    description:
      'Files in other tools\' formats, written with the report: { "otlp": "out/metrics.jsonl", "junit": "out/junit.xml" } ' +
      `(QE_EXPORTS and --export: kind=path, comma-separated or repeated); kinds: ${EXPORT_KINDS.join(', ')}`,
    forExports: true,
  },
  serviceName: {
    variable: 'QE_SERVICE_NAME',
    flag: { name: 'service-name', argument: '<name>', help: 'the service the otlp and prometheus exports name' },
    inFile: true,
    default: DEFAULT_SERVICE_NAME,
    value: nonEmptyText,
    text: z.string(),
    purpose: 'the service name of the exports',
    description:
      "The name the OpenTelemetry export gives the run's service (service.name on its Resource) " +
      'and the Prometheus export its service label (QE_SERVICE_NAME); default unknown_service',
    forExports: true,
  },
  traceContext: {
    variable: 'QE_TRACE_CONTEXT',
    flag: { name: 'trace-context', argument: '<true|false>', help: 'W3C trace context on recorded calls and spans in the otlp export' },
    inFile: true,
    default: true,
    value: z.boolean({ error: 'must be true or false' }),
    text: booleanText,
    purpose: 'whether calls carry W3C trace context',
    description:
      'When true (the default), every call of an API request context that quality-evidence/test records carries a W3C ' +
      'traceparent header (one trace per test, one span per call; a traceparent the test set itself is kept), the report ' +
      "keeps each failed and slow call's trace id and the otlp export sends a client span per call; when false, none of " +
      'these: no header is added, no trace id is kept (QE_TRACE_CONTEXT). Never added to the requests of browser pages',
    forExports: true,
  },
  traceUrlTemplate: {
    variable: 'QE_TRACE_URL_TEMPLATE',
    flag: { name: 'trace-url-template', argument: '<url>', help: 'link each failed call to its trace: a URL with {traceId}' },
    inFile: true,
    value: traceUrlTemplate,
    text: z.string(),
    purpose: "the URL of a trace in the team's tracing backend",
    description:
      "The URL of a trace in the team's tracing backend, {traceId} where the trace id goes (QE_TRACE_URL_TEMPLATE), such " +
      'as https://grafana.example/explore?traceId={traceId} or http://localhost:16686/trace/{traceId} (Jaeger): the ' +
      'Markdown, the page and the pull-request comment link each failed call that has a trace id to its trace',
  },
  reportUrl: {
    variable: 'QE_REPORT_URL',
    flag: { name: 'report-url', argument: '<url>', help: "where the run's report can be read, kept in its history line" },
    inFile: true,
    value: reportUrl,
    text: z.string(),
    purpose: "the URL of the run's report",
    description:
      "The URL where the run's report can be read (QE_REPORT_URL), an http or https URL such as the artifact's or a " +
      "published page's: the run's history line keeps it (reportUrl) and the history page links the run to it. Without " +
      "it, the line keeps the CI run's page (GitHub Actions: GITHUB_SERVER_URL/GITHUB_REPOSITORY/actions/runs/GITHUB_RUN_ID; " +
      'GitLab CI: CI_PIPELINE_URL) where CI gives it',
  },
  otlpSpanLimit: {
    variable: 'QE_OTLP_SPAN_LIMIT',
    flag: { name: 'otlp-span-limit', argument: '<n>', help: 'the most client spans the otlp export sends', helpDefault: '10000' },
    inFile: true,
    default: DEFAULT_OTLP_SPAN_LIMIT,
    value: z.int({ error: spanLimitRule }).min(0, { error: spanLimitRule }).max(MAX_OTLP_SPAN_LIMIT, { error: spanLimitRule }),
    text: z
      .string()
      .regex(/^\d{1,7}$/, { error: spanLimitRule })
      .transform(Number),
    purpose: 'the most client spans the otlp export sends',
    description:
      'The most client spans the otlp export sends (QE_OTLP_SPAN_LIMIT); default 10000: every traced call of a run up ' +
      'to that many; beyond it, the failed calls first, then the slow ones, then a sample of the rest chosen by span id ' +
      '(the same calls whatever order they came in); 0 sends no spans',
    forExports: true,
  },
  formats: {
    variable: 'QE_REPORT_FORMATS',
    flag: { name: 'formats', argument: '<list>', help: 'files beside the JSON report: json,markdown,html', helpDefault: 'all three' },
    inFile: true,
    default: [...REPORT_FORMATS],
    value: formatList,
    schema: z.union([z.string(), z.array(z.enum(REPORT_FORMATS)).min(1)]),
    text: z.string(),
    purpose: 'the report formats',
    description:
      'The files written beside the JSON report, which is always written (QE_REPORT_FORMATS, comma-separated): ' +
      'json, markdown (quality-summary.md, also appended to $GITHUB_STEP_SUMMARY when it is set), ' +
      'html (quality-summary.html); default json,markdown,html',
  },
} as const satisfies Record<string, SettingDefinition>;

/** The name of one setting. */
export type SettingKey = keyof typeof SETTINGS;

/** Every setting's name, in definition order. */
export const SETTING_KEYS = Object.keys(SETTINGS) as readonly SettingKey[];

/** Each setting's default, from its entry in the table: what a run takes when no source gives a value. */
export const SETTING_DEFAULTS: { readonly [Key in SettingKey]?: unknown } = Object.fromEntries(
  SETTING_KEYS.flatMap((key) => {
    const fallback: unknown = (SETTINGS[key] as SettingDefinition).default;
    return fallback === undefined ? [] : [[key, fallback]];
  }),
);

/** The typed value of each setting, as its rule gives it. */
export type SettingValues = { readonly [Key in SettingKey]: z.output<(typeof SETTINGS)[Key]['value']> };

/** A setting that a reporter option or a settings-file key can give. */
export type OptionKey = { [Key in SettingKey]: (typeof SETTINGS)[Key] extends { readonly inFile: true } ? Key : never }[SettingKey];

/** The settings a reporter option or a settings-file key can give, in definition order. */
export const OPTION_KEYS = SETTING_KEYS.filter((key): key is OptionKey => SETTINGS[key].inFile);

/** A setting the exports read (`forExports` in its row). */
export type ExportSettingKey = {
  [Key in SettingKey]: (typeof SETTINGS)[Key] extends { readonly forExports: true } ? Key : never;
}[SettingKey];

/** The settings the exports read, in definition order: `check`, which writes only exports, takes these and no other. */
export const EXPORT_SETTING_KEYS = SETTING_KEYS.filter(
  (key): key is ExportSettingKey => (SETTINGS[key] as SettingDefinition).forExports === true,
);

/** The options `util.parseArgs` takes for every setting that has a flag. */
export const SETTING_FLAG_OPTIONS: Readonly<
  Record<string, { readonly type: 'string' | 'boolean'; readonly short?: string; readonly multiple?: boolean }>
> = Object.fromEntries(
  SETTING_KEYS.flatMap((key) => {
    const { flag } = SETTINGS[key] as SettingDefinition;
    if (flag === undefined) return [];
    const kind = flag.kind ?? 'text';
    return [
      [
        flag.name,
        {
          type: kind === 'switch' ? 'boolean' : 'string',
          ...(flag.short === undefined ? {} : { short: flag.short }),
          ...(kind === 'repeatable' ? { multiple: true } : {}),
        },
      ],
    ];
  }),
);

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
    ...(Object.fromEntries(
      OPTION_KEYS.map((key) => [
        key,
        ((SETTINGS[key] as SettingDefinition).schema ?? SETTINGS[key].value).optional().meta({ description: SETTINGS[key].description }),
      ]),
    ) as {
      readonly [Key in OptionKey]: z.ZodOptional<PublishedShape<Key>>;
    }),
  })
  .meta({
    title: 'QualityEvidenceSettings',
    description: 'Settings of quality-evidence: the same keys as the options of quality-evidence/reporter',
  });

/** The content of a settings file. */
export type SettingsFile = z.infer<typeof settingsFileSchema>;

// The shape a settings-file key is published with: its `schema` where it has one, else its `value`.
type PublishedShape<Key extends OptionKey> = (typeof SETTINGS)[Key] extends { readonly schema: infer Schema extends z.ZodType }
  ? Schema
  : (typeof SETTINGS)[Key]['value'];

/** What a settings file, or the reporter's options, may hold, as written: the input side of {@link settingsFileSchema}. */
export type SettingsFileInput = DeepReadonly<Omit<z.input<typeof settingsFileSchema>, '$schema'>>;
