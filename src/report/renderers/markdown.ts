import type { ContractOperationCoverage } from '../contractSchemas.js';
import type { QualityReport } from '../qualityReport.js';
import { bodiesText, contractNumbers, SHOWN_VIOLATIONS, undeclaredWorstFirst, untestedByTag, violationsWorstFirst, violationText } from './contractPresentation.js';
import {
  browserCallsText,
  endpointSourceText,
  sourceRows,
  budgetSubject,
  baselineChanges,
  comparisonHeadline,
  endpointsWithFailedCalls,
  failedStatus,
  failedWhere,
  FLAKY_NOT_COUNTED,
  formatPValue,
  formatRateChange,
  passingTestFailureHint,
  SIGNIFICANCE_METHOD,
  tooFewToJudge,
  statusesText,
  baselineNumbers,
  budgetsShown,
  capitalise,
  countOf,
  describeState,
  endpointStates,
  formatBudgetLimit,
  formatMeasured,
  formatChangePercent,
  formatCount,
  formatCountChange,
  formatMs,
  formatPercentile,
  headlineNumbers,
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
  endpointsByTrend,
  historyHeadline,
  lastValues,
  TREND_ARROWS,
  trendWords,
  worstEndpoints,
  type BaselineChange,
  type EndpointState,
  type VerdictKind,
} from './presentation.js';

/** How many rows each part of the Markdown lists: endpoints worst first (and each list of endpoints), budgets breached first, baseline changes regressions first, failing endpoints, operations of the contract. */
interface MarkdownLimits {
  readonly endpoints: number;
  readonly budgets: number;
  readonly changes: number;
  readonly failingEndpoints: number;
  readonly operations: number;
  /** Whether the sections past the worst endpoints are written: the contract, the slowest executions, the lists. */
  readonly everySection: boolean;
}

const FULL_LIMITS: MarkdownLimits = { endpoints: 50, budgets: 50, changes: 50, failingEndpoints: 20, operations: 50, everySection: true };

/** The Markdown cut to fit: what a reviewer needs first (the headline, the comparison, budgets, the worst endpoints and their failed calls). */
const CUT_LIMITS: MarkdownLimits = { endpoints: 20, budgets: 20, changes: 20, failingEndpoints: 10, operations: 0, everySection: false };

/**
 * The most bytes the Markdown of the job summary may take: 256 KiB, a
 * quarter of what GitHub accepts in one step's job summary (1 MiB), so that
 * other steps' summaries fit beside it. Past it, the Markdown is cut (see
 * CUT_LIMITS) and says so; the .md file beside the report is written whole.
 */
export const MARKDOWN_BYTE_LIMIT = 256 * 1024;

const VERDICT_MARKS: Readonly<Record<VerdictKind, string>> = {
  incomplete: '⚠️',
  'no-executions': '⚠️',
  breached: '❌',
  held: '✅',
  'no-budgets': '⚠️',
  failed: '❌',
  clean: '✅',
};

/** What the Markdown may say about the report around it. */
export interface MarkdownOptions {
  /** The JSON report's file name, for "see quality-summary.json"; default `quality-summary.json`. */
  readonly reportName?: string | undefined;
  /** The most bytes the Markdown may take; default {@link MARKDOWN_BYTE_LIMIT}. */
  readonly byteLimit?: number | undefined;
}

/**
 * `quality-summary.md`, and what a run appends to the GitHub job summary:
 * a headline with the verdict, the budgets, the worst endpoints, the
 * slowest executions, the changes against the baseline, flaky endpoints and
 * calls with no response. GitHub-flavoured Markdown; every label and other
 * text from input is a code span, so no `|`, backtick or markup in a path
 * can break a table or become a link.
 */
export function renderMarkdown(report: QualityReport, { reportName = 'quality-summary.json', byteLimit = MARKDOWN_BYTE_LIMIT }: MarkdownOptions = {}): string {
  const full = renderWith(report, reportName, FULL_LIMITS);
  if (Buffer.byteLength(full) <= byteLimit) return full;
  const cut = renderWith(report, reportName, CUT_LIMITS);
  const base = reportName.replace(/\.json$/i, '');
  const note = `✂️ This summary is cut to fit GitHub's job summary (over ${formatCount(Math.floor(byteLimit / 1024))} KiB in full): it keeps the headline, the comparison, the budgets and the worst endpoints, and leaves out the rest of the endpoints, the contract, the slowest executions and the lists. The whole summary is in ${code(`${base}.md`)}, every number in ${code(reportName)} and ${code(`${base}.html`)}.`;
  const text = `${cut}\n${note}\n`;
  // Labels are at most 200 characters and the cut tables short, so this holds; should it not, the last lines go, never a half line.
  if (Buffer.byteLength(text) <= byteLimit) return text;
  const lines = cut.split('\n');
  while (lines.length > 0 && Buffer.byteLength(`${lines.join('\n')}\n${note}\n`) > byteLimit) lines.pop();
  return `${lines.join('\n')}\n${note}\n`;
}

function renderWith(report: QualityReport, reportName: string, limits: MarkdownLimits): string {
  const verdict = verdictOf(report);
  const n = report.executionCount;
  const lines: string[] = [
    `## API quality evidence: ${code(report.environment)}`,
    '',
    `${VERDICT_MARKS[verdict.kind]} **${capitalise(verdict.text)}** · ${headlineNumbers(report, { withThreshold: true }).join(' · ')}`,
  ];
  if (n > 0) {
    const times = report.responseTimeMs;
    lines.push('', `Response time: ${(['p50', 'p95', 'p99'] as const).map((name) => formatPercentile(name, times[name], n)).join(' · ')} · max ${formatMs(times.max)}`);
  }
  if (report.baseline !== undefined) lines.push('', `**${comparisonHeadline(report.baseline)}**`);
  if (report.history !== undefined) lines.push('', `**${historyHeadline(report.history)}**`);
  if (report.tests !== undefined) lines.push('', `Tests: ${describeTests(report.tests)}`);
  sourceSection(report, lines);
  const hint = passingTestFailureHint(report);
  if (hint !== undefined) lines.push('', `ℹ️ ${hint}.`);
  budgetSection(report, lines, reportName, limits);
  baselineSection(report, lines, limits);
  historySection(report, lines, reportName, limits);
  endpointSection(report, lines, reportName, limits);
  failedCallSection(report, lines, reportName, limits);
  if (limits.everySection) {
    contractSection(report, lines, reportName, limits);
    slowestSection(report, lines);
    listSection(lines, 'Flaky endpoints', 'Failed only in attempts that a retry made good.', report.flakyEndpoints ?? [], limits);
    noResponseSection(report, lines, limits);
    if ((report.unrecordedCallCount ?? 0) > 0) {
      listSection(lines, 'Calls not recorded', `${countOf(report.unrecordedCallCount ?? 0, 'API call')} that the tests sent are in no record, so this report leaves them out.`, report.unrecordedEndpoints ?? [], limits);
    }
  }
  if (n > 0) lines.push('', `<sub>${PERCENTILE_METHOD}</sub>`);
  return `${lines.join('\n')}\n`;
}

/** The run split by source (API clients, browser), and what the browsers' calls that no server answered came to. */
function sourceSection(report: QualityReport, lines: string[]): void {
  const rows = sourceRows(report);
  const browser = browserCallsText(report);
  if (rows.length === 0 && browser === undefined) return;
  lines.push('', '### By source', '');
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
  if (browser !== undefined) lines.push(`${capitalise(browser)}: the calls not measured are counted apart, never as executions.`);
}

function budgetSection(report: QualityReport, lines: string[], reportName: string, limits: MarkdownLimits): void {
  const results = report.budgets?.results;
  if (results === undefined) return;
  lines.push('', '### Budgets', '');
  if (results.length === 0) {
    lines.push('The budgets set no limit.');
    return;
  }
  if (report.budgets?.countFlakyFailures === false) lines.push(FLAKY_NOT_COUNTED, '');
  lines.push('| Result | Budget | Endpoint | Limit | Measured |', '|---|---|---|---:|---:|');
  const { shown, more, breachedMore } = budgetsShown(results, limits.budgets);
  // On no executions, or an incomplete run, nothing passes for real: a budget that holds says so without a passing mark.
  const caveat = budgetPassCaveat(report);
  for (const result of shown) {
    const mark = !result.passed ? '❌ fail' : caveat !== undefined ? `⚠️ pass, ${caveat}` : '✅ pass';
    lines.push(row([mark, code(result.budget), budgetSubject(result) === undefined ? 'whole run' : code(budgetSubject(result)!), formatBudgetLimit(result), formatMeasured(result)]));
  }
  if (more > 0) {
    const breached = breachedMore > 0 ? `, ${formatCount(breachedMore)} of them breached` : '';
    lines.push('', `The ${formatCount(shown.length)} budgets shown (breached first) of ${formatCount(results.length)}: ${countOf(more, 'more budget')} in ${code(reportName)}${breached}.`);
  }
}

function endpointSection(report: QualityReport, lines: string[], reportName: string, limits: MarkdownLimits): void {
  lines.push('', '### Endpoints', '');
  if (report.endpoints.length === 0) {
    lines.push('No endpoint ran.');
    return;
  }
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
  if (more > 0) lines.push('', `The ${formatCount(shown.length)} worst endpoints (failed first, then by p95) of ${formatCount(report.endpoints.length)}: ${countOf(more, 'more endpoint')} in ${code(reportName)}.`);
}

/** How many tests an endpoint's row names, by file and line (most failed calls first). */
const MARKDOWN_TESTS_PER_ENDPOINT = 3;

// `orders.spec.ts:12 ×3`: the tests by where they are declared, short enough for a table cell.
function testsCell(endpoint: QualityReport['endpoints'][number]): string {
  const tests = endpoint.tests ?? [];
  if (tests.length === 0) return '';
  const named = tests.slice(0, MARKDOWN_TESTS_PER_ENDPOINT).map((test) => `${code(`${test.file}:${test.line}`)} ×${formatCount(test.calls)}`);
  const more = (endpoint.testCount ?? tests.length) - named.length;
  return `${named.join(', ')}${more > 0 ? `, +${formatCount(more)} more` : ''}`;
}

function failedCallSection(report: QualityReport, lines: string[], reportName: string, limits: MarkdownLimits): void {
  const failing = endpointsWithFailedCalls(report);
  if (failing.length === 0) return;
  const stateOf = endpointStates(report);
  lines.push('', '### Failed calls', '', 'The first failed calls of each endpoint, with the test and line behind each.', '');
  lines.push('| Endpoint | Status | Call | Time | Where |', '|---|---|---|---:|---|');
  for (const endpoint of failing.slice(0, limits.failingEndpoints)) {
    const executions = endpoint.failedExecutions ?? [];
    executions.forEach((execution, index) => {
      const first = index === 0 ? `${code(endpoint.endpoint)}${stateOf(endpoint).flaky ? ' (flaky)' : ''}` : '';
      lines.push(row([first, failedStatus(execution), code(`${execution.method} ${execution.path}`), formatMs(execution.responseTimeMs), code(failedWhere(execution))]));
    });
    const more = endpoint.failedExecutionCount - executions.length;
    if (more > 0) lines.push(row(['', '', `… ${countOf(more, 'more failed call')}`, '', '']));
  }
  if (failing.length > limits.failingEndpoints) lines.push('', `${countOf(failing.length - limits.failingEndpoints, 'more failing endpoint')} in ${code(reportName)}.`);
}

const TONE_MARKS = { bad: '❌', warn: '🐢', good: '✅' } as const;

function stateCell(state: EndpointState): string {
  const { symbol, tone } = stateMark(state);
  return `${symbol === '~' ? '⚠️' : TONE_MARKS[tone]} ${describeState(state)}`;
}

function contractSection(report: QualityReport, lines: string[], reportName: string, limits: MarkdownLimits): void {
  const contract = report.contract;
  if (contract === undefined) return;
  lines.push('', '### Contract', '', contractNumbers(contract).join(' · '));
  const undeclared = undeclaredWorstFirst(contract);
  if (undeclared.length > 0) {
    lines.push('', '| Operation | Undeclared statuses | Declared | Calls |', '|---|---|---|---:|');
    for (const operation of undeclared.slice(0, limits.operations)) {
      lines.push(row([operationCell(operation), operation.undeclaredStatuses.join(', '), operation.declaredStatuses.map(code).join(', '), formatCount(operation.executionCount)]));
    }
    if (undeclared.length > limits.operations) lines.push('', `${countOf(undeclared.length - limits.operations, 'more operation')} with undeclared statuses in ${code(reportName)}.`);
  }
  const violating = violationsWorstFirst(contract);
  if (violating.length > 0) {
    lines.push('', '| Operation | Bodies | Most frequent violations |', '|---|---|---|');
    for (const operation of violating.slice(0, limits.operations)) {
      lines.push(row([operationCell(operation), bodiesText(operation), operation.topViolations.slice(0, SHOWN_VIOLATIONS).map((violation) => code(violationText(violation))).join(', ')]));
    }
    if (violating.length > limits.operations) lines.push('', `${countOf(violating.length - limits.operations, 'more operation')} with bodies off their schema in ${code(reportName)}.`);
  }
  const untested = untestedByTag(contract);
  if (untested.length > 0) {
    const total = untested.reduce((sum, group) => sum + group.operations.length, 0);
    lines.push('', `**Never called** (${formatCount(total)}, by tag):`, '');
    let shown = 0;
    for (const { tag, operations } of untested) {
      const room = limits.operations - shown;
      if (room <= 0) break;
      const listed = operations.slice(0, room);
      shown += listed.length;
      lines.push(`- ${code(tag)}: ${listed.map((operation) => code(operation.endpoint)).join(', ')}${listed.length < operations.length ? ', …' : ''}`);
    }
    if (total > shown) lines.push(`- … ${countOf(total - shown, 'more operation')} never called in ${code(reportName)}`);
  }
  if (contract.unmatchedEndpoints.length > 0) {
    const listed = contract.unmatchedEndpoints.slice(0, limits.operations);
    const more = contract.unmatchedEndpoints.length - listed.length;
    lines.push('', `**Matching no operation**: ${listed.map(({ endpoint, executionCount }) => `${code(endpoint)} ×${formatCount(executionCount)}`).join(', ')}${more > 0 ? `, and ${formatCount(more)} more` : ''}`);
  }
  if (contract.deprecatedOperationsCalled.length > 0) {
    lines.push('', `**Deprecated operations called**: ${contract.deprecatedOperationsCalled.slice(0, limits.operations).map(code).join(', ')}`);
  }
}

function operationCell(operation: ContractOperationCoverage): string {
  return operation.operationId === undefined ? code(operation.endpoint) : `${code(operation.endpoint)} (${code(operation.operationId)})`;
}

function slowestSection(report: QualityReport, lines: string[]): void {
  if (report.slowestExecutions.length === 0) return;
  lines.push('', '### Slowest executions', '', '| Endpoint | Status | Time | Where |', '|---|---|---:|---|');
  for (const execution of report.slowestExecutions) {
    const where = slowestWhere(execution);
    lines.push(row([code(execution.endpoint), slowestStatus(execution), formatMs(execution.responseTimeMs), where === '' ? '' : code(where)]));
  }
}

function baselineSection(report: QualityReport, lines: string[], limits: MarkdownLimits): void {
  const comparison = report.baseline;
  if (comparison === undefined) return;
  lines.push(
    '',
    '### Changes against the baseline',
    '',
    `Baseline ${code(comparison.environment.before)}: ${baselineNumbers(comparison)}`,
    '',
  );
  const changes = baselineChanges(report);
  if (changes.length === 0) lines.push('No endpoint changed.');
  else {
    lines.push('| Change | Endpoint | p95 before | p95 after | p95 change | n before → after | p-value | Failure rate |', '|---|---|---:|---:|---:|---|---:|---|');
    for (const change of changes.slice(0, limits.changes)) lines.push(changeRow(change));
    if (changes.length > limits.changes) lines.push('', `${countOf(changes.length - limits.changes, 'more change')} in the report's \`baseline\` section.`);
  }
  // Each endpoint the test could not judge says so, with its samples: a p95 that moved on 5 calls is no change, and no evidence of none.
  const tooFew = tooFewToJudge(comparison, limits.changes);
  if (tooFew.shown.length > 0) lines.push('', `**Too few samples to judge** (n before → after): ${tooFew.shown.map(code).join(', ')}${tooFew.more > 0 ? `, and ${formatCount(tooFew.more)} more` : ''}.`);
  lines.push('', `<sub>${SIGNIFICANCE_METHOD} (level ${comparison.significanceLevel}).</sub>`);
}

function changeRow({ endpoint, kind, entry }: BaselineChange): string {
  return row([
    `${isRegression(kind) ? '🔺' : kind === 'missing' || kind === 'new' ? '•' : '🔻'} ${kind}`,
    code(endpoint),
    entry === undefined ? '' : formatMs(entry.p95.before),
    entry === undefined ? '' : formatMs(entry.p95.after),
    entry === undefined ? '' : formatChangePercent(entry.p95.changePercent),
    entry === undefined ? '' : formatCountChange({ before: entry.latencyTest.nBefore, after: entry.latencyTest.nAfter }),
    entry === undefined ? '' : formatPValue(entry.latencyTest.pValue),
    entry === undefined ? '' : formatRateChange(entry.failureRate),
  ]);
}

/** How many of an endpoint's last p95s the history table shows. */
const MARKDOWN_LAST_RUNS = 5;

function historySection(report: QualityReport, lines: string[], reportName: string, limits: MarkdownLimits): void {
  const history = report.history;
  if (history === undefined) return;
  lines.push('', '### Against the history', '');
  const skipped = history.skippedLines ?? [];
  if (skipped.length > 0) lines.push(`⚠️ ${countOf(skipped.length, 'line')} of the history file could not be read and ${skipped.length === 1 ? 'was' : 'were'} left out: line ${skipped.map(({ line }) => formatCount(line)).join(', ')}.`, '');
  const ranked = endpointsByTrend(report);
  const shown = ranked.slice(0, limits.endpoints);
  if (shown.length === 0) {
    lines.push('No endpoint ran.');
    return;
  }
  lines.push(
    `Each endpoint's p95 against the p95s of its last ${formatCount(history.windowRuns)} earlier runs (their median, and a range of 3.5 modified z-scores, about 5.2 median absolute deviations, on a logarithmic scale); the last ${MARKDOWN_LAST_RUNS} earlier values, oldest first.`,
    '',
    '| Trend | Endpoint | p95 now | Median | Last runs |',
    '|---|---|---:|---:|---|',
  );
  for (const endpoint of shown) {
    const entry = endpoint.history!;
    lines.push(row([`${TREND_ARROWS[entry.trend]} ${trendWords(entry, history.minimumRuns)}`, code(endpoint.endpoint), formatMs(endpoint.responseTimeMs.p95), formatMs(entry.p95Median), lastValues(entry.p95, MARKDOWN_LAST_RUNS)]));
  }
  if (ranked.length > shown.length) lines.push('', `${countOf(ranked.length - shown.length, 'more endpoint')} in ${code(reportName)}.`);
}

function noResponseSection(report: QualityReport, lines: string[], limits: MarkdownLimits): void {
  const endpoints = noResponseEndpoints(report);
  if (endpoints.length === 0) return;
  lines.push('', '### Requests with no response', '', `${countOf(report.noResponseCount, 'call')} got no response at all (refused, reset, timed out); each counts as failed.`, '');
  lines.push('| Endpoint | No response | Executions |', '|---|---:|---:|');
  for (const endpoint of endpoints.slice(0, limits.endpoints)) lines.push(row([code(endpoint.endpoint), formatCount(endpoint.noResponseCount), formatCount(endpoint.executionCount)]));
  if (endpoints.length > limits.endpoints) lines.push('', `${countOf(endpoints.length - limits.endpoints, 'more endpoint')} in the report.`);
}

function listSection(lines: string[], title: string, lead: string, items: readonly string[], limits: MarkdownLimits): void {
  if (items.length === 0) return;
  lines.push('', `### ${title}`, '', lead, '', ...items.slice(0, limits.endpoints).map((item) => `- ${code(item)}`));
  if (items.length > limits.endpoints) lines.push(`- … and ${formatCount(items.length - limits.endpoints)} more in the report`);
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/**
 * Text from input as a code span: shown as written, with no markup, link or
 * emoji; a `|` escaped for the table, and fenced with one backtick more than
 * the longest run inside (CommonMark's rule), padded when it starts or ends
 * with one.
 */
export function code(text: string): string {
  const shown = shownText(text).replace(/\|/g, '\\|');
  const longestRun = Math.max(0, ...(shown.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = shown.startsWith('`') || shown.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}
