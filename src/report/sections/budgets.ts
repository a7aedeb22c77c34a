import {
  budgetPassCaveat,
  budgetsShown,
  budgetSubject,
  countOf,
  FLAKY_NOT_COUNTED,
  formatBudgetLimit,
  formatCount,
  formatMeasured,
  isTooFewToJudge,
} from '../renderers/presentation.js';
import type { BudgetResult } from '../verdictSchemas.js';
import { attribute, foldedHtml, label, text } from './htmlParts.js';
import { code, foldedMarkdown, row } from './markdownParts.js';
import type { ReportSection } from './reportSection.js';

/**
 * Each budget's result, breached first. On no executions, or an incomplete
 * run, nothing passes for real: a budget that holds says so without a passing mark.
 * Little to judge is said briefly: the maxP95IncreasePercent of an endpoint
 * with too few samples to judge holds, and is no row of the table but one
 * line counting them all, their endpoints folded under it.
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
    const judged = results.filter((result) => !isTooFewToJudge(result));
    const tooFew = tooFewLine(results, limits.budgets);
    if (judged.length === 0)
      return tooFew === undefined ? lines : [...lines, foldedMarkdown(tooFew.line, tooFew.names.map(code).join(', ') + tooFew.more)];
    lines.push('| Result | Budget | Endpoint | Limit | Measured |', '|---|---|---|---:|---:|');
    const { shown, more, breachedMore } = budgetsShown(judged, limits.budgets);
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
      const shownOf = `The ${formatCount(shown.length)} budgets shown (breached first) of ${formatCount(judged.length)}`;
      lines.push('', `${shownOf}: ${countOf(more, 'more budget')} in ${code(reportName)}${breached}.`);
    }
    if (tooFew !== undefined) lines.push('', foldedMarkdown(tooFew.line, tooFew.names.map(code).join(', ') + tooFew.more));
    return lines;
  },
  html: (report, { reportName, limits }) => {
    const results = report.budgets?.results;
    if (results === undefined) return '';
    if (results.length === 0) return '<section id="budgets"><h2>Budgets</h2><p>The budgets set no limit.</p></section>';
    const judged = results.filter((result) => !isTooFewToJudge(result));
    const tooFew = tooFewLine(results, limits.budgets);
    const tooFewHtml =
      tooFew === undefined
        ? ''
        : foldedHtml('tooFewSamplesBudgets', tooFew.line, tooFew.names.map((name) => label(name)).join(', ') + text(tooFew.more));
    const { shown, more, breachedMore } = budgetsShown(judged, limits.budgets);
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
    const shownOf = `The ${formatCount(shown.length)} budgets shown (breached first) of ${formatCount(judged.length)}`;
    const note = more > 0 ? `<p>${shownOf}: ${text(countOf(more, 'more budget'))} in <code>${text(reportName)}</code>${breached}.</p>` : '';
    const flaky = report.budgets?.countFlakyFailures === false ? `<p class="muted">${text(FLAKY_NOT_COUNTED)}</p>` : '';
    const head = '<th>Result</th><th>Budget</th><th>Endpoint</th><th class="num">Limit</th><th class="num">Measured</th>';
    const table =
      rows.length === 0
        ? ''
        : `<div class="scroll"><table class="cards"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
    return `<section id="budgets"><h2>Budgets</h2>${flaky}${table}${note}${tooFewHtml}</section>`;
  },
};

/**
 * The line that counts the maxP95IncreasePercent results with too few
 * samples to judge (each holds), and the first `limit` of their endpoints;
 * undefined when there are none.
 */
function tooFewLine(
  results: readonly BudgetResult[],
  limit: number,
): { readonly line: string; readonly names: readonly string[]; readonly more: string } | undefined {
  const tooFew = results.filter(isTooFewToJudge);
  if (tooFew.length === 0) return undefined;
  const names = tooFew.slice(0, limit).map((result) => budgetSubject(result) ?? 'whole run');
  return {
    line: `maxP95IncreasePercent holds for ${countOf(tooFew.length, 'endpoint')} with too few samples to judge`,
    names,
    more: tooFew.length > names.length ? `, and ${formatCount(tooFew.length - names.length)} more` : '',
  };
}

/** A budget's result; on no executions or an incomplete run (the caveat) a budget that holds gets no passing mark. */
function budgetMark(passed: boolean, caveat: string | undefined): string {
  if (!passed) return '<td class="state bad" data-label="Result">✖ fail</td>';
  if (caveat !== undefined) return `<td class="state warn" data-label="Result">⚠ pass, ${text(caveat)}</td>`;
  return '<td class="state good" data-label="Result">✔ pass</td>';
}
