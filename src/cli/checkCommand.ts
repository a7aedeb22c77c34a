import { ConfigurationError, ReportFormatError } from '../errors.js';
import { EXPORT_SETTING_KEYS, SETTINGS } from '../config/settings.js';
import { settingFlagOptions, settingsBut, settingVariables } from './commandSettings.js';
import { resolveSettings } from '../config/resolveSettings.js';
import { environmentSettings, flagSettings } from '../config/settingsSources.js';
import { systemClock } from '../helpers/clock.js';
import { displayPath } from '../io/displayPath.js';
import { openRun } from '../workflow/openRun.js';
import { compareWithBaseline } from '../evaluation/baseline.js';
import { parseReport } from '../evaluation/parseReport.js';
import { contradictionInVerdict, evaluateBudgets, needsBaseline, needsHistory } from '../evaluation/evaluateBudgets.js';
import { describeIncompleteRun, NO_LIMIT_TEXT } from '../report/renderers/presentation.js';
import { formatBudgetResult } from '../report/renderers/terminal.js';
import type { QualityReport } from '../report/qualityReport.js';
import { isIncompleteRun } from '../report/buildReport.js';
import type { BudgetVerdict } from '../report/verdictSchemas.js';
import { CONFIGURATION_FILE_LIMIT_BYTES, readInputFile, REPORT_FILE_LIMIT_BYTES } from '../io/readInputFile.js';
import { parseBudgets } from '../workflow/judgement.js';
import { escapeControlCharacters, quotePath } from '../renderValue.js';
import type { Budgets } from '../config/budgetsSchema.js';
import { unmatchedEndpointKeyWarnings } from '../evaluation/unmatchedEndpointKeys.js';
import { parseCommandLine } from './commandLine.js';
import { optionHelpLine, settingHelpLines } from './settingsHelp.js';
import { EXIT_CODES, UsageError } from './exitCodes.js';
import type { CommandContext } from './summariseCommand.js';

/** The flags of the settings the exports read, as the table names them: check writes the exports of the report it judged. */
const EXPORT_FLAG_OPTIONS = settingFlagOptions(EXPORT_SETTING_KEYS);

const OPTIONS = {
  ...EXPORT_FLAG_OPTIONS,
  budgets: { type: 'string' },
  baseline: { type: 'string' },
  'significance-level': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * `quality-evidence check <report.json> [--budgets file] [--baseline file]`:
 * judges an existing report (a merged shard report, an artifact) against
 * budgets, one line per budget on stdout; exits 1 when a budget is breached.
 * With no `--budgets`, the verdict recorded in the report is used.
 */
export async function checkCommand(context: CommandContext): Promise<number> {
  const { values: flags, positionals } = parseCommandLine(
    { args: [...context.args], options: OPTIONS, strict: true, allowPositionals: true },
    `${context.programName} check --help`,
  );
  if (flags.help === true) {
    context.stdout.write(CHECK_HELP);
    return EXIT_CODES.success;
  }
  if (positionals.length !== 1) {
    throw new UsageError(`check takes one report file (got ${positionals.length}); see ${context.programName} check --help`);
  }
  const reportPath = positionals[0]!;
  const report = parseReport(
    await readInputFile(context.fileSystem, reportPath, 'report', REPORT_FILE_LIMIT_BYTES),
    reportPath,
    'report',
  ) as QualityReport;
  const baselinePath = flags.baseline?.trim();
  const significanceLevel = significanceLevelOf(flags['significance-level']);
  const compared =
    baselinePath === undefined || baselinePath === ''
      ? report
      : {
          ...report,
          baseline: compareWithBaseline(
            report,
            parseReport(await readInputFile(context.fileSystem, baselinePath, 'baseline report', REPORT_FILE_LIMIT_BYTES), baselinePath),
            { significanceLevel },
          ),
        };
  const { verdict, budgets } = await verdictOf(compared, { report, path: reportPath }, flags.budgets?.trim(), context);
  // The exports carry this check's verdict; they are written before anything is printed, and a failed write fails the check.
  const exportSettings = resolveSettings(
    [
      flagSettings(
        Object.fromEntries(Object.keys(EXPORT_FLAG_OPTIONS).map((name) => [name, (flags as Parameters<typeof flagSettings>[0])[name]])),
      ),
      environmentSettings(settingVariables(context.env, EXPORT_SETTING_KEYS)),
    ],
    { ignored: settingsBut(EXPORT_SETTING_KEYS) },
  );
  const reads = [
    { path: reportPath, what: 'report' },
    ...(baselinePath === undefined || baselinePath === '' ? [] : [{ path: baselinePath, what: 'baseline report' }]),
    ...(flags.budgets === undefined ? [] : [{ path: flags.budgets.trim(), what: 'budgets file' }]),
  ];
  const host = { fileSystem: context.fileSystem, env: context.env, clock: context.clock ?? systemClock };
  // A run that writes no report: only the exports, of the report it read, with this check's verdict.
  const { environment, slowResponseThresholdMs } = report;
  const opened = { environment, slowResponseThresholdMs, ...pickSettings(exportSettings, EXPORT_SETTING_KEYS) };
  const { publish } = await openRun(opened, host, { reads, exportsOnly: true });
  const { files: exported } = await publish({ ...compared, budgets: verdict });
  // A budget of an endpoint the report does not have measures nothing: it breaches, and the key is named.
  for (const warning of unmatchedEndpointKeyWarnings(report, { budgets, budgetsPath: flags.budgets?.trim() }))
    context.stderr.write(`quality-evidence check: warning: ${escapeControlCharacters(warning)}\n`);
  if (flags.quiet !== true) {
    const breached = verdict.results.filter((result) => !result.passed).length;
    const lines = verdict.results.map(formatBudgetResult);
    const total = verdict.results.length;
    lines.push(
      total === 0
        ? `quality-evidence check: ${NO_LIMIT_TEXT}: nothing was judged`
        : breached === 0
          ? `quality-evidence check: ${total === 1 ? 'the budget holds' : `all ${total} budgets hold`}`
          : `quality-evidence check: ${breached} of ${total} ${total === 1 ? 'budget' : 'budgets'} breached`,
    );
    // Budgets that hold on part of the evidence are no pass: the verdict, recorded or judged here, is refused.
    if (isIncompleteRun(report.runStatus))
      lines.push(`quality-evidence check: ${describeIncompleteRun(report)}: the evidence is incomplete, so it passes no budget`);
    if (exported.length > 0)
      lines.push(`quality-evidence check: exports written to ${exported.map((path) => displayPath(path, process.cwd())).join(', ')}`);
    context.stdout.write(`${lines.join('\n')}\n`);
  }
  return verdict.passed && !isIncompleteRun(report.runStatus) ? EXIT_CODES.success : EXIT_CODES.budgetBreached;
}

/** The --significance-level flag, checked as QE_SIGNIFICANCE_LEVEL is; undefined when not given. */
function significanceLevelOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const setting = SETTINGS.significanceLevel;
  const parsed = setting.text.pipe(setting.value).safeParse(text.trim());
  if (!parsed.success)
    throw new ConfigurationError([
      { variable: '--significance-level', message: parsed.error.issues[0]?.message ?? 'must be a probability above 0 and at most 0.5' },
    ]);
  return parsed.data;
}

// `recorded` is the report as read, before any comparison with --baseline: what its recorded verdict was judged on.
async function verdictOf(
  report: QualityReport,
  recorded: { report: QualityReport; path: string },
  budgetsPath: string | undefined,
  context: CommandContext,
): Promise<{ readonly verdict: BudgetVerdict; readonly budgets?: Budgets }> {
  if (budgetsPath === undefined || budgetsPath === '') {
    if (report.budgets === undefined)
      throw new UsageError(
        `the report holds no budget verdict: name a budgets file with --budgets; see ${context.programName} check --help`,
      );
    // The recorded verdict is what is gated on: one that contradicts the report's own numbers is refused, not trusted nor silently redone.
    const contradiction = contradictionInVerdict(recorded.report, report.budgets);
    if (contradiction !== undefined)
      throw new ReportFormatError(recorded.path, `holds a budget verdict that contradicts it: ${contradiction}`, 'report');
    return { verdict: report.budgets };
  }
  const budgets = parseBudgets(
    await readInputFile(context.fileSystem, budgetsPath, 'budgets file', CONFIGURATION_FILE_LIMIT_BYTES),
    budgetsPath,
  );
  if (needsBaseline(budgets) && report.baseline === undefined) {
    throw new ConfigurationError([
      {
        variable: `maxP95IncreasePercent in ${quotePath(budgetsPath)}`,
        message: 'compares with a baseline report: name one with --baseline (the report holds no comparison)',
      },
    ]);
  }
  if (needsHistory(budgets) && report.history === undefined) {
    throw new ConfigurationError([
      {
        variable: `maxEndpointsAboveHistoricalRange in ${quotePath(budgetsPath)}`,
        message:
          'judges endpoints against their history: the report holds none (make it with --history, QE_HISTORY_PATH or the historyPath option)',
      },
    ]);
  }
  return { verdict: evaluateBudgets(report, budgets), budgets };
}

export const CHECK_HELP = `Usage: quality-evidence check <report.json> [--budgets <file>] [--baseline <file>]

Judges an existing report against quality budgets: one line per budget on
stdout, exit 1 when a budget is breached, 0 when every budget holds. Use it
after merge-reports, whose exit status ignores reporters.

Options:
${optionHelpLine('--budgets <file>', 'the budgets file; without it, the verdict recorded in the report is used')}
${optionHelpLine('--baseline <file>', "a previous report (main's) for maxP95IncreasePercent")}
${optionHelpLine('--significance-level <p>', "the level of the baseline's latency test (default 0.01)")}
${settingHelpLines(EXPORT_SETTING_KEYS)}
${optionHelpLine('-q, --quiet', 'print nothing; the exit code tells')}
${optionHelpLine('-h, --help', 'this help')}

Examples:
  npx playwright merge-reports --reporter quality-evidence/reporter ./blob-report
  npx quality-evidence check .build/quality-summary.json --budgets budgets.json

Exit codes: 0 every budget holds, 1 a budget is breached, 64 usage,
65 not a report (or a recorded verdict that contradicts it, or one an
export cannot be made of), 66 a file is missing, 73 an export cannot be
written, 78 bad budgets or export settings.
`;

/** Only the named variables of an environment: check reads no other setting from it. */
/** Only the named settings, those given. */
function pickSettings<Value extends object, Key extends keyof Value>(settings: Value, keys: readonly Key[]): Partial<Pick<Value, Key>> {
  return Object.fromEntries(keys.flatMap((key) => (settings[key] === undefined ? [] : [[key, settings[key]]]))) as Partial<
    Pick<Value, Key>
  >;
}
