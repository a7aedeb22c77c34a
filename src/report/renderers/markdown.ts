import type { ContractOperationCoverage } from '../contractSchemas.js';
import type { QualityReport } from '../qualityReport.js';
import { bodiesText, contractNumbers, SHOWN_VIOLATIONS, undeclaredWorstFirst, untestedByTag, violationsWorstFirst, violationText } from './contractPresentation.js';
import {
  budgetSubject,
  baselineChanges,
  baselineNumbers,
  budgetsShown,
  capitalise,
  countOf,
  describeState,
  endpointStates,
  formatBudgetLimit,
  formatBudgetValue,
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
  worstEndpoints,
  type BaselineChange,
  type EndpointState,
  type VerdictKind,
} from './presentation.js';

/** How many endpoints the Markdown table lists, worst first (and each list of endpoints at most). */
const MARKDOWN_ENDPOINT_LIMIT = 50;

/** How many budgets the Markdown table lists, breached first. */
const MARKDOWN_BUDGET_LIMIT = 50;

/** How many baseline changes the Markdown lists, regressions first. */
const MARKDOWN_CHANGE_LIMIT = 50;

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
}

/**
 * `quality-summary.md`, and what a run appends to the GitHub job summary:
 * a headline with the verdict, the budgets, the worst endpoints, the
 * slowest executions, the changes against the baseline, flaky endpoints and
 * calls with no response. GitHub-flavoured Markdown; every label and other
 * text from input is a code span, so no `|`, backtick or markup in a path
 * can break a table or become a link.
 */
export function renderMarkdown(report: QualityReport, { reportName = 'quality-summary.json' }: MarkdownOptions = {}): string {
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
  if (report.tests !== undefined) lines.push('', `Tests: ${describeTests(report.tests)}`);
  budgetSection(report, lines, reportName);
  endpointSection(report, lines, reportName);
  contractSection(report, lines, reportName);
  slowestSection(report, lines);
  baselineSection(report, lines);
  listSection(lines, 'Flaky endpoints', 'Failed only in attempts that a retry made good.', report.flakyEndpoints ?? []);
  noResponseSection(report, lines);
  if ((report.unrecordedCallCount ?? 0) > 0) {
    listSection(lines, 'Calls not recorded', `${countOf(report.unrecordedCallCount ?? 0, 'API call')} that the tests sent are in no record, so this report leaves them out.`, report.unrecordedEndpoints ?? []);
  }
  if (n > 0) lines.push('', `<sub>${PERCENTILE_METHOD}</sub>`);
  return `${lines.join('\n')}\n`;
}

function budgetSection(report: QualityReport, lines: string[], reportName: string): void {
  const results = report.budgets?.results;
  if (results === undefined) return;
  lines.push('', '### Budgets', '');
  if (results.length === 0) {
    lines.push('The budgets set no limit.');
    return;
  }
  lines.push('| Result | Budget | Endpoint | Limit | Measured |', '|---|---|---|---:|---:|');
  const { shown, more, breachedMore } = budgetsShown(results, MARKDOWN_BUDGET_LIMIT);
  // On no executions, or an incomplete run, nothing passes for real: a budget that holds says so without a passing mark.
  const caveat = budgetPassCaveat(report);
  for (const result of shown) {
    const mark = !result.passed ? '❌ fail' : caveat !== undefined ? `⚠️ pass, ${caveat}` : '✅ pass';
    lines.push(row([mark, code(result.budget), budgetSubject(result) === undefined ? 'whole run' : code(budgetSubject(result)!), formatBudgetLimit(result), formatBudgetValue(result.budget, result.actual)]));
  }
  if (more > 0) {
    const breached = breachedMore > 0 ? `, ${formatCount(breachedMore)} of them breached` : '';
    lines.push('', `The ${formatCount(shown.length)} budgets shown (breached first) of ${formatCount(results.length)}: ${countOf(more, 'more budget')} in ${code(reportName)}${breached}.`);
  }
}

function endpointSection(report: QualityReport, lines: string[], reportName: string): void {
  lines.push('', '### Endpoints', '');
  if (report.endpoints.length === 0) {
    lines.push('No endpoint ran.');
    return;
  }
  const stateOf = endpointStates(report);
  const { shown, more } = worstEndpoints(report, MARKDOWN_ENDPOINT_LIMIT);
  lines.push('| Status | Endpoint | Executions | Failed | Slow | p50 | p95 | p99 |', '|---|---|---:|---:|---:|---:|---:|---:|');
  for (const endpoint of shown) {
    const times = endpoint.responseTimeMs;
    const n = endpoint.executionCount;
    const percentile = (value: number | null) => `${formatMs(value)} (n=${formatCount(n)})`;
    lines.push(
      row([
        stateCell(stateOf(endpoint)),
        code(endpoint.endpoint),
        formatCount(n),
        formatCount(endpoint.failedExecutionCount),
        formatCount(endpoint.slowExecutionCount),
        percentile(times.p50),
        percentile(times.p95),
        percentile(times.p99),
      ]),
    );
  }
  if (more > 0) lines.push('', `The ${formatCount(shown.length)} worst endpoints (failed first, then by p95) of ${formatCount(report.endpoints.length)}: ${countOf(more, 'more endpoint')} in ${code(reportName)}.`);
}

const TONE_MARKS = { bad: '❌', warn: '🐢', good: '✅' } as const;

function stateCell(state: EndpointState): string {
  return `${TONE_MARKS[stateMark(state).tone]} ${describeState(state)}`;
}

/** How many operations each list of the contract section shows. */
const MARKDOWN_OPERATION_LIMIT = 50;

function contractSection(report: QualityReport, lines: string[], reportName: string): void {
  const contract = report.contract;
  if (contract === undefined) return;
  lines.push('', '### Contract', '', contractNumbers(contract).join(' · '));
  const undeclared = undeclaredWorstFirst(contract);
  if (undeclared.length > 0) {
    lines.push('', '| Operation | Undeclared statuses | Declared | Calls |', '|---|---|---|---:|');
    for (const operation of undeclared.slice(0, MARKDOWN_OPERATION_LIMIT)) {
      lines.push(row([operationCell(operation), operation.undeclaredStatuses.join(', '), operation.declaredStatuses.map(code).join(', '), formatCount(operation.executionCount)]));
    }
    if (undeclared.length > MARKDOWN_OPERATION_LIMIT) lines.push('', `${countOf(undeclared.length - MARKDOWN_OPERATION_LIMIT, 'more operation')} with undeclared statuses in ${code(reportName)}.`);
  }
  const violating = violationsWorstFirst(contract);
  if (violating.length > 0) {
    lines.push('', '| Operation | Bodies | Most frequent violations |', '|---|---|---|');
    for (const operation of violating.slice(0, MARKDOWN_OPERATION_LIMIT)) {
      lines.push(row([operationCell(operation), bodiesText(operation), operation.topViolations.slice(0, SHOWN_VIOLATIONS).map((violation) => code(violationText(violation))).join(', ')]));
    }
    if (violating.length > MARKDOWN_OPERATION_LIMIT) lines.push('', `${countOf(violating.length - MARKDOWN_OPERATION_LIMIT, 'more operation')} with bodies off their schema in ${code(reportName)}.`);
  }
  const untested = untestedByTag(contract);
  if (untested.length > 0) {
    const total = untested.reduce((sum, group) => sum + group.operations.length, 0);
    lines.push('', `**Never called** (${formatCount(total)}, by tag):`, '');
    let shown = 0;
    for (const { tag, operations } of untested) {
      const room = MARKDOWN_OPERATION_LIMIT - shown;
      if (room <= 0) break;
      const listed = operations.slice(0, room);
      shown += listed.length;
      lines.push(`- ${code(tag)}: ${listed.map((operation) => code(operation.endpoint)).join(', ')}${listed.length < operations.length ? ', …' : ''}`);
    }
    if (total > shown) lines.push(`- … ${countOf(total - shown, 'more operation')} never called in ${code(reportName)}`);
  }
  if (contract.unmatchedEndpoints.length > 0) {
    const listed = contract.unmatchedEndpoints.slice(0, MARKDOWN_OPERATION_LIMIT);
    const more = contract.unmatchedEndpoints.length - listed.length;
    lines.push('', `**Matching no operation**: ${listed.map(({ endpoint, executionCount }) => `${code(endpoint)} ×${formatCount(executionCount)}`).join(', ')}${more > 0 ? `, and ${formatCount(more)} more` : ''}`);
  }
  if (contract.deprecatedOperationsCalled.length > 0) {
    lines.push('', `**Deprecated operations called**: ${contract.deprecatedOperationsCalled.slice(0, MARKDOWN_OPERATION_LIMIT).map(code).join(', ')}`);
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

function baselineSection(report: QualityReport, lines: string[]): void {
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
  if (changes.length === 0) {
    lines.push('No endpoint changed.');
    return;
  }
  lines.push('| Change | Endpoint | p95 before | p95 after | p95 change | Failed before → after |', '|---|---|---:|---:|---:|---|');
  for (const change of changes.slice(0, MARKDOWN_CHANGE_LIMIT)) lines.push(changeRow(change));
  if (changes.length > MARKDOWN_CHANGE_LIMIT) lines.push('', `${countOf(changes.length - MARKDOWN_CHANGE_LIMIT, 'more change')} in the report's \`baseline\` section.`);
}

function changeRow({ endpoint, kind, entry }: BaselineChange): string {
  return row([
    `${isRegression(kind) ? '🔺' : kind === 'missing' || kind === 'new' ? '•' : '🔻'} ${kind}`,
    code(endpoint),
    entry === undefined ? '' : formatMs(entry.p95.before),
    entry === undefined ? '' : formatMs(entry.p95.after),
    entry === undefined ? '' : formatChangePercent(entry.p95.changePercent),
    entry === undefined ? '' : formatCountChange(entry.failedExecutionCount),
  ]);
}

function noResponseSection(report: QualityReport, lines: string[]): void {
  const endpoints = noResponseEndpoints(report);
  if (endpoints.length === 0) return;
  lines.push('', '### Requests with no response', '', `${countOf(report.noResponseCount, 'call')} got no response at all (refused, reset, timed out); each counts as failed.`, '');
  lines.push('| Endpoint | No response | Executions |', '|---|---:|---:|');
  for (const endpoint of endpoints.slice(0, MARKDOWN_ENDPOINT_LIMIT)) lines.push(row([code(endpoint.endpoint), formatCount(endpoint.noResponseCount), formatCount(endpoint.executionCount)]));
  if (endpoints.length > MARKDOWN_ENDPOINT_LIMIT) lines.push('', `${countOf(endpoints.length - MARKDOWN_ENDPOINT_LIMIT, 'more endpoint')} in the report.`);
}

function listSection(lines: string[], title: string, lead: string, items: readonly string[]): void {
  if (items.length === 0) return;
  lines.push('', `### ${title}`, '', lead, '', ...items.slice(0, MARKDOWN_ENDPOINT_LIMIT).map((item) => `- ${code(item)}`));
  if (items.length > MARKDOWN_ENDPOINT_LIMIT) lines.push(`- … and ${formatCount(items.length - MARKDOWN_ENDPOINT_LIMIT)} more in the report`);
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
