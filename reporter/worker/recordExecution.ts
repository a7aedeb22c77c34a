import { test, type TestInfo } from '@playwright/test';
import { executionRecordSchema, isExecutionRecord, type ExecutionRecordInput } from '../../src/records/executionRecord.js';
import { validateRecordList } from '../../src/records/validateRecordList.js';
import {
  EXECUTION_ATTACHMENT_NAME,
  EXECUTION_CONTENT_TYPE,
  encodeAttachedRecord,
  type AttachedRecord,
} from '../shared/executionAttachment.js';

/** One execution, as a test reports it: the execution record's input shape (see schemas/input.schema.json). */
export type { ExecutionRecordInput } from '../../src/records/executionRecord.js';

/**
 * Attaches one execution record to the current test result, for the
 * quality-evidence reporter to summarise. The record is validated at once by
 * the runner's own rules: a bad record throws a RecordValidationError, which
 * fails the test with the same message the runner gives.
 *
 * @param testInfo the test to attach to; defaults to `test.info()`, the test
 * that is running.
 */
// eslint-disable-next-line @typescript-eslint/require-await -- async so that a bad record rejects the returned promise, as an attach would
export async function recordExecution(record: ExecutionRecordInput, testInfo: TestInfo = test.info()): Promise<void> {
  attachRecord(record, testInfo);
}

/**
 * Validates a record and pushes it onto the test's attachments. Pushed
 * rather than `testInfo.attach`ed: Playwright sends a pushed attachment to
 * the reporter just the same (it wraps `push` for this), but skips the
 * "Attach" step and the test output folder that `attach` makes, which cost a
 * run of 10,000 records seconds (npm run bench:reporter) and would list a
 * step per record in every report.
 */
export function attachRecord(record: AttachedRecord, testInfo: TestInfo): void {
  validateRecordList([record], executionRecordSchema, 'record', 'record', isExecutionRecord);
  testInfo.attachments.push({
    name: EXECUTION_ATTACHMENT_NAME,
    contentType: EXECUTION_CONTENT_TYPE,
    body: encodeAttachedRecord({ ...record, retry: testInfo.retry }),
  });
}
