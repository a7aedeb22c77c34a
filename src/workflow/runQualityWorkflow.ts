import type { QualityToolConfig } from '../config/loadQualityToolConfig.js';
import { InputUnreadableError } from '../errors.js';
import { describeFileSystemFailure } from '../io/describeFileSystemFailure.js';
import type { FileSystem } from '../io/fileSystem.js';
import { STANDARD_STREAM_FILES, type ReadFile } from '../io/writeReportAtomically.js';
import { validateExecutionRecords } from '../readers/jsonReader.js';
import { createReadTally, type InputFormat } from '../readers/recordBatch.js';
import { readRecords, type OpenedInput } from '../readers/readRecords.js';
import type { EvidenceRules } from '../records/evidenceRules.js';
import { executionRecordSchema, MAX_DISTINCT_ENDPOINTS } from '../records/executionRecord.js';
import { buildReport, type QualityReport, type ReportContext } from '../report/qualityReport.js';
import { formatReport } from '../report/renderers/json.js';
import type { ExecutionStatistics, SlowExecution } from '../summary/executionAccumulator.js';
import { formatFromExtension } from '../readers/detectFormat.js';
import { isValidUtf8 } from '../input/utf8.js';
import type { RecordLocation } from '../issues/location.js';
import type { RecordIssue } from '../issues/recordIssue.js';
import { judgeReport, judgementFiles, loadJudgement } from './judgement.js';
import { RecordIntake, tooManyEndpoints } from './recordIntake.js';
import { checkReportDestination, writeReport, type WrittenReport } from './reportFiles.js';
import type { RangeSummary } from './summariseRange.js';

/** What the workflow needs from outside besides its configuration. */
export interface QualityWorkflowDependencies {
  /** All file access goes through this; tests pass an in-memory one. */
  readonly fileSystem: FileSystem;
  /** Standard input, for an input named `-`. */
  readonly stdin?: AsyncIterable<Buffer> | undefined;
  /** Told after each batch how many records and bytes have been read so far. */
  readonly progress?: ((records: number, bytes: number) => void) | undefined;
  /**
   * Reads a large JSON or NDJSON file as several ranges at once (worker
   * threads), giving each range's summary in order; undefined when the file
   * should be read in one piece. Without it, every input is read on this thread.
   */
  readonly summariseRanges?: SummariseRanges | undefined;
}

/** See {@link QualityWorkflowDependencies.summariseRanges}. */
export type SummariseRanges = (path: string, format: 'json' | 'ndjson', rules: EvidenceRules) => Promise<readonly RangeSummary[] | undefined>;

/** One input of a run: a path, or `-` for standard input, and its format when it is forced. */
export interface WorkflowInput {
  readonly path: string;
  readonly format?: InputFormat | undefined;
}

/** How the inputs are read, when a run says more than the configuration's one input path. */
export interface QualityWorkflowOptions {
  /** The inputs, in order; default: the configuration's `inputPath`. */
  readonly inputs?: readonly WorkflowInput[] | undefined;
  /** Keep HAR entries for page assets. */
  readonly includeAssets?: boolean | undefined;
  /** `GITHUB_STEP_SUMMARY`: the file the Markdown is appended to, when Markdown is among the formats. */
  readonly stepSummaryPath?: string | undefined;
  /** Other files the run read before it started (the settings file): no report file may replace one, nor the job summary be one. */
  readonly reads?: readonly ReadFile[] | undefined;
}

/** The outcome of a successful run (budgets may still be breached: see `report.budgets`). */
export interface QualityWorkflowResult extends WrittenReport {
  readonly report: QualityReport;
}

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
  const destination = { outputPath: config.outputPath, formats: config.formats, stepSummaryPath: options.stepSummaryPath, reads: [...readFilesOf(config, inputs), ...(options.reads ?? [])] };
  await checkReportDestination(dependencies.fileSystem, destination);
  const judgement = await loadJudgement(config, dependencies.fileSystem);
  const { summary, skippedAssetCount } = await summariseInputs(inputs, rulesOf(config), dependencies, options.includeAssets ?? false);
  const context: ReportContext = skippedAssetCount === undefined ? config : { ...config, skippedAssetCount };
  const report = judgeReport(buildReport(summary, context), judgement);
  const written = await writeReport(dependencies.fileSystem, report, destination);
  return { report, ...written };
}

/** The summary of several inputs read one after another: the summary of their concatenation. */
export async function summariseInputs(
  inputs: readonly WorkflowInput[],
  rules: EvidenceRules,
  { fileSystem, stdin, progress, summariseRanges }: QualityWorkflowDependencies,
  includeAssets: boolean,
): Promise<{ summary: ExecutionStatistics; skippedAssetCount: number | undefined }> {
  const intake = new RecordIntake(rules, { schema: executionRecordSchema });
  const { validation, accumulator } = intake;
  const tally = createReadTally();
  const reportInvalid = validation.addInvalidRecord.bind(validation);
  const read = { records: 0, bytes: 0 };
  for (const input of inputs) {
    const format = input.path === '-' ? undefined : (input.format ?? formatFromExtension(input.path));
    intake.inputName = input.path === '-' ? 'standard input' : input.path;
    if (summariseRanges !== undefined && (format === 'json' || format === 'ndjson')) {
      const ranges = await summariseRanges(input.path, format, rules);
      const merged = ranges === undefined ? undefined : mergeRanges(ranges, format, input.path, inputs.length > 1);
      if (merged !== undefined) {
        for (const part of merged) {
          accumulator.merge(part.summary);
          validation.absorb(part);
          read.records += part.recordCount;
        }
        if (accumulator.endpointCount() > MAX_DISTINCT_ENDPOINTS) throw tooManyEndpoints();
        progress?.(read.records, read.bytes);
        continue;
      }
    }
    const opened = await openInput(input, fileSystem, stdin);
    const counted = progress === undefined ? opened : { ...opened, chunks: countBytes(opened.chunks, read) };
    for await (const batch of readRecords(counted, { includeAssets, tally, reportInvalid, nameInput: inputs.length > 1 })) {
      intake.takeBatch(batch);
      read.records += batch.records.length;
      progress?.(read.records, read.bytes);
    }
  }
  validation.throwIfInvalid();
  return { summary: accumulator.result(), skippedAssetCount: tally.readHar ? tally.skippedAssetCount : undefined };
}

/**
 * The ranges of one input as parts of one read: locations made absolute
 * (list indexes and lines shifted by the ranges before), and, for a JSON
 * document, its skeleton (the first range's prefix and the last's suffix)
 * checked whole. Undefined when any range could not be read on its own, or
 * the document is not what one read would accept: then it is read in one
 * piece, which also gives the exact message.
 */
function mergeRanges(ranges: readonly RangeSummary[], format: 'json' | 'ndjson', path: string, nameInput: boolean): (RangeSummary & { ok: true })[] | undefined {
  const file = nameInput ? path : undefined;
  const parts: (RangeSummary & { ok: true })[] = [];
  for (const range of ranges) {
    if (!range.ok) return undefined;
    parts.push(range);
  }
  if (format === 'json') {
    const first = parts[0];
    const last = parts[parts.length - 1];
    if (first?.skeleton === undefined || last?.skeleton === undefined || first.list === undefined) return undefined;
    try {
      const bytes = Buffer.concat([first.skeleton, last.skeleton]);
      if (!isValidUtf8(bytes)) return undefined;
      const skeleton: unknown = JSON.parse(bytes.toString('utf8'));
      const list = first.list.path.length === 0 ? skeleton : (skeleton as Record<string, unknown> | null)?.['executions'];
      // A list with elements here is a second "executions" key, which a read in one piece refuses.
      if (!Array.isArray(list) || list.length > 0) return undefined;
    } catch {
      return undefined;
    }
  }
  const listPath = parts[0]?.list?.path.join('.') ?? '';
  let offset = 0;
  return parts.map((part) => {
    const shift = offset;
    offset += part.advance;
    const absolute = (location: RecordLocation, named: string | undefined): RecordLocation => {
      if (location.kind === 'list') return { kind: 'list', listPath, index: location.index + shift, file: named };
      if (location.kind === 'line') return { kind: 'line', line: location.line + shift, file: path };
      return location;
    };
    const issues = part.issues.map((issue): RecordIssue => ({ ...issue, location: absolute(issue.location, file) }));
    // The slowest executions always name their file.
    const slowest = part.summary.slowest.map((execution): SlowExecution => (execution.location === undefined ? execution : { ...execution, location: absolute(execution.location, path) }));
    return { ...part, issues, summary: { ...part.summary, slowest } };
  });
}

async function* countBytes(chunks: AsyncIterable<Buffer>, read: { bytes: number }): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    read.bytes += chunk.length;
    yield chunk;
  }
}

async function openInput({ path, format }: WorkflowInput, fileSystem: FileSystem, stdin: AsyncIterable<Buffer> | undefined): Promise<OpenedInput> {
  if (path === '-') {
    if (stdin === undefined) throw new InputUnreadableError('-', 'standard input is not available here');
    return { name: '-', chunks: stdin, format };
  }
  try {
    return { name: path, chunks: failingAsUnreadable(await fileSystem.openChunks(path), path), format };
  } catch (error) {
    throw new InputUnreadableError(path, describeFileSystemFailure(error), { cause: error });
  }
}

// A read that fails half-way (EIO, a file on a network share gone) is the input's failure, named like one that cannot be opened.
async function* failingAsUnreadable(chunks: AsyncIterable<Buffer>, path: string): AsyncGenerator<Buffer> {
  try {
    yield* chunks;
  } catch (error) {
    throw new InputUnreadableError(path, describeFileSystemFailure(error), { cause: error });
  }
}

/**
 * The pure middle of the workflow for a document already parsed: validate,
 * normalise, summarise, format. For library users holding records in memory.
 */
export function buildQualityReport(document: unknown, context: ReportContext, rules: Omit<EvidenceRules, 'slowResponseThresholdMs'> = {}): { report: QualityReport; reportText: string } {
  const records = validateExecutionRecords(document);
  const intake = new RecordIntake({ ...rules, slowResponseThresholdMs: context.slowResponseThresholdMs }, { schema: executionRecordSchema });
  const listPath = Array.isArray(document) ? '' : 'executions';
  records.forEach((record, index) => {
    intake.take(record, () => ({ kind: 'list', listPath, index }));
  });
  const report = buildReport(intake.accumulator.result(), context);
  return { report, reportText: formatReport(report) };
}

/** Every file a run reads: no report file may replace one. */
function readFilesOf(config: QualityToolConfig, inputs: readonly WorkflowInput[]): ReadFile[] {
  const reads: ReadFile[] = inputs.filter(({ path }) => path !== '-').map(({ path }) => ({ path, what: 'input file' }));
  return [...reads, ...judgementFiles(config), ...STANDARD_STREAM_FILES];
}

/** The summary rules of a configuration. */
function rulesOf(config: QualityToolConfig): EvidenceRules {
  const { slowResponseThresholdMs, expectedStatuses, expectedStatusesByEndpoint, routes, endpointGrouping } = config;
  return { slowResponseThresholdMs, expectedStatuses, expectedStatusesByEndpoint, routes, endpointGrouping };
}
