import type { AttachedRecord } from './executionAttachment.js';

/**
 * The channel for calls made outside any test in the process where the
 * reporter runs: a config's `globalSetup` and `globalTeardown`, which
 * Playwright runs in its runner's own process, beside the reporters. No test
 * runs there, so such a call has no test to attach its record to; the
 * reporter installs a collector on `globalThis` instead, and the recording
 * `request` hands it the record. In a test worker no reporter runs, nothing
 * is installed, and a call outside a test goes unrecorded, as before.
 *
 * The slot is keyed by `Symbol.for`, so that the package's two builds (a
 * CommonJS global setup beside an ES module reporter, or the other way
 * round) share it: its shape is plain data, the same in both.
 */
const SLOT = Symbol.for('quality-evidence.outside-tests');

/** The file name the recording wrapper is compiled under (worker/recordRequests.ts): in a call's stack, the frames up to it are the recording's own. */
export const RECORDED_CALL_FILE = 'node:quality-evidence/recorded-call';

/** A call made outside any test: its record, and the stack where it was made (the reporter tells the setup file by it). */
export interface CallOutsideTests {
  readonly record: AttachedRecord;
  readonly stack: string | undefined;
}

type Receiver = (call: CallOutsideTests) => void;

/** What the slot holds: every reporter of the process that takes such calls (a config may name the reporter twice). */
interface Collector {
  readonly receivers: Receiver[];
  /** Whether such calls carry W3C trace context: no reporter's settings turned it off (`traceContext`). */
  traceContext?: boolean;
}

function collectorOf(holder: object): Collector | undefined {
  const value: unknown = Reflect.get(holder, SLOT);
  return typeof value === 'object' && value !== null && Array.isArray((value as { receivers?: unknown }).receivers)
    ? (value as Collector)
    : undefined;
}

/**
 * Makes `receive` take every call made outside a test in this process, from
 * now on; such calls carry trace context unless a reporter's `traceContext`
 * is false.
 */
export function receiveCallsOutsideTests(receive: Receiver, holder: object = globalThis, traceContext = true): void {
  const collector = collectorOf(holder);
  if (collector === undefined) Reflect.set(holder, SLOT, { receivers: [receive], traceContext } satisfies Collector);
  else {
    collector.receivers.push(receive);
    collector.traceContext = collector.traceContext !== false && traceContext;
  }
}

/** Whether calls made outside a test in this process carry trace context: where a reporter takes them, and it did not turn it off. */
export function traceContextOutsideTests(holder: object = globalThis): boolean {
  const collector = collectorOf(holder);
  return collector !== undefined && collector.receivers.length > 0 && collector.traceContext !== false;
}

/** Where a call made outside a test goes in this process, or undefined when no reporter takes them (a test worker). */
export function callsOutsideTestsCollector(holder: object = globalThis): Receiver | undefined {
  const collector = collectorOf(holder);
  if (collector === undefined || collector.receivers.length === 0) return undefined;
  return (call) => {
    for (const receive of collector.receivers) receive(call);
  };
}
