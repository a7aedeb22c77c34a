import {
  request as playwrightRequest,
  test as base,
  type APIRequest,
  type Browser,
  type PlaywrightWorkerArgs,
  type TestInfo,
} from '@playwright/test';
import { overriding, recordingApiRequest } from './worker/recordRequests.js';
import { endBrowserCallsOf, recordingBrowser } from './worker/recordBrowserCalls.js';
import { settingsIn } from './worker/bodyChecks.js';

// A drop-in for `@playwright/test`: every value and type it exports, with
// `test` (and the default export, which is `test` in Playwright) and `request`
// replaced by the recording ones below, so that a suite's shared fixture file can swap its
// import and keep `APIRequestContext`, `Page`, `defineConfig`, `devices`, ...
// A local export shadows the star export of the same name.
export * from '@playwright/test';
export { recordRequests, type TestInfoSource } from './worker/recordRequests.js';

/** The running test, or undefined outside one (a worker fixture being set up for no test). */
function currentTest(): TestInfo | undefined {
  try {
    return base.info();
  } catch {
    return undefined;
  }
}

/**
 * Playwright's `test`, recording every API call for the quality-evidence
 * reporter: the `request` fixture's, and those of every context a test makes
 * with `playwright.request.newContext()`, each attributed to the test that
 * makes the call; and the API calls (fetch, XMLHttpRequest) of the web
 * application in every browser context a test uses: the `page` and
 * `context` fixtures', and those it makes with `browser.newContext()` or
 * `browser.newPage()` (see worker/recordBrowserCalls.ts). Use it in place of the
 * test of `@playwright/test`: `import { test, expect } from 'quality-evidence/test'`.
 */
export const test = base.extend<
  { _qualityEvidenceBrowserCalls: undefined },
  { playwright: PlaywrightWorkerArgs['playwright']; browser: Browser }
>({
  // The built-in `request` fixture makes its context through `playwright.request`
  // too, so this one override records both.
  playwright: [
    async ({ playwright }, use) => {
      await use(overriding(playwright, 'request', recordingApiRequest(playwright.request, currentTest)));
    },
    { scope: 'worker', box: true },
  ],
  // The built-in `context` and `page` fixtures make their contexts through `browser` too.
  browser: [
    async ({ browser }, use, workerInfo) => {
      const settings = await settingsIn(workerInfo.config);
      await use(recordingBrowser(browser, settings?.apiCalls ?? {}, currentTest));
    },
    { scope: 'worker', box: true },
  ],
  _qualityEvidenceBrowserCalls: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from its destructured first parameter: none here
    async ({}, use, testInfo) => {
      await use(undefined);
      await endBrowserCallsOf(testInfo);
    },
    { auto: true, box: true },
  ],
});

/**
 * Playwright's `request`, whose `newContext()` makes contexts that record
 * every call for whichever test is running when it is made: suites that
 * build their API clients in their own fixtures (`request.newContext({
 * baseURL })`, often worker-scoped) are recorded with no other change.
 */
export const request: APIRequest = recordingApiRequest(playwrightRequest, currentTest);

export default test;
