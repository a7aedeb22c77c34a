import type { ContractOperationCoverage } from '../contractSchemas.js';
import type { QualityReport } from '../qualityReport.js';
import { REPORT_SECTIONS } from '../sections/index.js';
import { code, row } from '../sections/markdownParts.js';
import type { MarkdownContext, MarkdownLimits } from '../sections/reportSection.js';
import { bodiesText, contractNumbers, SHOWN_VIOLATIONS, undeclaredWorstFirst, untestedByTag, violationsWorstFirst, violationText } from './contractPresentation.js';
import {
  countOf,
  endpointStates,
  endpointsWithFailedCalls,
  failedStatus,
  failedWhere,
  formatCount,
  formatMs,
  noResponseEndpoints,
  PERCENTILE_METHOD,
  slowestStatus,
  slowestWhere,
} from './presentation.js';

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
  const full = renderWith(report, { reportName, limits: FULL_LIMITS });
  if (Buffer.byteLength(full) <= byteLimit) return full;
  const cut = renderWith(report, { reportName, limits: CUT_LIMITS });
  const base = reportName.replace(/\.json$/i, '');
  const note =
    `✂️ This summary is cut to fit GitHub's job summary (over ${formatCount(Math.floor(byteLimit / 1024))} KiB in full): ` +
    'it keeps the headline, the comparison, the budgets and the worst endpoints, ' +
    'and leaves out the rest of the endpoints, the contract, the slowest executions and the lists. ' +
    `The whole summary is in ${code(`${base}.md`)}, every number in ${code(reportName)} and ${code(`${base}.html`)}.`;
  const text = `${cut}\n${note}\n`;
  // Labels are at most 200 characters and the cut tables short, so this holds; should it not, the last lines go, never a half line.
  if (Buffer.byteLength(text) <= byteLimit) return text;
  const lines = cut.split('\n');
  while (lines.length > 0 && Buffer.byteLength(`${lines.join('\n')}\n${note}\n`) > byteLimit) lines.pop();
  return `${lines.join('\n')}\n${note}\n`;
}

/** The Markdown of every section in order; when cut, only the sections kept when cut. */
function renderWith(report: QualityReport, context: MarkdownContext): string {
  const { reportName, limits } = context;
  const kept = REPORT_SECTIONS.filter((section) => limits.everySection || section.keptWhenCut);
  const lines = kept.flatMap((section) => section.markdown?.(report, context) ?? []);
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
  if (report.executionCount > 0) lines.push('', `<sub>${PERCENTILE_METHOD}</sub>`);
  return `${lines.join('\n')}\n`;
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

