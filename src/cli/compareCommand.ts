import { resolveSettings } from '../config/resolveSettings.js';
import { EXPORT_SETTING_KEYS, type SettingKey } from '../config/settings.js';
import { environmentSettings, flagSettings } from '../config/settingsSources.js';
import { ConfigurationError, ReportFormatError } from '../errors.js';
import { parseReport } from '../evaluation/parseReport.js';
import { compareReports } from '../evaluation/compareReports.js';
import { contradictionInVerdict, needsHistory } from '../evaluation/evaluateBudgets.js';
import { systemClock } from '../helpers/clock.js';
import { parseInputJson } from '../input/parseInputJson.js';
import { firstIssueWhere, formatIssuePath } from '../issues/issuePath.js';
import type { FileSystem } from '../io/fileSystem.js';
import { CONFIGURATION_FILE_LIMIT_BYTES, readInputFile, REPORT_FILE_LIMIT_BYTES } from '../io/readInputFile.js';
import { qualityReportSchema, type QualityReport } from '../report/qualityReport.js';
import { REPORT_SCHEMA_VERSION } from '../report/buildReport.js';
import { endpointOfFile } from '../report/reportFile.js';
import { reportDisagreement } from '../report/reportConsistency.js';
import { escapeControlCharacters, quotePath, quoteText } from '../renderValue.js';
import { parseBudgets } from '../workflow/judgement.js';
import { openRun } from '../workflow/openRun.js';
import { parseCommandLine } from './commandLine.js';
import { optionHelpLine, settingHelpLines } from './settingsHelp.js';
import { settingFlagOptions, settingsBut, settingVariables } from './commandSettings.js';
import { budgetExitCode, EXIT_CODES, UsageError } from './exitCodes.js';
import { printPublished } from './printPublished.js';
import type { CommandContext } from './summariseCommand.js';

/**
 * The settings compare takes from the table, flag and variable alike: the
 * files beside the report, the level of the latency test, quiet, and every
 * setting the exports read (`forExports` in its row), so that a new export
 * setting is taken here with no change; and the OpenAPI document HEAD was
 * judged against, which names the conditions the comparison lists. Where
 * the report goes is --output alone (QE_OUTPUT_PATH is not read): compare
 * must be told.
 */
const COMPARE_SETTING_KEYS: readonly SettingKey[] = [
  'formats',
  'significanceLevel',
  'openapi',
  'traceUrlTemplate',
  ...EXPORT_SETTING_KEYS,
  'quiet',
];

const OPTIONS = {
  // Its settings' flags, as the settings table names them, and its own.
  ...settingFlagOptions(COMPARE_SETTING_KEYS),
  output: { type: 'string', short: 'o' },
  budgets: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * `quality-evidence compare BASE HEAD --output FILE`: HEAD's report with its
 * `baseline` section computed against BASE, as a run of HEAD's records with
 * `--baseline BASE` writes it, from the two reports alone (their
 * histograms, counts and contract sections), written as every report is.
 */
export async function compareCommand(context: CommandContext): Promise<number> {
  const { values: flags, positionals } = parseCommandLine(
    { args: [...context.args], options: OPTIONS, strict: true, allowPositionals: true },
    `${context.programName} compare --help`,
  );
  if (flags.help === true) {
    context.stdout.write(COMPARE_HELP);
    return EXIT_CODES.success;
  }
  if (positionals.length !== 2) {
    throw new UsageError(`compare takes two reports, BASE and HEAD (got ${positionals.length}); see ${context.programName} compare --help`);
  }
  if (typeof flags.output !== 'string') {
    throw new UsageError(
      `compare writes HEAD's report, compared with BASE, where --output names: name a file; see ${context.programName} compare --help`,
    );
  }
  const [basePath, headPath] = positionals as [string, string];
  const variables = settingVariables(context.env, COMPARE_SETTING_KEYS);
  const { outputFile, quiet, ...settings } = resolveSettings([flagSettings(flags), environmentSettings(variables)], {
    ignored: settingsBut([...COMPARE_SETTING_KEYS, 'outputFile']),
  });
  const head = await readHead(context.fileSystem, headPath);
  const budgetsPath = typeof flags.budgets === 'string' && flags.budgets.trim() !== '' ? flags.budgets.trim() : undefined;
  if (budgetsPath === undefined) refuseRecordedVerdict(head, headPath, context.programName);
  const host = { fileSystem: context.fileSystem, env: context.env, clock: context.clock ?? systemClock };
  const reads = [{ path: headPath, what: 'report' }, ...(budgetsPath === undefined ? [] : [{ path: budgetsPath, what: 'budgets file' }])];
  const { environment, slowResponseThresholdMs } = head;
  // BASE is the run's baseline: read, and refused, as --baseline reads it.
  const runSettings = { ...settings, environment, slowResponseThresholdMs, outputFile, baselinePath: basePath };
  const { judgement, publish } = await openRun(runSettings, host, { reads });
  const budgets = budgetsPath === undefined ? undefined : await budgetsFor(head, budgetsPath, context.fileSystem);
  const compared = compareReports(head, judgement.baseline!, {
    significanceLevel: judgement.significanceLevel,
    budgets,
    contract: judgement.contract,
  });
  const { report, files, warnings } = await publish(compared);
  await printPublished(context, { report, files }, { json: flags.json === true, quiet });
  for (const warning of warnings) context.stderr.write(`${context.programName}: warning: ${escapeControlCharacters(warning)}\n`);
  return budgetExitCode(report, context.programName, context.stderr);
}

/**
 * HEAD as a run wrote it: a complete report of this version (65 naming the
 * first field that is not), whose parts agree (65 naming the place), its
 * keys in the order the run wrote them. A report read back through the
 * schema takes the schema's order, which a reporter's report does not
 * follow; the document itself, checked to be that report, keeps it, so
 * that compare writes what the run with the baseline writes, byte for byte.
 * It is read as a report of this version, as parseReport reads it: each
 * endpoint's sole status with the endpoint's histogram (reportFile.ts).
 */
async function readHead(fileSystem: FileSystem, path: string): Promise<QualityReport> {
  const text = await readInputFile(fileSystem, path, 'report', REPORT_FILE_LIMIT_BYTES);
  const checked = qualityReportSchema.safeParse(parseReport(text, path, 'report'), { reportInput: false });
  if (!checked.success) {
    throw new ReportFormatError(
      path,
      `is not a complete report of this version of quality-evidence${firstIssueWhere(checked.error)}: compare takes reports written by this version`,
      'report',
    );
  }
  const disagreement = reportDisagreement(checked.data);
  if (disagreement !== undefined) {
    const endpoint = disagreement.endpoint === undefined ? '' : `, endpoint ${quoteText(disagreement.endpoint)}`;
    const where = `${formatIssuePath(disagreement.path)}${endpoint}: ${disagreement.message}`;
    throw new ReportFormatError(
      path,
      `does not add up (at ${where}): a report quality-evidence writes always does; it cannot be compared`,
      'report',
    );
  }
  const document = parseInputJson(text) as QualityReport;
  return {
    ...document,
    schemaVersion: REPORT_SCHEMA_VERSION,
    endpoints: document.endpoints.map(endpointOfFile),
  };
}

/**
 * Without --budgets, HEAD's recorded verdict is kept, and gated on: refused
 * when it contradicts HEAD's own numbers (65, as `check` refuses it), and
 * when it judged maxP95IncreasePercent against HEAD's own baseline, which
 * BASE replaces: only the budgets themselves can judge it again (64).
 */
function refuseRecordedVerdict(head: QualityReport, path: string, programName: string): void {
  if (head.budgets === undefined) return;
  const contradiction = contradictionInVerdict(head, head.budgets);
  if (contradiction !== undefined)
    throw new ReportFormatError(path, `holds a budget verdict that contradicts it: ${contradiction}`, 'report');
  if (head.budgets.results.some((result) => result.budget === 'maxP95IncreasePercent')) {
    throw new UsageError(
      `the report ${quotePath(path)} records a verdict of maxP95IncreasePercent, judged against its own baseline, which BASE replaces: ` +
        `name the budgets file with --budgets to judge it against BASE; see ${programName} compare --help`,
    );
  }
}

/**
 * The budgets file, checked as `check --budgets` checks it: one judging the
 * history needs HEAD to have a history section (78); one comparing with a
 * baseline has BASE.
 */
async function budgetsFor(head: QualityReport, path: string, fileSystem: FileSystem): Promise<ReturnType<typeof parseBudgets>> {
  const budgets = parseBudgets(await readInputFile(fileSystem, path, 'budgets file', CONFIGURATION_FILE_LIMIT_BYTES), path);
  if (needsHistory(budgets) && head.history === undefined) {
    throw new ConfigurationError([
      {
        variable: `maxEndpointsAboveHistoricalRange in ${quotePath(path)}`,
        message:
          'judges endpoints against their history: HEAD holds none (make it with --history, QE_HISTORY_PATH or the historyPath option)',
      },
    ]);
  }
  return budgets;
}

const COMPARE_HELP = `Usage: quality-evidence compare <BASE.json> <HEAD.json> --output <file> [options]

Writes HEAD's report with its baseline section computed against BASE, as a
run of HEAD's records with --baseline BASE would write it, from the two
reports alone: each endpoint's latency judged by a significance test over
their histograms, failures, statuses new against BASE, flakiness, and what
the run did to the contract when both reports have one. A baseline section
HEAD held is replaced. BASE is read as --baseline reads it (a report of this
tool, of an earlier version too); HEAD must be a complete report of this
version whose parts add up. With .md and .html beside it, as every report.

Options:
${optionHelpLine('-o, --output <file>', 'where the compared report goes (required; never BASE or HEAD)')}
${settingHelpLines(['formats', 'significanceLevel', 'traceUrlTemplate'])}
${optionHelpLine(
  '--budgets <file>',
  "judge the compared report by these budgets; without it, HEAD's recorded verdict is kept " +
    "(one that judged maxP95IncreasePercent against HEAD's own baseline is refused)",
)}
${optionHelpLine(
  '--openapi <path>',
  'the OpenAPI document HEAD was judged against (QE_OPENAPI_PATH; repeatable): with it, the conditions ' +
    "newly met and no longer met are listed; HEAD's contract section is kept as it is",
)}
${settingHelpLines([...EXPORT_SETTING_KEYS, 'quiet'])}
${optionHelpLine('--json', 'print the compared report JSON on stdout, on a terminal too')}
${optionHelpLine('-h, --help', 'this help')}

Examples:
  npx quality-evidence compare main/quality-summary.json .build/quality-summary.json --output compared/quality-summary.json
  npx quality-evidence compare base.json head.json --output compared.json --budgets budgets.json --formats json,markdown

Exit codes: 0 success, 1 a budget is breached (the report is written),
64 usage (no --output, not two reports, a recorded maxP95IncreasePercent
verdict without --budgets), 65 not a report (or HEAD incomplete, its parts
not adding up, or its recorded verdict contradicting it), 66 a report is
missing, 73 the report cannot be written (the output is BASE or HEAD, for
one), 78 configuration.
`;
