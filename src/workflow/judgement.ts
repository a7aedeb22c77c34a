import { budgetsSchema, type Budgets } from '../config/budgets.js';
import { ConfigurationError, InputSyntaxError, InputUnreadableError, type ConfigurationIssue } from '../errors.js';
import { compareWithBaseline, parseReport, type BaselineReport } from '../evaluation/baseline.js';
import { evaluateBudgets, needsBaseline } from '../evaluation/budgets.js';
import { parseInputJson } from '../input/readInput.js';
import { describeFileSystemFailure } from '../io/describeFileSystemFailure.js';
import type { FileSystem } from '../io/fileSystem.js';
import type { QualityReport } from '../report/qualityReport.js';

/** What a run is judged by: budgets (a file's path, or the budgets themselves) and a baseline report. */
export interface JudgementSettings {
  /** A budgets file's path, or the budgets as an object (the reporter option). */
  readonly budgets?: string | Budgets | undefined;
  /** Where the budgets object came from, for messages: `option "budgets"`. */
  readonly budgetsSource?: string | undefined;
  /** A previous report to compare with. */
  readonly baselinePath?: string | undefined;
}

/** Budgets and a baseline, loaded and checked. */
export interface Judgement {
  readonly budgets?: Budgets | undefined;
  readonly baseline?: BaselineReport | undefined;
}

/**
 * Loads what a run is judged by, before any input is read, so that a bad
 * budgets file or a missing baseline stops the run before anything is
 * written: a missing file is an InputUnreadableError (66); a baseline that
 * is not a report of this tool a ReportFormatError (65); budgets that are
 * not valid, or that compare with a baseline when none is named, a
 * ConfigurationError (78) naming each key.
 */
export async function loadJudgement(settings: JudgementSettings, fileSystem: FileSystem): Promise<Judgement> {
  const budgets =
    typeof settings.budgets === 'string'
      ? parseBudgets(await readNamedFile(fileSystem, settings.budgets, 'budgets file'), settings.budgets)
      : settings.budgets;
  const baseline = settings.baselinePath === undefined ? undefined : parseReport(await readNamedFile(fileSystem, settings.baselinePath, 'baseline report'), settings.baselinePath);
  if (budgets !== undefined && baseline === undefined && needsBaseline(budgets)) {
    const where = typeof settings.budgets === 'string' ? ` in ${settings.budgets}` : settings.budgetsSource === undefined ? '' : ` of ${settings.budgetsSource}`;
    throw new ConfigurationError([
      { variable: `"maxP95IncreasePercent"${where}`, message: 'compares with a baseline report: name one with --baseline, QE_BASELINE_PATH or the baselinePath option' },
    ]);
  }
  return { ...(budgets === undefined ? {} : { budgets }), ...(baseline === undefined ? {} : { baseline }) };
}

/** The report with its judgement: the comparison with the baseline, then the budgets' verdict (which may use that comparison). */
export function judgeReport(report: QualityReport, { budgets, baseline }: Judgement): QualityReport {
  const compared: QualityReport = baseline === undefined ? report : { ...report, baseline: compareWithBaseline(report, baseline) };
  return budgets === undefined ? compared : { ...compared, budgets: evaluateBudgets(compared, budgets) };
}

/** Checks a budgets file's text, naming every bad key with the file. */
export function parseBudgets(text: string, path: string): Budgets {
  let document: unknown;
  try {
    document = parseInputJson(text);
  } catch (error) {
    if (!(error instanceof InputSyntaxError)) throw error;
    const at = error.line === undefined ? '' : ` at line ${error.line}, column ${String(error.column)}`;
    throw new ConfigurationError([{ variable: path, message: `is not well-formed JSON${at}` }], 'budgets');
  }
  const parsed = budgetsSchema.safeParse(document, { reportInput: false });
  if (parsed.success) return parsed.data;
  const issues: ConfigurationIssue[] = parsed.error.issues.map((issue) => ({
    variable: issue.path.length === 0 ? path : `${issue.path.map((part) => JSON.stringify(String(part))).join(' › ')} in ${path}`,
    message:
      issue.code === 'unrecognized_keys'
        ? `holds ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}, which ${issue.keys.length === 1 ? 'is not a budget' : 'are not budgets'}`
        : issue.code === 'invalid_key'
          ? (issue.issues[0]?.message ?? issue.message)
          : issue.message,
  }));
  throw new ConfigurationError(issues, 'budgets');
}

/** Reads a file the run was told to read; missing or unreadable, an InputUnreadableError naming what it is. */
export async function readNamedFile(fileSystem: FileSystem, path: string, what: string): Promise<string> {
  try {
    return await fileSystem.readFile(path);
  } catch (error) {
    throw new InputUnreadableError(path, describeFileSystemFailure(error), { what, cause: error });
  }
}
