import { escapeControlCharacters, formatDecimal, shorten } from '../../renderValue.js';
import { compareCodeUnits } from '../../compareCodeUnits.js';
import { isServerError } from '../../summary/endpointEvidence.js';
import type { QualityReport } from '../qualityReport.js';
import { isIncompleteRun, serverErrorsOf } from '../buildReport.js';
import type { BudgetResult } from '../verdictSchemas.js';
import type { EndpointHistory, Trend } from '../historySchemas.js';

/**
 * What every human rendering (Markdown, HTML, terminal) shows, decided once:
 * how numbers and labels are written, which endpoints are the worst, what
 * the verdict is, how baseline changes rank. Nothing here computes a
 * statistic: every number comes from the report as it is; this only orders,
 * picks and formats.
 */

type Endpoint = QualityReport['endpoints'][number];
type Change = NonNullable<QualityReport['baseline']>['endpoints'][number];

/** An en-US number format with at most `maximumFractionDigits` decimals (default 3), written by hand: no run loads ICU (see {@link formatDecimal}). */
export function numberFormat(options?: { readonly maximumFractionDigits?: number }): { format(value: number): string } {
  return { format: (value) => formatDecimal(value, options?.maximumFractionDigits) };
}

const COUNT = numberFormat();
const MILLISECONDS = numberFormat({ maximumFractionDigits: 1 });
const PERCENT = numberFormat({ maximumFractionDigits: 2 });

/** What a human rendering shows for a statistic that has no value (no executions). */
const NO_VALUE = 'n/a';

/** A count with thousands separators: `1,204`. */
export function formatCount(count: number): string {
  return COUNT.format(count);
}

/** A count and its noun, in the plural when it is not 1: `1,204 executions`. */
export function countOf(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}

/** Milliseconds with at most one decimal and thousands separators: `1,210 ms`, `12.3 ms`; `n/a` for null. */
export function formatMs(value: number | null): string {
  return value === null ? NO_VALUE : `${MILLISECONDS.format(value)} ms`;
}

/** A percentile with its sample count beside it: `p95 412 ms (n=37)`. */
export function formatPercentile(name: string, value: number | null, sampleCount: number): string {
  return `${name} ${formatMs(value)} (n=${formatCount(sampleCount)})`;
}

/** A signed change in percent: `+12.5%`, `-3%`, `0%`; `n/a` for null. */
export function formatChangePercent(value: number | null): string {
  if (value === null) return NO_VALUE;
  return `${value > 0 ? '+' : ''}${PERCENT.format(value)}%`;
}

/** One sentence, stated once in each rendering, on how percentiles are computed. */
export const PERCENTILE_METHOD =
  'Percentiles are exact, by nearest rank over every recorded time: p95 is the value at rank ⌈95 × n / 100⌉ of the n ' +
  'times sorted, always a time that was recorded. ' +
  'Tools that interpolate or use sketches (k6, Artillery, Gatling) can show other values, most of all on few samples.';

/** The longest label a human rendering shows; the JSON report keeps the whole label. */
const MAX_SHOWN_LABEL_LENGTH = 200;

/**
 * A label or other text from input as a human rendering shows it: control
 * and bidirectional characters escaped (so nothing can reorder or hide what
 * is shown), cut to {@link MAX_SHOWN_LABEL_LENGTH} characters with "…".
 * Markup escaping is each renderer's own, on top of this.
 */
export function shownText(text: string): string {
  return shorten(escapeControlCharacters(text), MAX_SHOWN_LABEL_LENGTH);
}

/** A budget's measured value or limit in its unit: `612 ms`, `2.5%` (a failure rate), `+12%` (an increase), `3`. */
export function formatBudgetValue(budget: string, value: number | null): string {
  if (value === null) return 'no data';
  if (budget.startsWith('responseTimeMs.')) return formatMs(value);
  if (budget === 'maxFailureRate') return `${PERCENT.format(value * 100)}%`;
  if (budget === 'maxP95IncreasePercent') return formatChangePercent(value);
  if (budget.endsWith('CoveragePercent')) return `${PERCENT.format(value)}%`;
  return formatCount(value);
}

const VERDICT_WORDS = {
  slower: 'slower',
  faster: 'faster',
  noChange: 'no real change',
  tooFewSamples: 'too few samples to judge',
} as const;

/**
 * A budget's measured value as a rendering shows it: for maxP95IncreasePercent, with the latency verdict that decides it
 * (`+100% (too few samples to judge)`).
 */
export function formatMeasured(result: BudgetResult): string {
  // The changes are counted only between two documents: without openapiBase there is nothing to count, and the line says why.
  if (result.actual === null && (result.budget === 'maxBreakingChanges' || result.budget === 'maxBreakingChangesExercised'))
    return 'no data (the run had no openapiBase: no changes were counted)';
  const value = formatBudgetValue(result.budget, result.actual);
  return result.latencyVerdict === undefined || result.latencyVerdict === 'slower'
    ? value
    : `${value} (${VERDICT_WORDS[result.latencyVerdict]})`;
}

/**
 * What a budget applies to, as the renderers name it (before their own
 * escaping): the endpoint, or the operation the budgets name with its label
 * (`getUser (GET /users/{id})`); undefined for the whole run.
 */
export function budgetSubject({ endpoint, operation }: BudgetResult): string | undefined {
  if (operation === undefined || operation === endpoint) return endpoint;
  return endpoint === undefined ? operation : `${operation} (${endpoint})`;
}

/** How a budget's limit reads: `≥ 20` for a `min…` budget, `≤ 500 ms` for the others (limits are inclusive). */
export function formatBudgetLimit({ budget, limit }: BudgetResult): string {
  return `${budget.startsWith('min') ? '≥' : '≤'} ${formatBudgetValue(budget, limit)}`;
}

/**
 * The budget results a table shows: breached first, each group in the
 * verdict's order, at most `limit` of them; how many more there are, and how
 * many of those are breached (none, unless more than `limit` are).
 */
export function budgetsShown(
  results: readonly BudgetResult[],
  limit: number,
): { shown: BudgetResult[]; more: number; breachedMore: number } {
  const breached = results.filter((result) => !result.passed);
  const ordered = [...breached, ...results.filter((result) => result.passed)];
  return { shown: ordered.slice(0, limit), more: Math.max(0, ordered.length - limit), breachedMore: Math.max(0, breached.length - limit) };
}

/** The overall state of a run, for the mark a rendering starts with. */
export type VerdictKind = 'incomplete' | 'no-executions' | 'breached' | 'held' | 'no-budgets' | 'failed' | 'clean';

/**
 * The verdict in words. A run that stopped before its tests were done
 * (interrupted, timed out) or recorded no executions never gets a passing
 * mark, whatever its budgets say.
 */
export interface Verdict {
  readonly kind: VerdictKind;
  /** Whether the mark is a passing one. */
  readonly passing: boolean;
  /** `2 of 5 budgets breached`, `all 5 budgets hold`, `no executions were recorded`. */
  readonly text: string;
}

/** What the budgets' tables say when flaky failures are left out of the failure budgets. */
export const FLAKY_NOT_COUNTED =
  'Failed executions that a retry made good (flaky) are not counted in the failure budgets (countFlakyFailures: false).';

/** What a report whose budgets set no limit (`{}`) says of them: nothing was judged, so nothing passed. */
export const NO_LIMIT_TEXT = 'the budgets set no limit';

/**
 * The verdict of a report: budgets when it has some, else whether anything
 * failed. Budgets that set no limit judged nothing: a failed execution still
 * fails, and a run without one gets no passing mark, only a warning.
 */
export function verdictOf(report: QualityReport): Verdict {
  if (isIncompleteRun(report.runStatus)) {
    return { kind: 'incomplete', passing: false, text: `${describeIncompleteRun(report)}: the evidence is incomplete` };
  }
  if (report.executionCount === 0) {
    return { kind: 'no-executions', passing: false, text: 'no executions were recorded: this run is no evidence of API quality' };
  }
  const budgets = report.budgets;
  if (budgets !== undefined && budgets.results.length === 0) {
    if (report.failedExecutionCount > 0)
      return { kind: 'failed', passing: false, text: `${failedCallsText(report)}, and ${NO_LIMIT_TEXT}` };
    return { kind: 'no-budgets', passing: false, text: `no failed calls, but ${NO_LIMIT_TEXT}` };
  }
  if (budgets !== undefined) {
    const total = budgets.results.length;
    const breached = budgets.results.filter((result) => !result.passed).length;
    if (breached > 0) return { kind: 'breached', passing: false, text: `${formatCount(breached)} of ${countOf(total, 'budget')} breached` };
    return { kind: 'held', passing: true, text: total === 1 ? 'the budget holds' : `all ${countOf(total, 'budget')} hold` };
  }
  if (report.failedExecutionCount > 0) return { kind: 'failed', passing: false, text: `${failedCallsText(report)}, no budgets set` };
  // A test that failed on its own assertions (a body's content, toBeOK on a client error it expected) is no clean run.
  const failedTests = report.tests?.failed ?? 0;
  if (failedTests > 0)
    return { kind: 'failed', passing: false, text: `no failed calls, but ${countOf(failedTests, 'test')} failed; no budgets set` };
  return { kind: 'clean', passing: true, text: 'no failed calls, no budgets set' };
}

/** `4 failed calls, 3 of them server errors`: the server errors named first among the failures, when there are any. */
function failedCallsText(report: QualityReport): string {
  const server = serverErrorsOf(report);
  const failed = countOf(report.failedExecutionCount, 'failed call');
  if (server === 0) return failed;
  return server === report.failedExecutionCount
    ? `${failed}, ${report.failedExecutionCount === 1 ? 'a server error' : 'all server errors'}`
    : `${failed}, ${formatCount(server)} of them ${server === 1 ? 'a server error' : 'server errors'}`;
}

/** How a run that stopped early stopped: `the run was interrupted before its tests were done`, `the run timed out …`. */
export function describeIncompleteRun(report: QualityReport): string {
  return `the run ${report.runStatus === 'timedout' ? 'timed out' : 'was interrupted'} before its tests were done`;
}

/** Why a budget that holds gets no passing mark: the run stopped early, or recorded nothing; undefined when its mark may pass. */
export function budgetPassCaveat(report: QualityReport): string | undefined {
  if (isIncompleteRun(report.runStatus)) return 'on an incomplete run';
  return report.executionCount === 0 ? 'on no executions' : undefined;
}

/**
 * The headline numbers, in order: `3 calls`, then the server errors
 * (`1 server error`: 5xx answers and calls with no response, which lead
 * every rendering), `2 failed` (every failed call, the server errors
 * among them; `2 failed (1 made good by a retry)` when a retry of the
 * same test passed after some), `2 slow` (or `2 slow (over 750 ms)`), `0 with no response`,
 * then calls not recorded and assets left out when there are any.
 */
export function headlineNumbers(report: QualityReport, { withThreshold = false }: { withThreshold?: boolean } = {}): string[] {
  const numbers = [
    countOf(report.executionCount, 'call'),
    countOf(serverErrorsOf(report), 'server error'),
    `${formatCount(report.failedExecutionCount)} failed${madeGood(report)}`,
    `${formatCount(report.slowExecutionCount)} slow${withThreshold ? ` (over ${formatMs(report.slowResponseThresholdMs)})` : ''}`,
    `${formatCount(report.noResponseCount)} with no response`,
  ];
  if ((report.unrecordedCallCount ?? 0) > 0) numbers.push(`${countOf(report.unrecordedCallCount ?? 0, 'call')} not recorded`);
  if ((report.skippedAssetCount ?? 0) > 0) numbers.push(`${countOf(report.skippedAssetCount ?? 0, 'asset')} left out`);
  return numbers;
}

// A run whose failed calls a retry made good exits 0: the count says why.
function madeGood({ flakyFailedExecutionCount = 0 }: QualityReport): string {
  return flakyFailedExecutionCount > 0 ? ` (${formatCount(flakyFailedExecutionCount)} made good by a retry)` : '';
}

/** The names the renderings give each source. */
export const SOURCE_NAMES = { api: 'API clients', browser: 'browser' } as const;

/** The report split by source, API clients first; empty when every execution is an API client's (the report has no `sources`). */
export function sourceRows(
  report: QualityReport,
): { readonly name: string; readonly statistics: NonNullable<QualityReport['sources']>['api'] }[] {
  if (report.sources === undefined) return [];
  return (['api', 'browser'] as const).map((source) => ({ name: SOURCE_NAMES[source], statistics: report.sources![source] }));
}

/** `API clients 1 execution, 0 failed, p95 3 ms · browser 9 executions, 2 failed, p95 310 ms`; undefined without sources. */
export function sourcesText(report: QualityReport): string | undefined {
  const rows = sourceRows(report);
  if (rows.length === 0) return undefined;
  return rows
    .map(
      ({ name, statistics }) =>
        `${name} ${countOf(statistics.executionCount, 'execution')}, ${formatCount(statistics.failedExecutionCount)} failed, ` +
        formatPercentile('p95', statistics.responseTimeMs.p95, statistics.executionCount),
    )
    .join(' · ');
}

/**
 * What the recording fixture saw of the browsers' API calls, for the
 * closing line: `browser: 9 of 12 API calls measured (1 mocked, 1 cached,
 * 1 by a service worker)`, and the calls seen that no record reached, should
 * there be any; undefined for a run that used no browser.
 */
export function browserCallsText(report: QualityReport): string | undefined {
  const seen = report.browserCallCount;
  if (seen === undefined) return undefined;
  const measured = report.sources?.browser.executionCount ?? 0;
  const apart = [
    [report.mockedCallCount ?? 0, 'mocked'],
    [report.cachedCallCount ?? 0, 'cached'],
    [report.serviceWorkerCallCount ?? 0, 'by a service worker'],
    [report.unfinishedCallCount ?? 0, 'unfinished'],
  ] as const;
  const notMeasured = apart.filter(([count]) => count > 0).map(([count, word]) => `${formatCount(count)} ${word}`);
  const lost = seen - measured - apart.reduce((total, [count]) => total + count, 0);
  const how = notMeasured.length === 0 ? '' : ` (${notMeasured.join(', ')})`;
  const notRecorded = lost > 0 ? `, ${formatCount(lost)} seen but not recorded` : '';
  return `browser: ${formatCount(measured)} of ${countOf(seen, 'API call')} measured${how}${notRecorded}`;
}

/** Which clients called an endpoint, when the report is split by source: `browser`, `API clients`, or `API ×1, browser ×3`; undefined otherwise. */
export function endpointSourceText(endpoint: Endpoint): string | undefined {
  const { sources } = endpoint;
  if (sources === undefined) return undefined;
  if (sources.browser.executionCount === 0) return SOURCE_NAMES.api;
  if (sources.api.executionCount === 0) return SOURCE_NAMES.browser;
  return `API ×${formatCount(sources.api.executionCount)}, browser ×${formatCount(sources.browser.executionCount)}`;
}

/**
 * How one endpoint fares: failing (failed executions), flaky (every failure retried away), breached (a budget of its own is
 * breached), slow (slow executions).
 */
export interface EndpointState {
  /** Failed executions, not all from attempts a retry made good. */
  readonly failing: boolean;
  /** Failed executions, every one from an attempt that a retry made good. */
  readonly flaky: boolean;
  readonly breached: boolean;
  readonly slow: boolean;
}

/** The state of each endpoint of the report, by label. */
export function endpointStates(report: QualityReport): (endpoint: Endpoint) => EndpointState {
  const breached = new Set(
    (report.budgets?.results ?? []).filter((result) => !result.passed && result.endpoint !== undefined).map((result) => result.endpoint),
  );
  const flaky = new Set(report.flakyEndpoints ?? []);
  return (endpoint) => {
    const failed = endpoint.failedExecutionCount > 0;
    const retriedAway = failed && flaky.has(endpoint.endpoint);
    return {
      failing: failed && !retriedAway,
      flaky: retriedAway,
      breached: breached.has(endpoint.endpoint),
      slow: endpoint.slowExecutionCount > 0,
    };
  };
}

/** How an endpoint's state is marked beside its words: a symbol, and the tone a rendering colours it in. */
export function stateMark(state: EndpointState): { readonly symbol: '✖' | '▲' | '✔' | '~'; readonly tone: 'bad' | 'warn' | 'good' } {
  if (state.failing || state.breached) return { symbol: '✖', tone: 'bad' };
  if (state.flaky) return { symbol: '~', tone: 'warn' };
  return state.slow ? { symbol: '▲', tone: 'warn' } : { symbol: '✔', tone: 'good' };
}

/** An endpoint's state in words, most serious first: `failing, budget breached`, `flaky`, `slow`, `ok`. */
export function describeState(state: EndpointState): string {
  const words = [
    state.failing ? 'failing' : '',
    state.flaky ? 'flaky' : '',
    state.breached ? 'budget breached' : '',
    state.slow && !state.failing && !state.flaky ? 'slow' : '',
  ].filter(Boolean);
  return words.length === 0 ? 'ok' : words.join(', ');
}

/** The statuses an endpoint answered, most frequent first: `500 ×2, 404 ×1, no response ×1`. */
export function statusesText(endpoint: Endpoint): string {
  const codes = Object.entries(endpoint.statusCodes).sort(([a, countA], [b, countB]) => countB - countA || compareCodeUnits(a, b));
  const parts = codes.map(([code, count]) => `${code} ×${formatCount(count)}`);
  if (endpoint.noResponseCount > 0) parts.push(`no response ×${formatCount(endpoint.noResponseCount)}`);
  return parts.join(', ');
}

type FailedExecution = NonNullable<Endpoint['failedExecutions']>[number];

/** A failed call's outcome: its status, or `no response (ECONNREFUSED)`. */
export function failedStatus(execution: FailedExecution): string {
  return execution.statusCode === undefined ? `no response (${execution.errorCode ?? 'unknown'})` : String(execution.statusCode);
}

/**
 * Where a failed call came from: for a test's, the file and line of the
 * call (the test's own file when the call is in it, else the test's line
 * and where the call was made, a client wrapper most often), the test's
 * title and the attempt: `tests/orders.spec.ts:14 · orders.spec.ts › reads
 * an order (attempt 2)`, `tests/orders.spec.ts:9, call at
 * src/api/client.ts:12 · …`; for a record read from a file, its place and id.
 */
export function failedWhere(execution: FailedExecution): string {
  const { test, callLocation } = execution;
  if (test === undefined)
    return [execution.location, execution.id === undefined ? undefined : `id ${execution.id}`]
      .filter((part) => part !== undefined)
      .join(', ');
  const at =
    callLocation === undefined
      ? `${test.file}:${test.line}`
      : callLocation.file === test.file
        ? `${callLocation.file}:${callLocation.line}`
        : `${test.file}:${test.line}, call at ${callLocation.file}:${callLocation.line}`;
  const attempt = execution.attempt === undefined ? '' : ` (attempt ${execution.attempt})`;
  const inBrowser = execution.source === 'browser' ? ' · in the browser' : '';
  return `${at} · ${test.title}${attempt}${inBrowser}`;
}

/** The failing and flaky endpoints that list failed calls: most server errors first, then most failed, then by label. */
export function endpointsWithFailedCalls(report: QualityReport): Endpoint[] {
  return report.endpoints.filter((endpoint) => (endpoint.failedExecutions?.length ?? 0) > 0).sort(compareFailing);
}

/** Endpoints by what is wrong with them: most server errors first, then most failed executions, then by label. */
function compareFailing(a: Endpoint, b: Endpoint): number {
  return (
    serverErrorsOf(b) - serverErrorsOf(a) || b.failedExecutionCount - a.failedExecutionCount || compareCodeUnits(a.endpoint, b.endpoint)
  );
}

/** How many endpoints the hint on server errors of passing tests names, with where the first call was. */
const HINT_ENDPOINTS = 3;

/** Whether a key of `passingTestFailures` is a server error's: a status of 500 or above, or the error code of a call with no response. */
function isServerErrorKey(key: string): boolean {
  return !/^\d+$/.test(key) || Number(key) >= 500;
}

/**
 * What a run says once when tests that passed made failed calls, client
 * errors and server errors apart: a 4xx is most often a negative case not
 * yet declared expected, and the hint says how to declare it; a 5xx or a
 * call with no response (a clean-up helper's DELETE answered 500) is the
 * server's defect whatever the test did, and the hint never suggests
 * declaring it expected. None, one or both sentences.
 */
export function passingTestFailureHints(report: QualityReport): string[] {
  if ((report.passingTestFailureCount ?? 0) === 0) return [];
  const tally = { client: { calls: 0, endpoints: 0 }, server: { calls: 0, endpoints: 0 } };
  const serverErrors: { endpoint: Endpoint; codes: [string, number][] }[] = [];
  for (const endpoint of report.endpoints) {
    const seen = { client: false, server: false };
    const codes: [string, number][] = [];
    for (const [key, count] of Object.entries(endpoint.passingTestFailures ?? {})) {
      const kind = isServerErrorKey(key) ? 'server' : 'client';
      tally[kind].calls += count;
      seen[kind] = true;
      if (kind === 'server') codes.push([key, count]);
    }
    if (seen.client) tally.client.endpoints++;
    if (seen.server) tally.server.endpoints++;
    if (codes.length > 0) serverErrors.push({ endpoint, codes });
  }
  const hints: string[] = [];
  const { server, client } = tally;
  if (server.calls > 0) {
    const calls = (codes: readonly [string, number][]) => codes.reduce((sum, [, count]) => sum + count, 0);
    serverErrors.sort((a, b) => calls(b.codes) - calls(a.codes) || compareCodeUnits(a.endpoint.endpoint, b.endpoint.endpoint));
    const named = serverErrors.slice(0, HINT_ENDPOINTS).map(({ endpoint, codes }) => {
      const first = endpoint.failedExecutions?.find(isServerError);
      const where = first === undefined || failedWhere(first) === '' ? '' : `, first at ${failedWhere(first)}`;
      return `${shownText(endpoint.endpoint)}: ${codes.map(([code, count]) => `${code} ×${formatCount(count)}`).join(', ')}${where}`;
    });
    const more = serverErrors.length - named.length;
    hints.push(
      `${countOf(server.calls, 'server error')} (5xx or no response, ${countOf(server.endpoints, 'endpoint')}) came from tests that passed: ` +
        `${named.join('; ')}${more > 0 ? `; and ${countOf(more, 'more endpoint')}` : ''}. ` +
        'In a set-up or clean-up call as often as not: a passing test does not make a server error right, and it stays a failure',
    );
  }
  if (client.calls > 0) {
    hints.push(
      `${countOf(client.calls, 'failed call')} (${countOf(client.endpoints, 'endpoint')}) came from tests that ` +
        `passed: if they are negative cases, declare the status expected ` +
        `with the test's "expected-status" annotation or with expectedStatusesByEndpoint, and they stop counting as failures`,
    );
  }
  return hints;
}

/** A p-value as the renderings show it: `0.0031`, `< 0.0001`; `–` when there was nothing to test. */
export function formatPValue(pValue: number | null): string {
  if (pValue === null) return '–';
  return pValue < 0.0001 ? '< 0.0001' : String(Number(pValue.toPrecision(2)));
}

/** Failure rates before and after in percent: `0% → 25%`, with `–` for a side that has none. */
export function formatRateChange({ before, after }: { readonly before: number | null; readonly after: number | null }): string {
  const rate = (value: number | null) => (value === null ? '–' : `${PERCENT.format(value * 100)}%`);
  return `${rate(before)} → ${rate(after)}`;
}

/** One sentence, stated once in each rendering that compares, on how a latency change is judged. */
export const SIGNIFICANCE_METHOD =
  'A latency change is judged by a Mann-Whitney U test over the two runs’ latency histograms: ' +
  'slower or faster only when the p-value is below the significance level; ' +
  'too few samples when no outcome of so few could be; a change within the histograms’ 1% resolution is never judged real';

/** How the headline counts an endpoint of the comparison: once, by the first of these that holds. */
type HeadlineKind = 'newlyFailing' | 'failingMore' | 'new' | Change['latencyVerdict'];

/**
 * Each endpoint's one kind in the comparison's headline, in this order of
 * precedence: newly failing, failing more (a higher failure rate, as the
 * table of changes says it, whatever the latency), new, then its latency
 * verdict. The folded list of endpoints too few to judge takes the same.
 */
function headlineKinds(comparison: NonNullable<QualityReport['baseline']>): (entry: Change) => HeadlineKind {
  const newlyFailing = new Set(comparison.newlyFailingEndpoints);
  const fresh = new Set(comparison.newEndpoints);
  return (entry) => {
    if (newlyFailing.has(entry.endpoint)) return 'newlyFailing';
    if (failsMore(entry)) return 'failingMore';
    return fresh.has(entry.endpoint) ? 'new' : entry.latencyVerdict;
  };
}

/** Whether an endpoint's failure rate rose: rates per execution, so a retry that repeats a failing call does not fail more. */
function failsMore({ failureRate: { before, after } }: Change): boolean {
  return before !== null && after !== null && after > before;
}

/**
 * The comparison with the baseline in one line, regressions first: `vs base: 2 endpoints slower,
 * 1 newly failing, 1 new undeclared status, operations covered 70.59% -> 76.47%, 14 unchanged,
 * 3 too few samples to judge`. Each endpoint of the run is counted once among newly failing,
 * failing more, new, slower, unchanged, faster and too few samples (in that order of precedence); newly flaky
 * and with new statuses count endpoints again. A part whose count is 0 is left out, but for
 * unchanged; the first endpoint count names its noun.
 */
export function comparisonHeadline(comparison: NonNullable<QualityReport['baseline']>): string {
  const counts = {
    slower: 0,
    newlyFailing: 0,
    failingMore: 0,
    new: 0,
    noChange: 0,
    faster: 0,
    tooFewSamples: 0,
    newlyFlaky: 0,
    newStatuses: 0,
  };
  const kindOf = headlineKinds(comparison);
  for (const entry of comparison.endpoints) {
    counts[kindOf(entry)]++;
    if (entry.flakiness === 'newlyFlaky') counts.newlyFlaky++;
    if ((entry.newStatusCount ?? 0) > 0) counts.newStatuses++;
  }
  const { contract, flakinessAcrossRuns: acrossRuns } = comparison;
  let named = false;
  // An endpoint count: the first one shown says "endpoints", the rest leave the noun to it.
  const endpoints = (count: number, words: (noun: string) => string, always = false): string[] => {
    if (count === 0 && !always) return [];
    const noun = named ? '' : count === 1 ? 'endpoint' : 'endpoints';
    named = true;
    return [`${formatCount(count)} ${words(noun)}`.replace(/ {2,}/g, ' ').trim()];
  };
  const after = (noun: string, words: string) => (noun === '' ? words : `${noun} ${words}`);
  const coverage = contract?.operationCoveragePercent;
  const conditions = contract?.conditionCoveragePercent;
  const parts = [
    ...endpoints(counts.slower, (noun) => after(noun, 'slower')),
    ...endpoints(counts.newlyFailing, (noun) => after(noun, 'newly failing')),
    ...endpoints(counts.failingMore, (noun) => after(noun, 'failing more')),
    ...endpoints(counts.newlyFlaky, (noun) => after(noun, 'newly flaky')),
    // Across runs only against a base that scored it: else nothing is new (the comment names them as flaky).
    ...endpoints(acrossRuns?.baseScored === true ? acrossRuns.newlyFlakyEndpoints.length : 0, (noun) =>
      after(noun, 'newly flaky across runs'),
    ),
    ...(acrossRuns?.baseScored === true && (acrossRuns.newlyFlakyTests?.length ?? 0) > 0
      ? [`${countOf(acrossRuns.newlyFlakyTests!.length, 'test')} newly flaky across runs`]
      : []),
    ...endpoints(counts.newStatuses, (noun) => after(noun, 'with new statuses')),
    ...(contract === undefined || contract.newUndeclaredStatusCount === 0
      ? []
      : [
          `${formatCount(contract.newUndeclaredStatusCount)} new undeclared ${contract.newUndeclaredStatusCount === 1 ? 'status' : 'statuses'}`,
        ]),
    ...(contract === undefined || contract.noLongerExercisedOperationCount === 0
      ? []
      : [`${countOf(contract.noLongerExercisedOperationCount, 'operation')} no longer exercised`]),
    ...(coverage === undefined || coverage.before === coverage.after
      ? []
      : [`operations covered ${formatCoverage(coverage.before)} -> ${formatCoverage(coverage.after)}`]),
    ...((contract?.noLongerMetConditionCount ?? 0) === 0
      ? []
      : [`${countOf(contract?.noLongerMetConditionCount ?? 0, 'condition')} no longer met`]),
    // A baseline that counted no conditions (before null) has no change of them to say.
    ...(conditions === undefined || conditions.before === null || conditions.after === null || conditions.before === conditions.after
      ? []
      : [`conditions met ${formatCoverage(conditions.before)} -> ${formatCoverage(conditions.after)}`]),
    ...endpoints(counts.new, (noun) => `new ${noun}`),
    ...endpoints(comparison.missingEndpoints.length, (noun) => after(noun, 'missing')),
    ...endpoints(counts.noChange, (noun) => after(noun, 'unchanged'), true),
    ...endpoints(counts.faster, (noun) => after(noun, 'faster')),
    ...endpoints(counts.tooFewSamples, (noun) => after(noun, 'too few samples to judge')),
  ];
  // A shift every endpoint shares is the machine's or the whole service's: said on its own, not marked on each endpoint.
  const shift = comparison.runShiftPercent;
  const whole = shift === 0 ? '' : `; the whole run ${formatChangePercent(shift)} alike (the machine, or the service as a whole)`;
  return `vs base: ${parts.join(', ')}${whole}`;
}

/** A coverage percent of the contract section: `70.59%`, `–` when there was nothing to cover. */
export function formatCoverage(percent: number | null): string {
  return percent === null ? '–' : `${PERCENT.format(percent)}%`;
}

/**
 * The endpoints worst first: those with server errors first (most first),
 * then those with failed executions (most failed first), then by p95,
 * slowest first, then by label; at most `limit` of them, and how many more
 * there are.
 */
export function worstEndpoints(report: QualityReport, limit: number): { shown: Endpoint[]; more: number } {
  const { endpoints } = report;
  const worse = (a: Endpoint, b: Endpoint): number =>
    serverErrorsOf(b) - serverErrorsOf(a) ||
    b.failedExecutionCount - a.failedExecutionCount ||
    (b.responseTimeMs.p95 ?? -1) - (a.responseTimeMs.p95 ?? -1) ||
    compareCodeUnits(a.endpoint, b.endpoint);
  // The first `limit` by selection, not a sort of every endpoint: a report may have tens of thousands, a page shows a few.
  const shown: Endpoint[] = [];
  for (const endpoint of endpoints) {
    if (shown.length === limit && (limit === 0 || worse(endpoint, shown[limit - 1]!) >= 0)) continue;
    let low = 0;
    let high = shown.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (worse(endpoint, shown[middle]!) < 0) high = middle;
      else low = middle + 1;
    }
    shown.splice(low, 0, endpoint);
    if (shown.length > limit) shown.pop();
  }
  return { shown, more: Math.max(0, endpoints.length - limit) };
}

/** What kind of change an endpoint shows against the baseline, regressions first in this order. */
const CHANGE_KINDS = ['newly failing', 'failing more', 'slower', 'new', 'recovered', 'failing less', 'faster', 'missing'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** Whether a kind of change is a regression (shown first, marked). */
export function isRegression(kind: ChangeKind): boolean {
  return kind === 'newly failing' || kind === 'failing more' || kind === 'slower';
}

/** One row of the baseline changes: an endpoint of either report that changed. */
export interface BaselineChange {
  readonly endpoint: string;
  readonly kind: ChangeKind;
  /** The comparison entry; absent for an endpoint that ran only in the baseline. */
  readonly entry?: Change | undefined;
}

/**
 * The endpoints that changed against the baseline, regressions first:
 * newly failing, failing more (a higher failure rate), slower (judged so by
 * the latency test; largest increase first), then new endpoints,
 * recovered, failing less, faster, and endpoints that no longer ran.
 * Endpoints the test judged unchanged, or had too few samples to judge, are
 * left out, whatever their p95 did.
 */
export function baselineChanges(report: QualityReport): BaselineChange[] {
  const comparison = report.baseline;
  if (comparison === undefined) return [];
  const newlyFailing = new Set(comparison.newlyFailingEndpoints);
  const recovered = new Set(comparison.recoveredEndpoints);
  const changes: BaselineChange[] = [];
  for (const entry of comparison.endpoints) {
    const kind = changeKindOf(entry, newlyFailing, recovered);
    if (kind !== undefined) changes.push({ endpoint: entry.endpoint, kind, entry });
  }
  for (const endpoint of comparison.missingEndpoints) changes.push({ endpoint, kind: 'missing' });
  const magnitude = (change: BaselineChange) => Math.abs(change.entry?.p95.changePercent ?? 0);
  return changes.sort(
    (a, b) =>
      CHANGE_KINDS.indexOf(a.kind) - CHANGE_KINDS.indexOf(b.kind) ||
      magnitude(b) - magnitude(a) ||
      compareCodeUnits(a.endpoint, b.endpoint),
  );
}

function changeKindOf(entry: Change, newlyFailing: ReadonlySet<string>, recovered: ReadonlySet<string>): ChangeKind | undefined {
  const { before, after } = entry.failureRate;
  if (newlyFailing.has(entry.endpoint)) return 'newly failing';
  if (failsMore(entry)) return 'failing more';
  if (entry.latencyVerdict === 'slower') return 'slower';
  if (entry.executionCount.before === null) return 'new';
  if (recovered.has(entry.endpoint)) return 'recovered';
  if (before !== null && after !== null && after < before) return 'failing less';
  if (entry.latencyVerdict === 'faster') return 'faster';
  return undefined;
}

/**
 * The endpoints of the comparison with too few samples to judge, each with
 * its sample counts: `GET /health (5 → 5)`; at most `limit`, how many more
 * there are, and the line that counts them all: little to judge is said
 * briefly, in one line with the names folded under it. An endpoint new,
 * newly failing or failing more is not among them: it is a change of its
 * own, in the table, as the comparison's headline counts it.
 */
export function tooFewToJudge(
  comparison: NonNullable<QualityReport['baseline']>,
  limit: number,
): { shown: string[]; more: number; count: number; line: string } {
  // Counted as the headline counts them: an endpoint newly failing or failing more is that change, however few its samples.
  const kindOf = headlineKinds(comparison);
  const entries = comparison.endpoints.filter((entry) => kindOf(entry) === 'tooFewSamples');
  const shown = entries
    .slice(0, limit)
    .map(
      (entry) =>
        `${shownText(entry.endpoint)} (${formatCountChange({ before: entry.latencyTest.nBefore, after: entry.latencyTest.nAfter })})`,
    );
  const line = `${countOf(entries.length, 'endpoint')} with too few samples to judge (n before → after)`;
  return { shown, more: entries.length - shown.length, count: entries.length, line };
}

/**
 * A budget result with nothing to judge: maxP95IncreasePercent of an
 * endpoint with too few samples to judge, which holds. The tables leave
 * these out and count them in one line, their endpoints folded under it.
 */
export function isTooFewToJudge(result: BudgetResult): boolean {
  return result.passed && result.latencyVerdict === 'tooFewSamples';
}

/** One endpoint or operation of a line of the baseline section, and what is said of it: `GET /a` `409, 503`. */
export interface NamedDetail {
  readonly name: string;
  readonly detail: string;
}

/** A list of the baseline section, as shown: at most `limit` entries, and how many more there are. */
export interface ShownList {
  /** The comparison's field it shows: `newStatuses`, `newlyFlaky`, `newUndeclaredStatuses`, …. */
  readonly field: string;
  readonly title: string;
  readonly entries: readonly NamedDetail[];
  readonly more: number;
}

/**
 * What the baseline section says besides the table of changes, each a list
 * in the order the comparison gives, regressions first: the endpoints with
 * statuses new against the baseline, newly flaky and no longer flaky, then
 * the contract's new undeclared statuses, operations no longer exercised,
 * bodies off their schema where their count moved, operations newly
 * exercised, and operations whose conditions the document changed since
 * the baseline (not compared). Empty lists are left out; each shows at most `limit`, and a
 * list the report capped counts what it left out too.
 */
export function baselineLists(comparison: NonNullable<QualityReport['baseline']>, limit: number): ShownList[] {
  const lists: ShownList[] = [];
  const add = (field: string, title: string, entries: readonly NamedDetail[], total = entries.length): void => {
    if (total > 0) lists.push({ field, title, entries: entries.slice(0, limit), more: total - Math.min(limit, entries.length) });
  };
  const withStatuses = comparison.endpoints.filter((entry) => (entry.newStatusCount ?? 0) > 0);
  add(
    'newStatuses',
    'New statuses',
    withStatuses.map(({ endpoint, newStatuses = [], newStatusCount = 0 }) => ({
      name: endpoint,
      detail: `${newStatuses.join(', ')}${newStatusCount > newStatuses.length ? ` and ${formatCount(newStatusCount - newStatuses.length)} more` : ''}`,
    })),
  );
  const flaky = (state: Change['flakiness']) =>
    comparison.endpoints.filter((entry) => entry.flakiness === state).map(({ endpoint }) => ({ name: endpoint, detail: '' }));
  add('newlyFlaky', 'Newly flaky', flaky('newlyFlaky'));
  add('noLongerFlaky', 'No longer flaky', flaky('noLongerFlaky'));
  const { contract } = comparison;
  if (contract === undefined) return lists;
  const operations = (names: readonly string[]) => names.map((name) => ({ name, detail: '' }));
  add(
    'newUndeclaredStatuses',
    'New undeclared statuses',
    contract.newUndeclaredStatuses.map(({ operation, status }) => ({ name: operation, detail: status })),
    contract.newUndeclaredStatusCount,
  );
  add(
    'noLongerExercisedOperations',
    'No longer exercised',
    operations(contract.noLongerExercisedOperations),
    contract.noLongerExercisedOperationCount,
  );
  add(
    'schemaViolationChanges',
    'Bodies off their schema',
    contract.schemaViolationChanges.map(({ operation, schemaViolationCount }) => ({
      name: operation,
      detail: formatCountChange(schemaViolationCount),
    })),
    contract.schemaViolationChangeCount,
  );
  add('newlyExercisedOperations', 'Newly exercised', operations(contract.newlyExercisedOperations), contract.newlyExercisedOperationCount);
  const changedLists = contract.conditionListChangedOperations ?? [];
  add(
    'conditionListChangedOperations',
    'Conditions not compared (the document changed them)',
    operations(changedLists),
    contract.conditionListChangedOperationCount ?? changedLists.length,
  );
  return lists;
}

/**
 * The contract's coverage against the baseline: `operations covered 70.59%
 * → 76.47% · responses covered 50% → 52.63% · conditions met 40% → 58.82%`.
 * The conditions only where the comparison has them (a report of a version
 * before condition coverage has not), and none when neither side had any
 * to meet; a baseline that counted none, with this run's beside it, is said
 * so: `conditions met 58.82% (the baseline did not count conditions)`.
 */
export function contractCoverageChange(contract: NonNullable<NonNullable<QualityReport['baseline']>['contract']>): string {
  const change = ({ before, after }: { readonly before: number | null; readonly after: number | null }) =>
    `${formatCoverage(before)} → ${formatCoverage(after)}`;
  const parts = [
    `operations covered ${change(contract.operationCoveragePercent)}`,
    `responses covered ${change(contract.responseCoveragePercent)}`,
  ];
  const conditions = contract.conditionCoveragePercent;
  if (conditions !== undefined && (conditions.before !== null || conditions.after !== null))
    parts.push(
      conditions.before === null
        ? `conditions met ${formatCoverage(conditions.after)} (the baseline did not count conditions)`
        : `conditions met ${change(conditions)}`,
    );
  return parts.join(' · ');
}

/** A count before and after: `3 → 5`, with `–` for a side that has none. */
export function formatCountChange({ before, after }: { readonly before: number | null; readonly after: number | null }): string {
  return `${before === null ? '–' : formatCount(before)} → ${after === null ? '–' : formatCount(after)}`;
}

/** The whole run against the baseline: `executions 3 → 5 · failed 0 → 1 · slow 2 → 2`. */
export function baselineNumbers(comparison: NonNullable<QualityReport['baseline']>): string {
  return [
    `executions ${formatCountChange(comparison.executionCount)}`,
    ...(comparison.serverErrorCount === undefined ? [] : [`server errors ${formatCountChange(comparison.serverErrorCount)}`]),
    `failed ${formatCountChange(comparison.failedExecutionCount)}`,
    `slow ${formatCountChange(comparison.slowExecutionCount)}`,
  ].join(' · ');
}

/** The tests of a reporter's run in words: `11 tests: 10 passed, 1 failed, 0 flaky, 0 skipped`. */
export function describeTests({ total, passed, failed, flaky, skipped }: NonNullable<QualityReport['tests']>): string {
  return (
    `${countOf(total, 'test')}: ${formatCount(passed)} passed, ${formatCount(failed)} failed, ${formatCount(flaky)} flaky, ` +
    `${formatCount(skipped)} skipped`
  );
}

/** Where one of the slowest executions is: its location and its id, as far as it has them; empty when it has neither. */
export function slowestWhere(execution: QualityReport['slowestExecutions'][number]): string {
  return [execution.location, execution.id === undefined ? undefined : `id ${execution.id}`]
    .filter((part) => part !== undefined)
    .join(', ');
}

/** A sentence's first letter in capitals. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Every endpoint with calls that got no response, most first, then by label. */
export function noResponseEndpoints(report: QualityReport): Endpoint[] {
  return report.endpoints
    .filter((endpoint) => endpoint.noResponseCount > 0)
    .sort((a, b) => b.noResponseCount - a.noResponseCount || compareCodeUnits(a.endpoint, b.endpoint));
}

/** The status of one of the slowest executions: its code, or the error of a call that got no response. */
export function slowestStatus(execution: QualityReport['slowestExecutions'][number]): string {
  return execution.statusCode === undefined ? `no response (${execution.errorCode ?? 'unknown'})` : String(execution.statusCode);
}

/** The arrow each trend against the history is shown with. */
export const TREND_ARROWS: Readonly<Record<Trend, string>> = {
  aboveRange: '↑',
  belowRange: '↓',
  withinRange: '→',
  new: '+',
  tooFewRuns: '·',
};

/** The order trends are listed in: the ones to act on first. */
const TREND_ORDER: readonly Trend[] = ['aboveRange', 'belowRange', 'new', 'tooFewRuns', 'withinRange'];

/** An endpoint's trend in words: `above its range (95–118 ms)`, `too few runs (3 of 5)`. */
export function trendWords(history: EndpointHistory, minimumRuns: number): string {
  const range =
    history.p95Range === null ? '' : ` (${formatMs(history.p95Range.low).replace(' ms', '')}–${formatMs(history.p95Range.high)})`;
  switch (history.trend) {
    case 'aboveRange':
      return `above its range${range}`;
    case 'belowRange':
      return `below its range${range}`;
    case 'withinRange':
      return `within its range${range}`;
    case 'new':
      return 'new: in no earlier run';
    case 'tooFewRuns':
      return `too few runs to judge (${formatCount(history.p95.filter((value) => value !== null).length)} of ${formatCount(minimumRuns)})`;
  }
}

/** The last `count` values of a series, oldest first, as a reader scans them: `12 · 13 · 12 ms`; runs without the endpoint left out. */
export function lastValues(series: readonly (number | null)[], count: number): string {
  const values = series.filter((value): value is number => value !== null).slice(-count);
  return values.length === 0 ? '' : `${values.map((value) => MILLISECONDS.format(value)).join(' · ')} ms`;
}

/** The run against its history in one line: `vs history (20 runs): 1 endpoint above its range, 5 within, …`. */
export function historyHeadline(history: NonNullable<QualityReport['history']>): string {
  const counts = history.trendCounts;
  // The first run of a history judges nothing: it says so, not "0 within".
  if (history.runCount === 0) return 'vs history: no earlier run of this environment to judge against';
  const parts = [
    `${countOf(counts.aboveRange, 'endpoint')} above ${counts.aboveRange === 1 ? 'its' : 'their'} range`,
    `${formatCount(counts.withinRange)} within`,
  ];
  if (counts.belowRange > 0) parts.push(`${formatCount(counts.belowRange)} below`);
  if (counts.new > 0) parts.push(`${formatCount(counts.new)} new`);
  if (counts.tooFewRuns > 0) parts.push(`${formatCount(counts.tooFewRuns)} with too few runs`);
  const shift = history.runShiftPercent;
  const whole =
    shift === null || shift === 0
      ? ''
      : history.runShiftTakenOut
        ? `; the whole run ${formatChangePercent(shift)} alike, within the swings its history shows: taken out as the machine's`
        : `; the whole run ${formatChangePercent(shift)}, past the swings its history shows: judged as a change`;
  return `vs history (${countOf(history.runCount, 'earlier run')}): ${parts.join(', ')}${whole}`;
}

/** Endpoints with a history, the ones to act on first (above, below, new, too few runs, within), then by label. */
export function endpointsByTrend(report: QualityReport): Endpoint[] {
  const rank = (endpoint: Endpoint) => (endpoint.history === undefined ? TREND_ORDER.length : TREND_ORDER.indexOf(endpoint.history.trend));
  return report.endpoints
    .filter((endpoint) => endpoint.history !== undefined)
    .sort((a, b) => rank(a) - rank(b) || compareCodeUnits(a.endpoint, b.endpoint));
}

/** A line for each line of the history file that could not be read: `line 3 of the history file is not JSON: …; it was left out`. */
export function historySkippedWarnings(report: QualityReport): string[] {
  return (report.history?.skippedLines ?? []).map(
    ({ line, message }) =>
      `line ${formatCount(line)} of the history file ${message}; it was left out (an append keeps only the lines that can be read)`,
  );
}
