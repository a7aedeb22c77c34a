import type { QualityReport } from '../qualityReport.js';
import {
  countOf,
  describeState,
  endpointSourceText,
  endpointStates,
  formatCount,
  formatMs,
  stateMark,
  statusesText,
  worstEndpoints,
  type EndpointState,
} from '../renderers/presentation.js';
import { compareCallCounts } from '../../summary/endpointEvidence.js';
import { endpointDetail } from './endpointDetail.js';
import { trendCell } from './endpointTrend.js';
import { attribute, label, numberCell, stateBadge, text } from './htmlParts.js';
import { code, row } from './markdownParts.js';
import type { ReportSection } from './reportSection.js';

type Endpoint = QualityReport['endpoints'][number];

/**
 * The endpoints worst first (server errors first, then failed, then by
 * p95): a table of their numbers. On the page each row opens to the
 * endpoint's failed calls, tests and latency distribution
 * (./endpointDetail.ts), with its trend in a column (./endpointTrend.ts);
 * the chart of their percentiles follows the table (./chart.ts).
 */
export const endpointsSection: ReportSection<'endpoints'> = {
  id: 'endpoints',
  keptWhenCut: true,
  markdown: (report, { reportName, limits }) => {
    const lines = ['', '### Endpoints', ''];
    if (report.endpoints.length === 0) return [...lines, 'No endpoint ran.'];
    const stateOf = endpointStates(report);
    const { shown, more } = worstEndpoints(report, limits.endpoints);
    // The Source column only in a run split by source.
    const bySource = report.sources !== undefined;
    lines.push(
      `| Status | Endpoint |${bySource ? ' Source |' : ''} n | Failed | Statuses | Slow | p50 | p95 | p99 | Tests |`,
      `|---|---|${bySource ? '---|' : ''}---:|---:|---|---:|---:|---:|---:|---|`,
    );
    for (const endpoint of shown) {
      const times = endpoint.responseTimeMs;
      lines.push(
        row([
          stateCell(stateOf(endpoint)),
          code(endpoint.endpoint),
          ...(bySource ? [endpointSourceText(endpoint) ?? ''] : []),
          formatCount(endpoint.executionCount),
          formatCount(endpoint.failedExecutionCount),
          statusesText(endpoint),
          formatCount(endpoint.slowExecutionCount),
          formatMs(times.p50),
          formatMs(times.p95),
          formatMs(times.p99),
          testsCell(endpoint),
        ]),
      );
    }
    if (more > 0) {
      const shownOf =
        `The ${formatCount(shown.length)} worst endpoints (server errors first, then failed, then by p95) of ` +
        formatCount(report.endpoints.length);
      lines.push('', `${shownOf}: ${countOf(more, 'more endpoint')} in ${code(reportName)}.`);
    }
    return lines;
  },
  html: (report, { reportName, limits, traceUrlTemplate }) => {
    const { shown, more } = worstEndpoints(report, limits.endpoints);
    return endpointTable(report, shown, endpointStates(report), more, reportName, traceUrlTemplate);
  },
};

const TONE_MARKS = { bad: '❌', warn: '🐢', good: '✅' } as const;

function stateCell(state: EndpointState): string {
  const { symbol, tone } = stateMark(state);
  return `${symbol === '~' ? '⚠️' : TONE_MARKS[tone]} ${describeState(state)}`;
}

/** How many places an endpoint's row names, by file and line (most server errors, then most failed calls first). */
const MARKDOWN_TESTS_PER_ENDPOINT = 3;

// `orders.spec.ts:12 ×3`: the tests by where they are declared, short enough for a table cell. One test run in
// several Playwright projects (chromium, firefox, …) is one place: its calls are added up, not listed once per project.
function testsCell(endpoint: Endpoint): string {
  const tests = endpoint.tests ?? [];
  if (tests.length === 0) return '';
  const places = new Map<string, { calls: number; failedCalls: number; serverErrorCalls: number; tests: number }>();
  for (const test of tests) {
    const place = `${test.file}:${test.line}`;
    const seen = places.get(place);
    if (seen === undefined)
      places.set(place, { calls: test.calls, failedCalls: test.failedCalls, serverErrorCalls: test.serverErrorCalls ?? 0, tests: 1 });
    else {
      seen.calls += test.calls;
      seen.failedCalls += test.failedCalls;
      seen.serverErrorCalls += test.serverErrorCalls ?? 0;
      seen.tests += 1;
    }
  }
  // As the report orders its tests: most server errors, then most failed calls first, then most calls (a stable sort keeps the report's order).
  const named = [...places].sort(([, a], [, b]) => compareCallCounts(a, b)).slice(0, MARKDOWN_TESTS_PER_ENDPOINT);
  const namedTests = named.reduce((sum, [, { tests: count }]) => sum + count, 0);
  const more = (endpoint.testCount ?? tests.length) - namedTests;
  const cells = named.map(([place, { calls }]) => `${code(place)} ×${formatCount(calls)}`);
  return `${cells.join(', ')}${more > 0 ? `, +${formatCount(more)} more` : ''}`;
}

const ENDPOINT_LEAD =
  '<p class="muted">Worst first: server errors first, then failed, then by p95. Click a column to sort; ' +
  'open an endpoint for its failed calls, its tests and its latency distribution.</p>';

/** The filter over the table; hidden until the page's script shows it (see ENDPOINT_FILTER_SCRIPT in ../renderers/html.ts). */
const FILTER_TEXT_AND_STATE =
  '<label for="endpoint-filter-text">Filter</label> <input type="search" id="endpoint-filter-text" placeholder="label text" autocomplete="off"> ' +
  '<label for="endpoint-filter-state">State</label> <select id="endpoint-filter-state"><option value="">any</option><option>failing</option>' +
  '<option>flaky</option><option>budget breached</option><option>slow</option><option>ok</option></select>';

const FILTER_SOURCE =
  ' <label for="endpoint-filter-source">Source</label> <select id="endpoint-filter-source"><option value="">any</option>' +
  '<option value="api">API clients</option><option value="browser">browser</option></select>';

function endpointTable(
  report: QualityReport,
  shown: readonly Endpoint[],
  stateOf: (endpoint: Endpoint) => EndpointState,
  more: number,
  reportName: string,
  traceUrlTemplate: string | undefined,
): string {
  if (shown.length === 0) return '<section id="endpoints"><h2>Endpoints</h2><p>No endpoint ran.</p></section>';
  const withTrend = report.history !== undefined;
  // In a run split by source, a Source column, and a filter by source.
  const bySource = report.sources !== undefined;
  const rows = shown.map((endpoint) => {
    const n = endpoint.executionCount;
    const times = endpoint.responseTimeMs;
    const state = stateOf(endpoint);
    const split = endpoint.sources;
    const sources = split === undefined ? '' : (['api', 'browser'] as const).filter((source) => split[source].executionCount > 0).join(' ');
    const cells = [
      `<td data-label="Status">${stateBadge(state)}</td>`,
      `<td data-label="Endpoint"><details><summary>${label(endpoint.endpoint)}</summary>${endpointDetail(report, endpoint, traceUrlTemplate)}</details></td>`,
      bySource ? `<td data-field="sources" data-label="Source">${text(endpointSourceText(endpoint) ?? '')}</td>` : '',
      numberCell('executionCount', 'n', n, formatCount(n)),
      numberCell('failedExecutionCount', 'Failed', endpoint.failedExecutionCount, formatCount(endpoint.failedExecutionCount)),
      `<td data-field="statusCodes" data-label="Statuses">${text(statusesText(endpoint))}</td>`,
      numberCell('slowExecutionCount', 'Slow', endpoint.slowExecutionCount, formatCount(endpoint.slowExecutionCount)),
      ...(['p50', 'p95', 'p99'] as const).map((name) => numberCell(`responseTimeMs.${name}`, name, times[name], formatMs(times[name]))),
      withTrend ? trendCell(report, endpoint) : '',
    ];
    const data = `data-endpoint="${attribute(endpoint.endpoint)}" data-state="${describeState(state)}"${bySource ? ` data-sources="${sources}"` : ''}`;
    return `<tr ${data}>${cells.join('')}</tr>`;
  });
  const shownOf = `The ${formatCount(shown.length)} worst endpoints (server errors first, then failed, then by p95) of ${formatCount(report.endpoints.length)}`;
  const note = more > 0 ? `<p>${shownOf}: ${text(countOf(more, 'more endpoint'))} in <code>${text(reportName)}</code>.</p>` : '';
  const filter = `<form id="endpoint-filter" class="filter" hidden>${FILTER_TEXT_AND_STATE}${bySource ? FILTER_SOURCE : ''}</form>`;
  const head =
    `<th>Status</th><th>Endpoint</th>${bySource ? '<th>Source</th>' : ''}<th class="num">n</th><th class="num">Failed</th><th>Statuses</th>` +
    `<th class="num">Slow</th><th class="num">p50</th><th class="num">p95</th><th class="num">p99</th>${withTrend ? '<th>Trend</th>' : ''}`;
  const table = `<table class="cards" data-sortable><thead><tr>${head}</tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
  return `<section id="endpoints"><h2>Endpoints</h2>${ENDPOINT_LEAD}${filter}<div class="scroll">${table}</div>${note}</section>`;
}
