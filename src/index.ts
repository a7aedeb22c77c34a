// The library entry point (`quality-evidence`): its public API, named one by
// one. Anything not listed here is internal and may change in any release; a
// spec (tests/publicApi.spec.ts) pins this list.

// Settings
export {
  DEFAULT_OUTPUT_PATH,
  DEFAULT_SLOW_RESPONSE_THRESHOLD_MS,
  loadQualityToolConfig,
  type LoadConfigOptions,
  type QualityToolConfig,
  type SettingsFileText,
} from './config/loadQualityToolConfig.js';
export { readSettingsFile, settingsFileLocation, type SettingsFileLocation } from './config/readSettingsFile.js';
export { SETTINGS_FILE_NAME, settingsFileSchema, type SettingsFile } from './config/settings.js';
export type { EnvironmentRecord } from './config/settingsSources.js';
export { budgetsSchema, type Budgets, type EndpointBudgets } from './config/budgetsSchema.js';

// Errors
export {
  ConfigurationError,
  InputLimitError,
  InputSyntaxError,
  InputUnreadableError,
  QualityEvidenceError,
  RecordValidationError,
  ReportFormatError,
  ReportWriteError,
  type ConfigurationIssue,
  type RecordIssue,
} from './errors.js';

// Helpers
export { createDeterministicClock, systemClock, type Clock } from './helpers/clock.js';
export { PollTimeoutError, RetryExhaustedError } from './helpers/helperErrors.js';
export { pollUntil, type PollUntilOptions, type PollUntilResult } from './helpers/pollUntil.js';
export { retryBounded, type RetryBoundedOptions, type RetryBoundedResult } from './helpers/retryBounded.js';

// Reading, records, summary, report
export { parseInputJson } from './input/parseInputJson.js';
export { nodeFileSystem, type FileFacts, type FileKind, type FileSystem } from './io/fileSystem.js';
export { readInputFile } from './io/readInputFile.js';
export { writeReportAtomically } from './io/writeReportAtomically.js';
export { CHECK_STATES, checkObservationSchema, type CheckObservation, type CheckState } from './records/checkObservation.js';
export { executionInputSchema, executionRecordSchema, type ExecutionRecord, type TimingPhases } from './records/executionRecord.js';
export { validateExecutionRecords } from './readers/jsonReader.js';
export { normaliseEndpoint, normaliseExecutionRecords, type CanonicalExecutionRecord } from './records/normaliseExecutionRecords.js';
export { templateEndpoint, templatePath } from './labels/templateEndpoint.js';
export type { EvidenceRules } from './run/evidenceRules.js';
export type { EndpointGrouping } from './labels/endpointLabels.js';
export type { StatusListInput } from './records/statusList.js';
export { JSON_SCHEMA_FILES, createQualityEvidenceJsonSchemas, type QualityEvidenceJsonSchemas } from './report/jsonSchemas.js';
export {
  REPORT_SCHEMA_VERSION,
  buildReport,
  qualityReportSchema,
  testCountsSchema,
  type QualityReport,
  type ReportContext,
  type TestCounts,
  type UnrecordedCalls,
} from './report/qualityReport.js';
// The report rendered for people: each a pure function of the report
export { formatReport } from './report/renderers/json.js';
export { renderMarkdown, type MarkdownOptions } from './report/renderers/markdown.js';
export { renderHtml, type HtmlOptions } from './report/renderers/html.js';
export { renderTerminal, type TerminalOptions } from './report/renderers/terminal.js';
export { summariseChecks } from './summary/summariseChecks.js';
export {
  ExecutionAccumulator,
  summariseExecutions,
  type EndpointStatistics,
  type ExecutionStatistics,
  type ExpectationRules,
  type SlowExecution,
} from './summary/executionAccumulator.js';
export type { LatencyStatistics } from './summary/latencySamples.js';
export type { ExecutionSummary, RecordSummary } from './summary/executionSummary.js';

// Judging a report: budgets and a baseline
export { compareWithBaseline } from './evaluation/baseline.js';
export { parseReport } from './evaluation/parseReport.js';
export { evaluateBudgets } from './evaluation/evaluateBudgets.js';
export type { BaselineComparison, BudgetResult, BudgetVerdict } from './report/verdictSchemas.js';

// The workflow
export {
  buildQualityReport,
  runQualityWorkflow,
  type QualityWorkflowDependencies,
  type QualityWorkflowResult,
} from './workflow/runQualityWorkflow.js';
