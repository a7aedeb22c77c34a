import type { QualityReport } from '../qualityReport.js';
import { serverErrorsOf } from '../buildReport.js';
import { undeclaredWorstFirst, violationsWorstFirst } from '../renderers/contractPresentation.js';
import { baselineChanges, countOf, formatCount, shownText, type ChangeKind } from '../renderers/presentation.js';
import { compareCodeUnits } from '../../compareCodeUnits.js';
import { isServerError } from '../../summary/endpointEvidence.js';
import { text } from './htmlParts.js';
import { code } from './markdownParts.js';
import type { ReportSection } from './reportSection.js';
import { joinedParts, traceHtml, traceMarkdown, type TraceIds } from './traceParts.js';

type Endpoint = QualityReport['endpoints'][number];

/** How many names each line of the list gives before `and 3 more`. */
const NAMES_PER_LINE = 5;

/** What a line of the list is about. */
export type AttentionKind =
  'serverErrors' | 'failedTests' | 'newlyFailing' | 'failingMore' | 'slower' | 'aboveRange' | 'undeclaredStatuses' | 'schemaViolations';

/** One line of what is new and wrong: its count in words, where the page says more, and the first names. */
interface Attention {
  readonly kind: AttentionKind;
  readonly tone: 'bad' | 'warn';
  readonly what: string;
  readonly href: string;
  readonly names: readonly string[];
  /** How many it is about, when `names` holds only the first {@link NAMES_PER_LINE} (each costly to name); else as many as `names`. */
  readonly nameCount?: number;
  /** Beside each name, where it has one: its trace (an endpoint's first server error's, a failed test's failing attempt's). */
  readonly traces?: readonly TraceIds[];
}

/**
 * `POST /orders (500 ×2, no response ×1, first at orders.spec.ts:14)`: an
 * endpoint, its server errors, and where the first was made where a test made it.
 */
function serverErrorName(endpoint: Endpoint): string {
  const codes = Object.entries(endpoint.statusCodes)
    .filter(([code]) => Number(code) >= 500)
    .map(([code, count]) => `${code} ×${formatCount(count)}`);
  if (endpoint.noResponseCount > 0) codes.push(`no response ×${formatCount(endpoint.noResponseCount)}`);
  const first = endpoint.failedExecutions?.find(isServerError);
  // The call's own line when the test made it, else the test's (a call in a shared helper has one line for every test).
  const at = first?.test === undefined || first.callLocation?.file !== first.test.file ? first?.test : first.callLocation;
  if (at !== undefined) codes.push(`first at ${at.file}:${at.line}`);
  return `${endpoint.endpoint} (${codes.join(', ')})`;
}

/** What is new and wrong in a report, most actionable first; empty when nothing is. */
export function attentionOf(report: QualityReport): Attention[] {
  const lines: Attention[] = [];
  const serverErrors = serverErrorsOf(report);
  if (serverErrors > 0) {
    // Each endpoint's count once, not in every comparison; and only the names shown are made (50,000 endpoints may have one).
    const endpoints = report.endpoints
      .flatMap((endpoint) => {
        const count = serverErrorsOf(endpoint);
        return count > 0 ? [{ endpoint, count }] : [];
      })
      .sort((a, b) => b.count - a.count || compareCodeUnits(a.endpoint.endpoint, b.endpoint.endpoint))
      .map(({ endpoint }) => endpoint);
    const shown = endpoints.slice(0, NAMES_PER_LINE);
    lines.push({
      kind: 'serverErrors',
      tone: 'bad',
      what: `${countOf(serverErrors, 'server error')} (5xx or no response) on ${countOf(endpoints.length, 'endpoint')}`,
      href: '#failed-calls',
      names: shown.map(serverErrorName),
      nameCount: endpoints.length,
      traces: shown.map((endpoint) => endpoint.failedExecutions?.find(isServerError) ?? {}),
    });
  }
  const failedTests = report.failedTests ?? [];
  if (failedTests.length > 0) {
    lines.push({
      kind: 'failedTests',
      tone: 'bad',
      what: countOf(report.tests?.failed ?? failedTests.length, 'failed test'),
      href: '#failed-tests',
      names: failedTests.map((test) => `${test.file}:${test.line} · ${test.title}`),
      traces: failedTests,
    });
  }
  // Each endpoint once, by its most telling change, as the comparison's headline counts it (an endpoint failing more and slower is failing more).
  const changes = baselineChanges(report);
  const changed = (kind: ChangeKind) => changes.filter((change) => change.kind === kind).map((change) => change.endpoint);
  for (const [kind, change, tone, words] of [
    ['newlyFailing', 'newly failing', 'bad', 'newly failing'],
    ['failingMore', 'failing more', 'bad', 'failing more than in the baseline'],
    ['slower', 'slower', 'warn', 'slower than the baseline'],
  ] as const) {
    const names = changed(change);
    if (names.length > 0) lines.push({ kind, tone, what: `${countOf(names.length, 'endpoint')} ${words}`, href: '#baseline', names });
  }
  const above = report.history?.aboveRangeEndpoints ?? [];
  if (above.length > 0) {
    lines.push({
      kind: 'aboveRange',
      tone: 'warn',
      what: `${countOf(above.length, 'endpoint')} above ${above.length === 1 ? 'its' : 'their'} history's range`,
      href: '#endpoints',
      names: above,
    });
  }
  const contract = report.contract;
  const undeclared = contract === undefined ? [] : undeclaredWorstFirst(contract);
  if (undeclared.length > 0) {
    const statuses = undeclared.reduce((sum, operation) => sum + operation.undeclaredStatuses.length, 0);
    lines.push({
      kind: 'undeclaredStatuses',
      tone: 'warn',
      what: `${formatCount(statuses)} ${statuses === 1 ? 'status' : 'statuses'} the contract does not declare`,
      href: '#contract',
      names: undeclared.map((operation) => `${operation.endpoint} (${operation.undeclaredStatuses.join(', ')})`),
    });
  }
  const violating = contract === undefined ? [] : violationsWorstFirst(contract);
  if (violating.length > 0) {
    const bodies = violating.reduce((sum, operation) => sum + operation.schemaViolationCount, 0);
    lines.push({
      kind: 'schemaViolations',
      tone: 'warn',
      what: `${formatCount(bodies)} ${bodies === 1 ? 'body' : 'bodies'} off ${bodies === 1 ? 'its' : 'their'} schema`,
      href: '#contract',
      names: violating.map((operation) => `${operation.endpoint} (${formatCount(operation.schemaViolationCount)})`),
    });
  }
  return lines;
}

const MARKS = { bad: '✖', warn: '▲' } as const;

/**
 * What is new and wrong as Markdown list items, one line each, most
 * actionable first, each naming its first few: `- ✖ **2 server errors**
 * (5xx or no response) on 2 endpoints: `DELETE /produtos/{_id} (500 ×1)``.
 * Only the kinds asked for, when given (the pull-request comment says the
 * baseline's and the contract's in tables of its own).
 */
export function attentionMarkdown(report: QualityReport, kinds?: readonly AttentionKind[], traceUrlTemplate?: string): string[] {
  return attentionOf(report)
    .filter((line) => kinds === undefined || kinds.includes(line.kind))
    .map(({ tone, what, names, nameCount = names.length, traces = [] }) => {
      const shown = names
        .slice(0, NAMES_PER_LINE)
        .map((name, index) => joinedParts([code(shownText(name)), traceMarkdown(traces[index] ?? {}, traceUrlTemplate)]));
      const more = nameCount - shown.length;
      return `- ${MARKS[tone]} **${what}**: ${shown.join(', ')}${more > 0 ? `, and ${formatCount(more)} more` : ''}`;
    });
}

/**
 * The page's first screen after the verdict: what is new and wrong, one
 * line each, most actionable first (server errors, failed tests, endpoints
 * newly failing or slower than the baseline or above their history's range,
 * statuses the contract does not declare, bodies off their schema), each
 * naming its first few and linking to the section that says more. Nothing
 * when nothing is. The Markdown gives the same lines as a list under its
 * headline.
 */
export const attentionSection: ReportSection<'attention'> = {
  id: 'attention',
  keptWhenCut: true,
  markdown: (report, { traceUrlTemplate }) => {
    const lines = attentionMarkdown(report, undefined, traceUrlTemplate);
    return lines.length === 0 ? [] : ['', ...lines];
  },
  html: (report, { traceUrlTemplate }) => {
    const lines = attentionOf(report);
    if (lines.length === 0) return '';
    const items = lines.map(({ kind, tone, what, href, names, nameCount = names.length, traces = [] }) => {
      const shown = names
        .slice(0, NAMES_PER_LINE)
        .map((name, index) => joinedParts([`<code>${text(shownText(name))}</code>`, traceHtml(traces[index] ?? {}, traceUrlTemplate)]));
      const more = nameCount - shown.length;
      const list = `${shown.join(', ')}${more > 0 ? text(`, and ${formatCount(more)} more`) : ''}`;
      return `<li class="${tone}" data-attention="${kind}"><span aria-hidden="true">${MARKS[tone]}</span> <a href="${href}">${text(what)}</a>: ${list}</li>`;
    });
    return `<section id="attention" aria-label="What is new and wrong"><ul>${items.join('')}</ul></section>`;
  },
};
