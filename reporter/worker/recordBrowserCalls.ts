import { settingsNow } from './bodyChecks.js';
import type { Browser, BrowserContext, Page, TestInfo } from '@playwright/test';
import {
  noBrowserCalls,
  observeBrowserCalls,
  type ApiCallRules,
  type BrowserCallCount,
  type BrowserCallObservation,
  type BrowserCallSink,
  type BrowserExecution,
} from './browserCalls.js';
import { BROWSER_CALLS_ATTACHMENT_NAME, BROWSER_CALLS_CONTENT_TYPE } from '../shared/executionAttachment.js';
import { attachRecord } from './recordExecution.js';
import { withMethods } from './recordRequests.js';

/**
 * The browser contexts of a test worker, observed for the recording
 * fixture: every context made through the worker's `browser` (the `context`
 * and `page` fixtures make theirs so, and so does a test's own
 * `browser.newContext()` or `browser.newPage()`). Each API call goes to the
 * test running when it ends, as a record with `"source": "browser"`; what
 * each test's calls came to is counted and attached when the test ends.
 */

/** The observations of the contexts still open in this worker. */
const openObservations = new Set<BrowserCallObservation>();

/** What one test's browser calls came to. */
class TestBrowserCalls implements BrowserCallSink {
  readonly counts = noBrowserCalls();

  constructor(private readonly test: TestInfo) {}

  record({ traceId, spanId, ...execution }: BrowserExecution): void {
    // The ids of a traceparent the page sent itself, unless the run's traceContext is off.
    const trace = traceId !== undefined && spanId !== undefined && settingsNow(this.test.config)?.traceContext !== false;
    attachRecord({ ...execution, ...(trace ? { traceId, spanId } : {}), source: 'browser' }, this.test);
  }

  count(kind: BrowserCallCount): void {
    this.counts[kind]++;
  }
}

const testCalls = new WeakMap<TestInfo, TestBrowserCalls>();
/** Tests during which a browser context was open: their counts are attached, even when no call was made. */
const testsWithContexts = new WeakSet<TestInfo>();

function callsOf(test: TestInfo): TestBrowserCalls {
  let calls = testCalls.get(test);
  if (calls === undefined) {
    calls = new TestBrowserCalls(test);
    testCalls.set(test, calls);
  }
  return calls;
}

/**
 * The worker's `browser`, with `newContext()` and `newPage()` making
 * observed contexts. A context's (or its page's) `close()` waits for its
 * calls in flight before it closes; a context closed another way
 * (`page.context().close()`) counts its calls still in flight as unfinished.
 */
export function recordingBrowser(browser: Browser, rules: ApiCallRules, currentTest: () => TestInfo | undefined): Browser {
  const sinkOf = (): BrowserCallSink | undefined => {
    const test = currentTest();
    return test === undefined ? undefined : callsOf(test);
  };
  const observe = (context: BrowserContext): BrowserCallObservation => {
    const observation = observeBrowserCalls(context, rules, sinkOf);
    openObservations.add(observation);
    const test = currentTest();
    if (test !== undefined) testsWithContexts.add(test);
    context.once('close', () => {
      openObservations.delete(observation);
      void observation.stop(0);
    });
    return observation;
  };
  const closingAfter = <Closable extends object>(target: Closable, observation: BrowserCallObservation): Closable =>
    withMethods(target, {
      close: async (...args: unknown[]) => {
        openObservations.delete(observation);
        await observation.stop();
        return (target as unknown as { close(...args: unknown[]): Promise<void> }).close(...args);
      },
    });
  return withMethods(browser, {
    newContext: async (...args: Parameters<Browser['newContext']>) => {
      const context = await browser.newContext(...args);
      return closingAfter(context, observe(context));
    },
    newPage: async (...args: Parameters<Browser['newPage']>) => {
      const page: Page = await browser.newPage(...args);
      return closingAfter(page, observe(page.context()));
    },
  });
}

/**
 * At a test's end: waits (a while) for the calls still in flight in the
 * worker's open contexts, so that each reaches the test it belongs to, and
 * attaches what the test's browser calls came to, when it used a browser.
 */
export async function endBrowserCallsOf(test: TestInfo): Promise<void> {
  if (openObservations.size > 0) {
    testsWithContexts.add(test);
    await Promise.all([...openObservations].map((observation) => observation.settle()));
  }
  if (!testsWithContexts.has(test) && !testCalls.has(test)) return;
  const { counts } = callsOf(test);
  test.attachments.push({
    name: BROWSER_CALLS_ATTACHMENT_NAME,
    contentType: BROWSER_CALLS_CONTENT_TYPE,
    body: Buffer.from(JSON.stringify(counts)),
  });
}
