import { countOf, formatCount, noResponseEndpoints } from '../renderers/presentation.js';
import { label, text } from './htmlParts.js';
import { code, row } from './markdownParts.js';
import type { ReportSection } from './reportSection.js';

/** The endpoints with calls that got no response at all, each counted as failed. */
export const noResponseSection: ReportSection<'noResponse'> = {
  id: 'noResponse',
  keptWhenCut: false,
  markdown: (report, { limits }) => {
    const endpoints = noResponseEndpoints(report);
    if (endpoints.length === 0) return [];
    const lines = ['', '### Requests with no response', '', lead(report.noResponseCount), ''];
    lines.push('| Endpoint | No response | Executions |', '|---|---:|---:|');
    for (const endpoint of endpoints.slice(0, limits.endpoints)) {
      lines.push(row([code(endpoint.endpoint), formatCount(endpoint.noResponseCount), formatCount(endpoint.executionCount)]));
    }
    if (endpoints.length > limits.endpoints)
      lines.push('', `${countOf(endpoints.length - limits.endpoints, 'more endpoint')} in the report.`);
    return lines;
  },
  html: (report, { limits }) => {
    const endpoints = noResponseEndpoints(report);
    if (endpoints.length === 0) return '';
    const rows = endpoints.slice(0, limits.endpoints).map((endpoint) => {
      const cells = [
        `<td data-label="Endpoint">${label(endpoint.endpoint)}</td>`,
        `<td class="num" data-label="No response">${formatCount(endpoint.noResponseCount)}</td>`,
        `<td class="num" data-label="Executions">${formatCount(endpoint.executionCount)}</td>`,
      ];
      return `<tr>${cells.join('')}</tr>`;
    });
    if (endpoints.length > limits.endpoints) {
      rows.push(`<tr><td colspan="3">${text(countOf(endpoints.length - limits.endpoints, 'more endpoint'))} in the report.</td></tr>`);
    }
    const head = '<th>Endpoint</th><th class="num">No response</th><th class="num">Executions</th>';
    const table = `<table class="cards"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
    const title = '<section id="no-response"><h2>Requests with no response</h2>';
    return `${title}<p>${text(lead(report.noResponseCount))}</p><div class="scroll">${table}</div></section>`;
  },
};

function lead(noResponseCount: number): string {
  return `${countOf(noResponseCount, 'call')} got no response at all (refused, reset, timed out); each counts as failed.`;
}
