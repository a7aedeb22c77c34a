import { test, type TestInfo } from '@playwright/test';
import { executionRecordSchema, type TimingPhases } from '../src/index.js';
import { isExecutionRecord } from '../src/records/executionRecord.js';
import { validateRecordList } from '../src/records/validateRecordList.js';
import { EXECUTION_ATTACHMENT_NAME, EXECUTION_CONTENT_TYPE, encodeAttachedRecord, type AttachedRecord } from './executionAttachment.js';

/** One execution, as a test reports it. */
export interface ExecutionRecordInput {
  /** HTTP status code, an integer from 100 to 599; leave it out for a call that got no response. */
  readonly statusCode?: number;
  /** Only for a call that got no response: the error code, e.g. `ECONNREFUSED`. */
  readonly errorCode?: string;
  /** `<METHOD> <path>`, e.g. `GET /orders`; normalised by the reporter. */
  readonly endpoint: string;
  /** Response time in milliseconds (for a call with no response, the time until it failed), finite and zero or more. */
  readonly responseTimeMs: number;
  /** Optional identifier of the execution. */
  readonly id?: string;
  /** Optional phases of the call in milliseconds: `dns`, `connect`, `tls`, `wait`, `receive`. */
  readonly timingMs?: TimingPhases;
  /**
   * Optional: the statuses this call expects (a negative test), such as
   * `'404'` or `'200-299,403'`, or an array such as `[404, '200-299']`. A
   * status in the list is not a failure; it counts in `expectedErrorCount`.
   */
  readonly expectedStatuses?: string | readonly (number | string)[];
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
  testInfo.attachments.push({ name: EXECUTION_ATTACHMENT_NAME, contentType: EXECUTION_CONTENT_TYPE, body: encodeAttachedRecord({ ...record, retry: testInfo.retry }) });
}
