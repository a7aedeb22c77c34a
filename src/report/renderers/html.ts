import { createHash } from 'node:crypto';
import { escapeControlCharacters } from '../../renderValue.js';
import type { QualityReport } from '../qualityReport.js';
import {
  browserCallsText,
  endpointSourceText,
  sourceRows,
  budgetSubject,
  baselineChanges,
  baselineNumbers,
  budgetsShown,
  capitalise,
  comparisonHeadline,
  historyHeadline,
  TREND_ARROWS,
  trendWords,
  countOf,
  failedStatus,
  failedWhere,
  FLAKY_NOT_COUNTED,
  formatPValue,
  formatRateChange,
  passingTestFailureHint,
  SIGNIFICANCE_METHOD,
  tooFewToJudge,
  statusesText,
  describeState,
  endpointStates,
  formatBudgetLimit,
  formatMeasured,
  formatChangePercent,
  formatCount,
  formatCountChange,
  formatMs,
  formatPercentile,
  isRegression,
  noResponseEndpoints,
  PERCENTILE_METHOD,
  describeTests,
  shownText,
  slowestStatus,
  slowestWhere,
  stateMark,
  verdictOf,
  budgetPassCaveat,
  worstEndpoints,
  type EndpointState,
  type VerdictKind,
} from './presentation.js';
import { bodiesText, contractNumbers, SHOWN_VIOLATIONS, undeclaredWorstFirst, untestedByTag, violationsWorstFirst, violationText } from './contractPresentation.js';

/** How many endpoints the page shows (chart, table and each list), worst first; the JSON report has them all. */
const HTML_ENDPOINT_LIMIT = 500;

/** How many budgets the page's table lists, breached first. */
const HTML_BUDGET_LIMIT = 500;

/** How many baseline changes the page lists, regressions first. */
const HTML_CHANGE_LIMIT = 200;

/** What the page may say about the report around it. */
export interface HtmlOptions {
  /** The JSON report's file name, for "see quality-summary.json"; default `quality-summary.json`. */
  readonly reportName?: string | undefined;
}

/**
 * Sorts a table by the column whose header is clicked (numbers by their
 * exact `data-value`, text by its words), and says so with `aria-sort`. The
 * page reads the same without it: rows come worst first.
 */
const SORT_SCRIPT = `for (const table of document.querySelectorAll('table[data-sortable]')) {
  const headers = Array.from(table.tHead.rows[0].cells);
  headers.forEach((header, column) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = header.textContent;
    header.textContent = '';
    header.append(button);
    button.addEventListener('click', () => {
      const ascending = header.getAttribute('aria-sort') !== 'ascending';
      for (const other of headers) other.removeAttribute('aria-sort');
      header.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
      const body = table.tBodies[0];
      const key = (row) => {
        const cell = row.cells[column];
        return cell.dataset.value === undefined ? cell.textContent : Number(cell.dataset.value);
      };
      const rows = Array.from(body.rows).sort((a, b) => {
        const x = key(a);
        const y = key(b);
        const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
        return ascending ? order : -order;
      });
      body.append(...rows);
    });
  });
}`;

/**
 * The filter over the endpoint table: rows whose label holds the text typed
 * (case aside) and whose state is the one chosen; hidden until the script
 * runs, as it does nothing without it.
 */
const ENDPOINT_FILTER_SCRIPT = `{
  const form = document.getElementById('endpoint-filter');
  if (form) {
    form.hidden = false;
    const words = document.getElementById('endpoint-filter-text');
    const state = document.getElementById('endpoint-filter-state');
    const source = document.getElementById('endpoint-filter-source');
    const apply = () => {
      const wanted = words.value.trim().toLowerCase();
      for (const row of document.querySelectorAll('#endpoints tr[data-endpoint]')) {
        row.hidden =
          !row.dataset.endpoint.toLowerCase().includes(wanted) ||
          (state.value !== '' && !row.dataset.state.split(', ').includes(state.value)) ||
          (source !== null && source.value !== '' && !row.dataset.sources.split(' ').includes(source.value));
      }
    };
    words.addEventListener('input', apply);
    state.addEventListener('change', apply);
    if (source !== null) source.addEventListener('change', apply);
    form.addEventListener('submit', (event) => event.preventDefault());
  }
}`;

// Only on a page with a contract section: the tag filter of the operations never called.
const FILTER_SCRIPT = `{
  const select = document.getElementById('untested-tag');
  if (select) select.addEventListener('change', () => {
    for (const group of document.querySelectorAll('[data-tag]')) group.hidden = select.value !== '' && group.dataset.tag !== select.value;
  });
}`;

const hashOf = (script: string) => `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;

/** Nothing may load from anywhere: inline styles, and the page's inline scripts by their hashes. */
function contentSecurityPolicy(scripts: readonly string[]): string {
  return `default-src 'none'; style-src 'unsafe-inline'; script-src ${scripts.map(hashOf).join(' ')}; img-src 'none'; base-uri 'none'; form-action 'none'`;
}

// Colours on white, each at least 4.5:1 for text (WCAG AA) and 3:1 for shapes.
// No table may be wider than the page, whatever the fonts and paths of the machine: a label in a cell
// keeps to one line up to a quarter of the window (30em at most) and wraps anywhere beyond, so that
// it bounds its column; a record's place (Where, the failed calls) and the headers wrap only where
// the table needs the room; numbers and states, short by design, keep to one line.
const STYLE = `
:root { color-scheme: light; --text: #1a1a1a; --muted: #4d4d4d; --line: #c4c4c4; --bad: #a61b1b; --warn: #7a4a00; --good: #1d6630; --p50: #1f4e79; --p95: #4a74a8; --p99: #1a1a1a; }
* { box-sizing: border-box; }
body { margin: 0; background: #fff; color: var(--text); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1200px; margin: 0 auto; padding: 16px; }
h1 { font-size: 1.5rem; margin: 0 0 8px; overflow-wrap: anywhere; }
h2 { font-size: 1.2rem; margin: 32px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
code { font: 0.9em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
td code { display: inline-block; width: max-content; max-width: min(25vw, 30em); }
td[data-label="Where"] code, .detail code { display: inline; }
p { margin: 8px 0; }
.muted { color: var(--muted); }
.verdict { font-size: 1.15rem; font-weight: 600; padding: 8px 12px; border: 2px solid currentColor; border-radius: 6px; display: inline-block; }
.bad { color: var(--bad); }
.warn { color: var(--warn); }
.good { color: var(--good); }
.numbers { display: flex; flex-wrap: wrap; gap: 8px 24px; margin: 12px 0; padding: 0; }
.numbers div { min-width: 7rem; }
.numbers dt { color: var(--muted); font-size: 0.85rem; }
.numbers dd { margin: 0; font-size: 1.3rem; font-weight: 600; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 6px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; }
td.num { white-space: nowrap; }
th button { font: inherit; font-weight: 600; color: inherit; background: none; border: 0; padding: 0; cursor: pointer; text-decoration: underline dotted; }
th[aria-sort="ascending"] button::after { content: " ▲"; }
th[aria-sort="descending"] button::after { content: " ▼"; }
.state { white-space: nowrap; font-weight: 600; }
.chart-row { padding: 6px 0; border-bottom: 1px solid var(--line); }
.chart-label { display: flex; flex-wrap: wrap; gap: 0 12px; align-items: baseline; }
.chart-values { color: var(--muted); font-size: 0.9rem; }
svg.bar { display: block; width: 100%; height: 24px; margin-top: 4px; }
svg.bar .p50 { fill: var(--p50); }
svg.bar .p95 { fill: var(--p95); }
svg.bar .p99 { stroke: var(--p99); stroke-width: 2px; vector-effect: non-scaling-stroke; }
svg.bar .threshold { stroke: var(--bad); stroke-width: 2px; stroke-dasharray: 4 3; vector-effect: non-scaling-stroke; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 0.9rem; color: var(--muted); }
.swatch { display: inline-block; width: 12px; height: 12px; vertical-align: -1px; margin-right: 4px; }
footer { margin-top: 32px; color: var(--muted); font-size: 0.85rem; }
.comparison { margin: 8px 0; }
.note { color: var(--muted); }
.filter { margin: 8px 0; display: flex; flex-wrap: wrap; gap: 4px 8px; align-items: center; }
.filter input, .filter select { font: inherit; padding: 2px 6px; }
details summary { cursor: pointer; }
.detail { white-space: normal; padding: 4px 0 8px; font-size: 0.9rem; }
.detail ul { margin: 4px 0; padding-left: 20px; }
.detail-title { font-weight: 600; margin: 8px 0 2px; }
.detail a { color: var(--p50); }
.excerpt { white-space: pre-wrap; overflow-wrap: anywhere; background: #f4f4f4; padding: 4px 6px; margin: 4px 0; font-size: 0.85em; }
svg.spark { display: inline-block; vertical-align: middle; width: 120px; height: 34px; }
svg.spark .range { fill: #e3ebf5; }
svg.spark polyline { fill: none; stroke: var(--p95); stroke-width: 1.5px; vector-effect: non-scaling-stroke; }
svg.spark .now { fill: var(--p50); }
svg.spark .now.aboveRange { fill: var(--bad); }
svg.spark .failed { fill: var(--bad); }
svg.spark .passed { fill: var(--line); }
.trend-words { display: block; font-size: 0.85em; }
svg.distribution { display: block; width: 100%; height: 80px; }
svg.distribution rect { fill: var(--p95); }
svg.distribution .mark { stroke-width: 2px; vector-effect: non-scaling-stroke; }
svg.distribution .mark.p50 { stroke: var(--p50); }
svg.distribution .mark.p95 { stroke: var(--bad); }
svg.distribution .mark.p99 { stroke: var(--p99); stroke-dasharray: 4 3; }
.mark-p50 { color: var(--p50); }
.mark-p95 { color: var(--bad); }
@media (max-width: 640px) {
  table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; width: 100%; }
  table.cards tr { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 8px; padding: 4px 8px; }
  table.cards td { border: 0; padding: 2px 0; text-align: left; white-space: normal; }
  table.cards td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); font-weight: 400; }
  table.cards td code { display: inline; }
}
`;

/**
 * `quality-summary.html`: one self-contained page (no script, style, font,
 * image or request from anywhere, by its Content-Security-Policy) with the
 * headline and verdict, a chart of each endpoint's p50, p95 and p99 against
 * the slow threshold, the endpoint table (sortable when scripts run), the
 * slowest executions, the changes against the baseline, flaky endpoints and
 * calls with no response. Every endpoint's chart group and table row carries
 * `data-endpoint` with its exact label; every text from input is escaped.
 */
export function renderHtml(report: QualityReport, { reportName = 'quality-summary.json' }: HtmlOptions = {}): string {
  const verdict = verdictOf(report);
  const { shown, more } = worstEndpoints(report, HTML_ENDPOINT_LIMIT);
  const stateOf = endpointStates(report);
  const sections = [
    headline(report, verdict.kind, verdict.text),
    sourceSection(report),
    budgetSection(report, reportName),
    baselineSection(report),
    chartSection(report, shown, stateOf),
    endpointTable(report, shown, stateOf, more, reportName),
    contractSection(report),
    slowestSection(report),
    listSection('Flaky endpoints', 'Failed only in attempts that a retry made good.', report.flakyEndpoints ?? []),
    noResponseSection(report),
    (report.unrecordedCallCount ?? 0) > 0
      ? listSection('Calls not recorded', `${countOf(report.unrecordedCallCount ?? 0, 'API call')} that the tests sent are in no record, so this report leaves them out.`, report.unrecordedEndpoints ?? [])
      : '',
  ];
  const scripts = report.contract === undefined ? [SORT_SCRIPT, ENDPOINT_FILTER_SCRIPT] : [SORT_SCRIPT, ENDPOINT_FILTER_SCRIPT, FILTER_SCRIPT];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(scripts)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>API quality evidence: ${text(shownText(report.environment))}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${sections.filter((section) => section !== '').join('\n')}
<footer><p>${text(PERCENTILE_METHOD)}</p><p>Written by quality-evidence from ${text(reportName)}, which holds every number on this page exactly.</p></footer>
</main>
${scripts.map((script) => `<script>${script}</script>`).join('\n')}
</body>
</html>
`;
}

const VERDICT_CLASSES: Readonly<Record<VerdictKind, { className: string; symbol: string }>> = {
  incomplete: { className: 'warn', symbol: '⚠' },
  'no-executions': { className: 'warn', symbol: '⚠' },
  breached: { className: 'bad', symbol: '✖' },
  held: { className: 'good', symbol: '✔' },
  'no-budgets': { className: 'warn', symbol: '⚠' },
  failed: { className: 'bad', symbol: '✖' },
  clean: { className: 'good', symbol: '✔' },
};

function headline(report: QualityReport, kind: VerdictKind, verdictText: string): string {
  const { className, symbol } = VERDICT_CLASSES[kind];
  const number = (field: string, label: string, value: number) => `<div><dt>${label}</dt><dd data-field="${field}" data-value="${value}">${formatCount(value)}</dd></div>`;
  const numbers = [
    number('executionCount', 'Executions', report.executionCount),
    number('failedExecutionCount', 'Failed', report.failedExecutionCount),
    number('slowExecutionCount', `Slow (over ${formatMs(report.slowResponseThresholdMs)})`, report.slowExecutionCount),
    number('noResponseCount', 'No response', report.noResponseCount),
  ];
  if (report.expectedErrorCount > 0) numbers.push(number('expectedErrorCount', 'Expected errors', report.expectedErrorCount));
  if (report.unrecordedCallCount !== undefined) numbers.push(number('unrecordedCallCount', 'Calls not recorded', report.unrecordedCallCount));
  if (report.skippedAssetCount !== undefined) numbers.push(number('skippedAssetCount', 'Assets left out', report.skippedAssetCount));
  const n = report.executionCount;
  const percentiles =
    n === 0
      ? ''
      : `<p>Response time: ${(['p50', 'p95', 'p99'] as const).map((name) => `<span data-field="responseTimeMs.${name}" data-value="${report.responseTimeMs[name]}">${text(formatPercentile(name, report.responseTimeMs[name], n))}</span>`).join(' · ')} · max <span data-field="responseTimeMs.max" data-value="${report.responseTimeMs.max}">${text(formatMs(report.responseTimeMs.max))}</span></p>`;
  const tests = report.tests === undefined ? '' : `<p class="muted">Tests: ${text(describeTests(report.tests))}</p>`;
  const contract = report.contract === undefined ? '' : `\n<p data-field="contract">Contract: ${text(contractNumbers(report.contract).join(' · '))}</p>`;
  const comparison = report.baseline === undefined ? '' : `\n<p class="comparison" data-field="baseline"><strong>${text(comparisonHeadline(report.baseline))}</strong></p>`;
  const history = report.history === undefined ? '' : `\n<p class="comparison" data-field="history"><strong>${text(historyHeadline(report.history))}</strong>${historySkipped(report.history)}</p>`;
  const hint = passingTestFailureHint(report);
  const note = hint === undefined ? '' : `\n<p class="note" data-field="passingTestFailureCount">ℹ ${text(hint)}.</p>`;
  return `<header>
<h1>API quality evidence: <code>${text(shownText(report.environment))}</code></h1>
<p class="verdict ${className}" data-verdict="${kind}"><span aria-hidden="true">${symbol}</span> ${text(capitalise(verdictText))}</p>
<dl class="numbers">${numbers.join('')}</dl>
${percentiles}
${tests}${contract}${comparison}${history}${note}
</header>`;
}

function budgetSection(report: QualityReport, reportName: string): string {
  const results = report.budgets?.results;
  if (results === undefined) return '';
  if (results.length === 0) return '<section id="budgets"><h2>Budgets</h2><p>The budgets set no limit.</p></section>';
  const { shown, more, breachedMore } = budgetsShown(results, HTML_BUDGET_LIMIT);
  const rows = shown.map(
    (result) =>
      `<tr${result.endpoint === undefined ? '' : ` data-budget-endpoint="${attribute(result.endpoint)}"`}>${budgetMark(result.passed, budgetPassCaveat(report))}<td data-label="Budget"><code>${text(result.budget)}</code></td><td data-label="Endpoint">${budgetSubject(result) === undefined ? 'whole run' : label(budgetSubject(result)!)}</td><td class="num" data-label="Limit">${text(formatBudgetLimit(result))}</td><td class="num" data-label="Measured" data-value="${result.actual ?? ''}">${text(formatMeasured(result))}</td></tr>`,
  );
  const breached = breachedMore > 0 ? `, ${formatCount(breachedMore)} of them breached` : '';
  const note = more > 0 ? `<p>The ${formatCount(shown.length)} budgets shown (breached first) of ${formatCount(results.length)}: ${text(countOf(more, 'more budget'))} in <code>${text(reportName)}</code>${breached}.</p>` : '';
  const flaky = report.budgets?.countFlakyFailures === false ? `<p class="muted">${text(FLAKY_NOT_COUNTED)}</p>` : '';
  return `<section id="budgets"><h2>Budgets</h2>${flaky}<div class="scroll"><table class="cards"><thead><tr><th>Result</th><th>Budget</th><th>Endpoint</th><th class="num">Limit</th><th class="num">Measured</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>${note}</section>`;
}

type Endpoint = QualityReport['endpoints'][number];

/**
 * The logarithmic scale of the chart: whole powers of ten around every p50,
 * p99 and the slow threshold, so that one slow endpoint does not flatten the
 * others. Positions run from 0 to 1000.
 */
function logScale(values: readonly number[]): { readonly low: number; readonly high: number; readonly x: (value: number | null) => number } {
  const positive = values.filter((value) => value > 0);
  const low = 10 ** Math.floor(Math.log10(Math.min(...positive, 1)));
  const highest = Math.max(...positive, 1);
  const high = Math.max(10 ** Math.ceil(Math.log10(highest)), low * 10);
  const span = Math.log10(high) - Math.log10(low);
  return { low, high, x: (value) => (value === null || value <= low ? 0 : Math.min(1000, round(((Math.log10(value) - Math.log10(low)) / span) * 1000))) };
}

function chartSection(report: QualityReport, shown: readonly Endpoint[], stateOf: (endpoint: Endpoint) => EndpointState): string {
  if (shown.length === 0) return '';
  const threshold = report.slowResponseThresholdMs;
  const { low, high, x } = logScale([threshold, ...shown.flatMap((endpoint) => [endpoint.responseTimeMs.p50 ?? 0, endpoint.responseTimeMs.p99 ?? 0])]);
  const thresholdX = Math.min(998, x(threshold));
  const rows = shown.map((endpoint) => {
    const { p50, p95, p99 } = endpoint.responseTimeMs;
    const state = stateOf(endpoint);
    const values = `p50 ${formatMs(p50)} · p95 ${formatMs(p95)} · p99 ${formatMs(p99)} (n=${formatCount(endpoint.executionCount)})`;
    return `<div class="chart-row"><div class="chart-label">${stateBadge(state)} ${label(endpoint.endpoint)} <span class="chart-values">${text(values)}</span></div><svg class="bar" viewBox="0 0 1000 24" preserveAspectRatio="none" role="img" aria-label="${attribute(`${shownText(endpoint.endpoint)}: ${values}`)}"><g data-endpoint="${attribute(endpoint.endpoint)}" data-state="${describeState(state)}"><title>${text(`${shownText(endpoint.endpoint)}: ${values}`)}</title><rect x="0" y="6" width="${x(p50)}" height="12" class="p50"/><rect x="${x(p50)}" y="6" width="${round(x(p95) - x(p50))}" height="12" class="p95"/><line x1="${x(p95)}" y1="12" x2="${x(p99)}" y2="12" class="p99"/><line x1="${x(p99)}" y1="4" x2="${x(p99)}" y2="20" class="p99"/></g><line class="threshold" x1="${thresholdX}" y1="0" x2="${thresholdX}" y2="24"/></svg></div>`;
  });
  return `<section id="chart"><h2>Response time by endpoint</h2>
<p class="legend"><span><span class="swatch" style="background: var(--p50)"></span>up to p50</span><span><span class="swatch" style="background: var(--p95)"></span>p50 to p95</span><span>┤ p99</span><span class="bad">┆ slow threshold, ${text(formatMs(threshold))}</span><span>logarithmic scale, ${text(formatMs(low))} to ${text(formatMs(high))}: each tenfold step is the same width</span></p>
${rows.join('\n')}
</section>`;
}

/** How many failed calls and tests an endpoint's row opens to. */
const HTML_DETAIL_LIMIT = 10;

function endpointTable(report: QualityReport, shown: readonly Endpoint[], stateOf: (endpoint: Endpoint) => EndpointState, more: number, reportName: string): string {
  if (shown.length === 0) return '<section id="endpoints"><h2>Endpoints</h2><p>No endpoint ran.</p></section>';
  const withTrend = report.history !== undefined;
  // In a run split by source, a Source column, and a filter by source.
  const bySource = report.sources !== undefined;
  const rows = shown.map((endpoint) => {
    const n = endpoint.executionCount;
    const times = endpoint.responseTimeMs;
    const state = stateOf(endpoint);
    const sources = endpoint.sources === undefined ? '' : (['api', 'browser'] as const).filter((source) => endpoint.sources![source].executionCount > 0).join(' ');
    const sourceCell = bySource ? `<td data-field="sources" data-label="Source">${text(endpointSourceText(endpoint) ?? '')}</td>` : '';
    return `<tr data-endpoint="${attribute(endpoint.endpoint)}" data-state="${describeState(state)}"${bySource ? ` data-sources="${sources}"` : ''}><td data-label="Status">${stateBadge(state)}</td><td data-label="Endpoint"><details><summary>${label(endpoint.endpoint)}</summary>${endpointDetail(report, endpoint)}</details></td>${sourceCell}${numberCell('executionCount', 'n', n, formatCount(n))}${numberCell('failedExecutionCount', 'Failed', endpoint.failedExecutionCount, formatCount(endpoint.failedExecutionCount))}<td data-field="statusCodes" data-label="Statuses">${text(statusesText(endpoint))}</td>${numberCell('slowExecutionCount', 'Slow', endpoint.slowExecutionCount, formatCount(endpoint.slowExecutionCount))}${(['p50', 'p95', 'p99'] as const).map((name) => numberCell(`responseTimeMs.${name}`, name, times[name], formatMs(times[name]))).join('')}${withTrend ? trendCell(report, endpoint) : ''}</tr>`;
  });
  const note = more > 0 ? `<p>The ${formatCount(shown.length)} worst endpoints (failed first, then by p95) of ${formatCount(report.endpoints.length)}: ${text(countOf(more, 'more endpoint'))} in <code>${text(reportName)}</code>.</p>` : '';
  const filter = `<form id="endpoint-filter" class="filter" hidden><label for="endpoint-filter-text">Filter</label> <input type="search" id="endpoint-filter-text" placeholder="label text" autocomplete="off"> <label for="endpoint-filter-state">State</label> <select id="endpoint-filter-state"><option value="">any</option><option>failing</option><option>flaky</option><option>budget breached</option><option>slow</option><option>ok</option></select>${bySource ? ' <label for="endpoint-filter-source">Source</label> <select id="endpoint-filter-source"><option value="">any</option><option value="api">API clients</option><option value="browser">browser</option></select>' : ''}</form>`;
  return `<section id="endpoints"><h2>Endpoints</h2><p class="muted">Worst first: failed first, then by p95. Click a column to sort; open an endpoint for its failed calls, its tests and its latency distribution.</p>${filter}<div class="scroll"><table class="cards" data-sortable><thead><tr><th>Status</th><th>Endpoint</th>${bySource ? '<th>Source</th>' : ''}<th class="num">n</th><th class="num">Failed</th><th>Statuses</th><th class="num">Slow</th><th class="num">p50</th><th class="num">p95</th><th class="num">p99</th>${withTrend ? '<th>Trend</th>' : ''}</tr></thead><tbody>${rows.join('\n')}</tbody></table></div>${note}</section>`;
}

/** The history's damaged lines, said beside its headline. */
/** The run split by source, and what the browsers' calls that no server answered came to. */
function sourceSection(report: QualityReport): string {
  const rows = sourceRows(report);
  const browser = browserCallsText(report);
  if (rows.length === 0 && browser === undefined) return '';
  const table =
    rows.length === 0
      ? ''
      : `<div class="scroll"><table class="cards"><thead><tr><th>Source</th><th class="num">n</th><th class="num">Failed</th><th class="num">No response</th><th class="num">Slow</th><th class="num">Endpoints</th><th class="num">p50</th><th class="num">p95</th></tr></thead><tbody>${rows
          .map(({ name, statistics }) => {
            const times = statistics.responseTimeMs;
            return `<tr data-source="${attribute(name)}"><td data-label="Source">${text(name)}</td>${numberCell('executionCount', 'n', statistics.executionCount, formatCount(statistics.executionCount))}${numberCell('failedExecutionCount', 'Failed', statistics.failedExecutionCount, formatCount(statistics.failedExecutionCount))}${numberCell('noResponseCount', 'No response', statistics.noResponseCount, formatCount(statistics.noResponseCount))}${numberCell('slowExecutionCount', 'Slow', statistics.slowExecutionCount, formatCount(statistics.slowExecutionCount))}${numberCell('endpointCount', 'Endpoints', statistics.endpointCount, formatCount(statistics.endpointCount))}${numberCell('responseTimeMs.p50', 'p50', times.p50, formatMs(times.p50))}${numberCell('responseTimeMs.p95', 'p95', times.p95, formatMs(times.p95))}</tr>`;
          })
          .join('')}</tbody></table></div>`;
  const counted = browser === undefined ? '' : `<p data-field="browserCallCount" data-value="${report.browserCallCount ?? ''}">${text(`${capitalise(browser)}: the calls not measured are counted apart, never as executions.`)}</p>`;
  return `<section id="sources"><h2>By source</h2>${table}${counted}</section>`;
}

/** A number's cell: its value for sorting and for readers of the page, shown as given. */
function numberCell(field: string, name: string, value: number | null, shownValue: string): string {
  return `<td class="num" data-field="${field}" data-label="${name}" data-value="${value ?? ''}">${text(shownValue)}</td>`;
}

function historySkipped(history: NonNullable<QualityReport['history']>): string {
  const skipped = history.skippedLines ?? [];
  return skipped.length === 0 ? '' : ` <span class="warn">⚠ ${text(countOf(skipped.length, 'line'))} of the history file could not be read and ${skipped.length === 1 ? 'was' : 'were'} left out (line ${text(skipped.map(({ line }) => formatCount(line)).join(', '))})</span>`;
}

/** Where the sparkline draws: the p95 line in the top 24 units, the failure-rate bars in the 8 below. */
const SPARK = { width: 120, lineTop: 2, lineBottom: 22, barBottom: 34, barHeight: 8, margin: 4 } as const;

/**
 * An endpoint's trend cell: a sparkline of its p95 over the earlier runs of
 * the history and this run (the last point, marked), over the band of its
 * range; a strip of bars below it, each run's failure rate; and the trend in
 * words. A run that did not call the endpoint leaves a gap.
 */
function trendCell(report: QualityReport, endpoint: Endpoint): string {
  const entry = endpoint.history;
  const history = report.history;
  if (entry === undefined || history === undefined) return '<td data-label="Trend"></td>';
  const p95s = [...entry.p95, endpoint.responseTimeMs.p95];
  const rates = [...entry.failureRate, endpoint.executionCount === 0 ? null : endpoint.failedExecutionCount / endpoint.executionCount];
  const count = p95s.length;
  const step = count === 1 ? 0 : (SPARK.width - 2 * SPARK.margin) / (count - 1);
  const x = (index: number) => round(count === 1 ? SPARK.width / 2 : SPARK.margin + index * step);
  const present = p95s.filter((value): value is number => value !== null);
  const low = Math.min(...present, entry.p95Range?.low ?? Number.POSITIVE_INFINITY);
  const high = Math.max(...present, entry.p95Range?.high ?? Number.NEGATIVE_INFINITY);
  const y = (value: number) => round(high === low ? (SPARK.lineTop + SPARK.lineBottom) / 2 : SPARK.lineBottom - ((value - low) / (high - low)) * (SPARK.lineBottom - SPARK.lineTop));
  const band = entry.p95Range === null ? '' : `<rect class="range" x="0" y="${y(entry.p95Range.high)}" width="${SPARK.width}" height="${round(y(entry.p95Range.low) - y(entry.p95Range.high))}"/>`;
  // One polyline per stretch of runs that called the endpoint.
  const segments: string[][] = [[]];
  p95s.forEach((value, index) => {
    if (value === null) segments.push([]);
    else segments[segments.length - 1]!.push(`${x(index)},${y(value)}`);
  });
  const lines = segments.filter((points) => points.length > 1).map((points) => `<polyline points="${points.join(' ')}"/>`);
  const current = endpoint.responseTimeMs.p95;
  const now = current === null ? '' : `<circle class="now ${entry.trend}" cx="${x(count - 1)}" cy="${y(current)}" r="2.5"/>`;
  const barWidth = Math.max(1, round((count === 1 ? 8 : step) * 0.7));
  const bars = rates.map((rate, index) => {
    if (rate === null) return '';
    const height = rate === 0 ? 1 : Math.max(2, round(rate * SPARK.barHeight));
    return `<rect class="${rate === 0 ? 'passed' : 'failed'}" x="${round(x(index) - barWidth / 2)}" y="${SPARK.barBottom - height}" width="${barWidth}" height="${height}"/>`;
  });
  const words = `${TREND_ARROWS[entry.trend]} ${trendWords(entry, history.minimumRuns)}`;
  const title = `p95 over ${countOf(count - 1, 'earlier run')} and this one (${formatMs(current)}, the last point); bars: the failure rate of each run; ${words}`;
  return `<td data-label="Trend" data-field="history.trend" data-value="${entry.trend}"><svg class="spark" viewBox="0 0 ${SPARK.width} ${SPARK.barBottom}" role="img" aria-label="${attribute(title)}"><title>${text(title)}</title>${band}${lines.join('')}${now}${bars.join('')}</svg><span class="trend-words">${text(words)}</span></td>`;
}

/** What an endpoint's row opens to: its failed calls with where each came from, its tests, and its latency distribution. */
function endpointDetail(report: QualityReport, endpoint: Endpoint): string {
  const parts: string[] = [];
  const failed = endpoint.failedExecutions ?? [];
  if (failed.length > 0) {
    const items = failed.map(
      (execution) =>
        `<li data-failed-call><strong>${text(failedStatus(execution))}</strong> <code>${text(shownText(`${execution.method} ${execution.path}`))}</code> · ${text(formatMs(execution.responseTimeMs))} · ${testLink(report, execution.test, failedWhere(execution))}${execution.excerpt === undefined ? '' : `<pre class="excerpt">${text(escapeControlCharacters(execution.excerpt))}</pre>`}</li>`,
    );
    const moreFailed = endpoint.failedExecutionCount - failed.length;
    parts.push(`<p class="detail-title">First failed calls${moreFailed > 0 ? ` (${formatCount(moreFailed)} more in the report)` : ''}</p><ul>${items.join('')}</ul>`);
  }
  const tests = (endpoint.tests ?? []).slice(0, HTML_DETAIL_LIMIT);
  if (tests.length > 0) {
    const moreTests = (endpoint.testCount ?? tests.length) - tests.length;
    const items = tests.map((test) => `<li>${testLink(report, test, `${test.file}:${test.line} · ${test.title}`)} · ${text(`${countOf(test.calls, 'call')}, ${formatCount(test.failedCalls)} failed`)}</li>`);
    parts.push(`<p class="detail-title">Tests that called it${moreTests > 0 ? ` (${formatCount(moreTests)} more in the report)` : ''}</p><ul>${items.join('')}</ul>`);
  }
  parts.push(distribution(endpoint));
  return `<div class="detail">${parts.join('')}</div>`;
}

/** A test, linked into Playwright's HTML report when the report says where that is. */
function testLink(report: QualityReport, test: { readonly testId?: string | undefined } | undefined, words: string): string {
  const shown = `<code>${text(shownText(words))}</code>`;
  if (report.playwrightHtmlReport === undefined || test?.testId === undefined) return shown;
  return `<a href="${attribute(`${encodeURI(report.playwrightHtmlReport)}#?testId=${encodeURIComponent(test.testId)}`)}">${shown}</a>`;
}

/** How many columns the distribution chart draws at most: buckets side by side are merged to fit. */
const DISTRIBUTION_COLUMNS = 60;

/**
 * An endpoint's latency distribution from its histogram, on a logarithmic
 * axis: a column per bucket (neighbours merged to at most 60 columns), the
 * exact p50, p95 and p99 marked.
 */
function distribution(endpoint: Endpoint): string {
  const { bins } = endpoint.latencyHistogram;
  if (bins.length === 0) return '';
  const first = bins[0]![0];
  const last = bins[bins.length - 1]![0];
  const width = Math.max(1, Math.ceil((last - first + 1) / DISTRIBUTION_COLUMNS));
  const columns = new Map<number, number>();
  for (const [bucket, count] of bins) {
    const column = Math.floor((bucket - first) / width);
    columns.set(column, (columns.get(column) ?? 0) + count);
  }
  const columnCount = Math.floor((last - first) / width) + 1;
  const tallest = Math.max(...columns.values());
  const columnWidth = 1000 / columnCount;
  const rects = [...columns].map(([column, count]) => {
    const height = round((count / tallest) * 70);
    return `<rect x="${round(column * columnWidth)}" y="${round(80 - height)}" width="${round(Math.max(1, columnWidth - 1))}" height="${height}"><title>${text(countOf(count, 'call'))}</title></rect>`;
  });
  // The axis runs over the buckets' bounds: (γ^(first-1), γ^last].
  const gamma = (1 + endpoint.latencyHistogram.relativeAccuracy) / (1 - endpoint.latencyHistogram.relativeAccuracy);
  const from = Math.log(gamma) * (first - 1);
  const to = Math.log(gamma) * (first + columnCount * width - 1);
  const at = (value: number | null) => (value === null || value <= 0 ? 0 : Math.max(0, Math.min(1000, round(((Math.log(value) - from) / (to - from)) * 1000))));
  const { p50, p95, p99 } = endpoint.responseTimeMs;
  const marks = (
    [
      ['p50', p50],
      ['p95', p95],
      ['p99', p99],
    ] as const
  ).map(([name, value]) => `<line class="mark ${name}" x1="${at(value)}" y1="0" x2="${at(value)}" y2="80"><title>${name} ${text(formatMs(value))}</title></line>`);
  const zeros = endpoint.latencyHistogram.zeroCount > 0 ? ` · ${text(countOf(endpoint.latencyHistogram.zeroCount, 'call'))} of 0 ms not drawn` : '';
  return `<p class="detail-title">Latency distribution</p><svg class="distribution" viewBox="0 0 1000 80" preserveAspectRatio="none" role="img" aria-label="${attribute(`latency distribution of ${shownText(endpoint.endpoint)}, p50 ${formatMs(p50)}, p95 ${formatMs(p95)}, p99 ${formatMs(p99)}`)}">${rects.join('')}${marks.join('')}</svg><p class="legend"><span>${text(formatMs(round(Math.exp(from))))}</span><span class="mark-p50">│ p50 ${text(formatMs(p50))}</span><span class="mark-p95">│ p95 ${text(formatMs(p95))}</span><span class="mark-p99">│ p99 ${text(formatMs(p99))}</span><span>${text(formatMs(round(Math.exp(to))))}, logarithmic${zeros}</span></p>`;
}

function slowestSection(report: QualityReport): string {
  if (report.slowestExecutions.length === 0) return '';
  const rows = report.slowestExecutions.map((execution) => {
    const where = slowestWhere(execution);
    return `<tr><td data-label="Endpoint">${label(execution.endpoint)}</td><td data-label="Status">${text(slowestStatus(execution))}</td><td class="num" data-label="Time" data-value="${execution.responseTimeMs}">${text(formatMs(execution.responseTimeMs))}</td><td data-label="Where">${where === '' ? '' : `<code>${text(shownText(where))}</code>`}</td></tr>`;
  });
  return `<section id="slowest"><h2>Slowest executions</h2><div class="scroll"><table class="cards"><thead><tr><th>Endpoint</th><th>Status</th><th class="num">Time</th><th>Where</th></tr></thead><tbody>${rows.join('')}</tbody></table></div></section>`;
}

function baselineSection(report: QualityReport): string {
  const comparison = report.baseline;
  if (comparison === undefined) return '';
  const lead = `<p>Baseline <code>${text(shownText(comparison.environment.before))}</code>: ${text(baselineNumbers(comparison))}</p>`;
  const changes = baselineChanges(report);
  const method = `<p class="muted">${text(`${SIGNIFICANCE_METHOD} (level ${comparison.significanceLevel}).`)}</p>`;
  const tooFew = tooFewToJudge(comparison, HTML_CHANGE_LIMIT);
  const tooFewLine =
    tooFew.shown.length === 0 ? '' : `<p data-field="tooFewSamples"><strong>Too few samples to judge</strong> (n before → after): ${tooFew.shown.map((entry) => `<code>${text(entry)}</code>`).join(', ')}${tooFew.more > 0 ? text(`, and ${formatCount(tooFew.more)} more`) : ''}.</p>`;
  if (changes.length === 0) return `<section id="baseline"><h2>Changes against the baseline</h2>${lead}<p>No endpoint changed.</p>${tooFewLine}${method}</section>`;
  const rows = changes.slice(0, HTML_CHANGE_LIMIT).map(({ endpoint, kind, entry }) => {
    const regression = isRegression(kind);
    const cell = (name: string, value: string) => `<td class="num" data-label="${name}">${entry === undefined ? '' : text(value)}</td>`;
    return `<tr data-change-endpoint="${attribute(endpoint)}"><td class="state ${regression ? 'bad' : kind === 'new' || kind === 'missing' ? '' : 'good'}" data-label="Change">${regression ? '▲' : kind === 'new' || kind === 'missing' ? '•' : '▼'} ${text(kind)}</td><td data-label="Endpoint">${label(endpoint)}</td>${
      entry === undefined
        ? '<td colspan="6"></td>'
        : [
            cell('p95 before', formatMs(entry.p95.before)),
            cell('p95 after', formatMs(entry.p95.after)),
            cell('p95 change', formatChangePercent(entry.p95.changePercent)),
            cell('n before → after', formatCountChange({ before: entry.latencyTest.nBefore, after: entry.latencyTest.nAfter })),
            cell('p-value', formatPValue(entry.latencyTest.pValue)),
            cell('Failure rate', formatRateChange(entry.failureRate)),
          ].join('')
    }</tr>`;
  });
  const more = changes.length > HTML_CHANGE_LIMIT ? `<p>${text(countOf(changes.length - HTML_CHANGE_LIMIT, 'more change'))} in the report's <code>baseline</code> section.</p>` : '';
  return `<section id="baseline"><h2>Changes against the baseline</h2>${lead}<div class="scroll"><table class="cards"><thead><tr><th>Change</th><th>Endpoint</th><th class="num">p95 before</th><th class="num">p95 after</th><th class="num">p95 change</th><th class="num">n before → after</th><th class="num">p-value</th><th class="num">Failure rate</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>${more}${tooFewLine}${method}</section>`;
}

function noResponseSection(report: QualityReport): string {
  const endpoints = noResponseEndpoints(report);
  if (endpoints.length === 0) return '';
  const rows = endpoints.slice(0, HTML_ENDPOINT_LIMIT).map((endpoint) => `<tr><td data-label="Endpoint">${label(endpoint.endpoint)}</td><td class="num" data-label="No response">${formatCount(endpoint.noResponseCount)}</td><td class="num" data-label="Executions">${formatCount(endpoint.executionCount)}</td></tr>`);
  if (endpoints.length > HTML_ENDPOINT_LIMIT) rows.push(`<tr><td colspan="3">${text(countOf(endpoints.length - HTML_ENDPOINT_LIMIT, 'more endpoint'))} in the report.</td></tr>`);
  return `<section id="no-response"><h2>Requests with no response</h2><p>${text(`${countOf(report.noResponseCount, 'call')} got no response at all (refused, reset, timed out); each counts as failed.`)}</p><div class="scroll"><table class="cards"><thead><tr><th>Endpoint</th><th class="num">No response</th><th class="num">Executions</th></tr></thead><tbody>${rows.join('')}</tbody></table></div></section>`;
}

function contractSection(report: QualityReport): string {
  const contract = report.contract;
  if (contract === undefined) return '';
  const parts = [`<section id="contract"><h2>Contract</h2><p>${text(contractNumbers(contract).join(' · '))}</p>`];
  const undeclared = undeclaredWorstFirst(contract);
  if (undeclared.length > 0) {
    const rows = undeclared
      .slice(0, HTML_ENDPOINT_LIMIT)
      .map(
        (operation) =>
          `<tr data-endpoint="${attribute(operation.endpoint)}"><td data-label="Operation">${label(operation.endpoint)}${operation.operationId === undefined ? '' : ` <span class="muted">${label(operation.operationId)}</span>`}</td><td data-label="Undeclared">${text(operation.undeclaredStatuses.join(', '))}</td><td data-label="Declared">${operation.declaredStatuses.map(label).join(', ')}</td><td class="num" data-label="Calls">${formatCount(operation.executionCount)}</td></tr>`,
      );
    const more = undeclared.length > HTML_ENDPOINT_LIMIT ? `<p>${text(countOf(undeclared.length - HTML_ENDPOINT_LIMIT, 'more operation'))} with undeclared statuses in the report.</p>` : '';
    parts.push(`<h3>Statuses the contract does not declare</h3><div class="scroll"><table class="cards"><thead><tr><th>Operation</th><th>Undeclared</th><th>Declared</th><th class="num">Calls</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>${more}`);
  }
  const violating = violationsWorstFirst(contract);
  if (violating.length > 0) {
    const rows = violating
      .slice(0, HTML_ENDPOINT_LIMIT)
      .map(
        (operation) =>
          `<tr data-endpoint="${attribute(operation.endpoint)}"><td data-label="Operation">${label(operation.endpoint)}${operation.operationId === undefined ? '' : ` <span class="muted">${label(operation.operationId)}</span>`}</td><td data-label="Bodies">${text(bodiesText(operation))}</td><td data-label="Most frequent violations">${operation.topViolations
            .slice(0, SHOWN_VIOLATIONS)
            .map((violation) => label(violationText(violation)))
            .join('<br>')}</td></tr>`,
      );
    const more = violating.length > HTML_ENDPOINT_LIMIT ? `<p>${text(countOf(violating.length - HTML_ENDPOINT_LIMIT, 'more operation'))} with bodies off their schema in the report.</p>` : '';
    parts.push(`<h3>Bodies off their schema</h3><div class="scroll"><table class="cards"><thead><tr><th>Operation</th><th>Bodies</th><th>Most frequent violations</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>${more}`);
  }
  const untested = untestedByTag(contract);
  if (untested.length > 0) {
    const total = untested.reduce((sum, group) => sum + group.operations.length, 0);
    const options = untested.map(({ tag, operations }) => `<option value="${attribute(tag)}">${text(shownText(tag))} (${formatCount(operations.length)})</option>`).join('');
    let room = HTML_ENDPOINT_LIMIT;
    const groups = untested.map(({ tag, operations }) => {
      const listed = operations.slice(0, Math.max(0, room));
      room -= listed.length;
      const cut = listed.length < operations.length ? `<li>${text(`… and ${formatCount(operations.length - listed.length)} more in the report`)}</li>` : '';
      return `<div data-tag="${attribute(tag)}"><h4>${text(shownText(tag))}</h4><ul>${listed.map((operation) => `<li>${label(operation.endpoint)}${operation.deprecated ? ' <span class="muted">deprecated</span>' : ''}</li>`).join('')}${cut}</ul></div>`;
    });
    parts.push(`<h3>Never called (${formatCount(total)})</h3><p><label for="untested-tag">Tag</label> <select id="untested-tag"><option value="">every tag</option>${options}</select></p>${groups.join('')}`);
  }
  if (contract.unmatchedEndpoints.length > 0) {
    const listed = contract.unmatchedEndpoints.slice(0, HTML_ENDPOINT_LIMIT);
    const more = contract.unmatchedEndpoints.length > listed.length ? `<li>${text(`… and ${formatCount(contract.unmatchedEndpoints.length - listed.length)} more in the report`)}</li>` : '';
    parts.push(`<h3>Matching no operation</h3><ul>${listed.map(({ endpoint, executionCount }) => `<li>${label(endpoint)} ×${formatCount(executionCount)}</li>`).join('')}${more}</ul>`);
  }
  if (contract.deprecatedOperationsCalled.length > 0) {
    parts.push(`<h3>Deprecated operations called</h3><ul>${contract.deprecatedOperationsCalled.slice(0, HTML_ENDPOINT_LIMIT).map((endpoint) => `<li>${label(endpoint)}</li>`).join('')}</ul>`);
  }
  parts.push('</section>');
  return parts.join('');
}

function listSection(title: string, lead: string, items: readonly string[]): string {
  if (items.length === 0) return '';
  const more = items.length > HTML_ENDPOINT_LIMIT ? `<li>${text(`… and ${formatCount(items.length - HTML_ENDPOINT_LIMIT)} more in the report`)}</li>` : '';
  return `<section><h2>${text(title)}</h2><p>${text(lead)}</p><ul>${items.slice(0, HTML_ENDPOINT_LIMIT).map((item) => `<li>${label(item)}</li>`).join('')}${more}</ul></section>`;
}

/** A budget's result; on no executions or an incomplete run (the caveat) a budget that holds gets no passing mark. */
function budgetMark(passed: boolean, caveat: string | undefined): string {
  if (!passed) return '<td class="state bad" data-label="Result">✖ fail</td>';
  return caveat !== undefined ? `<td class="state warn" data-label="Result">⚠ pass, ${text(caveat)}</td>` : '<td class="state good" data-label="Result">✔ pass</td>';
}

function stateBadge(state: EndpointState): string {
  const { symbol, tone } = stateMark(state);
  return `<span class="state ${tone}">${symbol} ${text(describeState(state))}</span>`;
}

/** An endpoint label as shown: escaped, in code, the whole label in its title when it was cut. */
function label(endpoint: string): string {
  const shown = shownText(endpoint);
  return `<code${shown === endpoint ? '' : ` title="${attribute(escapeControlCharacters(endpoint))}"`}>${text(shown)}</code>`;
}

/** Escapes text for an element's content. */
function text(value: string): string {
  return value.replace(/[&<>]/g, (char) => (char === '&' ? '&amp;' : char === '<' ? '&lt;' : '&gt;'));
}

/** Escapes text for a double-quoted attribute. */
function attribute(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
