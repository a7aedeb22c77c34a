import type { FileSystem } from '../../src/io/fileSystem.js';
import { decodeInputBytes, readInputFile } from '../../src/io/readInputFile.js';
import { describeLocation, type RecordLocation } from '../../src/issues/location.js';
import { MAX_LINE_BYTES } from '../../src/readers/ndjsonReader.js';
import type { ExecutionRecordInput } from '../../src/records/executionRecord.js';
import type { BrowserCallCounts } from '../../src/report/qualityReport.js';
import { escapeControlCharacters } from '../../src/renderValue.js';

/**
 * Attachments are the only channel from the test workers to the reporter: the
 * reporter runs in another process, and attachments survive blob reports and
 * merge-reports. One attachment carries one execution record as JSON.
 */
export const EXECUTION_ATTACHMENT_NAME = 'quality-evidence-execution';
export const EXECUTION_CONTENT_TYPE = 'application/vnd.quality-evidence.execution+json';

/**
 * What one test attempt's browser calls came to (see worker/recordBrowserCalls.ts):
 * one attachment at its end, the counts of reporter/worker/browserCalls.ts as JSON.
 */
export const BROWSER_CALLS_ATTACHMENT_NAME = 'quality-evidence-browser-calls';
export const BROWSER_CALLS_CONTENT_TYPE = 'application/vnd.quality-evidence.browser-calls+json';

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
export function encodeAttachedRecord({
  statusCode,
  errorCode,
  endpoint,
  responseTimeMs,
  id,
  timingMs,
  expectedStatuses,
  bodyCheck,
  conditions,
  traceId,
  spanId,
  parentSpanId,
  startedAtMs,
  excerpt,
  source,
  call,
  retry,
}: AttachedRecord): Buffer {
  return Buffer.from(
    JSON.stringify({
      statusCode,
      errorCode,
      endpoint,
      responseTimeMs,
      id,
      timingMs,
      expectedStatuses,
      bodyCheck,
      conditions,
      traceId,
      spanId,
      parentSpanId,
      startedAtMs,
      excerpt,
      source,
      call,
      retry,
    }),
  );
}

/** An attachment's content as Playwright hands it over: inline (`body`) or, after a merge, maybe as a file (`path`). */
export interface AttachmentContent {
  readonly body: Buffer | undefined;
  readonly path: string | undefined;
}

const BROWSER_COUNT_KEYS = [
  'seenCount',
  'executionCount',
  'mockedCallCount',
  'cachedCallCount',
  'serviceWorkerCallCount',
  'unfinishedCallCount',
] as const;

/**
 * What one attempt's browser calls came to, from its attachment (read as a
 * record's is); an attachment that is not the counts fails the report, naming the test.
 */
export async function readBrowserCallCounts(
  attachment: AttachmentContent,
  location: RecordLocation,
  fileSystem: FileSystem,
): Promise<BrowserCallCounts> {
  const counts = await readAttachedRecord(attachment, location, fileSystem);
  const valid =
    typeof counts === 'object' &&
    counts !== null &&
    BROWSER_COUNT_KEYS.every(
      (key) => Number.isSafeInteger((counts as Record<string, unknown>)[key]) && ((counts as Record<string, number>)[key] ?? -1) >= 0,
    );
  if (!valid) {
    throw new Error(
      escapeControlCharacters(
        `the browser-call attachment of ${describeLocation(location)} must be an object of the counts ` +
          `${BROWSER_COUNT_KEYS.join(', ')}, each a whole number, 0 or more`,
      ),
    );
  }
  const { seenCount, mockedCallCount, cachedCallCount, serviceWorkerCallCount, unfinishedCallCount } = counts as Record<
    (typeof BROWSER_COUNT_KEYS)[number],
    number
  >;
  return { browserCallCount: seenCount, mockedCallCount, cachedCallCount, serviceWorkerCallCount, unfinishedCallCount };
}

/**
 * The record one attachment carries, as Playwright hands it over: inline
 * (`body`) or, after a merge, maybe as a file (`path`). Its bytes are read
 * as strictly as an input (UTF-8, at most 64 MB, as one record of an input
 * may be): bytes that are not UTF-8, or a file that cannot be read, fail the
 * report with a message naming the test. Text that is not JSON is handed on
 * as a string, which validation refuses, naming the test too.
 */
export async function readAttachedRecord(
  { body, path }: AttachmentContent,
  location: RecordLocation,
  fileSystem: FileSystem,
): Promise<unknown> {
  const what = `execution attachment of ${describeLocation(location)}`;
  const text =
    body !== undefined
      ? decodeInputBytes(body, what, MAX_LINE_BYTES)
      : path === undefined
        ? ''
        : await readInputFile(fileSystem, path, what, MAX_LINE_BYTES);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
