import { withDefaults, type GivenSettings, type Settings } from '../config/resolveSettings.js';
import type { EnvironmentRecord } from '../config/settingsSources.js';
import type { Judgement } from '../evaluation/judgeReport.js';
import type { RunTest } from '../exports/exportContext.js';
import type { Clock } from '../helpers/clock.js';
import { ciVariablesOf } from '../history/historyBaseline.js';
import { historyRunOf } from '../history/historyLine.js';
import { withFlakinessAcrossRuns } from '../evaluation/flakinessAcrossRuns.js';
import { displayPath } from '../io/displayPath.js';
import type { FileSystem } from '../io/fileSystem.js';
import { standardStreamFiles, type ReadFile } from '../io/writeReportAtomically.js';
import type { QualityReport } from '../report/qualityReport.js';
import { formatReport } from '../report/renderers/json.js';
import { historySkippedWarnings } from '../report/renderers/presentation.js';
import { unmatchedEndpointKeyWarnings } from '../evaluation/unmatchedEndpointKeys.js';
import { createEvidenceRun, type EvidenceRun } from '../run/evidenceRun.js';
import { spanLimitOf } from '../run/evidenceRules.js';
import type { SampledCall } from '../summary/spanSample.js';
import { judgementFiles, loadJudgement } from './judgement.js';
import {
  checkReportDestination,
  destinationJudgedBy,
  historyAppendOf,
  historyStampOf,
  publishExports,
  publishReport,
  stepSummaryPathOf,
  type ReportDestination,
  type WrittenReport,
} from './publishReport.js';

/**
 * What a run is given of the world it runs in, read once at its edge (the
 * command's process, the reporter's, a spec's fake): everything else a run
 * does is a function of its settings, its records and this.
 */
export interface RunHost {
  readonly fileSystem: FileSystem;
  /** The process's environment: CI's names for the run, a pull request's base, the job summary's file. */
  readonly env: EnvironmentRecord;
  /** The run's clock: the time its history line and its exports record. */
  readonly clock: Pick<Clock, 'now'>;
  /** The working folder the run was started in: the report names the contract's documents relative to it (see documentName). */
  readonly cwd?: string | undefined;
}

/**
 * The settings a run is opened with: the one settings model, as every
 * program resolves it (see resolveSettings); what is absent takes the
 * table's default when the run opens (see withDefaults).
 */
export type RunSettings = Omit<GivenSettings, 'quiet' | 'inputPath'>;

// The settings of an opened run: every default applied.
type OpenedSettings = RunSettings & Settings;

/** How a run is opened besides its settings. */
export interface OpenRunOptions {
  /** Files the run reads besides those its settings name (its inputs, the settings file): none may be written. */
  readonly reads?: readonly ReadFile[] | undefined;
  /** Whether the run reads standard input (an input `-`): no file may then be the one behind it. */
  readonly readsStandardInput?: boolean | undefined;
  /** A judgement loaded already, by the same settings (the reporter's check before its tests run). */
  readonly judgement?: Judgement | undefined;
  /** What a record is called in a validation error's summary line: `recorded execution` in the reporter. */
  readonly noun?: string | undefined;
  /** Writes no report, only the exports (what `check` publishes of the report it judged). */
  readonly exportsOnly?: boolean | undefined;
  /** Checks the bodies a reader kept (a HAR file's) against the contract, when the run has one. */
  readonly checkKeptBodies?: boolean | undefined;
}

/** What a run's feeder knows only at its end, for the exports (and its tests for flakiness across runs): when it started, and its Playwright tests. */
export interface PublishFacts {
  readonly startedAtMs?: number | undefined;
  readonly tests?: readonly RunTest[] | undefined;
  /** The traced calls the run kept for the otlp export's spans (EvidenceRun.spans): the opened run's own, by default. */
  readonly spans?: readonly SampledCall[] | undefined;
}

/** What publishing wrote, and every warning a reader must see, in one list. */
export interface PublishedRun extends Omit<WrittenReport, 'stepSummaryProblem'> {
  readonly report: QualityReport;
  /**
   * The JSON report's bytes, formatted from `report` each time this is read
   * (a run of 50,000 endpoints keeps no 80 MB text it may never need; the
   * command prints the written file itself); '' when no report was written.
   */
  readonly reportText: string;
  readonly warnings: readonly string[];
}

/** An opened run: feed `run`, `finish` it, and `publish` its report. */
export interface OpenedRun {
  readonly run: EvidenceRun;
  /** What the run is judged by, loaded when it opened. */
  readonly judgement: Judgement;
  /**
   * Writes the report where the settings say (the JSON report, its
   * renderings, the exports, the history line stamped now by the host's
   * clock, all of them or none) and appends the Markdown to the job summary.
   * The run is released first (see EvidenceRun.release): publish last.
   */
  readonly publish: (report: QualityReport, facts?: PublishFacts) => Promise<PublishedRun>;
}

/**
 * The one way every entry point starts a run: checks every file the run
 * would write (before any input is read, so that nothing is read for a
 * report that could not be written, and no file the run reads is ever
 * written), loads what the run is judged by (budgets, baseline, history,
 * contract: a bad budgets file stops the run here), and opens the evidence
 * run. Its `finish` applies the judgement (pure); `publish` writes.
 */
export async function openRun(given: RunSettings, host: RunHost, options: OpenRunOptions = {}): Promise<OpenedRun> {
  const settings = withDefaults(given);
  const { judgement, destination } = await checkAndLoad(settings, host, options);
  // With a contract, the bodies a HAR file kept are checked against it (the validator loads only then).
  const bodyChecker =
    options.checkKeptBodies === true && judgement.contract !== undefined
      ? await (await import('../contract/bodyConformance.js')).createBodyChecker(judgement.contract)
      : undefined;
  // The traced calls for the otlp export's spans are kept only when that export is asked for (spanLimitOf).
  const run = createEvidenceRun({ ...settings, spanLimit: spanLimitOf(settings) }, { judgement, noun: options.noun, bodyChecker });
  return {
    run,
    judgement,
    publish: (report, facts) => {
      // What publishing needs of the run is in the report, its spans and the facts given: the tallies go before the files are made.
      const spans = run.spans();
      run.release();
      return publishRun(report, settings, host, destination, judgement, { spans, ...facts });
    },
  };
}

/**
 * The checks of {@link openRun} without the run: the destination, then the
 * judgement (loaded, unless given). What the reporter does before its tests
 * run, in a worker thread, so that a bad setting stops the run before any test.
 */
export async function prepareRun(given: RunSettings, host: RunHost, options: OpenRunOptions = {}): Promise<Judgement> {
  return (await checkAndLoad(withDefaults(given), host, options)).judgement;
}

async function checkAndLoad(
  settings: OpenedSettings,
  host: RunHost,
  options: OpenRunOptions,
): Promise<{ judgement: Judgement; destination: ReportDestination }> {
  const destination = destinationOf(settings, host, options);
  await checkReportDestination(host.fileSystem, destination);
  const judgement =
    options.judgement ?? (await loadJudgement({ ...settings, ciVariables: ciVariablesOf(host.env), cwd: host.cwd }, host.fileSystem));
  // The files the contract's $refs bring in are known only now: checked again, before any input is read.
  const judged = destinationJudgedBy(destination, judgement);
  if (judged !== destination) await checkReportDestination(host.fileSystem, judged);
  return { judgement, destination: judged };
}

/** Where a run's report goes, and what it may never replace: every file it reads. */
function destinationOf(settings: OpenedSettings, host: RunHost, options: OpenRunOptions): ReportDestination {
  // Standard output and error are always kept from the report files (`> log.txt`); standard input only when it is read:
  // a CI step's is often /dev/null, which is then free to be the job summary.
  const standardStreams = standardStreamFiles({ readsStandardInput: options.readsStandardInput === true });
  const reads = [...(options.reads ?? []), ...judgementFiles(settings), ...standardStreams];
  if (options.exportsOnly === true) return { reads, exports: settings.exports };
  return {
    outputPath: settings.outputFile,
    formats: settings.formats,
    stepSummaryPath: stepSummaryPathOf(host.env),
    reads,
    exports: settings.exports,
    history: historyAppendOf(settings),
    traceUrlTemplate: settings.traceUrlTemplate,
    dashboard:
      settings.dashboardPath === undefined || settings.historyPath === undefined
        ? undefined
        : {
            path: settings.dashboardPath,
            historyPath: settings.historyPath,
            historyName: host.cwd === undefined ? settings.historyPath : displayPath(settings.historyPath, host.cwd),
            flakinessRuns: settings.flakinessRuns,
          },
  };
}

async function publishRun(
  finished: QualityReport,
  settings: OpenedSettings,
  host: RunHost,
  destination: ReportDestination,
  judgement: Judgement,
  facts: PublishFacts = {},
): Promise<PublishedRun> {
  // The history line and the exports are stamped when the run ends, by the run's clock.
  const now = host.clock.now();
  const stamp = historyStampOf(now, host.env, judgement, settings.reportUrl);
  // This run is the last run its flakiness is scored over, as its history line gives it.
  const report =
    judgement.history === undefined
      ? finished
      : withFlakinessAcrossRuns(finished, judgement, historyRunOf(finished, stamp.identity, facts.tests), settings.flakinessRuns);
  const exportContext = { endedAtMs: now, startedAtMs: facts.startedAtMs, env: host.env, settings, tests: facts.tests, spans: facts.spans };
  const laterWarnings = [
    ...(judgement.warnings ?? []),
    ...historySkippedWarnings(report),
    ...unmatchedEndpointKeyWarnings(report, {
      expectedStatusesByEndpoint: settings.expectedStatusesByEndpoint,
      budgets: judgement.budgets,
      budgetsPath: typeof settings.budgets === 'string' ? settings.budgets : undefined,
    }),
  ];
  if (destination.outputPath === undefined) {
    const files = await publishExports(report, destination.exports ?? {}, host.fileSystem, exportContext, destination.reads ?? []);
    return { report, reportText: '', files, warnings: laterWarnings };
  }
  const { files, stepSummaryProblem } = await publishReport(
    report,
    destination as ReportDestination & { outputPath: string },
    host.fileSystem,
    stamp,
    exportContext,
  );
  return {
    report,
    get reportText() {
      return formatReport(report);
    },
    files,
    warnings: [...(stepSummaryProblem === undefined ? [] : [stepSummaryProblem]), ...laterWarnings],
  };
}
