import { budgetKeysAt, budgetsSchema, type Budgets } from '../config/budgetsSchema.js';
import { nearMissOf } from '../config/nearMiss.js';
import { parseConfigurationJson } from '../config/settingsSources.js';
import { ConfigurationError, type ConfigurationIssue } from '../errors.js';
import { needsBaseline, needsContractBase, needsHistory } from '../evaluation/evaluateBudgets.js';
import { HISTORY_FILE, readHistory } from '../history/historyFile.js';
import { baselineRunOf, comparedRunOf, pullRequestBaseOf, type CiVariables } from '../history/historyBaseline.js';
import type { Judgement } from '../evaluation/judgeReport.js';
import type { Contract } from '../contract/contract.js';
import { formatIssuePath, validationIssuesOf } from '../issues/issuePath.js';
import type { FileSystem } from '../io/fileSystem.js';
import { CONFIGURATION_FILE_LIMIT_BYTES, readInputFile, REPORT_FILE_LIMIT_BYTES } from '../io/readInputFile.js';
import type { ReadFile } from '../io/writeReportAtomically.js';
import { quotePath } from '../renderValue.js';
import { isAbsolute, relative, sep } from 'node:path';

/** What a run is judged by: budgets (a file's path, or the budgets themselves), a baseline report and the API's contract. */
export interface JudgementSettings {
  /** A budgets file's path, or the budgets as an object (the reporter option). */
  readonly budgets?: string | Budgets | undefined;
  /** A previous report to compare with. */
  readonly baselinePath?: string | undefined;
  /** The OpenAPI documents of the API's contract. */
  readonly openapi?: readonly string[] | undefined;
  /** The OpenAPI documents `openapi` is compared with (BASE): the report gains the changes between them, weighed. */
  readonly openapiBase?: readonly string[] | undefined;
  /** The significance level of the baseline comparison's latency test. */
  readonly significanceLevel?: number | undefined;
  /** The history file: each endpoint is judged against its earlier runs. */
  readonly historyPath?: string | undefined;
  /** The runs of the history file that count (the last ones); the settings table gives the default (see openRun). */
  readonly historyLimit: number;
  /** A branch or commit whose last run in the history is the baseline. */
  readonly baselineFromHistory?: string | undefined;
  /** The history page written with the report: it needs the history file. */
  readonly dashboardPath?: string | undefined;
  /** The run's environment: its history is that environment's runs. */
  readonly environment?: string | undefined;
  /** What CI says of a pull request's base (see pullRequestBaseOf): the variables, as the process has them. */
  readonly ciVariables?: CiVariables | undefined;
  /** The working folder: the report names the contract's documents relative to it (see documentName). */
  readonly cwd?: string | undefined;
}

/**
 * What the report calls a contract's document: its path relative to the
 * working folder when inside it, with `/` between folders, so that the
 * report of two checkouts in two folders is the same bytes (the reporter's
 * paths are joined to the Playwright config's folder, an absolute one);
 * a document outside the working folder, or a run that does not say where it
 * runs, keeps the path as given.
 */
export function documentName(path: string, cwd: string | undefined): string {
  if (cwd === undefined) return path;
  const fromHere = relative(cwd, path);
  const inside = fromHere !== '' && !fromHere.startsWith('..') && !isAbsolute(fromHere);
  return inside ? fromHere.split(sep).join('/') : path;
}

/** The files a judgement reads (a budgets file, a baseline report): no report file may replace one. */
export function judgementFiles(settings: JudgementSettings): ReadFile[] {
  const reads: ReadFile[] = [];
  if (typeof settings.budgets === 'string') reads.push({ path: settings.budgets, what: 'budgets file' });
  if (settings.baselinePath !== undefined) reads.push({ path: settings.baselinePath, what: 'baseline report' });
  // Kept from the report files even before the first run makes it: a report there would be read as the history next time.
  if (settings.historyPath !== undefined) reads.push({ path: settings.historyPath, what: HISTORY_FILE, evenIfMissing: true });
  for (const path of [...(settings.openapi ?? []), ...(settings.openapiBase ?? [])]) reads.push({ path, what: 'OpenAPI document' });
  return reads;
}

/**
 * The files a loaded judgement read that no setting names, known only once
 * it is loaded: those the OpenAPI documents brought in through `$ref`
 * (each document too, as {@link judgementFiles} gives it). No file of the run may replace one.
 */
export function judgementReads({ contract, contractBase }: Judgement): ReadFile[] {
  return [...(contract?.files ?? []), ...(contractBase?.files ?? [])].map((path) => ({ path, what: 'OpenAPI document' }));
}

/**
 * Loads what a run is judged by, before any input is read, so that a bad
 * budgets file or a missing baseline stops the run before anything is
 * written: a missing file is an InputUnreadableError (66); a file past its
 * limit or not UTF-8 is bad data (65, see readInputFile); a baseline that
 * is not a report of this tool a ReportFormatError (65); budgets that are
 * not valid, or that compare with a baseline when none is named, a
 * ConfigurationError (78) naming each key; the contract's documents as
 * loadContract reads them, and its BASE's (openapiBase) the same way:
 * openapiBase without openapi, or budgets on breaking changes without
 * openapiBase, are a ConfigurationError (78).
 */
export async function loadJudgement(settings: JudgementSettings, fileSystem: FileSystem): Promise<Judgement> {
  const budgets =
    typeof settings.budgets === 'string'
      ? parseBudgets(await readInputFile(fileSystem, settings.budgets, 'budgets file', CONFIGURATION_FILE_LIMIT_BYTES), settings.budgets)
      : settings.budgets;
  const where = typeof settings.budgets === 'string' ? ` in ${quotePath(settings.budgets)}` : '';
  if (settings.baselineFromHistory !== undefined && settings.baselinePath !== undefined) {
    throw new ConfigurationError([{ variable: 'baselineFromHistory', message: 'and baselinePath both name a baseline: give one of them' }]);
  }
  if (settings.baselineFromHistory !== undefined && settings.historyPath === undefined) {
    throw new ConfigurationError([
      {
        variable: 'baselineFromHistory',
        message: 'takes the baseline from a history file: name one with --history, QE_HISTORY_PATH or the historyPath option',
      },
    ]);
  }
  if (settings.dashboardPath !== undefined && settings.historyPath === undefined) {
    throw new ConfigurationError([
      {
        variable: 'dashboardPath',
        message: 'draws the history page from a history file: name one with --history, QE_HISTORY_PATH or the historyPath option',
      },
    ]);
  }
  if (budgets !== undefined && settings.historyPath === undefined && needsHistory(budgets)) {
    throw new ConfigurationError([
      {
        variable: `maxEndpointsAboveHistoricalRange${where}`,
        message: 'judges endpoints against their history: name a history file with --history, QE_HISTORY_PATH or the historyPath option',
      },
    ]);
  }
  if (settings.openapiBase !== undefined && settings.openapi === undefined) {
    throw new ConfigurationError([
      {
        variable: 'openapiBase',
        message: "needs openapi, the run's document it is compared with: name that with --openapi, QE_OPENAPI_PATH or the openapi option",
      },
    ]);
  }
  if (budgets !== undefined && settings.openapiBase === undefined && needsContractBase(budgets)) {
    throw new ConfigurationError([
      {
        variable: `${budgets.maxBreakingChanges === undefined ? 'maxBreakingChangesExercised' : 'maxBreakingChanges'}${where}`,
        message:
          'counts the changes between two OpenAPI documents: name the BASE one with --openapi-base, QE_OPENAPI_BASE_PATH ' +
          'or the openapiBase option',
      },
    ]);
  }
  const history = settings.historyPath === undefined ? undefined : await readHistory(fileSystem, settings.historyPath);
  const runs = history?.runs.slice(-settings.historyLimit);
  const found =
    settings.baselineFromHistory === undefined || runs === undefined
      ? undefined
      : baselineRunOf(
          runs,
          settings.baselineFromHistory,
          settings.environment,
          await pullRequestBaseOf(settings.ciVariables ?? {}, fileSystem),
        );
  const warnings =
    found !== undefined && 'missing' in found
      ? [
          `no baseline: the history file ${quotePath(settings.historyPath!)} ${found.missing}; ` +
            'this run is compared with none, and a budget that compares with a baseline breaches',
        ]
      : [];
  const baseline =
    found !== undefined
      ? 'run' in found
        ? comparedRunOf(found.run)
        : undefined
      : settings.baselinePath === undefined
        ? undefined
        : // The report's schemas load only when a baseline is named (parseReport.ts).
          (await import('../evaluation/parseReport.js')).parseReport(
            await readInputFile(fileSystem, settings.baselinePath, 'baseline report', REPORT_FILE_LIMIT_BYTES),
            settings.baselinePath,
          );
  // A baseline named but missing from the history this time breaches its budgets; one never named is a configuration error.
  if (budgets !== undefined && baseline === undefined && found === undefined && needsBaseline(budgets)) {
    throw new ConfigurationError([
      {
        variable: `maxP95IncreasePercent${where}`,
        message: 'compares with a baseline report: name one with --baseline, QE_BASELINE_PATH or the baselinePath option',
      },
    ]);
  }
  const contract = await loadNamedContract(settings.openapi, settings.cwd, fileSystem);
  const contractBase = await loadNamedContract(settings.openapiBase, settings.cwd, fileSystem);
  return {
    ...(budgets === undefined ? {} : { budgets }),
    ...(baseline === undefined ? {} : { baseline }),
    ...(runs === undefined ? {} : { history: { runs, skippedLines: history!.skippedLines, lines: history!.lines } }),
    ...(contract === undefined ? {} : { contract }),
    ...(contractBase === undefined ? {} : { contractBase }),
    ...(settings.significanceLevel === undefined ? {} : { significanceLevel: settings.significanceLevel }),
    ...(warnings.length === 0 ? {} : { warnings }),
  };
}

/** A contract's documents, each named as the report names it (see documentName); undefined when none is given. */
async function loadNamedContract(
  paths: readonly string[] | undefined,
  cwd: string | undefined,
  fileSystem: FileSystem,
): Promise<Contract | undefined> {
  if (paths === undefined) return undefined;
  // The contract's libraries (yaml, the $ref bundler) load only when one is given.
  const loaded = await (await import('../contract/loadContract.js')).loadContract(paths, fileSystem);
  return { ...loaded, documents: loaded.documents.map((document) => ({ ...document, name: documentName(document.path, cwd) })) };
}

const NOT_A_BUDGET = 'is not a budget';

// A key the file does not know, with the budget it was probably meant to be, when one is that near (a letter off, the case).
function notABudget(path: readonly PropertyKey[]): string {
  const meant = nearMissOf(String(path[path.length - 1]), budgetKeysAt(path.slice(0, -1)));
  return meant === undefined ? NOT_A_BUDGET : `${NOT_A_BUDGET}; did you mean "${meant}"?`;
}

/** Checks a budgets file's text, naming every bad key with the file (quoted and shortened, as every path a user gives). */
export function parseBudgets(text: string, path: string): Budgets {
  const file = quotePath(path);
  const read = parseConfigurationJson(file, text);
  if ('issue' in read) throw new ConfigurationError([read.issue], 'budgets');
  const parsed = budgetsSchema.safeParse(read.document, { reportInput: false });
  if (parsed.success) return parsed.data;
  const issues: ConfigurationIssue[] = validationIssuesOf(parsed.error, { unknownKey: NOT_A_BUDGET }).map(({ path, message }) => ({
    variable: path.length === 0 ? file : `${formatIssuePath(path)} in ${file}`,
    message: message === NOT_A_BUDGET ? notABudget(path) : message,
  }));
  throw new ConfigurationError(issues, 'budgets');
}
