import { PACKAGE_VERSION } from '../packageVersion.js';
import { escapeControlCharacters } from '../renderValue.js';
import { htmlPage } from '../report/renderers/html.js';
import { countOf, formatChangePercent, formatCount, formatMs, numberFormat, shownText } from '../report/renderers/presentation.js';
import { attribute, label, text } from '../report/sections/htmlParts.js';
import type { DashboardEndpoint, DashboardFlakiness, DashboardModel, DashboardRun, DashboardTest } from './dashboardModel.js';

/**
 * The history page (docs/dashboard.md): one self-contained HTML file, drawn
 * on the server side (every table and drawing is in the file; the page reads
 * the same without scripts), then enhanced by one small inline script, the
 * only one its Content-Security-Policy allows (by its hash, as the report's
 * page): the filter, and the runs' box scrolled to the newest. Nothing loads
 * from anywhere. Every text from the history is escaped; a run's report is a
 * link only when it is an http or https URL.
 */

/** What the page may say about where it came from. */
export interface DashboardPageOptions {
  /** The history file's name, as the page's footer says it. */
  readonly historyName?: string | undefined;
  /** The endpoints shown before the fold (the rest are in a details element); default 50. */
  readonly shownEndpoints?: number | undefined;
}

/** The endpoints listed open by default: what changed most; the others are folded, so the first screen stays small. */
export const SHOWN_ENDPOINTS = 50;

/** The points of a sparkline at most: it is 120 pixels wide, so more would draw nothing more. */
export const SPARKLINE_POINTS = 60;

const FILTER_SCRIPT = `{
  const form = document.getElementById('filter');
  const words = document.getElementById('filter-text');
  const state = document.getElementById('filter-state');
  const environment = document.getElementById('filter-environment');
  const count = document.getElementById('filter-count');
  const more = document.getElementById('more-endpoints');
  const rows = Array.from(document.querySelectorAll('#endpoints tr[data-endpoint]'));
  const runs = Array.from(document.querySelectorAll('#runs tr[data-environment]'));
  const apply = () => {
    const wanted = words.value.trim().toLowerCase();
    let shown = 0;
    for (const row of rows) {
      row.hidden =
        !row.dataset.endpoint.toLowerCase().includes(wanted) ||
        (state.value !== '' && row.dataset.state !== state.value) ||
        (environment.value !== '' && row.dataset.environment !== environment.value);
      if (!row.hidden) shown++;
    }
    for (const row of runs) row.hidden = environment.value !== '' && row.dataset.environment !== environment.value;
    if (more !== null && (wanted !== '' || state.value !== '' || environment.value !== '')) more.open = true;
    count.textContent = shown + ' of ' + rows.length + ' shown';
  };
  form.hidden = false;
  words.addEventListener('input', apply);
  state.addEventListener('change', apply);
  environment.addEventListener('change', apply);
  form.addEventListener('submit', (event) => event.preventDefault());
  const box = document.getElementById('run-box');
  box.scrollTop = box.scrollHeight;
}`;

// As the report's page: colours on white at least 4.5:1 for text, 3:1 for shapes; no table wider than the page.
const STYLE = `
:root { color-scheme: light; --text: #1a1a1a; --muted: #4d4d4d; --line: #c4c4c4; --bad: #a61b1b; --warn: #7a4a00; --good: #1d6630;
  --p50: #1f4e79; --p95: #4a74a8; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; background: #fff; color: var(--text); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1240px; margin: 0 auto; padding: 16px; }
h1 { font-size: 1.5rem; margin: 0 0 8px; }
h2 { font-size: 1.2rem; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
p { margin: 8px 0; }
code { font: 0.9em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.muted, .note { color: var(--muted); }
.bad { color: var(--bad); }
.warn { color: var(--warn); }
.good { color: var(--good); }
.numbers { display: flex; flex-wrap: wrap; gap: 8px 24px; margin: 12px 0; padding: 0; }
.numbers dt { color: var(--muted); font-size: 0.85rem; }
.numbers dd { margin: 0; font-size: 1.2rem; font-weight: 600; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { position: sticky; top: 0; background: #fff; }
td.num, th.num { text-align: right; white-space: nowrap; }
td code { display: inline-block; max-width: min(30vw, 30em); }
td[data-label="Endpoint"] { min-width: 10em; }
td[data-field="p95Range"] { white-space: normal; }
.nowrap { white-space: nowrap; }
.scroll { overflow: auto; max-width: 100%; }
#run-box { max-height: 26rem; border: 1px solid var(--line); }
#run-box table { font-size: 0.9rem; }
#run-box td, #run-box th { white-space: nowrap; }
.state { font-weight: 600; white-space: nowrap; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 0.9rem; color: var(--muted); }
.swatch { display: inline-block; width: 12px; height: 12px; vertical-align: -1px; margin-right: 4px; }
svg.timeline { display: block; width: 100%; height: 140px; border: 1px solid var(--line); }
svg.timeline path { fill: none; vector-effect: non-scaling-stroke; }
.executions { stroke: #9db4d3; background: #9db4d3; stroke-width: 2px; }
.failed { stroke: var(--bad); background: var(--bad); stroke-width: 2px; }
.shift { stroke: var(--text); background: var(--text); stroke-width: 1.5px; }
.axis { stroke: var(--line); stroke-width: 1px; }
svg.spark { display: block; width: 120px; height: 32px; }
svg.spark path { fill: none; stroke-width: 1.5px; vector-effect: non-scaling-stroke; }
svg.spark .p50 { stroke: var(--p50); }
svg.spark .p95 { stroke: var(--p95); stroke-dasharray: 3 2; }
.filter { margin: 8px 0; display: flex; flex-wrap: wrap; gap: 4px 8px; align-items: center; }
.filter input, .filter select { font: inherit; padding: 2px 6px; max-width: 100%; }
details summary { cursor: pointer; margin: 8px 0; font-weight: 600; }
footer { margin-top: 32px; color: var(--muted); font-size: 0.85rem; }
@media (max-width: 640px) {
  main { padding: 8px; }
  table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; width: 100%; }
  table.cards tr { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 8px; padding: 4px 8px; }
  table.cards td { border: 0; padding: 2px 0; text-align: left; white-space: normal; }
  table.cards td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); }
  table.cards td code { display: inline; max-width: none; }
}
`;

/** Renders the history page of a model (see dashboardModel.ts). */
export function renderDashboard(
  model: DashboardModel,
  { historyName, shownEndpoints = SHOWN_ENDPOINTS }: DashboardPageOptions = {},
): string {
  const scripts = [FILTER_SCRIPT];
  const shown = model.endpoints.slice(0, shownEndpoints);
  const folded = model.endpoints.slice(shownEndpoints);
  // The coverage columns only where some run had a contract: the first screen's width goes to what every run has.
  const withContract = model.runs.some((run) => run.contract !== undefined);
  const withReport = model.runs.some((run) => run.reportUrl !== undefined);
  // The window as the runs fill it: "the last 25 runs" of a history of 25, not the 30 it could hold.
  const windowRuns = Math.min(model.flakinessRuns, Math.max(0, ...model.endpoints.map((entry) => entry.runCount)));
  const main = `<h1>API quality history</h1>
${headline(model)}
<section id="runs">
<h2>Runs over time</h2>
${timeline(model.runs)}
<div class="scroll" id="run-box" tabindex="0">
<table id="run-table">
<thead><tr><th class="num">Run</th><th>Verdict</th>${withReport ? '<th>Report</th>' : ''}<th>Time (UTC)</th><th>Environment</th><th class="num">Executions</th>\
<th class="num">Failed</th><th class="num">Failed tests</th>${withContract ? '<th class="num">Operations</th><th class="num">Conditions</th>' : ''}\
<th class="num">p95 shift</th><th>Commit</th><th>Branch</th><th>Run id</th></tr></thead>
<tbody>
${model.runs.map((run) => runRow(run, { withContract, withReport })).join('\n')}
</tbody>
</table>
</div>
</section>
<section id="endpoints">
<h2>Endpoints, what changed most first</h2>
<p class="note">Sorted by how far each endpoint's last p95 moved from the median of its earlier p95s (its last 20 runs), either way.
Failure rate and flakiness over the last ${countOf(windowRuns, 'run')} of each environment.
Sparklines: p50 solid, p95 dashed, over every run of the environment.</p>
${filterForm(model)}
${endpointTable('endpoint-table', shown)}
${
  folded.length === 0
    ? ''
    : `<details id="more-endpoints"><summary>The other ${formatCount(folded.length)} endpoints</summary>
${endpointTable('more-endpoint-table', folded)}
</details>`
}
</section>
${testSection(model, shownEndpoints)}
<footer>Drawn by quality-evidence ${PACKAGE_VERSION}${historyName === undefined ? '' : ` from ${text(shownText(historyName))}`}: \
${countOf(model.runs.length, 'run')}, ${countOf(model.endpoints.length, 'endpoint')}. No request leaves this page.</footer>`;
  return htmlPage({ title: 'API quality history', style: STYLE, main, scripts });
}

function headline(model: DashboardModel): string {
  const { runs, endpoints, environments, skippedLines } = model;
  if (runs.length === 0) return '<p>The history holds no run yet: a run with <code>historyPath</code> set appends one.</p>';
  const last = runs.at(-1)!;
  const failed = runs.filter((run) => run.verdict === 'failed').length;
  const flaky = endpoints.filter((entry) => entry.flakiness?.state === 'flaky').length;
  const failing = endpoints.filter((entry) => entry.flakiness?.state === 'failing').length;
  const skipped =
    skippedLines.length === 0
      ? ''
      : `<p class="warn">${formatCount(skippedLines.length)} ${skippedLines.length === 1 ? 'line' : 'lines'} of the history file left out: ${skippedLines
          .slice(0, 5)
          .map((skipped) => `line ${skipped.line} ${text(shownText(skipped.message))}`)
          .join('; ')}${skippedLines.length > 5 ? '; …' : ''}.</p>`;
  const number = (name: string, value: string, tone = '') =>
    `<div><dt>${name}</dt><dd${tone === '' ? '' : ` class="${tone}"`}>${value}</dd></div>`;
  return `<p>From ${timeText(runs[0]!.time)} to ${timeText(last.time)} UTC, \
${environments.length === 1 ? 'environment' : 'environments'} ${environments.map((name) => `<code>${text(shownText(name))}</code>`).join(', ')}.</p>
<dl class="numbers">
${number('Runs', formatCount(runs.length))}
${number('Failed runs', formatCount(failed), failed > 0 ? 'bad' : '')}
${number('Last run', last.verdict, last.verdict === 'failed' ? 'bad' : 'good')}
${number('Endpoints', formatCount(endpoints.length))}
${number('Flaky', formatCount(flaky), flaky > 0 ? 'warn' : '')}
${number('Failing', formatCount(failing), failing > 0 ? 'bad' : '')}
</dl>
${skipped}`;
}

// 2026-01-05T10:00:00.000Z as 2026-01-05 10:00, in a time element with the whole of it.
function timeText(time: string): string {
  return `<time datetime="${attribute(time)}">${text(time.slice(0, 16).replace('T', ' '))}</time>`;
}

/**
 * Three bands, one unit of width a run, one path each: executions (bars, to
 * the greatest), failed executions (bars, to the greatest of their own: a
 * few failures among thousands of calls must show) and the run's p95 shift
 * (a line about its own zero, to the widest shift).
 */
function timeline(runs: readonly DashboardRun[]): string {
  if (runs.length === 0) return '';
  const most = Math.max(1, ...runs.map((run) => run.executionCount));
  const mostFailed = Math.max(1, ...runs.map((run) => run.failedExecutionCount));
  const widest = Math.max(1, ...runs.map((run) => Math.abs(run.runShiftPercent ?? 0)));
  const bars = (pick: (run: DashboardRun) => number, greatest: number, bottom: number, height: number) =>
    runs
      .map((run, index) => (pick(run) === 0 ? '' : `M${index + 0.5} ${bottom}V${round(bottom - (pick(run) / greatest) * height)}`))
      .join('');
  let shift = '';
  let drawing = false;
  runs.forEach((run, index) => {
    if (run.runShiftPercent === null) {
      drawing = false;
      return;
    }
    shift += `${drawing ? 'L' : 'M'}${index + 0.5} ${round(86 - (run.runShiftPercent / widest) * 13)}`;
    drawing = true;
  });
  const width = runs.length;
  return `<svg class="timeline" viewBox="0 0 ${width} 100" preserveAspectRatio="none" role="img" \
aria-label="Executions, failed executions and the p95 shift of each run, oldest first">
<path class="axis" d="M0 40H${width}M0 70H${width}M0 86H${width}"/>
<path class="executions" d="${bars((run) => run.executionCount, most, 40, 38)}"/>
<path class="failed" d="${bars((run) => run.failedExecutionCount, mostFailed, 70, 27)}"/>
<path class="shift" d="${shift}"/>
</svg>
<p class="legend"><span><span class="swatch executions"></span>executions, top band (highest ${formatCount(most)})</span>\
<span><span class="swatch failed"></span>failed executions, middle band (highest ${formatCount(mostFailed)})</span>\
<span><span class="swatch shift"></span>p95 shift of the whole run, bottom band (±${formatChangePercent(widest).replace('+', '')} at its edges)</span>\
<span>oldest left, newest right</span></p>`;
}

function runRow(run: DashboardRun, { withContract, withReport }: { withContract: boolean; withReport: boolean }): string {
  const verdict = run.verdict === 'failed' ? '<span class="state bad">✖ failed</span>' : '<span class="state good">✔ passed</span>';
  const number = (field: string, value: number | null | undefined, shown: string) =>
    `<td class="num" data-field="${field}" data-value="${value ?? ''}">${shown}</td>`;
  const optional = (value: string | undefined, limit = 40) =>
    value === undefined
      ? '<td></td>'
      : `<td title="${attribute(escapeControlCharacters(value))}"><code>${text(shortened(value, limit))}</code></td>`;
  const budgets = run.budgetsPassed === false ? ' <span class="bad">(budgets)</span>' : '';
  return `<tr data-run="${run.position}" data-environment="${attribute(run.environment)}" data-verdict="${run.verdict}">\
${number('run', run.position + 1, formatCount(run.position + 1))}<td data-field="verdict">${verdict}${budgets}</td>\
${withReport ? reportCell(run) : ''}\
<td>${timeText(run.time)}</td><td><code>${text(shownText(run.environment))}</code></td>\
${number('executionCount', run.executionCount, formatCount(run.executionCount))}\
${number('failedExecutionCount', run.failedExecutionCount, formatCount(run.failedExecutionCount))}\
${number('failedTestCount', run.failedTestCount, run.failedTestCount === undefined ? '' : formatCount(run.failedTestCount))}\
${withContract ? coverageCells(run, number) : ''}\
${number('runShift', run.runShiftPercent, formatChangePercent(run.runShiftPercent))}\
${optional(run.commit, 11)}${optional(run.branch)}${optional(run.runId)}</tr>`;
}

function reportCell({ reportUrl }: DashboardRun): string {
  return `<td>${reportUrl === undefined ? '' : `<a href="${attribute(reportUrl)}" rel="noopener noreferrer">report</a>`}</td>`;
}

function coverageCells(run: DashboardRun, number: (field: string, value: number | null | undefined, shown: string) => string): string {
  const { contract } = run;
  return (
    number(
      'operationCoverage',
      contract?.operationCoveragePercent,
      contract === undefined ? '' : percentText(contract.operationCoveragePercent),
    ) +
    number(
      'conditionCoverage',
      contract?.conditionCoveragePercent,
      contract === undefined ? '' : percentText(contract.conditionCoveragePercent),
    )
  );
}

function filterForm(model: DashboardModel): string {
  const options = (values: readonly string[]) =>
    values.map((value) => `<option value="${attribute(value)}">${text(shownText(value))}</option>`).join('');
  return `<form id="filter" class="filter" hidden>
<label>Endpoint <input id="filter-text" type="search" autocomplete="off" placeholder="part of a label"></label>
<label>State <select id="filter-state"><option value="">any</option>${options(['flaky', 'failing', 'steady'])}</select></label>
<label>Environment <select id="filter-environment"><option value="">any</option>${options(model.environments)}</select></label>
<output id="filter-count"></output>
</form>`;
}

function endpointTable(id: string, endpoints: readonly DashboardEndpoint[]): string {
  return `<table class="cards" id="${id}">
<thead><tr><th>Endpoint</th><th>Environment</th><th class="num">Change</th><th class="num">p50</th><th class="num">p95</th><th class="num">p95 range</th>\
<th>Over the runs</th><th class="num">Failure rate</th><th class="num">Last run</th><th class="num">Flakiness</th><th>State</th></tr></thead>
<tbody>
${endpoints.map(endpointRow).join('\n')}
</tbody>
</table>`;
}

const STATES = { flaky: 'warn', failing: 'bad', steady: 'good' } as const;

// The score, and the runs it is based on under it.
function scoreText(flakiness: DashboardFlakiness): string {
  return `${percentText(flakiness.score * 100)}<br><span class="muted">${formatCount(flakiness.flakyRunCount)} of \
${countOf(flakiness.runCount, 'run')}</span>`;
}

function stateCell({ state, trend }: DashboardFlakiness): string {
  return `<td data-field="state" data-label="State"><span class="state ${STATES[state]}">${state}</span>\
${trend === 'stable' ? '' : ` <span class="muted">${trend}</span>`}</td>`;
}

/** The tests flaky or failing in the window; nothing when no line holds the run's tests (the command's lines). */
function testSection(model: DashboardModel, shownTests: number): string {
  if (!model.runs.some((run) => run.failedTestCount !== undefined)) return '';
  const heading = '<section id="tests">\n<h2>Tests, flaky and failing</h2>';
  if (model.tests.length === 0) return `${heading}\n<p>No test was flaky or failing in the window.</p>\n</section>`;
  const table = (tests: readonly DashboardTest[]) => `<table class="cards">
<thead><tr><th>Test</th><th>Environment</th><th class="num">Flakiness</th><th>State</th></tr></thead>
<tbody>
${tests.map(testRow).join('\n')}
</tbody>
</table>`;
  const folded = model.tests.slice(shownTests);
  return `${heading}
<p class="note">Scored as the endpoints are, per test (its file, line and title), from the lines that hold the run's tests.</p>
${table(model.tests.slice(0, shownTests))}
${folded.length === 0 ? '' : `<details><summary>The other ${formatCount(folded.length)} tests</summary>\n${table(folded)}\n</details>`}
</section>`;
}

function testRow(entry: DashboardTest): string {
  return `<tr data-test="${attribute(`${entry.file}:${entry.line}`)}" data-state="${entry.flakiness.state}">\
<td data-label="Test"><code>${text(shownText(`${entry.file}:${entry.line}`))}</code> ${text(shownText(entry.title))}</td>\
<td data-label="Environment"><code>${text(shownText(entry.environment))}</code></td>\
<td class="num" data-field="flakinessScore" data-label="Flakiness" data-value="${entry.flakiness.score}">${scoreText(entry.flakiness)}</td>\
${stateCell(entry.flakiness)}</tr>`;
}

function endpointRow(entry: DashboardEndpoint): string {
  const cell = (field: string, name: string, value: number | null, shown: string) =>
    `<td class="num" data-field="${field}" data-label="${name}" data-value="${value ?? ''}">${shown}</td>`;
  const range =
    entry.p95Range === null
      ? 'n/a'
      : `<span class="nowrap">${formatMs(entry.p95Range.low)} –</span> <span class="nowrap">${formatMs(entry.p95Range.high)}</span>`;
  const { flakiness } = entry;
  const failure =
    entry.failureRate === null
      ? 'n/a'
      : `${percentText(entry.failureRate * 100)}<br><span class="muted">${formatCount(entry.windowFailedExecutionCount)} of \
${countOf(entry.windowExecutionCount, 'call')}</span>`;
  const score = flakiness === undefined ? 'n/a' : scoreText(flakiness);
  const state = flakiness === undefined ? '<td data-field="state" data-label="State">not in the window</td>' : stateCell(flakiness);
  return `<tr data-endpoint="${attribute(entry.endpoint)}" data-environment="${attribute(entry.environment)}" \
data-state="${flakiness?.state ?? ''}"><td data-label="Endpoint">${label(entry.endpoint)}</td>\
<td data-label="Environment"><code>${text(shownText(entry.environment))}</code></td>\
${cell('p95Change', 'Change', entry.p95ChangePercent, formatChangePercent(entry.p95ChangePercent))}\
${cell('lastP50', 'p50', entry.lastP50, formatMs(entry.lastP50))}${cell('lastP95', 'p95', entry.lastP95, formatMs(entry.lastP95))}\
<td class="num" data-field="p95Range" data-label="p95 range">${range}</td>\
<td data-label="Over ${formatCount(entry.runCount)} runs">${sparkline(entry)}</td>\
${cell('failureRate', 'Failure rate', entry.failureRate, failure)}\
${cell('lastFailureRate', 'Last run', entry.lastFailureRate, percentText(entry.lastFailureRate * 100))}\
${cell('flakinessScore', 'Flakiness', flakiness?.score ?? null, score)}\
${state}</tr>`;
}

/**
 * p50 and p95 over the environment's runs, one path each on one scale (0 at
 * the bottom, the greatest p95 at the top): at most {@link SPARKLINE_POINTS}
 * points, each the greatest of its share of the runs, so a spike shows; a
 * gap where no run of a share had a time.
 */
function sparkline(entry: DashboardEndpoint): string {
  const top = Math.max(...entry.p95s.map((value) => value ?? 0), ...entry.p50s.map((value) => value ?? 0));
  if (top <= 0) return '';
  const p50 = squeezed(entry.p50s);
  const p95 = squeezed(entry.p95s);
  const path = (points: readonly (number | null)[]) => {
    const segments: string[][] = [];
    let segment: string[] | undefined;
    points.forEach((value, index) => {
      if (value === null) {
        segment = undefined;
        return;
      }
      if (segment === undefined) {
        segment = [];
        segments.push(segment);
      }
      segment.push(`${index} ${Math.round(30 - (value / top) * 28)}`);
    });
    // A lone point is a dot: a short line.
    return segments.map((part) => (part.length === 1 ? `M${part[0]}h0.5` : `M${part[0]}L${part.slice(1).join(' ')}`)).join('');
  };
  const width = Math.max(1, p95.length - 1);
  return `<svg class="spark" viewBox="0 0 ${width} 32" preserveAspectRatio="none" role="img" \
aria-label="p50 and p95 over ${formatCount(entry.runCount)} runs, up to ${attribute(formatMs(top))}">\
<path class="p50" d="${path(p50)}"/><path class="p95" d="${path(p95)}"/></svg>`;
}

// At most SPARKLINE_POINTS values, each the greatest of its consecutive share of the series (null where the share has none).
function squeezed(series: readonly (number | null)[]): (number | null)[] {
  if (series.length <= SPARKLINE_POINTS) return [...series];
  const points: (number | null)[] = [];
  for (let point = 0; point < SPARKLINE_POINTS; point++) {
    const share = series.slice(
      Math.floor((point * series.length) / SPARKLINE_POINTS),
      Math.floor(((point + 1) * series.length) / SPARKLINE_POINTS),
    );
    const known = share.filter((value) => value !== null);
    points.push(known.length === 0 ? null : Math.max(...known));
  }
  return points;
}

const PERCENT = numberFormat({ maximumFractionDigits: 2 });

function percentText(percent: number | null): string {
  return percent === null ? 'n/a' : `${PERCENT.format(percent)}%`;
}

function shortened(value: string, limit: number): string {
  const shown = escapeControlCharacters(value);
  return shown.length <= limit ? shown : `${shown.slice(0, limit - 1)}…`;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
