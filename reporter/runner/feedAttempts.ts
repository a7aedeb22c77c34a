import type { TestCase, TestResult } from '@playwright/test/reporter';
import { ConfigurationError } from '../../src/errors.js';
import type { FileSystem } from '../../src/io/fileSystem.js';
import { parseStatusList, type StatusSet } from '../../src/records/statusList.js';
import { escapeControlCharacters } from '../../src/renderValue.js';
import type { UnrecordedCalls } from '../../src/report/qualityReport.js';
import type { EvidenceRun } from '../../src/run/evidenceRun.js';
import { compareCodeUnits } from '../../src/compareCodeUnits.js';
import { accountForCalls, type NoResponseCall, type RecordedCall } from './accountForCalls.js';
import type { ApiCall, StepLocation } from '../shared/apiCalls.js';
import { isAbsolute, relative, sep } from 'node:path';
import type { SourceLocation, TestIdentity } from '../../src/summary/endpointEvidence.js';
import { readAttachedRecord, readBrowserCallCounts, type AttachmentContent } from '../shared/executionAttachment.js';
import type { BrowserCallCounts } from '../../src/report/qualityReport.js';

/** One test attempt: where its records came from, and the API calls it sent. */
export interface Attempt {
  readonly test: TestCase;
  readonly retry: number;
  readonly calls: readonly ApiCall[];
  /** How the attempt ended. */
  readonly status: TestResult['status'];
  /** The statuses its test declares expected (`expected-status` annotations), as written. */
  readonly expectedStatuses: readonly string[];
  /** Its execution attachments, as Playwright hands them over (inline or, after a merge, maybe as a file). */
  readonly attachments: readonly AttachmentContent[];
  /** Its attachment of what its browser calls came to, when it used a browser (see worker/recordBrowserCalls.ts). */
  readonly browserCalls?: AttachmentContent | undefined;
}

/** What the attempts said besides their records: the calls no record accounts for, in all and per spec file. */
export interface AttemptsRead {
  readonly unrecordedCalls: UnrecordedCalls;
  /** Unrecorded calls per spec file (its absolute path), for the warning. */
  readonly unrecordedByFile: ReadonlyMap<string, number>;
  /** What the browser calls of every attempt came to, when any attempt used a browser. */
  readonly browserCalls: BrowserCallCounts | undefined;
}

/**
 * The reporter's reader: feeds every attempt's records into the run, each
 * located at its test and attempt: the records the test attached, and the
 * calls its `pw:api` steps show that got no response and that no record
 * accounts for. Calls with a response that no record accounts for are
 * counted, not run. Attempts are taken in a fixed order (by test, then
 * attempt), not the order workers finished in, so ties stay the same on
 * every run, sharded or not.
 */
export async function feedAttempts(
  run: EvidenceRun,
  attempts: readonly Attempt[],
  { fileSystem, rootDir }: { readonly fileSystem: FileSystem; readonly rootDir: string },
): Promise<AttemptsRead> {
  const lastPassingRetry = new Map<TestCase, number>();
  for (const { test, retry, status } of attempts) {
    if (status === test.expectedStatus) lastPassingRetry.set(test, Math.max(retry, lastPassingRetry.get(test) ?? -1));
  }
  const unrecordedByFile = new Map<string, number>();
  const unrecordedEndpoints = new Set<string>();
  let browserCalls: BrowserCallCounts | undefined;
  for (const attempt of [...attempts].sort(compareAttempts)) {
    const location = { kind: 'test', title: titleOf(attempt.test), attempt: attempt.retry + 1 } as const;
    if (attempt.browserCalls !== undefined)
      browserCalls = addBrowserCalls(browserCalls, await readBrowserCallCounts(attempt.browserCalls, location, fileSystem));
    const records = await Promise.all(attempt.attachments.map((attachment) => readAttachedRecord(attachment, location, fileSystem)));
    const account = accountForCalls(attempt.calls, records.map(recordedCallOf), attempt.test.parent.project()?.use.baseURL);
    const origin = {
      alsoExpected: expectedSetOf(attempt),
      test: testIdentityOf(attempt.test, rootDir),
      attempt: attempt.retry + 1,
      testPassed: attempt.status === attempt.test.expectedStatus,
      // A later attempt of the same test ended as the test expects: this attempt is one the test retried away.
      retriedAway: (lastPassingRetry.get(attempt.test) ?? -1) > attempt.retry,
    };
    const at = (location: StepLocation | undefined) =>
      location === undefined ? {} : { callLocation: sourceLocationOf(location, rootDir) };
    // The recording fixture's records (they carry the call) and the calls rebuilt from steps have endpoints derived from URLs.
    records.forEach((record, index) => {
      const { call, browser } = recordedCallOf(record);
      const server = serverOf(call?.url);
      run.take(record, () => location, {
        ...origin,
        ...at(account.callOfRecord[index]?.location),
        derivedFromUrl: call !== undefined || browser === true,
        ...(server === undefined ? {} : { server }),
      });
    });
    for (const call of account.noResponse)
      run.take(noResponseRecord(call), () => location, { ...origin, ...at(call.location), derivedFromUrl: true });
    if (account.unrecorded.length > 0) {
      const file = attempt.test.location.file;
      unrecordedByFile.set(file, (unrecordedByFile.get(file) ?? 0) + account.unrecorded.length);
      // Labelled by the run's own rules (routes, the contract, grouping), as recorded calls are.
      for (const endpoint of account.unrecorded) unrecordedEndpoints.add(run.labelOf(endpoint));
    }
  }
  const count = [...unrecordedByFile.values()].reduce((sum, calls) => sum + calls, 0);
  return { unrecordedCalls: { count, endpoints: [...unrecordedEndpoints].sort(compareCodeUnits) }, unrecordedByFile, browserCalls };
}

function addBrowserCalls(total: BrowserCallCounts | undefined, attempt: BrowserCallCounts): BrowserCallCounts {
  return {
    browserCallCount: (total?.browserCallCount ?? 0) + attempt.browserCallCount,
    mockedCallCount: (total?.mockedCallCount ?? 0) + attempt.mockedCallCount,
    cachedCallCount: (total?.cachedCallCount ?? 0) + attempt.cachedCallCount,
    serviceWorkerCallCount: (total?.serviceWorkerCallCount ?? 0) + attempt.serviceWorkerCallCount,
    unfinishedCallCount: (total?.unfinishedCallCount ?? 0) + attempt.unfinishedCallCount,
  };
}

function recordedCallOf(record: unknown): RecordedCall {
  if (typeof record !== 'object' || record === null) return { endpoint: '' };
  const { endpoint, call, source } = record as { endpoint?: unknown; call?: unknown; source?: unknown };
  const written =
    typeof call === 'object' &&
    call !== null &&
    typeof (call as { method?: unknown }).method === 'string' &&
    typeof (call as { url?: unknown }).url === 'string'
      ? (call as { method: string; url: string })
      : undefined;
  return { endpoint: typeof endpoint === 'string' ? endpoint : '', call: written, browser: source === 'browser' };
}

/**
 * The host and port of a URL the test wrote absolute (its span's
 * server.address and server.port; the port the scheme's default when none is
 * written). A relative URL went to a base URL the reporter cannot be sure of
 * (a context's own, or the project's): none.
 */
function serverOf(url: string | undefined): { address: string; port: number } | undefined {
  if (url === undefined || !/^https?:\/\//i.test(url)) return undefined;
  try {
    const { protocol, hostname, port } = new URL(url);
    const address = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
    return address === '' ? undefined : { address, port: port === '' ? (protocol === 'https:' ? 443 : 80) : Number(port) };
  } catch {
    return undefined;
  }
}

function noResponseRecord({ endpoint, errorCode, responseTimeMs }: NoResponseCall): unknown {
  return { errorCode, endpoint, responseTimeMs };
}

function compareAttempts(a: Attempt, b: Attempt): number {
  const { file: fileA, line: lineA, column: columnA } = a.test.location;
  const { file: fileB, line: lineB, column: columnB } = b.test.location;
  return (
    compareCodeUnits(fileA, fileB) ||
    lineA - lineB ||
    columnA - columnB ||
    compareCodeUnits(a.test.titlePath().join('\u0000'), b.test.titlePath().join('\u0000')) ||
    a.retry - b.retry
  );
}

export const EXPECTED_STATUS_ANNOTATION = 'expected-status';

/** The statuses an attempt's test declares expected, or undefined; a malformed list fails the report, naming the test. */
function expectedSetOf(attempt: Attempt): StatusSet | undefined {
  if (attempt.expectedStatuses.length === 0) return undefined;
  const parsed = parseStatusList(attempt.expectedStatuses.join(','));
  if ('problem' in parsed) {
    throw new ConfigurationError([
      {
        variable: `the "${EXPECTED_STATUS_ANNOTATION}" annotation of test "${escapeControlCharacters(titleOf(attempt.test))}"`,
        message: parsed.problem,
      },
    ]);
  }
  return parsed.set;
}

/** A test as the report names it: its title path, and where it is declared, relative to the project's root. */
export function testIdentityOf(test: TestCase, rootDir: string): TestIdentity {
  return { title: titleOf(test), ...sourceLocationOf(test.location, rootDir), testId: test.id };
}

/**
 * A place in a file, the file relative to the run's root folder (Playwright's
 * `rootDir`, the test folder) with forward slashes, as Playwright's reports
 * show it: the same on every machine and after a merge, never a machine's
 * absolute path (a file outside the root, such as an API client in `src/`,
 * keeps its `../`).
 */
export function sourceLocationOf({ file, line, column }: StepLocation, rootDir: string): SourceLocation {
  const relativePath = relative(rootDir, file);
  const shown = relativePath === '' || isAbsolute(relativePath) ? file : relativePath;
  return { file: shown.split(sep).join('/'), line, column };
}

/** A test's title path as messages and the report name it: `orders.spec.ts › lists orders`. */
function titleOf(test: TestCase): string {
  return test.titlePath().filter(Boolean).join(' › ');
}
