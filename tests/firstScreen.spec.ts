import { chromium, type Page } from '@playwright/test';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Budgets } from '../src/config/budgetsSchema.js';
import type { Contract, ContractOperation } from '../src/contract/contract.js';
import { renderHtml, renderMarkdown, type QualityReport } from '../src/index.js';
import { createEvidenceRun } from '../src/run/evidenceRun.js';
import type { TestIdentity } from '../src/summary/endpointEvidence.js';
import { CHROMIUM_PATH, QUIET_CHROMIUM_ARGS, requireChromium } from './support/chromium.js';
import { createTemporaryFolder } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// What a reviewer sees first, in Debian's Chromium at 1280 × 800: the verdict, what is new and wrong, the failed
// tests and the failed calls, before any latency chart; a run where nothing is slow spends no screen on latency bars;
// little to judge (endpoints with too few samples) is one line, its names folded.

test.describe.configure({ timeout: 120_000 });

function operation(method: string, path: string, statuses: readonly string[]): ContractOperation {
  return {
    method,
    path,
    basePaths: [''],
    integerParameters: [],
    label: `${method} ${path}`,
    tags: [],
    deprecated: false,
    responses: statuses.map((status) => ({ status, content: [] })),
    documentIndex: 0,
  };
}

const contract: Contract = {
  documents: [{ path: 'openapi.yaml', version: '3.0', bundled: {} }],
  operations: [
    operation('GET', '/counterparties', ['200']),
    operation('GET', '/counterparties/{id}', ['200', '404']),
    operation('DELETE', '/counterparties/{id}', ['204']),
  ],
};

const creates: TestIdentity = { title: 'counterparties.spec.ts › creates one', file: 'counterparties.spec.ts', line: 4, column: 1 };
const reads: TestIdentity = { title: 'counterparties.spec.ts › reads one', file: 'counterparties.spec.ts', line: 20, column: 1 };

/**
 * The run of the issue in small: deliberate 404s of a passing negative test, one 500 of a clean-up DELETE in a
 * passing test, a failed test, against a baseline where GET /counterparties was faster and nothing failed.
 */
function reviewedReport({ slow, budgets }: { readonly slow: boolean; readonly budgets?: Budgets }): QualityReport {
  const baselineRun = createEvidenceRun({ environment: 'main', slowResponseThresholdMs: 750 });
  for (let index = 0; index < 60; index++) {
    baselineRun.take({ endpoint: 'GET /counterparties', statusCode: 200, responseTimeMs: 20 + (index % 7) }, () => ({
      kind: 'list',
      listPath: 'executions',
      index,
    }));
  }
  baselineRun.take({ endpoint: 'DELETE /counterparties/{id}', statusCode: 204, responseTimeMs: 5 }, () => ({
    kind: 'list',
    listPath: 'executions',
    index: 60,
  }));
  baselineRun.take({ endpoint: 'GET /health', statusCode: 200, responseTimeMs: 2 }, () => ({
    kind: 'list',
    listPath: 'executions',
    index: 61,
  }));
  const baseline = baselineRun.finish();
  const run = createEvidenceRun(
    { environment: 'pull-request', slowResponseThresholdMs: 750 },
    { judgement: { contract, baseline, ...(budgets === undefined ? {} : { budgets }) } },
  );
  const call = (test: TestIdentity, passed: boolean, endpoint: string, statusCode: number, responseTimeMs: number) => {
    run.take({ endpoint, statusCode, responseTimeMs }, () => ({ kind: 'test', title: test.title, attempt: 1 }), {
      test,
      attempt: 1,
      testPassed: passed,
      retriedAway: false,
    });
  };
  for (let index = 0; index < 60; index++) call(creates, true, 'GET /counterparties', 200, (slow ? 900 : 60) + (index % 7));
  for (let index = 0; index < 9; index++) call(creates, true, 'GET /counterparties/{id}', 404, 4);
  call(creates, true, 'DELETE /counterparties/{id}', 500, 6);
  call(reads, false, 'GET /counterparties/{id}', 418, 5);
  call(reads, false, 'GET /health', 200, 3);
  return run.finish({ tests: { total: 2, passed: 1, failed: 1, flaky: 0, skipped: 0 }, failedTests: [reads] });
}

async function open(report: QualityReport): Promise<{ page: Page; close: () => Promise<void> }> {
  const folder = await createTemporaryFolder({}, 'first-screen');
  const path = join(folder, 'quality-summary.html');
  await writeFile(path, renderHtml(report));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: QUIET_CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(pathToFileURL(path).href);
  return { page, close: () => browser.close() };
}

/** Where each of the page's top-level parts starts, from the top of the page, by id. */
async function tops(page: Page): Promise<Record<string, number>> {
  return page.evaluate<Record<string, number>>(
    `Object.fromEntries(Array.from(document.querySelectorAll('main > [id], main > details > [id]')).map((part) => ` +
      `[part.id, part.getBoundingClientRect().top]))`,
  );
}

test('the first screen at 1280 px holds the verdict, what is new and wrong, the failed test and the failed calls, all before the latency chart', async () => {
  requireChromium();
  const { page, close } = await open(reviewedReport({ slow: true }));
  try {
    await expect(page.locator('#attention li')).toHaveText([
      '✖ 1 server error (5xx or no response) on 1 endpoint: DELETE /counterparties/{id} (500 ×1, first at counterparties.spec.ts:4)',
      '✖ 1 failed test: counterparties.spec.ts:20 · counterparties.spec.ts › reads one',
      '✖ 2 endpoints newly failing: DELETE /counterparties/{id}, GET /counterparties/{id}',
      '▲ 1 endpoint slower than the baseline: GET /counterparties',
      '▲ 2 statuses the contract does not declare: GET /counterparties/{id} (418), DELETE /counterparties/{id} (500)',
    ]);
    const at = await tops(page);
    const order = Object.entries(at)
      .sort(([, a], [, b]) => a - b)
      .map(([id]) => id);
    expect(order.slice(0, 4)).toStrictEqual(['attention', 'failed-tests', 'failed-calls', 'baseline']);
    expect(order.indexOf('chart')).toBeGreaterThan(order.indexOf('endpoints'));
    // The failed calls start on the first screen; the chart does not.
    expect(at['failed-calls']).toBeLessThan(800);
    expect(at['chart']).toBeGreaterThan(800);
    await expect(page.locator('#failed-calls tbody tr').first()).toContainText('DELETE /counterparties/{id}');
  } finally {
    await close();
  }
});

test('a run where no call was slow folds its latency chart into one line; a run with a slow call shows it open', async () => {
  requireChromium();
  const quick = await open(reviewedReport({ slow: false }));
  try {
    await expect(quick.page.locator('details.chart > summary')).toHaveText('Response time by endpoint: no call was slower than 750 ms');
    await expect(quick.page.locator('details.chart')).not.toHaveAttribute('open');
    await expect(quick.page.locator('#chart svg.bar').first()).toBeHidden();
  } finally {
    await quick.close();
  }
  const slow = await open(reviewedReport({ slow: true }));
  try {
    await expect(slow.page.locator('details.chart')).toHaveCount(0);
    await expect(slow.page.locator('#chart svg.bar').first()).toBeVisible();
  } finally {
    await slow.close();
  }
});

test('the slowest executions fit at 1280 px with a long label, a long test title and a long error code, no column cut', async () => {
  requireChromium();
  const report = reviewedReport({ slow: true });
  const label = 'PUT /api/v2/counterparties/{counterpartyId}/bank-accounts/{bankAccountId}/verification-documents';
  const where =
    'test "counterparties/counterparties-crud.spec.ts › Counterparties API › CRUD › creates, updates and deletes a ' +
    'counterparty with every optional field" (attempt 2)';
  const { page, close } = await open({
    ...report,
    slowestExecutions: report.slowestExecutions.map((execution, index) =>
      index % 2 === 0
        ? {
            endpoint: label,
            errorCode: 'UND_ERR_CONNECT_TIMEOUT_OF_A_VERY_LONG_NAME',
            responseTimeMs: execution.responseTimeMs,
            location: where,
          }
        : { ...execution, location: where, id: 'a3f9c1e2-5b7d-4e8f-9a0b-1c2d3e4f5a6b' },
    ),
  });
  try {
    await page.addStyleTag({ content: '* { letter-spacing: 0.1em !important; }' });
    const cut = await page.evaluate(
      `(() => { const box = document.querySelector('#slowest .scroll'); return box.scrollWidth - box.clientWidth; })()`,
    );
    expect(cut).toBeLessThanOrEqual(0);
    expect(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);
  } finally {
    await close();
  }
});

test(`endpoints too few to judge against the baseline are one line, their names folded (a new endpoint is new and a newly failing one \
newly failing, not among them), in the Markdown and on the page`, async () => {
  requireChromium();
  const report = reviewedReport({ slow: true });
  const markdown = renderMarkdown(report);
  expect(markdown).toContain(
    '\n<details><summary>1 endpoint with too few samples to judge (n before → after)</summary>\n\n' +
      '`GET /health (1 → 1)`.\n\n</details>\n',
  );
  expect(markdown).not.toContain('**Too few samples to judge**');
  const { page, close } = await open(report);
  try {
    const folded = page.locator('#baseline details[data-field="tooFewSamples"]');
    await expect(folded.locator('summary')).toHaveText('1 endpoint with too few samples to judge (n before → after)');
    await expect(folded.locator('p')).toBeHidden();
    await folded.locator('summary').click();
    await expect(folded.locator('p')).toHaveText('GET /health (1 → 1).');
  } finally {
    await close();
  }
});

test('a budget with too few samples to judge is no row of the budgets table but one line, its endpoints folded', () => {
  const markdown = renderMarkdown(reviewedReport({ slow: true, budgets: { maxP95IncreasePercent: 50 } }));
  const budgets = markdown.split('### Budgets\n')[1]?.split('\n### ')[0] ?? '';
  expect(budgets.split('\n').filter((line) => line.startsWith('| '))).toStrictEqual([
    '| Result | Budget | Endpoint | Limit | Measured |',
    expect.stringMatching(/^\| ❌ fail \| `maxP95IncreasePercent` \| `GET \/counterparties` \| ≤ \+50% \| \+[\d,.]+% \|$/),
  ]);
  expect(budgets).toContain(
    '<details><summary>maxP95IncreasePercent holds for 3 endpoints with too few samples to judge</summary>\n\n' +
      '`DELETE /counterparties/{id}`, `GET /counterparties/{id}`, `GET /health`\n\n</details>',
  );
});
