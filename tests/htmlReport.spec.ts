import { chromium, type Browser, type Page } from '@playwright/test';
import { expect, test } from './support/test.js';
import { readFile, writeFile } from 'node:fs/promises';
import { judgeReport } from '../src/evaluation/judgeReport.js';
import { createEvidenceRun } from '../src/run/evidenceRun.js';
import type { ContractOperation } from '../src/contract/contract.js';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import {
  buildReport,
  loadQualityToolConfig,
  nodeFileSystem,
  renderHtml,
  runQualityWorkflow,
  summariseExecutions,
  type QualityReport,
} from '../src/index.js';
import { CHROMIUM_PATH, QUIET_CHROMIUM_ARGS, requireChromium } from './support/chromium.js';
import { writeGeneratedRun } from './support/generatedRun.js';
import { createTemporaryFolder, repositoryRoot } from './support/runProgram.js';

// quality-summary.html in a real browser: Debian's Chromium, headless,
// opening the file from disk as a person opens a CI artifact.

const milliseconds = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const ms = (value: number | null) => (value === null ? 'n/a' : `${milliseconds.format(value)} ms`);
const count = (value: number) => value.toLocaleString('en-US');

const XSS_LABELS = ['GET /<script>window.pwned=1</script>', 'GET /"><svg/onload=window.pwned=2>', "POST /'onmouseover='window.pwned=3"];

let browser: Browser | undefined;
test.afterAll(async () => {
  await browser?.close();
});

/** The one browser of this file, launched when a test first needs it (a test without Chromium skips or, under CI=true, fails here). */
async function launched(): Promise<Browser> {
  requireChromium();
  browser ??= await chromium.launch({ executablePath: CHROMIUM_PATH, args: QUIET_CHROMIUM_ARGS });
  return browser;
}

async function fixtureRun(): Promise<{ htmlPath: string; report: QualityReport }> {
  const folder = await createTemporaryFolder();
  const jsonPath = join(folder, 'quality-summary.json');
  const { report } = await runQualityWorkflow(
    loadQualityToolConfig({
      QE_ENVIRONMENT: 'local-example',
      QE_INPUT_PATH: join(repositoryRoot, 'fixtures/quality-executions.json'),
      QE_OUTPUT_PATH: jsonPath,
    }),
    {
      fileSystem: nodeFileSystem,
    },
  );
  return { htmlPath: join(folder, 'quality-summary.html'), report };
}

/** Runs a script in the page (this project's TypeScript has no DOM types, so page code is a string) and returns its value. */
function inPage<T>(page: Page, script: string): Promise<T> {
  return page.evaluate<T>(script);
}

/** Every element with text of its own whose colour against its background is under WCAG AA's 4.5:1, as `TAG "text": ratio`. */
const CONTRAST_FAILURES = `(() => {
  const channel = (value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const rgb = (color) => (color.match(/[\\d.]+/g) || []).map(Number);
  const luminance = ([r = 0, g = 0, b = 0]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const background = (element) => {
    for (let current = element; current !== null; current = current.parentElement) {
      const color = getComputedStyle(current).backgroundColor;
      const [r = 0, g = 0, b = 0, a = 1] = rgb(color);
      if (color !== 'rgba(0, 0, 0, 0)' && a > 0) return [r, g, b];
    }
    return [255, 255, 255];
  };
  const found = [];
  for (const element of Array.from(document.body.querySelectorAll('*'))) {
    const ownText = Array.from(element.childNodes).some((node) => node.nodeType === Node.TEXT_NODE && (node.textContent || '').trim() !== '');
    if (!ownText || element.closest('svg') !== null) continue;
    const foreground = luminance(rgb(getComputedStyle(element).color));
    const back = luminance(background(element));
    const ratio = (Math.max(foreground, back) + 0.05) / (Math.min(foreground, back) + 0.05);
    if (ratio < 4.5) found.push(element.tagName + ' "' + (element.textContent || '').slice(0, 30) + '": ' + ratio.toFixed(2));
  }
  return found;
})()`;

/** Opens the page from disk and records every request it makes. */
async function open(
  htmlPath: string,
  options: { width?: number; javaScriptEnabled?: boolean } = {},
): Promise<{ page: Page; requests: string[]; dialogs: string[] }> {
  const context = await (
    await launched()
  ).newContext({ viewport: { width: options.width ?? 1280, height: 900 }, javaScriptEnabled: options.javaScriptEnabled ?? true });
  const page = await context.newPage();
  const requests: string[] = [];
  const dialogs: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(pathToFileURL(htmlPath).href);
  await page.waitForLoadState('load');
  return { page, requests, dialogs };
}

/** Checks that each endpoint has one chart group and one row, and that every number in its row equals the JSON. */
async function expectEndpointsAsInJson(page: Page, report: QualityReport): Promise<void> {
  expect(await page.locator('svg g[data-endpoint]').count()).toBe(report.endpoints.length);
  expect(await page.locator('tr[data-endpoint]').count()).toBe(report.endpoints.length);
  const rows = await inPage<{ endpoint: string; cells: Record<string, { value: string; text: string }> }[]>(
    page,
    `Array.from(document.querySelectorAll('tr[data-endpoint]')).map((row) => ({
      endpoint: row.getAttribute('data-endpoint'),
      cells: Object.fromEntries(
        Array.from(row.querySelectorAll('td[data-field]')).map((cell) => [
          cell.getAttribute('data-field'),
          { value: cell.getAttribute('data-value'), text: cell.textContent },
        ]),
      ),
    }))`,
  );
  const titles = new Map(
    await inPage<[string, string][]>(
      page,
      `Array.from(document.querySelectorAll('svg g[data-endpoint]')).map((group) => [
        group.getAttribute('data-endpoint'),
        group.querySelector('title')?.textContent,
      ])`,
    ),
  );
  for (const endpoint of report.endpoints) {
    const row = rows.find((candidate) => candidate.endpoint === endpoint.endpoint);
    expect(row, endpoint.endpoint).toBeDefined();
    const n = endpoint.executionCount;
    // The statuses most frequent first, calls with no response last: 500 ×2, 404 ×1, no response ×1.
    const statuses = [
      ...Object.entries(endpoint.statusCodes)
        .sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : 1))
        .map(([code, calls]) => `${code} ×${count(calls)}`),
      ...(endpoint.noResponseCount > 0 ? [`no response ×${count(endpoint.noResponseCount)}`] : []),
    ].join(', ');
    const expected: Record<string, { value: string | null; text: string }> = {
      executionCount: { value: String(n), text: count(n) },
      failedExecutionCount: { value: String(endpoint.failedExecutionCount), text: count(endpoint.failedExecutionCount) },
      statusCodes: { value: null, text: statuses },
      slowExecutionCount: { value: String(endpoint.slowExecutionCount), text: count(endpoint.slowExecutionCount) },
    };
    // n has its own column: a percentile's cell is its value alone.
    for (const name of ['p50', 'p95', 'p99'] as const) {
      expected[`responseTimeMs.${name}`] = { value: String(endpoint.responseTimeMs[name]), text: ms(endpoint.responseTimeMs[name]) };
    }
    expect(row!.cells, endpoint.endpoint).toStrictEqual(expected);
    const { p50, p95, p99 } = endpoint.responseTimeMs;
    expect(titles.get(endpoint.endpoint)).toBe(`${endpoint.endpoint}: p50 ${ms(p50)} · p95 ${ms(p95)} · p99 ${ms(p99)} (n=${count(n)})`);
  }
}

async function expectHeadlineAsInJson(page: Page, report: QualityReport): Promise<void> {
  const shown = await inPage<string[][]>(
    page,
    `Array.from(document.querySelectorAll('header [data-field]')).map((element) => [
      element.getAttribute('data-field'),
      element.getAttribute('data-value'),
      element.textContent,
    ])`,
  );
  const expected = [
    ['executionCount', String(report.executionCount), count(report.executionCount)],
    ['serverErrorCount', String(report.serverErrorCount), count(report.serverErrorCount ?? -1)],
    ['failedExecutionCount', String(report.failedExecutionCount), count(report.failedExecutionCount)],
    ['slowExecutionCount', String(report.slowExecutionCount), count(report.slowExecutionCount)],
    ['noResponseCount', String(report.noResponseCount), count(report.noResponseCount)],
    ...(report.expectedErrorCount > 0 ? [['expectedErrorCount', String(report.expectedErrorCount), count(report.expectedErrorCount)]] : []),
    ...(['p50', 'p95', 'p99'] as const).map((name) => [
      `responseTimeMs.${name}`,
      String(report.responseTimeMs[name]),
      `${name} ${ms(report.responseTimeMs[name])} (n=${count(report.executionCount)})`,
    ]),
    ['responseTimeMs.max', String(report.responseTimeMs.max), ms(report.responseTimeMs.max)],
    ...(report.baseline === undefined ? [] : [['baseline', null, comparisonLineOf(report.baseline)]]),
  ];
  expect(shown).toStrictEqual(expected);
}

/**
 * The headline's comparison, counted from the JSON: each endpoint once, newly failing first, then new, then by its
 * latency verdict; parts of 0 left out but unchanged; the first endpoint count names its noun.
 */
function comparisonLineOf(comparison: NonNullable<QualityReport['baseline']>): string {
  const newlyFailing = comparison.endpoints.filter((entry) => comparison.newlyFailingEndpoints.includes(entry.endpoint));
  const failingMore = (entry: (typeof comparison.endpoints)[number]): boolean =>
    entry.failureRate.before !== null && entry.failureRate.after !== null && entry.failureRate.after > entry.failureRate.before;
  const rising = comparison.endpoints.filter((entry) => !comparison.newlyFailingEndpoints.includes(entry.endpoint) && failingMore(entry));
  const rest = comparison.endpoints.filter((entry) => !comparison.newlyFailingEndpoints.includes(entry.endpoint) && !failingMore(entry));
  const fresh = rest.filter((entry) => comparison.newEndpoints.includes(entry.endpoint));
  const withVerdict = (verdict: string) =>
    rest.filter((entry) => entry.latencyVerdict === verdict && !comparison.newEndpoints.includes(entry.endpoint)).length;
  const counts: [number, string, boolean][] = [
    [withVerdict('slower'), 'slower', false],
    [newlyFailing.length, 'newly failing', false],
    [rising.length, 'failing more', false],
    [fresh.length, 'new', false],
    [comparison.missingEndpoints.length, 'missing', false],
    [withVerdict('noChange'), 'unchanged', true],
    [withVerdict('faster'), 'faster', false],
    [withVerdict('tooFewSamples'), 'too few samples to judge', false],
  ];
  const parts = counts
    .filter(([count, , always]) => count > 0 || always)
    .map(([count, words], index) => {
      if (index > 0) return `${count} ${words}`;
      const noun = count === 1 ? 'endpoint' : 'endpoints';
      return words === 'new' ? `${count} new ${noun}` : `${count} ${noun} ${words}`;
    });
  const shift =
    comparison.runShiftPercent === 0
      ? ''
      : `; the whole run ${comparison.runShiftPercent > 0 ? '+' : ''}${comparison.runShiftPercent}% alike (the machine, or the service as a whole)`;
  return `vs base: ${parts.join(', ')}${shift}`;
}

/** The page is no wider than the viewport: nothing scrolls sideways but the tables' own boxes. */
async function pageOverflow(page: Page): Promise<number> {
  return inPage<number>(page, 'document.documentElement.scrollWidth - window.innerWidth');
}

/** How far each table's box would have to scroll sideways to show its last column: 0 when no column is cut. */
async function tablesCut(page: Page): Promise<number[]> {
  return inPage<number[]>(page, `Array.from(document.querySelectorAll('.scroll')).map((box) => box.scrollWidth - box.clientWidth)`);
}

test.describe('quality-summary.html in Chromium', () => {
  test('the fixture: every number shown equals the JSON, no request but the file, no sideways scroll at 390 px', async () => {
    const testInfo = test.info();
    const { htmlPath, report } = await fixtureRun();
    const { page, requests } = await open(htmlPath);
    await expectHeadlineAsInJson(page, report);
    await expectEndpointsAsInJson(page, report);
    await expect(page.locator('.verdict')).toHaveText('✖ 1 failed call, a server error, no budgets set');
    expect((await tablesCut(page)).filter((cut) => cut > 0)).toStrictEqual([]);
    await testInfo.attach('fixture-1280.png', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
    // At phone width the tables are cards: no header row, nothing cut.
    expect((await tablesCut(page)).filter((cut) => cut > 0)).toStrictEqual([]);
    await expect(page.locator('#endpoints thead')).toHaveCSS('position', 'absolute');
    await testInfo.attach('fixture-390.png', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    expect(requests).toStrictEqual([pathToFileURL(htmlPath).href]);
    await page.context().close();
  });

  test('a 50-endpoint run with budgets and a baseline: one chart group and one row per endpoint, numbers as in the JSON, both widths', async () => {
    const testInfo = test.info();
    const run = await writeGeneratedRun(50);
    expect(run.report.endpoints).toHaveLength(50);
    const { page, requests } = await open(run.htmlPath);
    await expectHeadlineAsInJson(page, run.report);
    await expectEndpointsAsInJson(page, run.report);
    // The breached budget's endpoint is marked in words beside its symbol, in the chart and in the table.
    await expect(page.locator('tr[data-endpoint="POST /service-01/items"] .state')).toHaveText('✖ budget breached');
    await expect(page.locator('.verdict')).toHaveText(
      `✖ ${run.report.budgets!.results.filter((result) => !result.passed).length} of 3 budgets breached`,
    );
    await expect(page.locator('#baseline tbody tr')).not.toHaveCount(0);
    // Every endpoint row opens, its details open inside the table: still no column cut.
    await inPage<unknown>(page, `document.querySelectorAll('#endpoints details').forEach((details) => details.setAttribute('open', ''))`);
    expect((await tablesCut(page)).filter((cut) => cut > 0)).toStrictEqual([]);
    await testInfo.attach('fifty-endpoints-1280.png', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
    expect((await tablesCut(page)).filter((cut) => cut > 0)).toStrictEqual([]);
    await testInfo.attach('fifty-endpoints-390.png', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    expect(requests).toStrictEqual([pathToFileURL(run.htmlPath).href]);
    await page.context().close();
  });

  test('the 50-endpoint page, every row open, fits at 1280 and 390 px with wider letters, a longer input path and longer labels than here', async () => {
    // What the page takes from the machine: its fonts (another machine's cut a table by 110 px) and its
    // temporary folder, in every record's place. Here every letter is 0.1em wider than this machine's fonts
    // draw it (a sixth wider than DejaVu Sans, itself among the widest), the input's folder 40 characters
    // longer, each label 40 longer.
    const run = await writeGeneratedRun(50);
    const page = (await readFile(run.htmlPath, 'utf8'))
      .replaceAll(run.folder, `${run.folder}/a-folder-forty-characters-long-on-a-runner`)
      .replace(/\/service-(\d\d)\/items/g, '/service-$1/resources-of-a-longer-api/:id/items');
    const htmlPath = join(run.folder, 'longer.html');
    await writeFile(htmlPath, page);
    const { page: opened } = await open(htmlPath);
    await opened.addStyleTag({ content: '* { letter-spacing: 0.1em !important; }' });
    await inPage<unknown>(opened, `document.querySelectorAll('#endpoints details').forEach((details) => details.setAttribute('open', ''))`);

    expect(await pageOverflow(opened)).toBeLessThanOrEqual(0);
    expect((await tablesCut(opened)).filter((cut) => cut > 0)).toStrictEqual([]);
    await opened.setViewportSize({ width: 390, height: 844 });
    expect(await pageOverflow(opened)).toBeLessThanOrEqual(0);
    expect((await tablesCut(opened)).filter((cut) => cut > 0)).toStrictEqual([]);
    await opened.context().close();
  });

  test('labels from input show as text and run nothing: no dialog, no script, no attribute escapes', async () => {
    const run = await writeGeneratedRun(
      3,
      XSS_LABELS.map((endpoint) => ({ statusCode: 500, endpoint, responseTimeMs: 12 })),
    );
    const { page, dialogs, requests } = await open(run.htmlPath);
    await page.locator('tr[data-endpoint] button, th button').first().hover();
    for (const label of XSS_LABELS) {
      const row = page.locator('tr[data-endpoint]').filter({ hasText: label });
      await expect(row).toHaveCount(1);
      expect(await row.getAttribute('data-endpoint')).toBe(label);
      await row.locator('summary code').hover();
    }
    expect(await inPage<unknown>(page, 'window.pwned')).toBeUndefined();
    expect(await page.locator('script').count()).toBe(2);
    expect(await page.locator('svg[onload], [onmouseover]').count()).toBe(0);
    expect(dialogs).toStrictEqual([]);
    expect(requests).toStrictEqual([pathToFileURL(run.htmlPath).href]);
    await page.context().close();
  });

  test(`a failing endpoint's row opens to its failed calls with status, call and line, each test linked into Playwright's HTML \
report, and its latency distribution`, async () => {
    const run = createEvidenceRun({ environment: 'ci', slowResponseThresholdMs: 500 });
    const reads = { title: 'orders.spec.ts › reads an order', file: 'orders.spec.ts', line: 12, column: 5, testId: 'abc-123' };
    for (const [index, statusCode] of [200, 404, 200, 500].entries()) {
      run.take(
        { endpoint: 'GET /orders/7', statusCode, responseTimeMs: 10 + index * 10 },
        () => ({ kind: 'test', title: reads.title, attempt: 1 }),
        {
          test: reads,
          attempt: 1,
          testPassed: false,
          retriedAway: false,
          callLocation: { file: 'orders.spec.ts', line: 14 + index, column: 9 },
        },
      );
    }
    run.take({ endpoint: 'GET /health', statusCode: 200, responseTimeMs: 2 }, () => ({ kind: 'test', title: reads.title, attempt: 1 }), {
      test: reads,
      attempt: 1,
      testPassed: false,
      retriedAway: false,
    });
    const report = run.finish({
      tests: { total: 1, passed: 0, failed: 1, flaky: 0, skipped: 0 },
      playwrightHtmlReport: '../playwright-report/index.html',
    });
    const folder = await createTemporaryFolder({}, 'failed-calls-page');
    const htmlPath = join(folder, 'quality-summary.html');
    await writeFile(htmlPath, renderHtml(report));
    const { page } = await open(htmlPath);
    const row = page.locator('tr[data-endpoint="GET /orders/7"]');
    await expect(row.locator('details')).not.toHaveAttribute('open');
    await row.locator('summary').click();
    // The server error first: a 500 is the server's defect, where a 404 is most often a deliberate answer.
    await expect(row.locator('[data-failed-call]')).toHaveText([
      '500 GET /orders/7 · 40 ms · orders.spec.ts:17 · orders.spec.ts › reads an order (attempt 1)',
      '404 GET /orders/7 · 20 ms · orders.spec.ts:15 · orders.spec.ts › reads an order (attempt 1)',
    ]);
    await expect(row.locator('[data-failed-call] a').first()).toHaveAttribute('href', '../playwright-report/index.html#?testId=abc-123');
    await expect(row.locator('td[data-field="statusCodes"]')).toHaveText('200 ×2, 404 ×1, 500 ×1');
    // The distribution: one column per bucket of the histogram, p50, p95 and p99 marked at their exact values.
    await expect(row.locator('svg.distribution rect')).toHaveCount(4);
    await expect(row.locator('svg.distribution line.mark title')).toHaveText(['p50 20 ms', 'p95 40 ms', 'p99 40 ms']);

    // The filter: by label text and by state, without a network, under the page's policy.
    await page.getByLabel('Filter').fill('health');
    await expect(page.locator('#endpoints tr[data-endpoint]:visible')).toHaveCount(1);
    await page.getByLabel('Filter').fill('');
    await page.getByLabel('State').selectOption('failing');
    await expect(page.locator('#endpoints tr[data-endpoint]:visible')).toHaveAttribute('data-endpoint', 'GET /orders/7');
    await page.context().close();
  });

  test('clicking a column header sorts the endpoint table by its exact values; without scripts the table reads worst first', async () => {
    const run = await writeGeneratedRun(12);
    const { page } = await open(run.htmlPath);
    const p95s = () =>
      inPage<number[]>(
        page,
        `Array.from(document.querySelectorAll('tr[data-endpoint] td[data-field="responseTimeMs.p95"]')).map((cell) => Number(cell.getAttribute('data-value')))`,
      );
    await page.locator('#endpoints th', { hasText: 'p95' }).locator('button').click();
    await expect(page.locator('#endpoints th', { hasText: 'p95' })).toHaveAttribute('aria-sort', 'ascending');
    const ascending = await p95s();
    expect(ascending).toStrictEqual([...ascending].sort((a, b) => a - b));
    await page.locator('#endpoints th', { hasText: 'p95' }).locator('button').click();
    const descending = await p95s();
    expect(descending).toStrictEqual([...descending].sort((a, b) => b - a));
    await page.context().close();

    const withoutScripts = await open(run.htmlPath, { javaScriptEnabled: false });
    const order = await Promise.all(
      (await withoutScripts.page.locator('tr[data-endpoint]').all()).map((row) => row.getAttribute('data-endpoint')),
    );
    const worstFirst = [...run.report.endpoints]
      .sort(
        (a, b) =>
          b.failedExecutionCount - a.failedExecutionCount ||
          (b.responseTimeMs.p95 ?? 0) - (a.responseTimeMs.p95 ?? 0) ||
          (a.endpoint < b.endpoint ? -1 : 1),
      )
      .map((endpoint) => endpoint.endpoint);
    expect(order).toStrictEqual(worstFirst);
    expect(await withoutScripts.page.locator('th button').count()).toBe(0);
    await withoutScripts.page.context().close();
  });

  test("the operations never called can be filtered by tag, the filter running under the page's policy", async () => {
    const operation = (method: string, path: string, tags: string[]): ContractOperation => ({
      method,
      path,
      label: `${method} ${path}`,
      basePaths: [''],
      integerParameters: [],
      tags,
      deprecated: false,
      responses: [{ status: '200', content: [] }],
      documentIndex: 0,
    });
    const operations = [
      operation('GET', '/pets', ['pets']),
      operation('POST', '/pets', ['pets']),
      operation('GET', '/stores', ['stores']),
      operation('GET', '/health', []),
    ];
    const report = judgeReport(
      buildReport(summariseExecutions([{ endpoint: 'GET /pets', statusCode: 200, responseTimeMs: 5 }], 750), {
        environment: 'ci',
        slowResponseThresholdMs: 750,
      }),
      {
        contract: { documents: [{ path: 'openapi.yaml', version: '3.1', bundled: {} }], operations },
      },
    );
    const folder = await createTemporaryFolder({}, 'contract-page');
    const htmlPath = join(folder, 'quality-summary.html');
    await writeFile(htmlPath, renderHtml(report));
    const { page } = await open(htmlPath);
    const visible = () =>
      inPage<string[]>(
        page,
        `Array.from(document.querySelectorAll('#contract [data-tag]'))
          .filter((group) => group.checkVisibility())
          .map((group) => group.getAttribute('data-tag'))`,
      );
    expect(await visible()).toStrictEqual(['pets', 'stores', '(no tag)']);
    await page.getByLabel('Tag').selectOption('stores');
    expect(await visible()).toStrictEqual(['stores']);
    await page.getByLabel('Tag').selectOption('');
    expect(await visible()).toStrictEqual(['pets', 'stores', '(no tag)']);
    await page.context().close();
  });

  test('every text passes WCAG AA contrast (4.5:1) against its background, and every status is written, not only coloured', async () => {
    const run = await writeGeneratedRun(20);
    const { page } = await open(run.htmlPath);
    const failures = await inPage<string[]>(page, CONTRAST_FAILURES);
    expect(failures).toStrictEqual([]);
    const states = await page.locator('tr[data-endpoint] .state').allTextContents();
    for (const state of states) expect(state).toMatch(/^(✖|▲|✔) (failing|budget breached|failing, budget breached|slow|ok)$/);
    await page.context().close();
  });
});

test('the page declares a Content-Security-Policy that allows only inline styles and its two scripts (sorting, the endpoint filter), by hash', async () => {
  const { htmlPath } = await fixtureRun();
  const html = await readFile(htmlPath, 'utf8');
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
  expect(policy).toMatch(
    new RegExp(
      "^default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-[A-Za-z0-9+/]+=*' 'sha256-[A-Za-z0-9+/]+=*'; " +
        "img-src 'none'; base-uri 'none'; form-action 'none'$",
    ),
  );
  expect(html.match(/<script/g)).toHaveLength(2);
  // A report from files links nowhere but within the page (its first screen's list to the sections): only a reporter
  // run beside Playwright's HTML report links its tests into it.
  expect(html).not.toMatch(/\b(src|href)="(?!#)/);
});

test('the chart is logarithmic: one slow endpoint does not flatten the others, and the threshold stands where it is', () => {
  const report = buildReport(
    summariseExecutions(
      [
        { statusCode: 200, endpoint: 'GET /fast', responseTimeMs: 10 },
        { statusCode: 200, endpoint: 'GET /slow', responseTimeMs: 10_000 },
      ],
      1000,
    ),
    { environment: 'ci', slowResponseThresholdMs: 1000 },
  );
  const html = renderHtml(report);
  // From 1 ms to 10 s, each tenfold step a quarter of the width: 10 ms at 250, 1 s at 750, 10 s at 1000.
  expect(html).toContain('logarithmic scale, 1 ms to 10,000 ms: each tenfold step is the same width');
  expect(html).toContain('<rect x="0" y="6" width="250" height="12" class="p50"/>');
  expect(html).toContain('<rect x="0" y="6" width="1000" height="12" class="p50"/>');
  expect(html).toContain('<line class="threshold" x1="750" y1="0" x2="750" y2="24"/>');
});
