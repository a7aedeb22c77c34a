import { createHash } from 'node:crypto';
import type { QualityReport } from '../qualityReport.js';
import { text } from '../sections/htmlParts.js';
import { REPORT_SECTIONS } from '../sections/index.js';
import type { HtmlContext, HtmlLimits } from '../sections/reportSection.js';
import { shownText } from './presentation.js';

/**
 * How many rows the page lists; the JSON report has them all: endpoints worst
 * first (the chart, the table and each list), budgets breached first,
 * baseline changes regressions first.
 */
const HTML_LIMITS: HtmlLimits = { endpoints: 500, budgets: 500, changes: 200, failingEndpoints: 20 };

/** What the page may say about the report around it. */
export interface HtmlOptions {
  /** The JSON report's file name, for "see quality-summary.json"; default `quality-summary.json`. */
  readonly reportName?: string | undefined;
  /** The traceUrlTemplate setting: each failed call's, slow call's and failed test's trace id links to its trace; without it, the id as code. */
  readonly traceUrlTemplate?: string | undefined;
  /** The history page written beside the report, relative to the report's folder: the history line links to it. */
  readonly dashboardHref?: string | undefined;
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
const COLOURS =
  '--text: #1a1a1a; --muted: #4d4d4d; --line: #c4c4c4; --bad: #a61b1b; --warn: #7a4a00; --good: #1d6630; ' +
  '--p50: #1f4e79; --p95: #4a74a8; --p99: #1a1a1a;';
const STYLE = `
:root { color-scheme: light; ${COLOURS} }
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
#attention ul { list-style: none; margin: 12px 0; padding: 0; }
#attention li { margin: 4px 0; overflow-wrap: anywhere; }
#attention a { color: inherit; font-weight: 600; }
#attention code { color: var(--text); }
.failed-tests { padding-left: 20px; }
.failed-tests ul { margin: 2px 0 6px; padding-left: 20px; }
details.chart > summary { font-size: 1.2rem; font-weight: 600; margin: 32px 0 8px; }
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
 * Each section's HTML comes from its module in src/report/sections/, in the
 * order of REPORT_SECTIONS; this file holds the page around them.
 */
export function renderHtml(
  report: QualityReport,
  { reportName = 'quality-summary.json', traceUrlTemplate, dashboardHref }: HtmlOptions = {},
): string {
  const context: HtmlContext = { reportName, limits: HTML_LIMITS, traceUrlTemplate, dashboardHref };
  const sections = REPORT_SECTIONS.map((section) => section.html?.(report, context) ?? '').filter((section) => section !== '');
  const scripts =
    report.contract === undefined ? [SORT_SCRIPT, ENDPOINT_FILTER_SCRIPT] : [SORT_SCRIPT, ENDPOINT_FILTER_SCRIPT, FILTER_SCRIPT];
  return htmlPage({ title: `API quality evidence: ${shownText(report.environment)}`, style: STYLE, main: sections.join('\n'), scripts });
}

/** A page of its own: its title (escaped here), style, the HTML of its main element, and the scripts it may run. */
export interface HtmlPage {
  readonly title: string;
  readonly style: string;
  readonly main: string;
  readonly scripts: readonly string[];
}

/**
 * The page around a rendering, the report's and the history page's alike:
 * nothing loads from anywhere, and only the page's own inline scripts run
 * (each allowed by its hash, see {@link contentSecurityPolicy}); no referrer.
 */
export function htmlPage({ title, style, main, scripts }: HtmlPage): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(scripts)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${text(title)}</title>
<style>${style}</style>
</head>
<body>
<main>
${main}
</main>
${scripts.map((script) => `<script>${script}</script>`).join('\n')}
</body>
</html>
`;
}
