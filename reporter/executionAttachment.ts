import type { ExecutionRecordInput } from '../src/records/executionRecord.js';

/**
 * Attachments are the only channel from the test workers to the reporter: the
 * reporter runs in another process, and attachments survive blob reports and
 * merge-reports. One attachment carries one execution record as JSON.
 */
export const EXECUTION_ATTACHMENT_NAME = 'quality-evidence-execution';
export const EXECUTION_CONTENT_TYPE = 'application/vnd.quality-evidence.execution+json';

/** The fields of a record that travel in an attachment, and nothing else a caller put on the object. */
export type AttachedRecord = ExecutionRecordInput & {
  /**
   * The call as the test wrote it (method, and URL before any base URL),
   * added by the recording fixture so that the reporter can tell which of the
   * test's API calls this record accounts for. Not part of the record.
   */
  readonly call?: { readonly method: string; readonly url: string } | undefined;
  /** The attempt of the test that made the record (0 for the first run, 1 for the first retry), as Playwright counts it. Not part of the record. */
  readonly retry?: number | undefined;
};

/** The attachment body of one record: its own fields only, in a fixed order, absent ones left out. */
export function encodeAttachedRecord({ statusCode, errorCode, endpoint, responseTimeMs, id, timingMs, expectedStatuses, call, retry }: AttachedRecord): Buffer {
  return Buffer.from(JSON.stringify({ statusCode, errorCode, endpoint, responseTimeMs, id, timingMs, expectedStatuses, call, retry }));
}
