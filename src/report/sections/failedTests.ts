import type { QualityReport } from '../qualityReport.js';
import { countOf, formatCount } from '../renderers/presentation.js';
import { testLink } from './endpointDetail.js';
import { label, text } from './htmlParts.js';
import { code, row } from './markdownParts.js';
import type { ReportSection } from './reportSection.js';
import { joinedParts, traceHtml, traceMarkdown } from './traceParts.js';

type FailedTest = NonNullable<QualityReport['failedTests']>[number];

/** How many endpoints a failed test's cell names; the report has up to 10, the page all of them. */
const MARKDOWN_ENDPOINTS_PER_TEST = 3;

/** `orders.spec.ts:18`: where a failed test is declared. */
function placeOf(test: FailedTest): string {
  return `${test.file}:${test.line}`;
}

/** `×2, 2 failed`: a test's calls of one endpoint. */
function callsText({ calls, failedCalls }: FailedTest['endpoints'][number]): string {
  return `×${formatCount(calls)}${failedCalls > 0 ? `, ${formatCount(failedCalls)} failed` : ''}`;
}

/** How many failed tests the report does not name (it names the 20 with most failed calls; tests.failed counts them all). */
function unnamedCount(report: QualityReport): number {
  return Math.max(0, (report.tests?.failed ?? 0) - (report.failedTests?.length ?? 0));
}

/**
 * The failed tests as Markdown table lines, each beside the endpoints its
 * calls reached (those where its calls failed first), at most `limit`
 * tests, and a line for the failed tests left out; none when no test
 * failed. The section below gives them under a heading; the pull-request
 * comment takes the same lines.
 */
export function failedTestsMarkdown(report: QualityReport, limit: number, traceUrlTemplate?: string): string[] {
  const tests = report.failedTests ?? [];
  if (tests.length === 0) return [];
  const lines = ['| Test | Where | Endpoints its calls reached |', '|---|---|---|'];
  for (const test of tests.slice(0, limit)) {
    const named = test.endpoints.slice(0, MARKDOWN_ENDPOINTS_PER_TEST).map((entry) => `${code(entry.endpoint)} ${callsText(entry)}`);
    const more = test.endpointCount - named.length;
    const endpoints = named.length === 0 ? 'no recorded call' : `${named.join(', ')}${more > 0 ? `, +${formatCount(more)} more` : ''}`;
    lines.push(row([code(test.title), joinedParts([code(placeOf(test)), traceMarkdown(test, traceUrlTemplate)]), endpoints]));
  }
  const left = tests.length - Math.min(limit, tests.length) + unnamedCount(report);
  if (left > 0) lines.push('', `${countOf(left, 'more failed test')}: Playwright's own report lists them.`);
  return lines;
}

/**
 * The tests that failed, by title, file and line, each beside the endpoints
 * its calls reached: the way from a red test to the calls behind it, kept
 * when the Markdown is cut. Only a Playwright run's report has them.
 */
export const failedTestsSection: ReportSection<'failedTests'> = {
  id: 'failedTests',
  keptWhenCut: true,
  markdown: (report, { limits, traceUrlTemplate }) => {
    const lines = failedTestsMarkdown(report, limits.failingEndpoints, traceUrlTemplate);
    if (lines.length === 0) return [];
    const failed = report.tests?.failed ?? report.failedTests?.length ?? 0;
    return ['', '### Failed tests', '', `${countOf(failed, 'test')} failed; beside each, the endpoints its calls reached.`, '', ...lines];
  },
  html: (report, { traceUrlTemplate }) => {
    const tests = report.failedTests ?? [];
    if (tests.length === 0) return '';
    const items = tests.map((test) => {
      const endpoints = test.endpoints.map(
        (entry) => `<li data-endpoint-called>${label(entry.endpoint)} <span class="muted">${text(callsText(entry))}</span></li>`,
      );
      const more = test.endpointCount - test.endpoints.length;
      if (more > 0) endpoints.push(`<li class="muted">${text(`${countOf(more, 'more endpoint')} in the report`)}</li>`);
      const reached = endpoints.length === 0 ? '<p class="muted">No recorded call.</p>' : `<ul>${endpoints.join('')}</ul>`;
      const trace = traceHtml(test, traceUrlTemplate);
      return `<li data-failed-test>${testLink(report, test, `${placeOf(test)} · ${test.title}`)}${trace === '' ? '' : ` · ${trace}`}${reached}</li>`;
    });
    const left = unnamedCount(report);
    if (left > 0) items.push(`<li class="muted">${text(`${countOf(left, 'more failed test')}: Playwright's own report lists them`)}</li>`);
    const failed = report.tests?.failed ?? tests.length;
    const lead = `<p>${text(`${countOf(failed, 'test')} failed; beside each, the endpoints its calls reached.`)}</p>`;
    return `<section id="failed-tests"><h2>Failed tests</h2>${lead}<ul class="failed-tests">${items.join('')}</ul></section>`;
  },
};
