import { readSettingsFile, settingsFileLocation, settingsFileRead } from '../config/readSettingsFile.js';
import { resolveSettings, type ProgramSettings } from '../config/resolveSettings.js';
import { SETTING_FLAG_OPTIONS, SETTINGS, type SettingKey } from '../config/settings.js';
import { environmentSettings, flagSettings, presentValue, settingsFileSettings, type SettingsSource } from '../config/settingsSources.js';
import { judgeReport } from '../evaluation/judgeReport.js';
import { ciVariablesOf } from '../history/historyBaseline.js';
import { displayPath } from '../io/displayPath.js';
import { readInputFile, REPORT_FILE_LIMIT_BYTES } from '../io/readInputFile.js';
import { standardStreamFiles } from '../io/writeReportAtomically.js';
import { parseReport } from '../evaluation/baseline.js';
import { mergeReports } from '../report/mergeReports.js';
import { qualityReportSchema, type QualityReport } from '../report/qualityReport.js';
import { ReportFormatError } from '../errors.js';
import { firstIssueWhere } from '../issues/issuePath.js';
import { renderTerminal } from '../report/renderers/terminal.js';
import { historySkippedWarnings } from '../report/renderers/presentation.js';
import { escapeControlCharacters } from '../renderValue.js';
import { judgementFiles, loadJudgement } from '../run/judgement.js';
import { checkReportDestination, historyAppendOf, historyStampOf, publishReport, stepSummaryPathOf, type ReportDestination } from '../run/publishReport.js';
import { systemClock } from '../helpers/clock.js';
import { parseCommandLine } from './commandLine.js';
import { budgetExitCode, EXIT_CODES, UsageError } from './exitCodes.js';
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
const MERGE_FLAG_OPTIONS = Object.fromEntries(
  Object.entries(SETTING_FLAG_OPTIONS).filter(([flag]) => !RECORD_SETTINGS.some((key) => (SETTINGS[key] as { flag?: { name: string } }).flag?.name === flag)),
);

const OPTIONS = {
  config: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const MERGE_SETTINGS: ProgramSettings = { ignored: RECORD_SETTINGS };

/**
 * `quality-evidence merge a.json b.json … --output all.json`: one report
 * from the reports of separate runs, shards or machines (see mergeReports),
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
  const { outputFile, quiet, ...settings } = resolveSettings(sources, MERGE_SETTINGS);

  const destination: ReportDestination = {
    outputPath: outputFile,
    formats: settings.formats,
    stepSummaryPath: stepSummaryPathOf(context.env),
    reads: [
      ...positionals.map((path) => ({ path, what: 'report' })),
      ...judgementFiles(settings),
      settingsFileRead(location),
      ...standardStreamFiles({ readsStandardInput: false }),
    ],
    exports: settings.exports,
    history: historyAppendOf(settings),
  };
  await checkReportDestination(context.fileSystem, destination);
  const reports: { report: QualityReport; path: string }[] = [];
  for (const path of positionals) reports.push({ report: completeReport(parseReport(await readInputFile(context.fileSystem, path, 'report', REPORT_FILE_LIMIT_BYTES), path, 'report'), path), path });
  const merged = mergeReports(reports);
  const judgement = await loadJudgement({ ...settings, environment: merged.environment, ciVariables: ciVariablesOf(context.env) }, context.fileSystem);
  const report = judgeReport(merged, judgement);
  const now = (context.clock ?? systemClock).now();
  const exportContext = { endedAtMs: now, env: context.env, serviceName: settings.serviceName };
  const { reportText, files, stepSummaryProblem } = await publishReport(report, destination, context.fileSystem, historyStampOf(now, context.env, judgement), exportContext);
  if (flags.json === true || (context.stdout.isTTY !== true && !quiet)) context.stdout.write(reportText);
  else if (!quiet) context.stdout.write(renderTerminal(report, { files: files.map((file) => displayPath(file, process.cwd())), color: presentValue(context.env['NO_COLOR']) === undefined }));
  if (stepSummaryProblem !== undefined) context.stderr.write(`${context.programName}: warning: ${stepSummaryProblem}\n`);
  for (const warning of [...(judgement.warnings ?? []), ...historySkippedWarnings(report)]) context.stderr.write(`${context.programName}: warning: ${escapeControlCharacters(warning)}\n`);
  return budgetExitCode(report, context.programName, context.stderr);
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
  throw new ReportFormatError(path, `is not a complete report of this version of quality-evidence${where}: merge takes reports written by this version; summarise its records again`, 'report');
}

const MERGE_HELP = `Usage: quality-evidence merge <report.json...> [options]

Merges reports of separate runs, shards or machines into one report, as if
one run had made all their executions. Counts, status codes, failures and
tests add exactly; the percentiles are read from the merged latency
histograms ("source": "histogram"), each within 1% of the exact one. The
reports must agree on what their numbers mean (environment, slow threshold,
expected statuses): a difference is refused, named.

Options (each wins over its variable, which wins over quality-evidence.config.json):
  -o, --output <path>                  the merged report (QE_OUTPUT_PATH; default .build/quality-summary.json)
  --formats <list>                     files beside the JSON report: json,markdown,html (QE_REPORT_FORMATS)
  --budgets <path>                     quality budgets to judge the merged report by; a breach exits 1 (QE_BUDGETS_PATH)
  --baseline <path>                    a previous report to compare with (QE_BASELINE_PATH)
  --history <path>                     judge each endpoint against this history file, and append the merged run (QE_HISTORY_PATH)
  --history-read-only                  read the history file, do not append (QE_HISTORY_READ_ONLY)
  --baseline-from-history <ref>        the baseline is the last run of this branch or commit in the history (QE_BASELINE_FROM_HISTORY)
  --openapi <path>                     the API's OpenAPI document: coverage of the merged calls (QE_OPENAPI_PATH)
  --export <kind=path>                 also write the merged run for another tool; repeatable (QE_EXPORTS): otlp=<file>,
                                       prometheus=<file>, ctrf=<file>, junit=<file>, benchmark-action=<file>
  --service-name <name>                the service the otlp and prometheus exports name (QE_SERVICE_NAME)
  --config <path>                      the settings file (QE_CONFIG_PATH)
  -q, --quiet                          print nothing on success (QE_QUIET)
  --json                               print the merged report JSON on stdout, on a terminal too
  -h, --help                           this help

Examples:
  npx quality-evidence merge shard-1/quality-summary.json shard-2/quality-summary.json --output all/quality-summary.json
  npx quality-evidence merge reports/*.json --budgets budgets.json --history history.jsonl

Exit codes: 0 success, 1 a budget is breached (the report is written),
64 usage, 65 not a report, or reports that cannot be merged, 66 a report is
missing, 73 the report cannot be written, 78 configuration.
`;
