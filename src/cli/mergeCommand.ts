import { createHash } from 'node:crypto';
import { readSettingsFile, settingsFileLocation, settingsFileRead } from '../config/readSettingsFile.js';
import { resolveSettings, type ProgramSettings } from '../config/resolveSettings.js';
import type { SettingKey } from '../config/settings.js';
import { environmentSettings, flagSettings, settingsFileSettings, type SettingsSource } from '../config/settingsSources.js';
import { readInputFile, REPORT_FILE_LIMIT_BYTES } from '../io/readInputFile.js';
import { fileIdentity } from '../io/writeReportAtomically.js';
import type { FileSystem } from '../io/fileSystem.js';
import { parseReport } from '../evaluation/parseReport.js';
import { qualityReportSchema, type QualityReport } from '../report/qualityReport.js';
import { ReportFormatError } from '../errors.js';
import { firstIssueWhere } from '../issues/issuePath.js';
import { escapeControlCharacters, quotePath } from '../renderValue.js';
import { checkMergeable, reportPart, runFactsOf, type ReportToMerge } from '../run/mergeReports.js';
import { systemClock } from '../helpers/clock.js';
import { openRun } from '../workflow/openRun.js';
import { parseCommandLine } from './commandLine.js';
import { optionHelpLine, settingHelpLines } from './settingsHelp.js';
import { settingFlagOptions, settingsBut } from './commandSettings.js';
import { budgetExitCode, EXIT_CODES, UsageError } from './exitCodes.js';
import { createCommandProgress } from './progressLine.js';
import { printPublished } from './printPublished.js';
import type { CommandContext } from './summariseCommand.js';

/**
 * The settings that say how records are counted: they belong to the runs
 * that made the reports, which state them, and the merge refuses reports
 * that differ in them. A merge is given none of them.
 */
const RECORD_SETTINGS: readonly SettingKey[] = [
  'environment',
  'slowResponseThresholdMs',
  'inputPath',
  'expectedStatuses',
  'expectedStatusesByEndpoint',
  'routes',
  'endpointGrouping',
  'failureExcerptBytes',
  'redactKeys',
];

/** The flags of the settings a merge takes: where the report goes, and what it is judged by. */
const MERGE_FLAG_OPTIONS = settingFlagOptions(settingsBut(RECORD_SETTINGS));

const OPTIONS = {
  config: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const MERGE_SETTINGS: ProgramSettings = { ignored: RECORD_SETTINGS };

/**
 * `quality-evidence merge a.json b.json … --output all.json`: one report
 * from the reports of separate runs, shards or machines (see run/mergeReports.ts),
 * judged by the merge's own budgets, baseline, contract and history, and
 * written as every report is.
 */
export async function mergeCommand(context: CommandContext): Promise<number> {
  const { values: flags, positionals } = parseCommandLine(
    { args: [...context.args], options: { ...MERGE_FLAG_OPTIONS, ...OPTIONS }, strict: true, allowPositionals: true },
    `${context.programName} merge --help`,
  );
  if (flags.help === true) {
    context.stdout.write(MERGE_HELP);
    return EXIT_CODES.success;
  }
  if (positionals.length === 0) throw new UsageError(`merge takes one or more reports; see ${context.programName} merge --help`);
  const sources: SettingsSource[] = [flagSettings(flags), environmentSettings(context.env)];
  const envLocation = settingsFileLocation(context.env, '.');
  const location = { ...envLocation, namedPath: typeof flags.config === 'string' ? flags.config : envLocation.namedPath };
  const settingsFile = await readSettingsFile(context.fileSystem, location);
  if (settingsFile !== undefined) sources.push(settingsFileSettings(settingsFile.path, settingsFile.text));
  const { outputFile, quiet, progress: progressMode, ...settings } = resolveSettings(sources, MERGE_SETTINGS);
  await refuseRepeatedReports(context.fileSystem, positionals);
  const progress = createCommandProgress(context, progressMode, (read) => `${read} of ${positionals.length} reports`);
  const { reports, copies } = await readReports(context.fileSystem, positionals, progress?.update).finally(() => progress?.finish());
  checkMergeable(reports);
  // The reports' own rules (checked to agree) are the run's: each report is a part of it, as a worker thread's range is.
  const { environment, slowResponseThresholdMs, expectedStatuses, expectedStatusesByEndpoint } = reports[0]!.report;
  const host = { fileSystem: context.fileSystem, env: context.env, clock: context.clock ?? systemClock, cwd: process.cwd() };
  const reads = [...positionals.map((path) => ({ path, what: 'report' })), settingsFileRead(location)];
  const runSettings = { ...settings, environment, slowResponseThresholdMs, expectedStatuses, expectedStatusesByEndpoint, outputFile };
  const { run, publish } = await openRun(runSettings, host, { reads });
  for (const { report } of reports) run.absorb(reportPart(report));
  const { report, files, warnings } = await publish(run.finish(runFactsOf(reports.map(({ report }) => report))));
  await printPublished(context, { report, files }, { json: flags.json === true, quiet });
  for (const warning of [...copies, ...warnings])
    context.stderr.write(`${context.programName}: warning: ${escapeControlCharacters(warning)}\n`);
  return budgetExitCode(report, context.programName, context.stderr);
}

/**
 * Refuses a report named twice, however the path is spelled (`a.json`,
 * `./a.json`, a link to it): merged with itself, it would double every
 * count. A UsageError (64): the command line is wrong.
 */
async function refuseRepeatedReports(fileSystem: FileSystem, paths: readonly string[]): Promise<void> {
  const seen = new Map<string, string>();
  for (const path of paths) {
    // Only files that are there: a missing one is named by the read that follows (66).
    if ((await fileSystem.stat(path)) === undefined) continue;
    const identity = await fileIdentity(fileSystem, path);
    if (identity === undefined) continue;
    const first = seen.get(identity);
    if (first !== undefined) {
      const again = first === path ? 'twice' : `again, as ${quotePath(path)}`;
      throw new UsageError(
        `the report ${quotePath(first)} is named ${again}: merged with itself, every count would double; name each report once`,
      );
    }
    seen.set(identity, path);
  }
}

/**
 * Reads the reports, each as a merge needs it, and a warning for each whose
 * text is another's byte for byte: reports carry no identity of their run,
 * so two files alike may be one run copied (every count doubled) or two
 * runs that happened to agree; the merge goes on and says so.
 */
async function readReports(
  fileSystem: FileSystem,
  paths: readonly string[],
  progress: ((reports: number, bytes: number) => void) | undefined,
): Promise<{ reports: ReportToMerge[]; copies: string[] }> {
  const reports: ReportToMerge[] = [];
  const copies: string[] = [];
  const digests = new Map<string, string>();
  let bytes = 0;
  for (const path of paths) {
    const text = await readInputFile(fileSystem, path, 'report', REPORT_FILE_LIMIT_BYTES);
    reports.push({ report: completeReport(parseReport(text, path, 'report'), path), path });
    if (progress !== undefined) {
      bytes += Buffer.byteLength(text);
      progress(reports.length, bytes);
    }
    const digest = createHash('sha256').update(text).digest('hex');
    const first = digests.get(digest);
    if (first === undefined) digests.set(digest, path);
    else
      copies.push(
        `the report ${quotePath(path)} is ${quotePath(first)} byte for byte: if it is a copy of the same run, the merged counts are doubled`,
      );
  }
  return { reports, copies };
}

/**
 * A report as a merge needs it: every field of this version's reports (a
 * baseline may lack the later ones; a report merged may not, or the merged
 * report would lack them). A ReportFormatError (65) names the first missing
 * or wrong field.
 */
function completeReport(parsed: unknown, path: string): QualityReport {
  const checked = qualityReportSchema.safeParse(parsed, { reportInput: false });
  if (checked.success) return checked.data;
  const where = firstIssueWhere(checked.error);
  throw new ReportFormatError(
    path,
    `is not a complete report of this version of quality-evidence${where}: merge takes reports written by this version; summarise its records again`,
    'report',
  );
}

const MERGE_HELP = `Usage: quality-evidence merge <report.json...> [options]

Merges reports of separate runs, shards or machines into one report, as if
one run had made all their executions: each report is taken into the
tallies records go through. Counts, status codes, failures and tests add
exactly; the percentiles are read from the merged latency histograms
("source": "histogram"), each within 1% of the exact one. The reports must
agree on what their numbers mean (environment, slow threshold, expected
statuses) and each with itself (its counts, histograms and times add up):
a difference is refused, named. A report named twice is refused; two files
alike byte for byte are merged with a warning.

Options (each wins over its variable, which wins over quality-evidence.config.json):
${settingHelpLines(settingsBut(RECORD_SETTINGS))}
${optionHelpLine('--config <path>', 'the settings file (QE_CONFIG_PATH; default ./quality-evidence.config.json)')}
${optionHelpLine('--json', 'print the merged report JSON on stdout, on a terminal too')}
${optionHelpLine('-h, --help', 'this help')}

Examples:
  npx quality-evidence merge shard-1/quality-summary.json shard-2/quality-summary.json --output all/quality-summary.json
  npx quality-evidence merge reports/*.json --budgets budgets.json --history history.jsonl

Exit codes: 0 success, 1 a budget is breached (the report is written),
64 usage (a report named twice too), 65 not a report, or reports that
cannot be merged, 66 a report is missing, 73 the report cannot be written,
78 configuration.
`;
