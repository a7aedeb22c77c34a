import { endpointStates, formatMs, worstEndpoints } from '../renderers/presentation.js';
import { endpointChart } from './endpointChart.js';
import { text } from './htmlParts.js';
import type { ReportSection } from './reportSection.js';

/**
 * The page's chart of the endpoints, worst first as the table above it:
 * each one's p50, p95 and p99 against the slow threshold. After the
 * endpoints, never on the first screen; folded when no call was slow, so a
 * run with nothing slow spends no screen on latency bars. No Markdown: the
 * endpoint table gives the same percentiles.
 */
export const chartSection: ReportSection<'chart'> = {
  id: 'chart',
  keptWhenCut: false,
  html: (report, { limits }) => {
    const { shown } = worstEndpoints(report, limits.endpoints);
    const chart = endpointChart(report, shown, endpointStates(report));
    if (chart === '' || report.slowExecutionCount > 0) return chart;
    const summary = `Response time by endpoint: no call was slower than ${formatMs(report.slowResponseThresholdMs)}`;
    return `<details class="chart"><summary>${text(summary)}</summary>\n${chart}\n</details>`;
  },
};
