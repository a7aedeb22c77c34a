import { basename, dirname, relative, resolve, sep } from 'node:path';
import { InputLimitError, ReportWriteError } from '../errors.js';
import { EXPORT_KINDS, REPORT_FORMATS, type ExportKind, type ReportFormat } from '../config/settings.js';
import { presentValue, type EnvironmentRecord } from '../config/settingsSources.js';
import { describeFileSystemFailure } from '../io/describeFileSystemFailure.js';
import type { FileSystem } from '../io/fileSystem.js';
import {
  fileIdentity,
  makeFolderOf,
  resolveReportTargets,
  writeReportFilesAtomically,
  type ReadFile,
} from '../io/writeReportAtomically.js';
import { quotePath } from '../renderValue.js';
import { checkExportsCanBeMade, renderExport } from '../exports/renderExport.js';
import type { ExportContext } from '../exports/exportContext.js';
import { HISTORY_FILE, historyTextOfLines, readHistoryLines, withHistoryLock } from '../history/historyFile.js';
import { belongsInHistory, historyRunOf, runIdentityOf, reportUrlOf } from '../history/historyLine.js';
import type { Judgement } from '../evaluation/judgeReport.js';
import type { RunIdentity } from '../report/historySchemas.js';
import { fitJobSummary } from './jobSummary.js';
import { judgementReads } from './judgement.js';
import type { QualityReport } from '../report/qualityReport.js';
import { formatReport, formatReportPieces } from '../report/renderers/json.js';

/** The file GitHub Actions names in every step for the job summary (`GITHUB_STEP_SUMMARY`), when an environment names one. */
export function stepSummaryPathOf(env: EnvironmentRecord): string | undefined {
  return presentValue(env['GITHUB_STEP_SUMMARY']);
}

/** Where a report goes: its JSON file, the renderings beside it, and the GitHub job summary. */
export interface ReportDestination {
  /** The JSON report's path; absent, no report is written, only the exports (what `check` publishes). */
  readonly outputPath?: string | undefined;
  /** The files to write; JSON is written whatever the list says. Absent: all of {@link REPORT_FORMATS}. */
  readonly formats?: readonly ReportFormat[] | undefined;
  /** `GITHUB_STEP_SUMMARY`: a file the Markdown is appended to, when Markdown is among the formats. */
  readonly stepSummaryPath?: string | undefined;
  /** The files the run reads (inputs, budgets, baseline): no report file may replace one. */
  readonly reads?: readonly ReadFile[] | undefined;
  /** The history file this run is appended to (see withHistoryLock), with the same write; absent when it is only read. */
  readonly history?: HistoryAppend | undefined;
  /** Files in other tools' formats, written with the report. */
  readonly exports?: Readonly<Partial<Record<ExportKind, string>>> | undefined;
  /** The traceUrlTemplate setting: the Markdown and the page link each trace id the report keeps to its trace with it. */
  readonly traceUrlTemplate?: string | undefined;
  /** The history page written with the report (dashboardPath), of the history's runs with this one. */
  readonly dashboard?: HistoryPage | undefined;
}

/** The history page a run writes: where, and what it is drawn from. */
export interface HistoryPage {
  readonly path: string;
  /** The history file the page draws, as the settings name it. */
  readonly historyPath: string;
  /** The history file as the page's footer names it: relative to the working folder when inside it, as the dashboard command
   * names it (a reporter's historyPath is absolute: the runner's folders have no place in a published page). */
  readonly historyName: string;
  /** The runs failure rates and flakiness are scored over. */
  readonly flakinessRuns: number;
}

/** What the history page is called in messages. */
export const HISTORY_PAGE = 'history page';

/** Where and how a run is appended to its history. */
export interface HistoryAppend {
  readonly path: string;
  /** The runs the file keeps: the oldest go. */
  readonly limit: number;
}

/** The history a run's settings append it to: none without a history file, or when it is only read. */
export function historyAppendOf({
  historyPath,
  historyLimit,
  historyReadOnly,
}: {
  readonly historyPath?: string | undefined;
  readonly historyLimit: number;
  readonly historyReadOnly: boolean;
}): HistoryAppend | undefined {
  return historyPath === undefined || historyReadOnly ? undefined : { path: historyPath, limit: historyLimit };
}

/** What a run's line in the history says of it, known only when it ends, and the lines of the history it read when it started. */
export interface HistoryStamp {
  /** The run's time, commit, branch and run id. */
  readonly identity: RunIdentity;
  /** The lines of the history read when the run started: an append keeps them as they are, unparsed. */
  readonly knownLines?: readonly string[] | undefined;
  /** Where the run's report can be read (the reportUrl setting, else the CI run's page), where known. */
  readonly reportUrl?: string | undefined;
}

/** A run's stamp: the time now by its clock, CI's names for it and its report's URL, and the history lines its judgement read. */
export function historyStampOf(nowMs: number, env: EnvironmentRecord, judgement: Judgement, reportUrl?: string): HistoryStamp {
  return { identity: runIdentityOf(nowMs, env), knownLines: judgement.history?.lines, reportUrl: reportUrlOf(reportUrl, env) };
}

/**
 * The destination, kept also from the files its judgement read that only
 * loading it found (see {@link judgementReads}: the files an OpenAPI
 * document brings in through `$ref`); the same destination when there are none.
 * Check it again (checkReportDestination) once the judgement is loaded, and publish to it.
 */
export function destinationJudgedBy(destination: ReportDestination, judgement: Judgement): ReportDestination {
  const reads = judgementReads(judgement);
  return reads.length === 0 ? destination : { ...destination, reads: [...(destination.reads ?? []), ...reads] };
}

/**
 * Checks where a report would be written before the run reads anything (see
 * {@link resolveReportTargets}): a device, a FIFO, a folder, a link to
 * nowhere or a file the run reads at any report path is a ReportWriteError.
 */
export async function checkReportDestination(fileSystem: FileSystem, destination: ReportDestination): Promise<void> {
  const files = [
    ...reportFilePaths(destination.outputPath, destination.formats),
    ...exportFilePaths(destination),
    ...pageFilePaths(destination),
  ];
  await resolveReportTargets(fileSystem, files, destination.reads);
  if (destination.history !== undefined)
    await resolveReportTargets(fileSystem, [{ path: destination.history.path, role: HISTORY_FILE }], readsBesidesHistory(destination));
  await checkDistinctTargets(fileSystem, [
    ...files,
    ...(destination.history === undefined ? [] : [{ path: destination.history.path, role: HISTORY_FILE }]),
  ]);
  await checkJobSummaryTarget(fileSystem, destination);
  await checkExportsCanBeMade(exportFilePaths(destination).map(({ kind }) => kind));
}

// The history file is read, and written by the run itself: only the other reads are kept from it.
function readsBesidesHistory({ reads = [] }: ReportDestination): ReadFile[] {
  return reads.filter((read) => read.what !== HISTORY_FILE);
}

/** The history page's file, when one is asked for. */
function pageFilePaths({ dashboard }: ReportDestination): { path: string; role: string }[] {
  return dashboard === undefined ? [] : [{ path: dashboard.path, role: HISTORY_PAGE }];
}

/**
 * The history page's path as a link from the report's folder: relative, so
 * that the two stay linked wherever the folder is copied (an artifact), its
 * segments percent-encoded.
 */
function pageHref(outputPath: string, { path }: HistoryPage): string {
  const relativePath = relative(dirname(resolve(outputPath)), resolve(path));
  return relativePath.split(sep).map(encodeURIComponent).join('/');
}

/** The export files, in the order of EXPORT_KINDS. */
function exportFilePaths({ exports = {} }: ReportDestination): { path: string; role: string; kind: ExportKind }[] {
  return EXPORT_KINDS.flatMap((kind) => (exports[kind] === undefined ? [] : [{ path: exports[kind], role: `${kind} export`, kind }]));
}

/** Two files of one write that are one file (however spelled) would leave only the last: a ReportWriteError (73) naming both. */
async function checkDistinctTargets(
  fileSystem: FileSystem,
  files: readonly { readonly path: string; readonly role: string }[],
): Promise<void> {
  const seen = new Map<string, string>();
  for (const { path, role } of files) {
    const identity = await fileIdentity(fileSystem, path);
    if (identity === undefined) continue;
    const first = seen.get(identity);
    if (first !== undefined) throw new ReportWriteError(`the ${role} is the ${first}: each file of a run is written once`);
    seen.set(identity, role);
  }
}

/**
 * The job summary is appended to, so it may be neither a file the run reads
 * (an input would change) nor a file the run writes: a report file (the JSON
 * report would stop being JSON), an export (JUnit's XML, CTRF's JSON,
 * Prometheus' text would break) or the history. Compared however the paths
 * are spelled: by device and inode, or, for files not there yet, by real
 * path. A ReportWriteError (73) before anything is written.
 */
async function checkJobSummaryTarget(fileSystem: FileSystem, destination: ReportDestination): Promise<void> {
  const summaryPath = jobSummaryPathOf(destination);
  if (summaryPath === undefined) return;
  const summary = await fileIdentity(fileSystem, summaryPath);
  if (summary === undefined) return;
  const subject = 'the job summary ($GITHUB_STEP_SUMMARY)';
  for (const read of destination.reads ?? []) {
    if ((read.use ?? 'reads') !== 'reads' || (await fileIdentity(fileSystem, read.path)) !== summary) continue;
    const named = read.named === false ? '' : ` ${quotePath(read.path)}`;
    throw new ReportWriteError(`${subject} is the ${read.what}${named}, which this run reads: appending the summary there would change it`);
  }
  for (const { path, role } of reportFilePaths(destination.outputPath, destination.formats)) {
    if ((await fileIdentity(fileSystem, path)) === summary)
      throw new ReportWriteError(`${subject} is the ${role}: appending the summary there would break the report`);
  }
  const written = [
    ...exportFilePaths(destination),
    ...(destination.history === undefined ? [] : [{ path: destination.history.path, role: HISTORY_FILE }]),
    ...pageFilePaths(destination),
  ];
  for (const { path, role } of written) {
    if ((await fileIdentity(fileSystem, path)) === summary)
      throw new ReportWriteError(`${subject} is the ${role}: appending the summary there would break it`);
  }
}

// The job summary, when the Markdown is written and a summary file is named.
function jobSummaryPathOf({ stepSummaryPath, formats = REPORT_FORMATS }: ReportDestination): string | undefined {
  return formats.includes('markdown') && stepSummaryPath !== undefined && stepSummaryPath.trim() !== '' ? stepSummaryPath : undefined;
}

/** What was written. */
export interface WrittenReport {
  /** The paths written: the JSON report first, then Markdown, HTML, the exports, the history file and the history page. */
  readonly files: readonly string[];
  /**
   * Why the Markdown could not be appended to the job summary, when it could
   * not; the report files are written all the same.
   */
  readonly stepSummaryProblem?: string | undefined;
}

/**
 * The path of each file a report is written to: the JSON report where it was
 * asked for, and each rendering beside it with the same base name (a `.json`
 * extension replaced): `out/quality-summary.json` gives `out/quality-summary.md`
 * and `out/quality-summary.html`. JSON first.
 */
function reportFilePaths(
  outputPath: string | undefined,
  formats: readonly ReportFormat[] = REPORT_FORMATS,
): { format: ReportFormat; path: string; role: string }[] {
  if (outputPath === undefined) return [];
  const base = outputPath.replace(/\.json$/i, '');
  const extension: Readonly<Record<ReportFormat, string>> = { json: '', markdown: '.md', html: '.html' };
  const role: Readonly<Record<ReportFormat, string>> = {
    json: 'output path',
    markdown: 'path of the Markdown report',
    html: 'path of the HTML report',
  };
  return REPORT_FORMATS.filter((format) => format === 'json' || formats.includes(format)).map((format) => ({
    format,
    path: format === 'json' ? outputPath : `${base}${extension[format]}`,
    role: role[format],
  }));
}

/**
 * A rendering, or an InputLimitError when it would be longer than the
 * longest string V8 can make (about 512 MB). The limits on records (label
 * length, distinct endpoints) keep a report well below it; this says so
 * plainly should a report still grow past it (a baseline of as many
 * endpoints again), instead of an internal error.
 */
function withinStringLimit(render: () => string): string {
  try {
    return render();
  } catch (error) {
    if (error instanceof RangeError && /invalid string length/i.test(error.message)) {
      throw new InputLimitError(
        'the report would be longer than the longest string Node.js can make (about 512 MB): ' +
          'fewer distinct endpoints (--route, --endpoint-grouping auto) make it shorter',
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * Writes only the exports of a report already written (what `check` does
 * with its own verdict): each checked first as a report file is, all made
 * before any is written, then written together, atomically. The paths written.
 */
export async function publishExports(
  report: QualityReport,
  exports: Readonly<Partial<Record<ExportKind, string>>>,
  fileSystem: FileSystem,
  context: ExportContext,
  reads: readonly ReadFile[],
): Promise<string[]> {
  const files = exportFilePaths({ exports });
  if (files.length === 0) return [];
  await resolveReportTargets(fileSystem, files, reads);
  await checkDistinctTargets(fileSystem, files);
  const rendered = await Promise.all(
    files.map(async ({ path, role, kind }) => ({
      path,
      role,
      content: await withinStringLimitAsync(() => renderExport(kind, report, context)),
    })),
  );
  await writeReportFilesAtomically(fileSystem, rendered, reads);
  return files.map(({ path }) => path);
}

/** The history page, its renderer loaded only when a run asks for one. */
async function historyPage(historyText: string, { historyName, flakinessRuns }: HistoryPage): Promise<string> {
  const { historyPageOf } = await import('../dashboard/historyPage.js');
  return historyPageOf(historyText, { historyName, flakinessRuns });
}

/** {@link withinStringLimit} for a rendering that is made asynchronously. */
async function withinStringLimitAsync(render: () => Promise<string>): Promise<string> {
  try {
    return await render();
  } catch (error) {
    return withinStringLimit(() => {
      throw error;
    });
  }
}

/**
 * Renders the report in each format asked for and writes the files together
 * (see {@link writeReportFilesAtomically}: all of them or none, the JSON
 * report renamed into place last); then, when a job summary file is named,
 * appends the Markdown to it (appends: other steps write there too).
 */
export async function publishReport(
  report: QualityReport,
  destination: ReportDestination & { readonly outputPath: string },
  fileSystem: FileSystem,
  stamp: HistoryStamp,
  exportContext: ExportContext,
): Promise<WrittenReport> {
  const reportName = basename(destination.outputPath);
  const { traceUrlTemplate, dashboard } = destination;
  const dashboardHref = dashboard === undefined ? undefined : pageHref(destination.outputPath, dashboard);
  const paths = reportFilePaths(destination.outputPath, destination.formats);
  await checkJobSummaryTarget(fileSystem, destination);
  // The Markdown and HTML renderers (and every section they walk) load only when the run's formats ask for them.
  const asks = (format: ReportFormat) => paths.some((path) => path.format === format);
  const [markdownRenderer, htmlRenderer] = await Promise.all([
    asks('markdown') ? import('../report/renderers/markdown.js') : undefined,
    asks('html') ? import('../report/renderers/html.js') : undefined,
  ]);
  let markdown: string | undefined;
  const files = paths.map(({ format, path, role }) => {
    // The JSON an endpoint at a time as it is written: never held as text (80 MB at 50,000 endpoints). A file system
    // that takes no pieces is given the text, within the longest string V8 makes.
    if (format === 'json') {
      const content =
        fileSystem.createFileFromPieces === undefined ? withinStringLimit(() => formatReport(report)) : formatReportPieces(report);
      return { path, role, content };
    }
    if (format === 'markdown') {
      const { MARKDOWN_BYTE_LIMIT, renderMarkdown } = markdownRenderer!;
      // The file is whole; the job summary is the same Markdown, cut to its limit when it is longer (see MARKDOWN_BYTE_LIMIT).
      const whole = renderMarkdown(report, { reportName, byteLimit: Number.POSITIVE_INFINITY, traceUrlTemplate, dashboardHref });
      markdown =
        Buffer.byteLength(whole) <= MARKDOWN_BYTE_LIMIT ? whole : renderMarkdown(report, { reportName, traceUrlTemplate, dashboardHref });
      return { path, role, content: whole };
    }
    return { path, role, content: htmlRenderer!.renderHtml(report, { reportName, traceUrlTemplate, dashboardHref }) };
  });
  // Every export is made before anything is written: one that cannot be made leaves every file as it was.
  const exports = await Promise.all(
    exportFilePaths(destination).map(async ({ path, role, kind }) => ({
      path,
      role,
      content: await withinStringLimitAsync(() => renderExport(kind, report, exportContext)),
    })),
  );
  const history = destination.history !== undefined && belongsInHistory(report) ? destination.history : undefined;
  const write = async (): Promise<void> => {
    // Read again under the lock: a run that appended since this one started keeps its line.
    const lines = history === undefined ? [] : await readHistoryLines(fileSystem, history.path, new Set(stamp.knownLines));
    const historyText =
      history === undefined
        ? undefined
        : historyTextOfLines(
            [...lines, JSON.stringify(historyRunOf(report, stamp.identity, exportContext.tests, stamp.reportUrl))].slice(-history.limit),
          );
    const historyFiles = history === undefined ? [] : [{ path: history.path, role: HISTORY_FILE, content: historyText! }];
    // The page draws the history as this write leaves it: with this run, or as it was read when the run is not appended.
    const pages =
      dashboard === undefined
        ? []
        : [
            {
              path: dashboard.path,
              role: HISTORY_PAGE,
              content: await historyPage(historyText ?? historyTextOfLines(stamp.knownLines ?? []), dashboard),
            },
          ];
    // The renderings, the exports and the history page first, then the history, the JSON report last.
    await writeReportFilesAtomically(
      fileSystem,
      [...files.slice(1), ...exports, ...pages, ...historyFiles, files[0]!],
      readsBesidesHistory(destination),
    );
  };
  if (history === undefined) await write();
  else {
    // The lock file goes beside the history: its folder first.
    await makeFolderOf(fileSystem, history.path);
    await withHistoryLock(fileSystem, history.path, write);
  }
  const written = {
    files: [
      ...paths.map(({ path }) => path),
      ...exports.map(({ path }) => path),
      ...(history === undefined ? [] : [history.path]),
      ...pageFilePaths(destination).map(({ path }) => path),
    ],
  };
  const stepSummaryPath = destination.stepSummaryPath;
  if (markdown === undefined || stepSummaryPath === undefined || stepSummaryPath.trim() === '') return written;
  try {
    // A blank line first, so the summary never joins what another step wrote; cut to what GitHub shows.
    await fileSystem.appendFile(stepSummaryPath, fitJobSummary(`\n${markdown}`, reportName.replace(/\.json$/i, '.md')));
    return written;
  } catch (error) {
    return {
      ...written,
      stepSummaryProblem: `the job summary ($GITHUB_STEP_SUMMARY) could not be appended to: ${describeFileSystemFailure(error)}`,
    };
  }
}
