import { expect, test } from './support/test.js';
import * as core from '../src/index.js';
import * as reporter from '../reporter/index.js';
import * as recording from '../reporter/test.js';
import * as playwright from '@playwright/test';

// The public API is what each entry point names; anything else is internal.
// A change to these lists is a change to the package's contract.

test('quality-evidence exports exactly its public API', () => {
  expect(Object.keys(core).sort()).toEqual([
    'CHECK_STATES',
    'ConfigurationError',
    'DEFAULT_OUTPUT_PATH',
    'DEFAULT_SLOW_RESPONSE_THRESHOLD_MS',
    'ExecutionAccumulator',
    'InputLimitError',
    'InputSyntaxError',
    'InputUnreadableError',
    'JSON_SCHEMA_FILES',
    'PollTimeoutError',
    'QualityEvidenceError',
    'REPORT_SCHEMA_VERSION',
    'RecordValidationError',
    'ReportFormatError',
    'ReportWriteError',
    'RetryExhaustedError',
    'SETTINGS_FILE_NAME',
    'budgetsSchema',
    'buildQualityReport',
    'buildReport',
    'checkObservationSchema',
    'compareWithBaseline',
    'createDeterministicClock',
    'createQualityEvidenceJsonSchemas',
    'evaluateBudgets',
    'executionInputSchema',
    'executionRecordSchema',
    'formatReport',
    'loadQualityToolConfig',
    'nodeFileSystem',
    'normaliseEndpoint',
    'normaliseExecutionRecords',
    'parseInputJson',
    'parseReport',
    'pollUntil',
    'qualityReportSchema',
    'readInputFile',
    'readSettingsFile',
    'renderHtml',
    'renderMarkdown',
    'renderTerminal',
    'retryBounded',
    'runQualityWorkflow',
    'settingsFileLocation',
    'settingsFileSchema',
    'summariseChecks',
    'summariseExecutions',
    'systemClock',
    'templateEndpoint',
    'templatePath',
    'testCountsSchema',
    'validateExecutionRecords',
    'writeReportAtomically',
  ]);
});

test('quality-evidence/reporter exports the reporter and recordExecution', () => {
  expect(Object.keys(reporter).sort()).toEqual([
    'DEFAULT_REPORTER_ENVIRONMENT',
    'EXECUTION_ATTACHMENT_NAME',
    'EXECUTION_CONTENT_TYPE',
    'default',
    'recordExecution',
  ]);
});

test('quality-evidence/test exports what @playwright/test exports (tests/playwrightDropIn.spec.ts) and recordRequests', () => {
  expect(Object.keys(recording).sort()).toEqual([...Object.keys(playwright), 'recordRequests'].sort());
});
