import type { QualityToolConfig } from '../config/loadQualityToolConfig.js';
import type { ReadFile } from '../io/writeReportAtomically.js';
import { validateExecutionRecords } from '../readers/jsonReader.js';
import { spanLimitOf, type EvidenceRules } from '../run/evidenceRules.js';
import type { QualityReport } from '../report/qualityReport.js';
import type { ReportContext } from '../report/buildReport.js';
import { formatReport } from '../report/renderers/json.js';
import { createEvidenceRun, rulesWithContract } from '../run/evidenceRun.js';
import type { EnvironmentRecord } from '../config/settingsSources.js';
import { systemClock, type Clock } from '../helpers/clock.js';
import { openRun, type PublishedRun } from './openRun.js';
import { readInputs, type InputDependencies, type WorkflowInput } from './readInputs.js';

/** What the workflow needs from outside besides its configuration: the file system, standard input, and optionally progress and threads. */
export type QualityWorkflowDependencies = InputDependencies;

/** How the inputs are read, when a run says more than the configuration's one input path. */
export interface QualityWorkflowOptions {
  /** The inputs, in order; default: the configuration's `inputPath`. */
  readonly inputs?: readonly WorkflowInput[] | undefined;
  /** Keep HAR entries for page assets. */
  readonly includeAssets?: boolean | undefined;
  /** `GITHUB_STEP_SUMMARY`: the file the Markdown is appended to, when Markdown is among the formats; default the environment's. */
  readonly stepSummaryPath?: string | undefined;
  /** Other files the run read before it started (the settings file): no report file may replace one, nor the job summary be one. */
  readonly reads?: readonly ReadFile[] | undefined;
  /** The process's environment: CI's variables name the run in the history file (commit, branch, run id) and a pull request's base. Default: none. */
  readonly env?: EnvironmentRecord | undefined;
  /** The clock whose time a history line and the exports record; default the system's. */
  readonly clock?: Pick<Clock, 'now'> | undefined;
  /** The working folder: the report names the contract's documents relative to it. Default: as the settings give them. */
  readonly cwd?: string | undefined;
}

/** The outcome of a successful run (budgets may still be breached: see `report.budgets`). */
export type QualityWorkflowResult = PublishedRun;

/**
 * The stages in order: load the budgets and the baseline; read (each input,
 * as a stream of located records), validate, normalise, summarise; compare
 * with the baseline, judge the budgets; render (JSON, Markdown, HTML), write. Validation streams: valid
 * records flow on into the summary, problems are kept, and the run throws
 * once the inputs end with problems, before anything is written. Only the
 * reading and the write touch the file system.
 */
export async function runQualityWorkflow(
  config: QualityToolConfig,
  dependencies: QualityWorkflowDependencies,
  options: QualityWorkflowOptions = {},
): Promise<QualityWorkflowResult> {
  const inputs = options.inputs ?? [{ path: config.inputPath }];
  const { inputPath, outputPath, ...settings } = config;
  const env =
    options.stepSummaryPath === undefined ? (options.env ?? {}) : { ...options.env, GITHUB_STEP_SUMMARY: options.stepSummaryPath };
  const host = { fileSystem: dependencies.fileSystem, env, clock: options.clock ?? systemClock, cwd: options.cwd };
  const reads = [...inputs.filter(({ path }) => path !== '-').map(({ path }) => ({ path, what: 'input file' })), ...(options.reads ?? [])];
  const { run, judgement, publish } = await openRun({ ...settings, outputFile: outputPath }, host, {
    reads,
    readsStandardInput: inputs.some(({ path }) => path === '-'),
    checkKeptBodies: true,
  });
  const { skippedAssetCount } = await readInputs(
    run,
    inputs,
    rulesWithContract(rulesOf(config), judgement),
    dependencies,
    options.includeAssets ?? false,
  );
  const published = await publish(run.finish(skippedAssetCount === undefined ? {} : { skippedAssetCount }));
  return published;
}

/**
 * The pure middle of the workflow for a document already parsed: validate,
 * normalise, summarise, format. For library users holding records in memory.
 */
export function buildQualityReport(
  document: unknown,
  context: ReportContext,
  rules: Omit<EvidenceRules, 'slowResponseThresholdMs'> = {},
): { report: QualityReport; reportText: string } {
  const records = validateExecutionRecords(document);
  const { environment, slowResponseThresholdMs, ...facts } = context;
  const run = createEvidenceRun({ ...rules, environment, slowResponseThresholdMs });
  const listPath = Array.isArray(document) ? '' : 'executions';
  records.forEach((record, index) => {
    run.take(record, () => ({ kind: 'list', listPath, index }));
  });
  const report = run.finish(facts);
  return { report, reportText: formatReport(report) };
}

/** The summary rules of a configuration. */
function rulesOf(config: QualityToolConfig): EvidenceRules {
  const { slowResponseThresholdMs, expectedStatuses, expectedStatusesByEndpoint, routes, endpointGrouping, traceContext } = config;
  return {
    slowResponseThresholdMs,
    expectedStatuses,
    expectedStatusesByEndpoint,
    routes,
    endpointGrouping,
    traceContext,
    spanLimit: spanLimitOf(config),
  };
}
