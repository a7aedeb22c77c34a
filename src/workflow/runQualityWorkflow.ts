import type { QualityToolConfig } from '../config/loadQualityToolConfig.js';
import { parseInputJson } from '../input/readInput.js';
import { readInputFile } from '../io/readInputFile.js';
import { validateExecutionRecords } from '../records/executionRecord.js';
import { normaliseExecutionRecords } from '../records/normaliseExecutionRecords.js';
import { buildReport, formatReport, type QualityReport, type ReportContext } from '../report/qualityReport.js';
import { summariseExecutions } from '../summary/summariseExecutions.js';
import type { FileSystem } from '../io/fileSystem.js';
import { writeReportAtomically } from '../io/writeReportAtomically.js';

/** What the workflow needs from outside besides its configuration. */
export interface QualityWorkflowDependencies {
  /** All file access goes through this; tests pass an in-memory one. */
  readonly fileSystem: FileSystem;
}

/** The outcome of a successful run. */
export interface QualityWorkflowResult {
  readonly report: QualityReport;
  /** The exact bytes written to `config.outputPath`. */
  readonly reportText: string;
}

/**
 * The SPEC's stages in order: read, parse, validate, normalise, summarise,
 * format, write. Only the first and the last touch the file system, and any
 * failure throws before the write, so a failed run writes nothing.
 */
export async function runQualityWorkflow(config: QualityToolConfig, { fileSystem }: QualityWorkflowDependencies): Promise<QualityWorkflowResult> {
  // The text is not kept in a variable so that the garbage collector can free
  // it (as large as the input file) as soon as it is parsed.
  const document = parseInputJson(await readInputFile(fileSystem, config.inputPath));
  const result = buildQualityReport(document, config);
  await writeReportAtomically(fileSystem, config.outputPath, result.reportText);
  return result;
}

/**
 * The pure middle of the workflow, from parsed input to the report's bytes:
 * validate, normalise, summarise, format. The Playwright reporter runs its
 * collected records through this same function.
 */
export function buildQualityReport(document: unknown, context: ReportContext): QualityWorkflowResult {
  const records = validateExecutionRecords(document);
  const canonicalRecords = normaliseExecutionRecords(records);
  const summary = summariseExecutions(canonicalRecords, context.slowResponseThresholdMs);
  const report = buildReport(summary, context);
  return { report, reportText: formatReport(report) };
}
