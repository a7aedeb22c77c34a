import { escapeControlCharacters } from '../../renderValue.js';
import {
  countOf,
  endpointStates,
  endpointsWithFailedCalls,
  failedStatus,
  failedWhere,
  formatMs,
  shownText,
} from '../renderers/presentation.js';
import { isServerError } from '../../summary/endpointEvidence.js';
import { testLink } from './endpointDetail.js';
import { attribute, label, text } from './htmlParts.js';
import { code, row } from './markdownParts.js';
import type { ReportSection } from './reportSection.js';
import { joinedParts, traceHtml, traceMarkdown } from './traceParts.js';
import type { QualityReport } from '../qualityReport.js';

const LEAD = 'The first failed calls of each endpoint, server errors first, with the test and line behind each.';

type Endpoint = QualityReport['endpoints'][number];
type FailedExecution = NonNullable<Endpoint['failedExecutions']>[number];

/** Rows of one endpoint in the table: some of its failed calls, and after its last group, how many it did not list. */
interface CallGroup {
  readonly endpoint: Endpoint;
  readonly executions: readonly FailedExecution[];
  readonly more: number;
}

/**
 * The failed calls of the endpoints shown, in table order: every server
 * error first, endpoint by endpoint (most server errors first), then the
 * other failed calls (client errors, most often a negative test's), so that
 * no 4xx sits between two 5xx of different endpoints. An endpoint with both
 * has a group in each part; the count of calls it did not list follows its
 * last group.
 */
function callGroups(failing: readonly Endpoint[]): CallGroup[] {
  const parts = [true, false].map((server) =>
    failing.map((endpoint) => ({
      endpoint,
      executions: (endpoint.failedExecutions ?? []).filter((execution) => isServerError(execution) === server),
    })),
  );
  const groups = parts.flat().filter((group) => group.executions.length > 0);
  return groups.map((group, index) => {
    const last = !groups.slice(index + 1).some((later) => later.endpoint === group.endpoint);
    const listed = group.endpoint.failedExecutions?.length ?? 0;
    return { ...group, more: last ? group.endpoint.failedExecutionCount - listed : 0 };
  });
}

/**
 * The first failed calls of each failing endpoint (server errors first),
 * with the test and line behind each: in the Markdown and on the page's
 * first screen, before every endpoint and the latency chart. Each
 * endpoint's row of the page opens to the same calls too (./endpointDetail.ts).
 */
export const failedCallsSection: ReportSection<'failedCalls'> = {
  id: 'failedCalls',
  keptWhenCut: true,
  markdown: (report, { reportName, limits, traceUrlTemplate }) => {
    const failing = endpointsWithFailedCalls(report);
    if (failing.length === 0) return [];
    const stateOf = endpointStates(report);
    const lines = ['', '### Failed calls', '', LEAD, ''];
    lines.push('| Endpoint | Status | Call | Time | Where |', '|---|---|---|---:|---|');
    for (const { endpoint, executions, more } of callGroups(failing.slice(0, limits.failingEndpoints))) {
      executions.forEach((execution, index) => {
        const first = index === 0 ? `${code(endpoint.endpoint)}${stateOf(endpoint).flaky ? ' (flaky)' : ''}` : '';
        const call = code(`${execution.method} ${execution.path}`);
        const where = joinedParts([code(failedWhere(execution)), traceMarkdown(execution, traceUrlTemplate)]);
        lines.push(row([first, failedStatus(execution), call, formatMs(execution.responseTimeMs), where]));
      });
      if (more > 0) lines.push(row(['', '', `… ${countOf(more, 'more failed call')}`, '', '']));
    }
    if (failing.length > limits.failingEndpoints) {
      lines.push('', `${countOf(failing.length - limits.failingEndpoints, 'more failing endpoint')} in ${code(reportName)}.`);
    }
    return lines;
  },
  html: (report, { reportName, limits, traceUrlTemplate }) => {
    const failing = endpointsWithFailedCalls(report);
    if (failing.length === 0) return '';
    const stateOf = endpointStates(report);
    const rows = callGroups(failing.slice(0, limits.failingEndpoints)).flatMap(({ endpoint, executions, more }) => {
      const flaky = stateOf(endpoint).flaky ? ' <span class="muted">flaky</span>' : '';
      const cells = executions.map((execution, index) => {
        const status = `<td class="state${isServerError(execution) ? ' bad' : ''}" data-label="Status">${text(failedStatus(execution))}</td>`;
        const excerpt =
          execution.excerpt === undefined ? '' : `<pre class="excerpt">${text(escapeControlCharacters(execution.excerpt))}</pre>`;
        return (
          `<tr${index === 0 ? ` data-failed-endpoint="${attribute(endpoint.endpoint)}"` : ''}>` +
          `<td data-label="Endpoint">${index === 0 ? `${label(endpoint.endpoint)}${flaky}` : ''}</td>${status}` +
          `<td data-label="Call"><code>${text(shownText(`${execution.method} ${execution.path}`))}</code></td>` +
          `<td class="num" data-label="Time">${text(formatMs(execution.responseTimeMs))}</td>` +
          `<td data-label="Where">${joinedParts([testLink(report, execution.test, failedWhere(execution)), traceHtml(execution, traceUrlTemplate)])}` +
          `${excerpt}</td></tr>`
        );
      });
      if (more > 0) cells.push(`<tr><td></td><td colspan="4" class="muted">${text(`… ${countOf(more, 'more failed call')}`)}</td></tr>`);
      return cells;
    });
    const left =
      failing.length > limits.failingEndpoints
        ? `<p>${text(countOf(failing.length - limits.failingEndpoints, 'more failing endpoint'))} in ` +
          `<code>${text(reportName)}</code>; each row of the endpoints below opens to its calls.</p>`
        : '';
    const head = '<th>Endpoint</th><th>Status</th><th>Call</th><th class="num">Time</th><th>Where</th>';
    const table = `<table class="cards"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
    return `<section id="failed-calls"><h2>Failed calls</h2><p class="muted">${text(LEAD)}</p><div class="scroll">${table}</div>${left}</section>`;
  },
};
