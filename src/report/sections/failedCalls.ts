import { countOf, endpointStates, endpointsWithFailedCalls, failedStatus, failedWhere, formatMs } from '../renderers/presentation.js';
import { code, row } from './markdownParts.js';
import type { ReportSection } from './reportSection.js';

/**
 * The first failed calls of each failing endpoint, with the test and line
 * behind each. No HTML: each endpoint's row of the page opens to its failed
 * calls (./endpointDetail.ts).
 */
export const failedCallsSection: ReportSection<'failedCalls'> = {
  id: 'failedCalls',
  keptWhenCut: true,
  markdown: (report, { reportName, limits }) => {
    const failing = endpointsWithFailedCalls(report);
    if (failing.length === 0) return [];
    const stateOf = endpointStates(report);
    const lines = ['', '### Failed calls', '', 'The first failed calls of each endpoint, with the test and line behind each.', ''];
    lines.push('| Endpoint | Status | Call | Time | Where |', '|---|---|---|---:|---|');
    for (const endpoint of failing.slice(0, limits.failingEndpoints)) {
      const executions = endpoint.failedExecutions ?? [];
      executions.forEach((execution, index) => {
        const first = index === 0 ? `${code(endpoint.endpoint)}${stateOf(endpoint).flaky ? ' (flaky)' : ''}` : '';
        const call = code(`${execution.method} ${execution.path}`);
        lines.push(row([first, failedStatus(execution), call, formatMs(execution.responseTimeMs), code(failedWhere(execution))]));
      });
      const more = endpoint.failedExecutionCount - executions.length;
      if (more > 0) lines.push(row(['', '', `… ${countOf(more, 'more failed call')}`, '', '']));
    }
    if (failing.length > limits.failingEndpoints) {
      lines.push('', `${countOf(failing.length - limits.failingEndpoints, 'more failing endpoint')} in ${code(reportName)}.`);
    }
    return lines;
  },
};
