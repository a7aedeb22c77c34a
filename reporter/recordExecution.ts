import { test, type TestInfo } from '@playwright/test';
import { executionRecordSchema, isExecutionRecord, validateRecordList } from '../src/index.js';
import { EXECUTION_ATTACHMENT_NAME, EXECUTION_CONTENT_TYPE } from './executionAttachment.js';

/** One execution, as a test reports it. */
export interface ExecutionRecordInput {
  /** HTTP status code, an integer from 100 to 599. */
  readonly statusCode: number;
  /** `<METHOD> <path>`, e.g. `GET /orders`; normalised by the reporter. */
  readonly endpoint: string;
  /** Response time in milliseconds, finite and zero or more. */
  readonly responseTimeMs: number;
  /** Optional identifier of the execution. */
  readonly id?: string;
}

/**
 * Attaches one execution record to the current test result, for the
 * quality-evidence reporter to summarise. The record is validated at once by
 * the runner's own rules: a bad record throws a RecordValidationError, which
 * fails the test with the same message the runner gives.
 *
 * @param testInfo the test to attach to; defaults to `test.info()`, the test
 * that is running.
 */
export async function recordExecution(record: ExecutionRecordInput, testInfo: TestInfo = test.info()): Promise<void> {
  validateRecordList([record], executionRecordSchema, 'record', 'record', isExecutionRecord);
  await testInfo.attach(EXECUTION_ATTACHMENT_NAME, { body: JSON.stringify(record), contentType: EXECUTION_CONTENT_TYPE });
}
