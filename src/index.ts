// The library entry point (`quality-evidence`): re-exports only.
export * from './config/loadQualityToolConfig.js';
export * from './errors.js';
export * from './helpers/index.js';
export * from './input/readInput.js';
export * from './records/executionRecord.js';
export * from './records/normaliseExecutionRecords.js';
export * from './records/validateRecordList.js';
export * from './report/jsonSchemas.js';
export * from './report/qualityReport.js';
export * from './summary/summariseExecutions.js';
export * from './workflow/fileSystem.js';
export * from './workflow/runQualityWorkflow.js';
export * from './workflow/writeReportAtomically.js';
