import { chromium, type Browser, type Page, type Response } from '@playwright/test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  browserErrorCode,
  globToRegExp,
  observeBrowserCalls,
  outcomeOf,
  type ApiCallRules,
  type BrowserCallCounts,
  type BrowserExecution,
} from '../reporter/worker/browserCalls.js';
import { CHROMIUM_PATH, QUIET_CHROMIUM_ARGS, requireChromium } from './support/chromium.js';
import { startApp, type App } from './support/browserApp.js';
import { expect, test } from './support/test.js';

// The API calls of a web application, observed in real Chromium against a
// small application this spec serves: its page calls its API with fetch and
// XMLHttpRequest (one failing, one slow, one aborted, one streamed, one
// cached, one redirected, one answered by a service worker, one fulfilled by
// the test's own route) and loads an asset of each type. The executions
// observed must be what the server answered, and nothing else.

let browser: Browser;
let app: App;

test.beforeAll(async () => {
  requireChromium();
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: QUIET_CHROMIUM_ARGS });
  app = await startApp();
});

test.afterAll(async () => {
  await browser.close();
  await new Promise((closed) => app.server.close(closed));
});

/**
 * Runs `act` on a new page of a new context observed with `rules`: what the
 * observation recorded, and what it counted apart, once it has stopped.
 */
async function observed(
  act: (page: Page, recorded: readonly BrowserExecution[]) => Promise<void>,
  rules: ApiCallRules = {},
): Promise<{ executions: BrowserExecution[]; counts: Readonly<BrowserCallCounts> }> {
  const context = await browser.newContext();
  const executions: BrowserExecution[] = [];
  const sink = { record: (execution: BrowserExecution) => executions.push(execution), count: () => undefined };
  const observation = observeBrowserCalls(context, rules, () => sink);
  await act(await context.newPage(), executions);
  await observation.stop();
  await context.close();
  return { executions, counts: observation.counts };
}

const summary = (executions: readonly BrowserExecution[]) =>
  executions.map((execution) => `${execution.endpoint} ${execution.statusCode ?? execution.errorCode ?? ''}`);

test("the page's fetch and XMLHttpRequest calls are the executions, each one the server answered, and no asset is", async () => {
  const { executions, counts } = await observed(async (page) => {
    await page.goto(`${app.origin}/`);
    app.answered.length = 0;
    // A string: the specs are compiled without the DOM's types.
    await page.evaluate(`(async () => {
      await fetch('/api/orders?page=2');
      await fetch('/api/broken');
      await fetch('/api/slow');
      await fetch('/api/stream').then((response) => response.text());
      await fetch('/api/old-orders');
      await new Promise((done) => {
        const request = new XMLHttpRequest();
        request.open('POST', '/api/orders');
        request.onload = done;
        request.send('{"item":"tea"}');
      });
    })()`);
  });
  expect(summary(executions).sort()).toEqual(
    [
      'GET /api/orders 200',
      'GET /api/broken 500',
      'GET /api/slow 200',
      'GET /api/stream 200',
      'GET /api/old-orders 302',
      'GET /api/orders 200',
      'POST /api/orders 201',
    ].sort(),
  );
  expect(summary(executions).sort()).toEqual(app.answered.map((line) => line).sort());
  expect(counts).toEqual({
    seenCount: 7,
    executionCount: 7,
    mockedCallCount: 0,
    cachedCallCount: 0,
    serviceWorkerCallCount: 0,
    unfinishedCallCount: 0,
  });
});

test("each time is the browser's own: the slow call over 300 ms, the streamed body's until its last byte, with the wait and receive phases", async () => {
  const { executions } = await observed(async (page) => {
    await page.goto(`${app.origin}/`);
    await page.evaluate(async () => {
      await fetch('/api/slow');
      await fetch('/api/stream').then((response) => response.text());
    });
  });
  const slow = executions.find((execution) => execution.endpoint === 'GET /api/slow')!;
  const stream = executions.find((execution) => execution.endpoint === 'GET /api/stream')!;
  expect(slow.responseTimeMs).toBeGreaterThanOrEqual(300);
  expect(slow.timingMs?.wait).toBeGreaterThanOrEqual(295);
  expect(stream.responseTimeMs).toBeGreaterThanOrEqual(200);
  // The body arrived over 200 ms after its first byte: responseEnd is the last byte, not the first.
  expect(stream.timingMs?.receive).toBeGreaterThanOrEqual(190);
});

test('an aborted call and a refused one are no-response executions with their codes; the time of the aborted one is until it failed', async () => {
  const { executions } = await observed(async (page) => {
    await page.goto(`${app.origin}/`);
    const closed = createServer();
    await new Promise<void>((listening) => closed.listen(0, '127.0.0.1', listening));
    const refusedPort = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    // Aborted 150 ms after the server received the call, so after the browser sent it, whatever the machine's load.
    const hangReceived = app.received('/api/hang');
    await page.evaluate(() => {
      const controller = new AbortController();
      (globalThis as unknown as { hang: unknown }).hang = {
        controller,
        pending: fetch('/api/hang', { signal: controller.signal }).catch(() => undefined),
      };
    });
    await hangReceived;
    await new Promise((waited) => setTimeout(waited, 150));
    await page.evaluate(async (port) => {
      const hang = (globalThis as unknown as { hang: { controller: AbortController; pending: Promise<unknown> } }).hang;
      hang.controller.abort();
      await hang.pending;
      await fetch(`http://127.0.0.1:${port}/api/down`).catch(() => undefined);
    }, refusedPort);
  });
  expect(summary(executions)).toEqual(['GET /api/hang ERR_ABORTED', 'GET /api/down ECONNREFUSED']);
  // The call was sent before the server received it and aborted at least 150 ms after: its time runs until it failed,
  // far from the failure's own instant (under 1 ms). A timer may fire a millisecond early by the clock's rounding.
  expect(executions[0]!.responseTimeMs).toBeGreaterThanOrEqual(148);
});

test('a response from the HTTP cache is counted apart: the server answered once, one execution', async () => {
  const { executions, counts } = await observed(async (page) => {
    await page.goto(`${app.origin}/`);
    app.answered.length = 0;
    await page.evaluate(async () => {
      await fetch('/api/settings');
      await fetch('/api/settings');
    });
  });
  expect(app.answered).toEqual(['GET /api/settings 200']);
  expect(summary(executions)).toEqual(['GET /api/settings 200']);
  expect(counts).toMatchObject({ seenCount: 2, executionCount: 1, cachedCallCount: 1 });
});

test('a response from the HTTP cache is cached even when its end has not been told yet (a loaded machine), as when it has', async () => {
  const context = await browser.newContext();
  const responses: Response[] = [];
  context.on('response', (response) => {
    if (response.url().endsWith('/api/settings')) responses.push(response);
  });
  const page = await context.newPage();
  await page.goto(`${app.origin}/`);
  await page.evaluate(async () => {
    await fetch('/api/settings');
    await fetch('/api/settings');
  });
  await expect.poll(() => responses.length).toBe(2);
  const outcomes = [];
  for (const finished of [false, true]) {
    for (const response of responses) outcomes.push(await outcomeOf(response.request(), response, finished));
  }
  await context.close();
  expect(outcomes).toEqual([{ statusCode: 200 }, { kind: 'cachedCallCount' }, { statusCode: 200 }, { kind: 'cachedCallCount' }]);
});

test('a response the server revalidates (304 Not Modified) is an execution with the status the server answered', async () => {
  const { executions, counts } = await observed(async (page) => {
    await page.goto(`${app.origin}/`);
    app.answered.length = 0;
    await page.evaluate(`(async () => {
      await fetch('/api/profile').then((response) => response.text());
      await fetch('/api/profile').then((response) => response.text());
    })()`);
  });
  expect(app.answered).toEqual(['GET /api/profile 200', 'GET /api/profile 304']);
  expect(summary(executions)).toEqual(app.answered);
  expect(counts).toMatchObject({ seenCount: 2, executionCount: 2, cachedCallCount: 0 });
});

test("a response fulfilled by the test's own route is counted as mocked, not as an execution", async () => {
  const { executions, counts } = await observed(async (page) => {
    await page.route('**/api/orders', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '[{"id":1}]' }));
    await page.goto(`${app.origin}/`);
    app.answered.length = 0;
    await page.evaluate(async () => {
      await fetch('/api/orders');
      await fetch('/api/broken');
    });
  });
  expect(app.answered).toEqual(['GET /api/broken 500']);
  expect(summary(executions)).toEqual(['GET /api/broken 500']);
  expect(counts).toMatchObject({ seenCount: 2, executionCount: 1, mockedCallCount: 1 });
});

test('a call a route holds and never lets go is counted unfinished when its context closes, never an execution', async () => {
  const { executions, counts } = await observed(async (page) => {
    await page.route('**/api/held', () => undefined);
    await page.goto(`${app.origin}/`);
    await page.evaluate(`(async () => {
      fetch('/api/held');
      await fetch('/api/orders');
    })()`);
  });
  expect(summary(executions)).toEqual(['GET /api/orders 200']);
  expect(counts).toStrictEqual({
    seenCount: 2,
    executionCount: 1,
    mockedCallCount: 0,
    cachedCallCount: 0,
    serviceWorkerCallCount: 0,
    unfinishedCallCount: 1,
  });
});

test('a call answered while its page goes elsewhere is an execution with the status the server answered, and nothing waits for its body', async () => {
  const { executions, counts } = await observed(async (page) => {
    await page.goto(`${app.origin}/`);
    app.answered.length = 0;
    await page.evaluate(`fetch('/api/dropped').then(() => undefined)`);
    await page.goto(`${app.origin}/?elsewhere`);
  });
  expect(app.answered).toEqual(['GET /api/dropped 200']);
  expect(summary(executions)).toEqual(['GET /api/dropped 200']);
  expect(counts).toMatchObject({ seenCount: 1, executionCount: 1, unfinishedCallCount: 0 });
});

test('a response from a service worker is counted apart', async () => {
  const { executions, counts } = await observed(async (page) => {
    await page.goto(`${app.origin}/`);
    await page.evaluate(`(async () => {
      await navigator.serviceWorker.register('/sw.js');
      await navigator.serviceWorker.ready;
    })()`);
    await page.reload();
    await page.waitForFunction('navigator.serviceWorker.controller !== null');
    app.answered.length = 0;
    await page.evaluate(async () => {
      await fetch('/api/offline');
    });
  });
  expect(app.answered).toEqual([]);
  expect(executions).toEqual([]);
  expect(counts).toMatchObject({ seenCount: 1, executionCount: 0, serviceWorkerCallCount: 1 });
});

test('resource types and URL patterns say which requests are API calls; page assets never are', async () => {
  const { executions } = await observed(
    async (page) => {
      await page.goto(`${app.origin}/`);
      await page.evaluate(async () => {
        await fetch('/api/orders');
        await fetch('/api/broken');
      });
    },
    { resourceTypes: ['fetch', 'xhr', 'image', 'script'], exclude: ['**/api/broken'] },
  );
  expect(summary(executions)).toEqual(['GET /api/orders 200']);
});

test('resource type other records the beacons and pings a page sends, as executions the server answered', async () => {
  const { executions, counts } = await observed(
    async (page, recorded) => {
      await page.goto(`${app.origin}/`);
      app.answered.length = 0;
      await page.evaluate(`(async () => {
        await fetch('/api/orders');
        navigator.sendBeacon('/api/beacon', '{"event":"viewed"}');
        document.body.insertAdjacentHTML('beforeend', '<a id="pinging" href="#pinged" ping="/api/ping">ping</a>');
      })()`);
      await page.click('#pinging');
      await expect.poll(() => app.answered.length).toBe(3);
      // The server has answered; the browser may take a moment more to see the last answer (a busy machine).
      await expect.poll(() => recorded.length).toBe(2);
    },
    { resourceTypes: ['other'] },
  );
  expect(app.answered.toSorted()).toEqual(['GET /api/orders 200', 'POST /api/beacon 204', 'POST /api/ping 204']);
  expect(summary(executions).toSorted()).toEqual(['POST /api/beacon 204', 'POST /api/ping 204']);
  expect(counts).toStrictEqual({
    seenCount: 2,
    executionCount: 2,
    mockedCallCount: 0,
    cachedCallCount: 0,
    serviceWorkerCallCount: 0,
    unfinishedCallCount: 0,
  });
});

test('globs and error codes', () => {
  expect(globToRegExp('**/api/**').test('http://app/api/orders/1')).toBe(true);
  expect(globToRegExp('**/api/*').test('http://app/api/orders/1')).toBe(false);
  expect(globToRegExp('http://app/a?c').test('http://app/abc')).toBe(true);
  expect(globToRegExp('**/a.b').test('http://app/aXb')).toBe(false);
  expect(
    [
      'net::ERR_CONNECTION_REFUSED',
      'net::ERR_NAME_NOT_RESOLVED',
      'net::ERR_ABORTED',
      'NS_BINDING_ABORTED',
      'Could not connect to server: Connection refused',
    ].map(browserErrorCode),
  ).toEqual(['ECONNREFUSED', 'ENOTFOUND', 'ERR_ABORTED', 'ERR_ABORTED', 'ECONNREFUSED']);
});
