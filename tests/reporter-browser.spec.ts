import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startApp, type App } from './support/browserApp.js';
import { CHROMIUM_PATH, QUIET_CHROMIUM_ARGS, requireChromium } from './support/chromium.js';
import { createPlaywrightProject, runPlaywright } from './support/playwrightProject.js';
import { readReport } from './support/reports.js';
import { expect, test } from './support/test.js';

// A browser suite adopted as the README says (the import of
// quality-evidence/test, the reporter's line in the config), run in real
// Chromium against a small application this spec serves: the report's
// browser executions are what the application's server answered, the
// calls nobody answered are counted apart, and an API test in the same run
// reads apart by its source.
// A Playwright run of its own with Chromium (21 s measured on a loaded machine): 120 s each.
test.describe.configure({ timeout: 120_000 });

let app: App;

test.beforeAll(async () => {
  requireChromium();
  app = await startApp();
});

test.afterAll(async () => {
  await new Promise((closed) => app.server.close(closed));
});

function configWith(reporterOptions: string): string {
  return `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  workers: 1,
  use: { launchOptions: { executablePath: ${JSON.stringify(CHROMIUM_PATH)}, args: ${JSON.stringify(QUIET_CHROMIUM_ARGS)} } },
  reporter: [['list'], ['quality-evidence/reporter', ${reporterOptions}]],
});
`;
}

const shopSpec = `import { test, expect } from 'quality-evidence/test';

const origin = process.env.APP_ORIGIN;

test('the orders page lists, adds and fails', async ({ page }) => {
  await page.goto(origin + '/');
  await page.evaluate(\`(async () => {
    await fetch('/api/orders?page=2');
    await fetch('/api/broken');
    await fetch('/api/slow');
    await fetch('/api/old-orders');
    await new Promise((done) => {
      const request = new XMLHttpRequest();
      request.open('POST', '/api/orders');
      request.onload = done;
      request.send('{"item":"tea"}');
    });
  })()\`);
});

test('a mocked list and cached settings', async ({ page }) => {
  await page.route('**/api/orders', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '[]' }));
  await page.goto(origin + '/');
  await page.evaluate(\`(async () => {
    await fetch('/api/orders');
  })()\`);
});

test('settings come from the cache the second time', async ({ context }) => {
  const page = await context.newPage();
  await page.goto(origin + '/');
  await page.evaluate(\`(async () => {
    await fetch('/api/settings');
    await fetch('/api/settings');
    await fetch('/api/profile').then((response) => response.text());
    await fetch('/api/profile').then((response) => response.text());
  })()\`);
});

test('the service worker answers offline', async ({ page }) => {
  await page.goto(origin + '/');
  await page.evaluate(\`(async () => {
    await navigator.serviceWorker.register('/sw.js');
    await navigator.serviceWorker.ready;
  })()\`);
  await page.reload();
  await page.waitForFunction('navigator.serviceWorker.controller !== null');
  await page.evaluate(\`fetch('/api/offline')\`);
});

test('a context of its own, and an abort', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(origin + '/');
  await page.evaluate(\`(async () => {
    const controller = new AbortController();
    const pending = fetch('/api/hang', { signal: controller.signal }).catch(() => undefined);
    setTimeout(() => controller.abort(), 100);
    await pending;
    await fetch('/api/orders');
  })()\`);
  await context.close();
});

test('the API answers the client too', async ({ request }) => {
  expect((await request.get(origin + '/api/orders')).status()).toBe(200);
});
`;

test('a browser suite reports the API calls its server answered, by source, with the calls no server answered counted apart', async () => {
  const project = await createPlaywrightProject({
    'playwright.config.ts': configWith(`{ outputFile: 'out/q.json' }`),
    'tests/shop.spec.ts': shopSpec,
  });
  app.answered.length = 0;

  // Chromium keeps its profile under HOME: the project's own folder, removed with it.
  const outcome = await runPlaywright(project, ['test'], { APP_ORIGIN: app.origin, HOME: project });

  expect(outcome.exitCode, outcome.stdout + outcome.stderr).toBe(0);
  const report = await readReport(join(project, 'out/q.json'));
  // What the server answered: the page's calls, then the API client's one; the aborted call it never answered.
  const answered = app.answered.map((line) => line.replace(/ \d+$/, '')).sort();
  expect(answered).toEqual(
    [
      'GET /api/broken',
      'GET /api/old-orders',
      'GET /api/orders',
      'GET /api/orders',
      'GET /api/orders',
      'GET /api/orders',
      'GET /api/profile',
      'GET /api/profile',
      'GET /api/settings',
      'GET /api/slow',
      'POST /api/orders',
    ].sort(),
  );
  expect(app.answered.filter((line) => line.startsWith('GET /api/profile'))).toEqual(['GET /api/profile 200', 'GET /api/profile 304']);
  expect(report.statusCodes).toStrictEqual({ '200': 7, '201': 1, '302': 1, '304': 1, '500': 1 });
  expect(report.executionCount).toBe(12);
  expect(report.noResponseCount).toBe(1);
  expect(report.noResponseEndpoints).toEqual(['GET /api/hang']);
  expect(report.sources?.api).toMatchObject({ executionCount: 1, failedExecutionCount: 0, endpointCount: 1 });
  expect(report.sources?.browser).toMatchObject({ executionCount: 11, failedExecutionCount: 2, noResponseCount: 1, endpointCount: 8 });
  expect({
    browserCallCount: report.browserCallCount,
    mockedCallCount: report.mockedCallCount,
    cachedCallCount: report.cachedCallCount,
    serviceWorkerCallCount: report.serviceWorkerCallCount,
    unfinishedCallCount: report.unfinishedCallCount,
  }).toStrictEqual({ browserCallCount: 14, mockedCallCount: 1, cachedCallCount: 1, serviceWorkerCallCount: 1, unfinishedCallCount: 0 });
  const orders = report.endpoints.find((entry) => entry.endpoint === 'GET /api/orders');
  expect(orders?.sources).toStrictEqual({
    api: { executionCount: 1, failedExecutionCount: 0 },
    browser: { executionCount: 3, failedExecutionCount: 0 },
  });
  const broken = report.endpoints.find((entry) => entry.endpoint === 'GET /api/broken');
  expect(
    broken?.failedExecutions?.map(({ statusCode, source, test: { title } = { title: '' } }) => ({ statusCode, source, title })),
  ).toStrictEqual([{ statusCode: 500, source: 'browser', title: 'shop.spec.ts › the orders page lists, adds and fails' }]);
  // The page's own assets are never executions.
  expect(report.endpoints.map((entry) => entry.endpoint).filter((endpoint) => !endpoint.includes('/api/'))).toEqual([]);
  expect(report.unrecordedCallCount).toBe(0);
  // The closing line says what the browsers' calls came to; every rendering reads the two sources apart.
  expect(outcome.stdout).toContain(
    'quality-evidence: 12 calls: 2 server errors, 2 failed, 0 slow, 1 with no response; browser: 11 of 14 API ' +
      'calls measured (1 mocked, 1 cached, 1 by a service worker); report written to',
  );
  const markdown = await readFile(join(project, 'out/q.md'), 'utf8');
  expect(markdown).toContain(
    '### By source\n\n| Source | n | Failed | No response | Slow | Endpoints | p50 | p95 |\n' +
      '|---|---:|---:|---:|---:|---:|---:|---:|\n| API clients | 1 | 0 | 0 | 0 | 1 |',
  );
  expect(markdown).toMatch(/\| browser \| 11 \| 2 \| 1 \| 0 \| 8 \|/);
  expect(markdown).toMatch(/\| `GET \/api\/orders` \| API ×1, browser ×3 \| 4 \|/);
  expect(
    markdown
      .split('\n')
      .find((line) => line.startsWith('| `GET /api/broken` | 500 |'))
      ?.replace(/\| [\d.]+ ms \|/, '| … ms |'),
  ).toBe(
    '| `GET /api/broken` | 500 | `GET /api/broken` | … ms | `shop.spec.ts:5 · shop.spec.ts › the orders page lists, ' +
      'adds and fails (attempt 1) · in the browser` |',
  );
  const html = await readFile(join(project, 'out/q.html'), 'utf8');
  expect(html).toContain('<section id="sources"><h2>By source</h2>');
  expect(html).toContain('<tr data-endpoint="GET /api/orders" data-state="ok" data-sources="api browser">');
});
