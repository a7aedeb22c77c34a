import type { QualityReport } from '../qualityReport.js';
import type { BudgetResult, BudgetVerdict } from '../verdictSchemas.js';
import { conditionCoverageText } from './conditionPresentation.js';
import { contractNumbers, operationCoverageText } from './contractPresentation.js';
import {
  browserCallsText,
  capitalise,
  sourcesText,
  budgetSubject,
  comparisonHeadline,
  historyHeadline,
  TREND_ARROWS,
  formatMeasured,
  failedStatus,
  failedWhere,
  passingTestFailureHints,
  statusesText,
  describeState,
  endpointStates,
  formatBudgetLimit,
  countOf,
  describeTests,
  formatCount,
  formatPercentile,
  headlineNumbers,
  NO_LIMIT_TEXT,
  shownText,
  stateMark,
  verdictOf,
  worstEndpoints,
  type VerdictKind,
} from './presentation.js';

/** How many endpoints the terminal summary lists, worst first. */
const TERMINAL_ENDPOINT_LIMIT = 10;

/** How many failed calls the terminal shows under each failing endpoint. */
const TERMINAL_FAILED_CALLS = 3;

/** How many failed tests the terminal names under the tests' line. */
const TERMINAL_FAILED_TESTS = 5;

/**
 * The one line a run ends with, for people and CI logs: the headline
 * numbers, the budget verdict when there are budgets, and where the report
 * is (`files`: the JSON report first, then the other renderings written
 * beside it). The command (off a terminal, with --quiet off) and the
 * reporter print it.
 */
export function formatHeadline(report: QualityReport, files: readonly string[]): string {
  const verdict = verdictOf(report);
  // `27 calls: 1 server error, 2 failed, …`: every number a count of calls, never read as Playwright's failed tests.
  const [calls, ...numbers] = headlineNumbers(report);
  const parts = [`${calls}: ${numbers.join(', ')}`];
  const browser = browserCallsText(report);
  if (browser !== undefined) parts.push(browser);
  if (report.contract !== undefined) {
    const conditions = conditionCoverageText(report.contract);
    parts.push(operationCoverageText(report.contract), ...(conditions === undefined ? [] : [conditions]));
  }
  if (report.baseline !== undefined) parts.push(comparisonHeadline(report.baseline));
  if (report.history !== undefined) parts.push(historyHeadline(report.history));
  // A run that stopped early says so whatever its budgets say: its numbers are only part of the evidence.
  if (verdict.kind === 'incomplete') parts.push(verdict.text);
  else if (report.budgets !== undefined && verdict.kind !== 'no-executions')
    parts.push(`budgets: ${report.budgets.results.length === 0 ? `none, as ${NO_LIMIT_TEXT}` : verdict.text}`);
  parts.push(`report written to ${describeFiles(files)}`);
  return `quality-evidence: ${parts.join('; ')}`;
}

/** `out/quality-summary.json (also .md, .html)`: the other files differ from the first only in their extension. */
function describeFiles(files: readonly string[]): string {
  const [first = '', ...others] = files;
  if (others.length === 0) return shownText(first);
  const base = first.replace(/\.json$/i, '');
  const suffixes = others.map((file) => (file.startsWith(base) ? file.slice(base.length) : file));
  return `${shownText(first)} (also ${suffixes.map(shownText).join(', ')})`;
}

/** What the terminal summary may use. */
export interface TerminalOptions {
  /** The report files written, shown as they should be (relative to the working folder): the JSON first. */
  readonly files: readonly string[];
  /** ANSI colours; the words and symbols say the same without them. */
  readonly color?: boolean | undefined;
}

const MARKS: Readonly<Record<VerdictKind, { symbol: string; color: number }>> = {
  incomplete: { symbol: '!', color: 33 },
  'no-executions': { symbol: '!', color: 33 },
  breached: { symbol: '✖', color: 31 },
  held: { symbol: '✔', color: 32 },
  'no-budgets': { symbol: '!', color: 33 },
  failed: { symbol: '✖', color: 31 },
  clean: { symbol: '✔', color: 32 },
};

const TONE_COLORS = { bad: 31, warn: 33, good: 32 } as const;

/**
 * The short summary the command prints when stdout is a terminal: the
 * headline with the verdict, the response-time percentiles with their
 * sample count, the 10 worst endpoints with their p95, and the files.
 */
export function renderTerminal(report: QualityReport, { files, color = false }: TerminalOptions): string {
  const paint = (code: number, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const verdict = verdictOf(report);
  const mark = MARKS[verdict.kind];
  const n = report.executionCount;
  const lines = [
    `${paint(1, 'quality-evidence')} · ${shownText(report.environment)}`,
    paint(mark.color, `${mark.symbol} ${verdict.text}`),
    headlineNumbers(report, { withThreshold: true }).join(' · '),
  ];
  if (n > 0) lines.push((['p50', 'p95', 'p99'] as const).map((name) => formatPercentile(name, report.responseTimeMs[name], n)).join(' · '));
  // A Playwright run's report says its tests, and the failed ones by place: the command, compare and merge print them as the page does.
  if (report.tests !== undefined) lines.push(`Tests: ${describeTests(report.tests)}`);
  for (const failed of (report.failedTests ?? []).slice(0, TERMINAL_FAILED_TESTS))
    lines.push(`  ✖ ${shownText(`${failed.file}:${failed.line} · ${failed.title}`)}`);
  const unnamed = (report.tests?.failed ?? 0) - Math.min(TERMINAL_FAILED_TESTS, report.failedTests?.length ?? 0);
  if ((report.failedTests?.length ?? 0) > 0 && unnamed > 0) lines.push(`  … and ${countOf(unnamed, 'more failed test')}`);
  const sources = sourcesText(report);
  if (sources !== undefined) lines.push(`By source: ${sources}`);
  const browser = browserCallsText(report);
  if (browser !== undefined) lines.push(capitalise(browser));
  if (report.contract !== undefined) lines.push(`Contract: ${contractNumbers(report.contract).join(' · ')}`);
  if (report.baseline !== undefined) lines.push(comparisonHeadline(report.baseline));
  if (report.history !== undefined) lines.push(historyHeadline(report.history));
  for (const hint of passingTestFailureHints(report)) lines.push(`Note: ${hint}`);
  const { shown, more } = worstEndpoints(report, TERMINAL_ENDPOINT_LIMIT);
  if (shown.length > 0) {
    lines.push('', `Worst endpoints (server errors first, then failed, then by p95; percentiles by nearest rank):`);
    const stateOf = endpointStates(report);
    const labels = shown.map((endpoint) => shownText(endpoint.endpoint));
    const width = Math.min(60, Math.max(...labels.map((label) => label.length)));
    shown.forEach((endpoint, index) => {
      const state = stateOf(endpoint);
      const { symbol, tone } = stateMark(state);
      const failed = `${formatCount(endpoint.failedExecutionCount)} failed`;
      // Against the history, an arrow: ↑ above its range, ↓ below, → within, + new, · too few runs.
      const arrow = endpoint.history === undefined ? undefined : TREND_ARROWS[endpoint.history.trend];
      const trend = arrow === undefined ? '' : ` ${endpoint.history?.trend === 'aboveRange' ? paint(TONE_COLORS.bad, arrow) : arrow}`;
      lines.push(
        `  ${paint(TONE_COLORS[tone], symbol)} ${labels[index]!.padEnd(width)}  ${failed.padStart(10)}  ` +
          `${formatPercentile('p95', endpoint.responseTimeMs.p95, endpoint.executionCount)}${trend}  ` +
          `${describeState(state)}  ${statusesText(endpoint)}`,
      );
      for (const execution of (endpoint.failedExecutions ?? []).slice(0, TERMINAL_FAILED_CALLS)) {
        lines.push(
          `      ${failedStatus(execution)}  ${shownText(`${execution.method} ${execution.path}`)}  ${shownText(failedWhere(execution))}`,
        );
      }
      const tests = endpoint.tests ?? [];
      if (tests.length > 0) {
        const moreTests = (endpoint.testCount ?? tests.length) - 1;
        lines.push(
          `      called by ${shownText(`${tests[0]!.file}:${tests[0]!.line}`)}${moreTests > 0 ? ` and ${countOf(moreTests, 'more test')}` : ''}`,
        );
      }
    });
    if (more > 0) lines.push(`  … and ${formatCount(more)} more in the report`);
  }
  const [json, ...others] = files;
  if (json !== undefined) lines.push('', `Report: ${shownText(json)}`);
  if (others.length > 0) lines.push(`Also:   ${others.map(shownText).join(', ')}`);
  return `${lines.join('\n')}\n`;
}

/** One budget's result in a line, for `check` and the breaches on stderr: `FAIL responseTimeMs.p95 of GET /orders/:id: 612 ms (limit ≤ 500 ms)`. */
export function formatBudgetResult(result: BudgetResult): string {
  const { budget, passed } = result;
  const subject = budgetSubject(result);
  return (
    `${passed ? 'pass' : 'FAIL'} ${budget}${subject === undefined ? '' : ` of ${shownText(subject)}`}: ` +
    `${formatMeasured(result)} (limit ${formatBudgetLimit(result)})`
  );
}

/** What a run says on stderr when budgets are breached: a count, then each breached budget; undefined when every budget holds. */
export function describeBreaches(verdict: BudgetVerdict): string | undefined {
  const breached = verdict.results.filter((result) => !result.passed);
  if (breached.length === 0) return undefined;
  const total = verdict.results.length;
  return [
    `${formatCount(breached.length)} of ${countOf(total, 'budget')} breached:`,
    ...breached.map((result) => `  ${formatBudgetResult(result)}`),
  ].join('\n');
}
