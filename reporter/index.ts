// `quality-evidence/reporter`: the reporter class (default export) and the
// function tests use to feed it. Re-exports only.
export { default } from './QualityEvidenceReporter.js';
export { recordExecution, type ExecutionRecordInput } from './recordExecution.js';
export { EXECUTION_ATTACHMENT_NAME, EXECUTION_CONTENT_TYPE } from './executionAttachment.js';
export { DEFAULT_REPORTER_ENVIRONMENT, type QualityEvidenceReporterOptions } from './reporterSettings.js';
