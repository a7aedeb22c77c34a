import { evidenceIndexOfHistory, evidenceIndexOfReport } from '../contract/diff/changeEvidence.js';
import { ReportFormatError } from '../errors.js';
import { parseReport } from '../evaluation/parseReport.js';
import { conditionWeightsOfHistory, conditionWeightsOfReport, type ChangeWeights } from '../evaluation/weighedChanges.js';
import { HISTORY_FILE } from '../history/historyFile.js';
import { parseHistory } from '../history/historyParse.js';
import { firstIssueWhere } from '../issues/issuePath.js';
import { readInputFile, REPORT_FILE_LIMIT_BYTES } from '../io/readInputFile.js';
import { qualityReportSchema } from '../report/qualityReport.js';
import { escapeControlCharacters } from '../renderValue.js';
import type { CommandContext } from './summariseCommand.js';

/**
 * The evidence `affected` and `contract-diff` weigh a contract's changes by
 * (docs/contract-diff.md): a report of this version (`--report`), or a
 * history file's runs (`--history`). Exactly one of the two paths is given.
 */
export async function readChangeEvidence(
  context: CommandContext,
  command: 'affected' | 'contract-diff',
  reportPath: string | undefined,
  historyPath: string | undefined,
): Promise<ChangeWeights & { readonly path: string }> {
  if (reportPath !== undefined && reportPath !== '')
    return { ...(await readReportEvidence(context, command, reportPath)), path: reportPath };
  return { ...(await readHistoryEvidence(context, historyPath!)), path: historyPath! };
}

/** A report of this version, complete (65 naming the first field that is not). */
async function readReportEvidence(context: CommandContext, command: string, path: string): Promise<ChangeWeights> {
  const text = await readInputFile(context.fileSystem, path, 'report', REPORT_FILE_LIMIT_BYTES);
  const checked = qualityReportSchema.safeParse(parseReport(text, path, 'report'), { reportInput: false });
  if (!checked.success)
    throw new ReportFormatError(
      path,
      `is not a complete report of this version of quality-evidence${firstIssueWhere(checked.error)}: ` +
        `${command} takes reports written by this version`,
      'report',
    );
  return { index: evidenceIndexOfReport(checked.data), conditions: conditionWeightsOfReport(checked.data) };
}

/**
 * A history file: every run it holds (a missing file is 66 here, not an
 * empty history: there is nothing to weigh by). A line that is not a run is
 * left out, said on stderr, as a run reading its history does.
 */
async function readHistoryEvidence(context: CommandContext, path: string): Promise<ChangeWeights> {
  const history = parseHistory(await readInputFile(context.fileSystem, path, HISTORY_FILE, REPORT_FILE_LIMIT_BYTES), path);
  for (const skipped of history.skippedLines)
    context.stderr.write(
      `${context.programName}: warning: ${escapeControlCharacters(`line ${skipped.line} of the history file left out: ${skipped.message}`)}\n`,
    );
  return { index: evidenceIndexOfHistory(history.runs), conditions: conditionWeightsOfHistory(history.runs) };
}
