import { browserCallsText, capitalise, formatCount, formatMs, sourceRows } from '../renderers/presentation.js';
import { attribute, numberCell, text } from './htmlParts.js';
import { row } from './markdownParts.js';
import type { ReportSection } from './reportSection.js';

const COUNTED_APART = 'the calls not measured are counted apart, never as executions.';

/** The run split by source (API clients, browser), and what the browsers' calls that no server answered came to. */
export const sourcesSection: ReportSection<'sources'> = {
  id: 'sources',
  keptWhenCut: true,
  markdown: (report) => {
    const rows = sourceRows(report);
    const browser = browserCallsText(report);
    if (rows.length === 0 && browser === undefined) return [];
    const lines = ['', '### By source', ''];
    if (rows.length > 0) {
      lines.push('| Source | n | Failed | No response | Slow | Endpoints | p50 | p95 |', '|---|---:|---:|---:|---:|---:|---:|---:|');
      for (const { name, statistics } of rows) {
        const times = statistics.responseTimeMs;
        lines.push(
          row([
            name,
            formatCount(statistics.executionCount),
            formatCount(statistics.failedExecutionCount),
            formatCount(statistics.noResponseCount),
            formatCount(statistics.slowExecutionCount),
            formatCount(statistics.endpointCount),
            formatMs(times.p50),
            formatMs(times.p95),
          ]),
        );
      }
      lines.push('');
    }
    if (browser !== undefined) lines.push(`${capitalise(browser)}: ${COUNTED_APART}`);
    return lines;
  },
  html: (report) => {
    const rows = sourceRows(report);
    const browser = browserCallsText(report);
    if (rows.length === 0 && browser === undefined) return '';
    const bodyRows = rows.map(({ name, statistics }) => {
      const times = statistics.responseTimeMs;
      const cells = [
        numberCell('executionCount', 'n', statistics.executionCount, formatCount(statistics.executionCount)),
        numberCell('failedExecutionCount', 'Failed', statistics.failedExecutionCount, formatCount(statistics.failedExecutionCount)),
        numberCell('noResponseCount', 'No response', statistics.noResponseCount, formatCount(statistics.noResponseCount)),
        numberCell('slowExecutionCount', 'Slow', statistics.slowExecutionCount, formatCount(statistics.slowExecutionCount)),
        numberCell('endpointCount', 'Endpoints', statistics.endpointCount, formatCount(statistics.endpointCount)),
        numberCell('responseTimeMs.p50', 'p50', times.p50, formatMs(times.p50)),
        numberCell('responseTimeMs.p95', 'p95', times.p95, formatMs(times.p95)),
      ];
      return `<tr data-source="${attribute(name)}"><td data-label="Source">${text(name)}</td>${cells.join('')}</tr>`;
    });
    const head =
      '<th>Source</th><th class="num">n</th><th class="num">Failed</th><th class="num">No response</th>' +
      '<th class="num">Slow</th><th class="num">Endpoints</th><th class="num">p50</th><th class="num">p95</th>';
    const table =
      rows.length === 0
        ? ''
        : `<div class="scroll"><table class="cards"><thead><tr>${head}</tr></thead><tbody>${bodyRows.join('')}</tbody></table></div>`;
    const counted =
      browser === undefined
        ? ''
        : `<p data-field="browserCallCount" data-value="${report.browserCallCount ?? ''}">${text(`${capitalise(browser)}: ${COUNTED_APART}`)}</p>`;
    return `<section id="sources"><h2>By source</h2>${table}${counted}</section>`;
  },
};
