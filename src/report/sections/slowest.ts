import { formatMs, shownText, slowestStatus, slowestWhere } from '../renderers/presentation.js';
import { label, text } from './htmlParts.js';
import { code, row } from './markdownParts.js';
import type { ReportSection } from './reportSection.js';
import { joinedParts, traceHtml, traceMarkdown } from './traceParts.js';

/** The run's slowest executions, slowest first, with where each came from. */
export const slowestSection: ReportSection<'slowest'> = {
  id: 'slowest',
  keptWhenCut: false,
  markdown: (report, { traceUrlTemplate }) => {
    if (report.slowestExecutions.length === 0) return [];
    const lines = ['', '### Slowest executions', '', '| Endpoint | Status | Time | Where |', '|---|---|---:|---|'];
    for (const execution of report.slowestExecutions) {
      const where = slowestWhere(execution);
      const cell = joinedParts([where === '' ? '' : code(where), traceMarkdown(execution, traceUrlTemplate)]);
      lines.push(row([code(execution.endpoint), slowestStatus(execution), formatMs(execution.responseTimeMs), cell]));
    }
    return lines;
  },
  html: (report, { traceUrlTemplate }) => {
    if (report.slowestExecutions.length === 0) return '';
    const rows = report.slowestExecutions.map((execution) => {
      const where = slowestWhere(execution);
      const cells = [
        `<td data-label="Endpoint">${label(execution.endpoint)}</td>`,
        `<td data-label="Status">${text(slowestStatus(execution))}</td>`,
        `<td class="num" data-label="Time" data-value="${execution.responseTimeMs}">${text(formatMs(execution.responseTimeMs))}</td>`,
        `<td data-label="Where">${joinedParts([where === '' ? '' : `<code>${text(shownText(where))}</code>`, traceHtml(execution, traceUrlTemplate)])}</td>`,
      ];
      return `<tr>${cells.join('')}</tr>`;
    });
    const head = '<th>Endpoint</th><th>Status</th><th class="num">Time</th><th>Where</th>';
    const table = `<table class="cards"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
    return `<section id="slowest"><h2>Slowest executions</h2><div class="scroll">${table}</div></section>`;
  },
};
