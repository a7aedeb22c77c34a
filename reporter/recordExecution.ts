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
// eslint-disable-next-line @typescript-eslint/require-await -- async so that a bad record rejects the returned promise, as an attach would
export async function recordExecution(record: ExecutionRecordInput, testInfo: TestInfo = test.info()): Promise<void> {
  validateRecordList([record], executionRecordSchema, 'record', 'record', isExecutionRecord);
  // Pushed rather than `testInfo.attach`ed: Playwright sends a pushed
  // attachment to the reporter just the same (it wraps `push` for this), but
  // skips the "Attach" step and the test output folder that `attach` makes,
  // which cost a run of 10,000 records seconds (npm run bench:reporter) and
  // would list a step per record in every report.
  // Only the record's own fields travel: anything else a caller put on the
  // object (headers, bodies) stays out of blob and HTML reports.
  const { statusCode, endpoint, responseTimeMs, id } = record;
  const body = JSON.stringify(id === undefined ? { statusCode, endpoint, responseTimeMs } : { statusCode, endpoint, responseTimeMs, id });
  testInfo.attachments.push({ name: EXECUTION_ATTACHMENT_NAME, contentType: EXECUTION_CONTENT_TYPE, body: Buffer.from(body) });
}
