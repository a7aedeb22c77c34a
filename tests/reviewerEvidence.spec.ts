import { chromium } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { QualityReport } from '../src/index.js';
import { CHROMIUM_PATH, QUIET_CHROMIUM_ARGS, requireChromium } from './support/chromium.js';
import { createPlaywrightProject, runPlaywright } from './support/playwrightProject.js';
import { readReport } from './support/reports.js';
import { expect, test } from './support/test.js';

// What a reviewer reads after a real Playwright run with retries, a flaky
// test, a negative test that passes and failing calls in several tests: the
// JSON names each failed call's status, test, line and attempt, and the
// Markdown and the page (in Chromium, at 1280 and 390 px) show exactly that.

// One Playwright run with retries, the HTML reporter and four worker starts (about 9 s of CPU; over 120 s on a loaded
// machine), then Chromium: 180 s for it and each test.
test.describe.configure({ timeout: 180_000 });

const config = `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  retries: 1,
  workers: 1,
  use: { baseURL: process.env.BASE_URL },
  reporter: [['html', { open: 'never' }], ['quality-evidence/reporter', { outputFile: 'out/quality-summary.json' }]],
});
`;

// Line numbers matter: the report names them.
const spec = `import { test, expect } from 'quality-evidence/test';

test('lists orders', async ({ request }) => {
  expect((await request.get('/orders')).status()).toBe(200);
});

test('an unknown order answers 404', async ({ request }) => {
  expect((await request.get('/orders/404')).status()).toBe(404);
});

test('creates an order', async ({ request }) => {
  expect((await request.post('/orders')).status()).toBe(201);
});

test('pays, once the flaky gateway answers', async ({ request }, testInfo) => {
  const response = await request.post('/payments');
  expect(response.status()).toBe(testInfo.retry === 0 ? 503 : 201);
  expect(testInfo.retry, 'passes only on its retry').toBe(1);
});
`;

/** An orders API: POST /orders always fails (500), POST /payments fails once (503), /orders/404 is not found. */
async function startServer(): Promise<{ baseURL: string; close(): Promise<void> }> {
  let payments = 0;
  const server: Server = createServer((request, response) => {
    const route = `${request.method ?? ''} ${request.url ?? ''}`;
    const answer = (status: number) => response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    if (route === 'GET /orders') answer(200);
    else if (route === 'POST /orders') answer(500);
    else if (route === 'POST /payments') answer(payments++ === 0 ? 503 : 201);
    else answer(404);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((closed) => {
        server.close(() => {
          closed();
        });
      }),
  };
}

test.describe('a real run, read as a reviewer reads it', () => {
  let project: string;
  let report: QualityReport;

  test.beforeAll(async () => {
    const server = await startServer();
    project = await createPlaywrightProject({ 'playwright.config.ts': config, 'tests/orders.spec.ts': spec });
    const outcome = await runPlaywright(project, ['test'], { BASE_URL: server.baseURL });
    await server.close();
    expect(outcome.exitCode, 'creates an order fails on both attempts').toBe(1);
    report = await readReport(join(project, 'out/quality-summary.json'));
  });

  test('each failing endpoint names its statuses, and each failed call its test, line and attempt', () => {
    const byLabel = new Map(report.endpoints.map((entry) => [entry.endpoint, entry]));
    // "creates an order" failed on both attempts: a failing endpoint, two failed calls, each with its line (12) and attempt.
    expect(byLabel.get('POST /orders')?.statusCodes).toStrictEqual({ '500': 2 });
    expect(
      byLabel
        .get('POST /orders')
        ?.failedExecutions?.map(({ statusCode, test: called, attempt, callLocation }) => [
          statusCode,
          called?.title,
          called?.line,
          attempt,
          callLocation?.line,
        ]),
    ).toStrictEqual([
      [500, 'orders.spec.ts › creates an order', 11, 1, 12],
      [500, 'orders.spec.ts › creates an order', 11, 2, 12],
    ]);
    // The gateway's 503 came from an attempt its retry made good: flaky, not failing.
    expect(report.flakyEndpoints).toStrictEqual(['POST /payments']);
    expect(byLabel.get('POST /payments')?.flakyFailedExecutionCount).toBe(1);
    // The 404 of a test that passed: a negative case the run points at.
    expect([report.passingTestFailureCount, byLabel.get('GET /orders/:id')?.passingTestFailures]).toStrictEqual([1, { '404': 1 }]);
    expect(report.playwrightHtmlReport).toBe('../playwright-report/index.html');
  });

  test('the Markdown lists the same failed calls, the flaky endpoint as flaky, and the hint for the negative case', async () => {
    const markdown = await readFile(join(project, 'out/quality-summary.md'), 'utf8');
    const failedRows = markdown
      .split('### Failed calls')[1]!
      .split('\n### ')[0]!
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| Endpoint'));
    const expected = report.endpoints
      .filter((entry) => entry.failedExecutions !== undefined)
      .sort(
        (a, b) =>
          (b.serverErrorCount ?? 0) - (a.serverErrorCount ?? 0) ||
          b.failedExecutionCount - a.failedExecutionCount ||
          (a.endpoint < b.endpoint ? -1 : 1),
      )
      .flatMap((entry) => entry.failedExecutions!.map((call) => `${call.statusCode} | \`${call.method} ${call.path}\``));
    expect(failedRows.map((row) => row.split(' | ').slice(1, 3).join(' | '))).toStrictEqual(expected);
    expect(markdown).toContain('| `POST /payments` (flaky) | 503 |');
    expect(markdown).toContain('ℹ️ 1 failed call (1 endpoint) came from tests that passed');
  });

  test("the page shows the same at 1280 and 390 px: each failing row opens to its calls, linked into Playwright's report; nothing is cut", async () => {
    requireChromium();
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: QUIET_CHROMIUM_ARGS });
    try {
      for (const width of [1280, 390]) {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        await page.goto(pathToFileURL(join(project, 'out/quality-summary.html')).href);
        const row = page.locator('tr[data-endpoint="POST /orders"]');
        await row.locator('summary').click();
        await expect(row.locator('[data-failed-call]')).toHaveCount(2);
        await expect(row.locator('[data-failed-call] a').first()).toHaveAttribute(
          'href',
          /^\.\.\/playwright-report\/index\.html#\?testId=[\w-]+$/,
        );
        await expect(row.locator('td[data-field="statusCodes"]')).toHaveText('500 ×2');
        await expect(page.locator('tr[data-endpoint="POST /payments"] .state')).toHaveText('~ flaky');
        expect(
          await page.evaluate(
            'Array.from(document.querySelectorAll(".scroll")).map((box) => box.scrollWidth - box.clientWidth).filter((cut) => cut > 0)',
          ),
        ).toStrictEqual([]);
        expect(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);
        await test.info().attach(`reviewer-${width}.png`, { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
        await page.close();
      }
    } finally {
      await browser.close();
    }
  });
});
