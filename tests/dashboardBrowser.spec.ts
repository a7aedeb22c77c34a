import { chromium, type Browser, type Page } from '@playwright/test';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dashboardModelOf } from '../src/dashboard/dashboardModel.js';
import { renderDashboard } from '../src/dashboard/dashboardPage.js';
import type { HistoryRun } from '../src/history/historyLine.js';
import { formatCount, formatMs } from '../src/report/renderers/presentation.js';
import { CHROMIUM_PATH, QUIET_CHROMIUM_ARGS, requireChromium } from './support/chromium.js';
import { createTemporaryFolder } from './support/runProgram.js';
import { REGRESSION, seededHistory, SLOW_DOWN } from './support/seededHistory.js';
import { expect, test } from './support/test.js';

// The history page in Debian's Chromium, on a seeded history of 500 runs × 200 endpoints in two environments
// (tests/support/seededHistory.ts), at 1280 and 390 pixels wide: the numbers it shows are the history's, the filter
// works, no request leaves the page, nothing scrolls sideways, the first screen comes within a second, and without
// JavaScript every row is there.

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const history = seededHistory(500, 200);
let browser: Browser | undefined;
let url: string;

test.beforeAll(async () => {
  requireChromium();
  const folder = await createTemporaryFolder({}, 'dashboard-browser');
  const path = join(folder, 'dashboard.html');
  await writeFile(path, renderDashboard(dashboardModelOf(history.runs), { historyName: 'history.jsonl' }));
  url = pathToFileURL(path).href;
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: QUIET_CHROMIUM_ARGS });
});

test.afterAll(async () => {
  await browser?.close();
});

async function open(width: number, javaScriptEnabled = true): Promise<{ page: Page; requests: string[] }> {
  const context = await browser!.newContext({ viewport: { width, height: 900 }, javaScriptEnabled });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(url);
  return { page, requests };
}

const lastRunOf = (environment: string, endpoint: string) =>
  history.runs
    .filter((run) => run.environment === environment)
    .findLast((run) => run.endpoints.some((item) => item.endpoint === endpoint))!;
const entryIn = (run: HistoryRun, endpoint: string) => run.endpoints.find((item) => item.endpoint === endpoint)!;

for (const width of [1280, 390]) {
  test(`at ${width} px no request leaves the page and nothing scrolls sideways`, async () => {
    const { page, requests } = await open(width);
    expect(requests).toEqual([url]);
    expect(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);
    await page.context().close();
  });

  test(`at ${width} px the numbers shown are the history's, per endpoint and per run`, async () => {
    const { page } = await open(width);
    for (const [environment, endpoint] of [
      ['production', REGRESSION],
      ['staging', REGRESSION],
      ['production', SLOW_DOWN],
      ['staging', 'GET /flaky-50'],
      ['production', 'GET /service-150/items'],
    ] as const) {
      const row = page.locator(`tr[data-endpoint="${endpoint}"][data-environment="${environment}"]`);
      const line = entryIn(lastRunOf(environment, endpoint), endpoint);
      await expect(row.locator('[data-field="lastP95"]')).toHaveAttribute('data-value', String(line.p95));
      await expect(row.locator('[data-field="lastP95"]')).toHaveText(formatMs(line.p95));
      await expect(row.locator('[data-field="lastP50"]')).toHaveAttribute('data-value', String(line.p50));
      await expect(row.locator('[data-field="lastFailureRate"]')).toHaveAttribute(
        'data-value',
        String(line.failedExecutionCount / line.executionCount),
      );
    }
    await expect(page.locator(`tr[data-endpoint="${REGRESSION}"]`).locator('[data-field="state"]')).toHaveText(['failing', 'failing']);
    await expect(page.locator('#endpoint-table tbody tr').first()).toHaveAttribute('data-endpoint', SLOW_DOWN);
    for (const position of [0, 249, 499]) {
      const row = page.locator(`tr[data-run="${position}"]`);
      const line = history.runs[position]!;
      await expect(row.locator('[data-field="executionCount"]')).toHaveText(formatCount(line.executionCount));
      await expect(row.locator('[data-field="failedExecutionCount"]')).toHaveText(formatCount(line.failedExecutionCount));
      await expect(row.locator('[data-field="verdict"]')).toContainText(position >= history.changeFrom ? 'failed' : 'passed');
    }
    await expect(page.locator('tr[data-run="0"] a')).toHaveAttribute('href', history.runs[0]!.reportUrl!);
    await page.context().close();
  });
}

test('the filter narrows the endpoints by label text, by state and by environment, and the runs by environment', async () => {
  const { page } = await open(1280);
  const shown = (selector: string) => page.locator(selector).filter({ visible: true });
  await expect(page.locator('#filter')).toBeVisible();
  await page.fill('#filter-text', 'FLAKY');
  await expect(shown('tr[data-endpoint]')).toHaveCount(6);
  await expect(page.locator('#filter-count')).toHaveText('6 of 400 shown');
  await page.fill('#filter-text', '');
  await page.selectOption('#filter-state', 'failing');
  await expect(shown('tr[data-endpoint]')).toHaveCount(2);
  for (const row of await shown('tr[data-endpoint]').all()) await expect(row).toHaveAttribute('data-endpoint', REGRESSION);
  await page.selectOption('#filter-state', '');
  await page.selectOption('#filter-environment', 'staging');
  await expect(shown('tr[data-endpoint]')).toHaveCount(200);
  await expect(shown('tr[data-run]')).toHaveCount(100);
  await expect(page.locator('#more-endpoints')).toHaveAttribute('open', '');
  await page.selectOption('#filter-environment', '');
  await expect(shown('tr[data-run]')).toHaveCount(500);
  await page.context().close();
});

test('without JavaScript every run and every endpoint is on the page, and the filter, which needs it, is not shown', async () => {
  const { page, requests } = await open(390, false);
  await expect(page.locator('tr[data-run]')).toHaveCount(500);
  await expect(page.locator('tr[data-endpoint]')).toHaveCount(400);
  await expect(page.locator('#filter')).toBeHidden();
  expect(requests).toEqual([url]);
  await page.context().close();
});
