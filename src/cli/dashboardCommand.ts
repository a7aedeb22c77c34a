import { dashboardModelOf } from '../dashboard/dashboardModel.js';
import { renderDashboard } from '../dashboard/dashboardPage.js';
import { DEFAULT_FLAKINESS_RUNS } from '../history/flakiness.js';
import { HISTORY_FILE } from '../history/historyFile.js';
import { parseHistory } from '../history/historyParse.js';
import { displayPath } from '../io/displayPath.js';
import { readInputFile, REPORT_FILE_LIMIT_BYTES } from '../io/readInputFile.js';
import { writeReportFilesAtomically } from '../io/writeReportAtomically.js';
import { escapeControlCharacters, groupDigits, quoteText } from '../renderValue.js';
import { parseCommandLine } from './commandLine.js';
import { EXIT_CODES, UsageError } from './exitCodes.js';
import { optionHelpLine, settingHelpLines } from './settingsHelp.js';
import { resolveSettings } from '../config/resolveSettings.js';
import { environmentSettings, flagSettings } from '../config/settingsSources.js';
import { settingsBut, settingVariables } from './commandSettings.js';
import { createCommandProgress } from './progressLine.js';
import type { CommandContext } from './summariseCommand.js';

const OPTIONS = {
  history: { type: 'string' },
  output: { type: 'string', short: 'o' },
  'flakiness-runs': { type: 'string' },
  progress: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The most runs --flakiness-runs takes: more than a history keeps by default (historyLimit) many times over. */
const MOST_FLAKINESS_RUNS = 100_000;

/**
 * `quality-evidence dashboard --history FILE --output FILE.html`: the
 * history page (docs/dashboard.md), written at once or not at all. The
 * history is read as a run reads it, except that a missing file is 66
 * (there is nothing to draw); a line that is not a run is left out, said on
 * stderr and on the page.
 */
export async function dashboardCommand(context: CommandContext): Promise<number> {
  const { values: flags, positionals } = parseCommandLine(
    { args: [...context.args], options: OPTIONS, strict: true, allowPositionals: true },
    `${context.programName} dashboard --help`,
  );
  if (flags.help === true) {
    context.stdout.write(DASHBOARD_HELP);
    return EXIT_CODES.success;
  }
  const help = `see ${context.programName} dashboard --help`;
  if (positionals.length > 0) throw new UsageError(`dashboard takes no file but by its flags (got ${positionals.length}); ${help}`);
  const historyPath = flags.history?.trim();
  if (historyPath === undefined || historyPath === '')
    throw new UsageError(`dashboard needs --history <file>, the history file (historyPath) to draw; ${help}`);
  const output = flags.output?.trim();
  if (output === undefined || output === '') throw new UsageError(`dashboard needs --output <file>, where the page goes (HTML); ${help}`);
  const flakinessRuns = flakinessRunsOf(flags['flakiness-runs'], help);

  // Of the settings, the dashboard takes only progress (--progress, QE_PROGRESS): it reads no settings file.
  const { progress: progressMode } = resolveSettings(
    [flagSettings({ progress: flags.progress }), environmentSettings(settingVariables(context.env, ['progress']))],
    { ignored: settingsBut(['progress']) },
  );

  const progress = createCommandProgress(context, progressMode, (lines) => `${groupDigits(lines)} history lines`);
  const history = await readInputFile(context.fileSystem, historyPath, HISTORY_FILE, REPORT_FILE_LIMIT_BYTES)
    .then((text) => parseHistory(text, historyPath, progress?.update))
    .finally(() => progress?.finish());
  for (const skipped of history.skippedLines)
    context.stderr.write(
      `${context.programName}: warning: ${escapeControlCharacters(`line ${skipped.line} of the history file left out: ${skipped.message}`)}\n`,
    );
  const model = dashboardModelOf(history.runs, history.skippedLines, { flakinessRuns });
  const cwd = process.cwd();
  const page = renderDashboard(model, { historyName: displayPath(historyPath, cwd) });
  await writeReportFilesAtomically(
    context.fileSystem,
    [{ path: output, content: page, role: 'dashboard page' }],
    [{ path: historyPath, what: HISTORY_FILE }],
  );
  const runs = `${model.runs.length} ${model.runs.length === 1 ? 'run' : 'runs'}`;
  const endpoints = `${model.endpoints.length} ${model.endpoints.length === 1 ? 'endpoint' : 'endpoints'}`;
  context.stdout.write(`${context.programName} dashboard: ${runs}, ${endpoints}; written to ${displayPath(output, cwd)}\n`);
  return EXIT_CODES.success;
}

function flakinessRunsOf(given: string | undefined, help: string): number {
  if (given === undefined) return DEFAULT_FLAKINESS_RUNS;
  const runs = /^\s*\d{1,6}\s*$/.test(given) ? Number(given) : Number.NaN;
  if (!(runs >= 1 && runs <= MOST_FLAKINESS_RUNS))
    throw new UsageError(`--flakiness-runs must be a whole number from 1 to ${MOST_FLAKINESS_RUNS} (got ${quoteText(given, 40)}); ${help}`);
  return runs;
}

const DASHBOARD_HELP = `Usage: quality-evidence dashboard --history <file> --output <file.html> [--flakiness-runs <n>]

Writes the history page (docs/dashboard.md): one self-contained HTML file
drawn from a history file (historyPath), with no request to anywhere. It
shows the runs over time (executions, failed, the verdict, contract
coverage, the p95 shift of each run, a link to each run's report where the
history names one) and each endpoint's p50 and p95 over the runs, its
range, failure rate and flakiness, what changed most first, with a filter
by label, state and environment.

Options:
${optionHelpLine('--history <file>', 'the history file to draw (JSON Lines, as historyPath writes it)')}
${optionHelpLine('-o, --output <file>', 'where the page goes; written at once or not at all')}
${optionHelpLine('--flakiness-runs <n>', `the last runs of each environment failure rates and flakiness are scored over (default ${DEFAULT_FLAKINESS_RUNS})`)}
${settingHelpLines(['progress'])}
${optionHelpLine('-h, --help', 'this help')}

Example:
  npx quality-evidence dashboard --history .quality/history.jsonl --output out/dashboard.html

Exit codes: 0 written, 64 usage, 65 a history file of a newer version, not a
history, or past the limit, 66 the history file is missing or unreadable,
73 the page cannot be written there (a folder, or the history file itself),
78 a --progress or QE_PROGRESS that is not auto, always or never.
`;
