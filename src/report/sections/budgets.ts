import {
  budgetPassCaveat,
  budgetsShown,
  budgetSubject,
  countOf,
  FLAKY_NOT_COUNTED,
  formatBudgetLimit,
  formatCount,
  formatMeasured,
} from '../renderers/presentation.js';
import { attribute, label, text } from './htmlParts.js';
import { code, row } from './markdownParts.js';
import type { ReportSection } from './reportSection.js';

/**
 * Each budget's result, breached first. On no executions, or an incomplete
 * run, nothing passes for real: a budget that holds says so without a passing mark.
 */
export const budgetsSection: ReportSection<'budgets'> = {
  id: 'budgets',
  keptWhenCut: true,
  markdown: (report, { reportName, limits }) => {
    const results = report.budgets?.results;
    if (results === undefined) return [];
    const lines = ['', '### Budgets', ''];
    if (results.length === 0) return [...lines, 'The budgets set no limit.'];
    if (report.budgets?.countFlakyFailures === false) lines.push(FLAKY_NOT_COUNTED, '');
    lines.push('| Result | Budget | Endpoint | Limit | Measured |', '|---|---|---|---:|---:|');
    const { shown, more, breachedMore } = budgetsShown(results, limits.budgets);
    const caveat = budgetPassCaveat(report);
    for (const result of shown) {
      const mark = !result.passed ? '❌ fail' : caveat !== undefined ? `⚠️ pass, ${caveat}` : '✅ pass';
      const subject = budgetSubject(result);
      lines.push(
        row([
          mark,
          code(result.budget),
          subject === undefined ? 'whole run' : code(subject),
          formatBudgetLimit(result),
          formatMeasured(result),
        ]),
      );
    }
    if (more > 0) {
      const breached = breachedMore > 0 ? `, ${formatCount(breachedMore)} of them breached` : '';
      const shownOf = `The ${formatCount(shown.length)} budgets shown (breached first) of ${formatCount(results.length)}`;
      lines.push('', `${shownOf}: ${countOf(more, 'more budget')} in ${code(reportName)}${breached}.`);
    }
    return lines;
  },
  html: (report, { reportName, limits }) => {
    const results = report.budgets?.results;
    if (results === undefined) return '';
    if (results.length === 0) return '<section id="budgets"><h2>Budgets</h2><p>The budgets set no limit.</p></section>';
    const { shown, more, breachedMore } = budgetsShown(results, limits.budgets);
    const rows = shown.map((result) => {
      const subject = budgetSubject(result);
      const cells = [
        budgetMark(result.passed, budgetPassCaveat(report)),
        `<td data-label="Budget"><code>${text(result.budget)}</code></td>`,
        `<td data-label="Endpoint">${subject === undefined ? 'whole run' : label(subject)}</td>`,
        `<td class="num" data-label="Limit">${text(formatBudgetLimit(result))}</td>`,
        `<td class="num" data-label="Measured" data-value="${result.actual ?? ''}">${text(formatMeasured(result))}</td>`,
      ];
      return `<tr${result.endpoint === undefined ? '' : ` data-budget-endpoint="${attribute(result.endpoint)}"`}>${cells.join('')}</tr>`;
    });
    const breached = breachedMore > 0 ? `, ${formatCount(breachedMore)} of them breached` : '';
    const shownOf = `The ${formatCount(shown.length)} budgets shown (breached first) of ${formatCount(results.length)}`;
    const note = more > 0 ? `<p>${shownOf}: ${text(countOf(more, 'more budget'))} in <code>${text(reportName)}</code>${breached}.</p>` : '';
    const flaky = report.budgets?.countFlakyFailures === false ? `<p class="muted">${text(FLAKY_NOT_COUNTED)}</p>` : '';
    const head = '<th>Result</th><th>Budget</th><th>Endpoint</th><th class="num">Limit</th><th class="num">Measured</th>';
    const table = `<table class="cards"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
    return `<section id="budgets"><h2>Budgets</h2>${flaky}<div class="scroll">${table}</div>${note}</section>`;
  },
};

/** A budget's result; on no executions or an incomplete run (the caveat) a budget that holds gets no passing mark. */
function budgetMark(passed: boolean, caveat: string | undefined): string {
  if (!passed) return '<td class="state bad" data-label="Result">✖ fail</td>';
  if (caveat !== undefined) return `<td class="state warn" data-label="Result">⚠ pass, ${text(caveat)}</td>`;
  return '<td class="state good" data-label="Result">✔ pass</td>';
}
