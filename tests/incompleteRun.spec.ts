import { expect, test } from './support/test.js';
import {
  buildReport,
  evaluateBudgets,
  renderHtml,
  renderMarkdown,
  renderTerminal,
  summariseExecutions,
  type QualityReport,
} from '../src/index.js';
import type { RunStatus } from '../src/report/qualityReport.js';
import { formatHeadline } from '../src/report/renderers/terminal.js';

// A Playwright run that stopped before its tests were done (its FullResult
// status `interrupted` or `timedout`) is shown as incomplete evidence in
// every rendering, as a run with no executions is, and never passes budgets.

function reportOf(runStatus: RunStatus): QualityReport {
  const report = buildReport(summariseExecutions([{ statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 10 }], 750), {
    environment: 'ci',
    slowResponseThresholdMs: 750,
    runStatus,
  });
  return { ...report, budgets: evaluateBudgets(report, { maxFailedExecutions: 0 }) };
}

test('budgets that each hold do not pass an interrupted or timed-out run, and do pass a finished one', () => {
  expect(reportOf('interrupted').budgets).toEqual({
    passed: false,
    results: [{ budget: 'maxFailedExecutions', limit: 0, actual: 0, passed: true }],
  });
  expect(reportOf('timedout').budgets?.passed).toBe(false);
  expect(reportOf('passed').budgets?.passed).toBe(true);
  expect(reportOf('failed').budgets?.passed).toBe(true);
});

test('the Markdown of an interrupted run says so in its headline and shows no passing mark', () => {
  const markdown = renderMarkdown(reportOf('interrupted'));
  expect(markdown.split('\n')[2]).toBe(
    '⚠️ **The run was interrupted before its tests were done: the evidence is incomplete** · 1 call · 0 server ' +
      'errors · 0 failed · 0 slow (over 750 ms) · 0 with no response',
  );
  expect(markdown).toContain('| ⚠️ pass, on an incomplete run | `maxFailedExecutions` | whole run | ≤ 0 | 0 |');
  expect(markdown).not.toContain('✅ pass');
});

test('the HTML of a timed-out run says so in its verdict and shows no passing mark', () => {
  const html = renderHtml(reportOf('timedout'));
  expect(html).toContain(
    '<p class="verdict warn" data-verdict="incomplete"><span aria-hidden="true">⚠</span> The run timed out before its ' +
      'tests were done: the evidence is incomplete</p>',
  );
  expect(html).toContain('<td class="state warn" data-label="Result">⚠ pass, on an incomplete run</td>');
  expect(html).not.toContain('✔ pass');
});

test('the terminal summary and the closing line of an interrupted run say so, with or without budgets', () => {
  const report = reportOf('interrupted');
  expect(renderTerminal(report, { files: [] }).split('\n')[1]).toBe(
    '! the run was interrupted before its tests were done: the evidence is incomplete',
  );
  const withoutBudgets: QualityReport = { ...report };
  delete withoutBudgets.budgets;
  for (const shown of [report, withoutBudgets]) {
    expect(formatHeadline(shown, ['out/q.json'])).toBe(
      'quality-evidence: 1 call: 0 server errors, 0 failed, 0 slow, 0 with no response; the run was interrupted ' +
        'before its tests were done: the evidence is incomplete; report written to out/q.json',
    );
  }
});
