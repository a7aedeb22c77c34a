import { expect, test } from './support/test.js';
import { buildReport, renderHtml, renderMarkdown, summariseExecutions, type QualityReport } from '../src/index.js';
import type { BudgetResult } from '../src/report/verdictSchemas.js';

// What the renderings take from a report is bounded and escaped, whatever the report holds.

const report = buildReport(summariseExecutions([{ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 10 }], 750), {
  environment: 'ci',
  slowResponseThresholdMs: 750,
});

test.describe('the HTML <title> shows the environment as labels are shown', () => {
  const titleOf = (environment: string) => /<title>(.*?)<\/title>/s.exec(renderHtml({ ...report, environment }))![1];

  test('bidirectional and other controls are escaped', () => {
    expect(titleOf('staging\u202egnp.exe\u0007')).toBe('API quality evidence: staging\\u202egnp.exe\\u0007');
  });

  test('a long one is cut to 200 characters with "…"', () => {
    expect(titleOf('e'.repeat(100_000))).toBe(`API quality evidence: ${'e'.repeat(199)}…`);
  });

  test('markup stays text', () => {
    expect(titleOf('</title><script>x</script>')).toBe('API quality evidence: &lt;/title&gt;&lt;script&gt;x&lt;/script&gt;');
  });
});

test.describe('budget tables are capped as endpoint tables are, breached budgets first, saying how many more', () => {
  // 1,000 endpoint budgets: every third is breached (334 of them), each on its own endpoint.
  const results: BudgetResult[] = Array.from({ length: 1000 }, (_, index) => ({
    budget: 'maxFailedExecutions',
    endpoint: `GET /e/${String(index).padStart(4, '0')}`,
    limit: 0,
    actual: index % 3 === 0 ? 1 : 0,
    passed: index % 3 !== 0,
  }));
  const judged: QualityReport = { ...report, budgets: { passed: false, results } };
  const rowsOf = (text: string, pattern: RegExp) => text.match(pattern) ?? [];

  test('Markdown: 50 rows, all breached, then a line on the rest', () => {
    const markdown = renderMarkdown(judged);
    const rows = rowsOf(markdown, /^\| (❌ fail|✅ pass) \| `maxFailedExecutions` \| `[^`]+` \|.*$/gm);
    expect(rows).toHaveLength(50);
    expect(rows.every((row) => row.startsWith('| ❌ fail'))).toBe(true);
    expect(rows[0]).toBe('| ❌ fail | `maxFailedExecutions` | `GET /e/0000` | ≤ 0 | 1 |');
    expect(markdown).toContain(
      '\n\nThe 50 budgets shown (breached first) of 1,000: 950 more budgets in `quality-summary.json`, 284 of them breached.\n',
    );
  });

  test('HTML: 500 rows, the 334 breached first, then a line on the rest', () => {
    const html = renderHtml(judged);
    const rows = rowsOf(html, /<tr data-budget-endpoint="[^"]*"><td class="state (bad|good)" data-label="Result">/g);
    expect(rows).toHaveLength(500);
    expect(rows.filter((row) => row.endsWith('"state bad" data-label="Result">'))).toHaveLength(334);
    expect(rows.slice(0, 334).every((row) => row.endsWith('"state bad" data-label="Result">'))).toBe(true);
    expect(html).toContain(
      '<p>The 500 budgets shown (breached first) of 1,000: 500 more budgets in <code>quality-summary.json</code>.</p>',
    );
  });

  test('a table within the cap has no such line', () => {
    const few: QualityReport = { ...report, budgets: { passed: false, results: results.slice(0, 50) } };
    expect(renderMarkdown(few)).not.toContain('budgets shown');
    expect(renderHtml(few)).not.toContain('budgets shown');
  });
});
