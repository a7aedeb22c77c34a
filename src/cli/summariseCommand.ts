import { readSettingsFile, settingsFileLocation, settingsFileRead } from '../config/readSettingsFile.js';
import { resolveSettings, type ProgramSettings } from '../config/resolveSettings.js';
import { SETTING_FLAG_OPTIONS, SETTING_KEYS } from '../config/settings.js';
import { optionHelpLine, settingHelpLines } from './settingsHelp.js';
import {
  environmentSettings,
  flagSettings,
  presentValue,
  settingsFileSettings,
  type EnvironmentRecord,
  type SettingsSource,
} from '../config/settingsSources.js';
import type { FileSystem } from '../io/fileSystem.js';
import { INPUT_FORMATS, type InputFormat } from '../readers/recordBatch.js';
import { escapeControlCharacters, groupDigits } from '../renderValue.js';
import type { SummariseRanges } from '../workflow/readInputs.js';
import { runQualityWorkflow } from '../workflow/runQualityWorkflow.js';
import { parseCommandLine } from './commandLine.js';
import type { Clock } from '../helpers/clock.js';
import { createCommandProgress } from './progressLine.js';
import { printPublished } from './printPublished.js';
import { budgetExitCode, EXIT_CODES, UsageError } from './exitCodes.js';

/** What a subcommand is given: its arguments and the process around it, as parameters. */
export interface CommandContext {
  readonly args: readonly string[];
  readonly env: EnvironmentRecord;
  readonly fileSystem: FileSystem;
  readonly stdin: AsyncIterable<Buffer>;
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  /** The command's name for messages: `quality-evidence`. */
  readonly programName: string;
  /** Reads large inputs on several threads; absent, everything is read on this one. */
  readonly summariseRanges?: SummariseRanges | undefined;
  /** How often the progress line on a terminal is redrawn, in milliseconds; default 250. */
  readonly progressIntervalMs?: number | undefined;
  /** The clock a history line's time and the progress's are read from; default the system's. */
  readonly clock?: Pick<Clock, 'now'> | undefined;
}

// The flags of the command's own, besides one per setting (the settings table gives those).
const OPTIONS = {
  'input-format': { type: 'string' },
  'include-assets': { type: 'boolean' },
  config: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The command's settings: its inputs are its arguments (or QE_INPUT_PATH), not a setting. */
const COMMAND_SETTINGS: ProgramSettings = { ignored: ['inputPath'] };

/** The default subcommand: summarise the inputs into the report. */
export async function summariseCommand(context: CommandContext): Promise<number> {
  const { values: flags, positionals } = parseCommandLine(
    { args: [...context.args], options: { ...SETTING_FLAG_OPTIONS, ...OPTIONS }, strict: true, allowPositionals: true },
    `${context.programName} --help`,
  );
  if (flags.help === true) {
    context.stdout.write(SUMMARISE_HELP);
    return EXIT_CODES.success;
  }
  const inputFormat = flags['input-format'];
  if (inputFormat !== undefined && !(INPUT_FORMATS as readonly string[]).includes(inputFormat)) {
    throw new UsageError(`--input-format must be one of ${INPUT_FORMATS.join(', ')}; see ${context.programName} --help`);
  }
  const inputPaths =
    positionals.length > 0 ? positionals : [presentValue(context.env['QE_INPUT_PATH'])].filter((path) => path !== undefined);
  if (inputPaths.length === 0) {
    throw new UsageError(
      `no input: name one or more files (or - for standard input), or set QE_INPUT_PATH; see ${context.programName} --help`,
    );
  }

  const sources: SettingsSource[] = [flagSettings(flags), environmentSettings(context.env)];
  const envLocation = settingsFileLocation(context.env, '.');
  const location = { ...envLocation, namedPath: flags.config ?? envLocation.namedPath };
  const settingsFile = await readSettingsFile(context.fileSystem, location);
  if (settingsFile !== undefined) sources.push(settingsFileSettings(settingsFile.path, settingsFile.text));
  const { outputFile, quiet, progress: progressMode, ...settings } = resolveSettings(sources, COMMAND_SETTINGS);

  const progress = createCommandProgress(context, progressMode, (records) => `${groupDigits(records)} records`);
  const config = { ...settings, inputPath: inputPaths[0]!, outputPath: outputFile };
  const { report, files, warnings } = await runQualityWorkflow(
    config,
    { fileSystem: context.fileSystem, stdin: context.stdin, progress: progress?.update, summariseRanges: context.summariseRanges },
    {
      inputs: inputPaths.map((path) => ({ path, format: inputFormat as InputFormat | undefined })),
      includeAssets: flags['include-assets'] === true,
      reads: [settingsFileRead(location)],
      env: context.env,
      clock: context.clock,
      cwd: process.cwd(),
    },
  ).finally(() => progress?.finish());

  await printPublished(context, { report, files }, { json: flags.json === true, quiet });
  for (const warning of warnings) context.stderr.write(`${context.programName}: warning: ${escapeControlCharacters(warning)}\n`);
  return budgetExitCode(report, context.programName, context.stderr);
}

export const SUMMARISE_HELP = `Usage: quality-evidence [options] <input...>

Summarises API execution records into quality-summary.json, with
quality-summary.md and quality-summary.html beside it.

Inputs are JSON documents ({ "executions": [...] } or a bare array), NDJSON
(.ndjson, .jsonl: one record per line) or HAR files (.har), in any mix; - reads
standard input. With no input, QE_INPUT_PATH names one. Several inputs make
one report, the report of their concatenation.

Options (each wins over its variable, which wins over quality-evidence.config.json):
${settingHelpLines(SETTING_KEYS)}
${optionHelpLine('--input-format <json|ndjson|har>', 'read every input as this format (default: by extension, else by content)')}
${optionHelpLine('--include-assets', 'keep HAR entries for page assets (scripts, styles, images, fonts, media)')}
${optionHelpLine('--config <path>', 'the settings file (QE_CONFIG_PATH; default ./quality-evidence.config.json)')}
${optionHelpLine('--json', 'print the report JSON on stdout, on a terminal too')}
${optionHelpLine('-h, --help', 'this help')}
${optionHelpLine('--version', 'the version')}

On a terminal, stdout gets a short summary (verdict, the 10 worst endpoints);
piped or redirected, it gets the report JSON. When GITHUB_STEP_SUMMARY names
a file, the Markdown summary is appended to it (GitHub shows it on the run's
page).

Examples:
  npx quality-evidence results.json
  npx quality-evidence shard-1.json shard-2.ndjson session.har --output out/quality-summary.json
  my-harness | npx quality-evidence - --environment staging --json
  npx quality-evidence results.json --budgets budgets.json --baseline main/quality-summary.json
  npx quality-evidence check out/quality-summary.json --budgets budgets.json

Subcommands:
  check <report.json>                  judge an existing report against budgets (see quality-evidence check --help)
  merge <report.json...>               merge reports of separate runs or machines into one (see quality-evidence merge --help)
  comment <report.json>                write (and --post) the pull-request comment of a report with a baseline (see quality-evidence comment --help)
  compare <BASE.json> <HEAD.json>      HEAD's report compared with BASE, as a run with --baseline BASE (see quality-evidence compare --help)
  suggest <report.json>                draft Playwright tests for the API's conditions the run never met (see quality-evidence suggest --help)
  contract-diff <BASE_DOC> <HEAD_DOC>  the changes between two OpenAPI documents, breaking or not (see quality-evidence contract-diff --help)
  affected <BASE.yaml> <HEAD.yaml>     the tests whose calls reach what changes between two OpenAPI documents (see quality-evidence affected --help)
  dashboard --history <file>           the history page: runs, endpoints' latency, failures and flakiness over time (see quality-evidence dashboard --help)

Exit codes: 0 success, 1 a budget is breached (the report is written),
64 usage, 65 bad input data, 66 input missing, 70 internal error,
73 report not writable, 78 configuration.
`;
