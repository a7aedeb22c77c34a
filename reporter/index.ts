// `quality-evidence/reporter`: the reporter class (default export) and the
// function tests use to feed it. Re-exports only.
export { default } from './runner/QualityEvidenceReporter.js';
export { recordExecution, type ExecutionRecordInput } from './worker/recordExecution.js';
export { EXECUTION_ATTACHMENT_NAME, EXECUTION_CONTENT_TYPE } from './shared/executionAttachment.js';
export { DEFAULT_REPORTER_ENVIRONMENT, type QualityEvidenceReporterOptions } from './shared/reporterSettings.js';
