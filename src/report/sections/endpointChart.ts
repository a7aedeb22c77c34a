import type { QualityReport } from '../qualityReport.js';
import { describeState, formatCount, formatMs, shownText, type EndpointState } from '../renderers/presentation.js';
import { attribute, label, round, stateBadge, text } from './htmlParts.js';

type Endpoint = QualityReport['endpoints'][number];

/**
 * The logarithmic scale of the chart: whole powers of ten around every p50,
 * p99 and the slow threshold, so that one slow endpoint does not flatten the
 * others. Positions run from 0 to 1000.
 */
function logScale(values: readonly number[]): {
  readonly low: number;
  readonly high: number;
  readonly x: (value: number | null) => number;
} {
  const positive = values.filter((value) => value > 0);
  const low = 10 ** Math.floor(Math.log10(Math.min(...positive, 1)));
  const highest = Math.max(...positive, 1);
  const high = Math.max(10 ** Math.ceil(Math.log10(highest)), low * 10);
  const span = Math.log10(high) - Math.log10(low);
  return {
    low,
    high,
    x: (value) => (value === null || value <= low ? 0 : Math.min(1000, round(((Math.log10(value) - Math.log10(low)) / span) * 1000))),
  };
}

/**
 * The page's chart of the endpoints shown, in the table's order: each one's
 * p50, p95 and p99 as a bar against the slow threshold; '' when none ran.
 * Each endpoint's group carries `data-endpoint` with its exact label.
 */
export function endpointChart(report: QualityReport, shown: readonly Endpoint[], stateOf: (endpoint: Endpoint) => EndpointState): string {
  if (shown.length === 0) return '';
  const threshold = report.slowResponseThresholdMs;
  const { low, high, x } = logScale([
    threshold,
    ...shown.flatMap((endpoint) => [endpoint.responseTimeMs.p50 ?? 0, endpoint.responseTimeMs.p99 ?? 0]),
  ]);
  const thresholdX = Math.min(998, x(threshold));
  const rows = shown.map((endpoint) => {
    const { p50, p95, p99 } = endpoint.responseTimeMs;
    const state = stateOf(endpoint);
    const values = `p50 ${formatMs(p50)} · p95 ${formatMs(p95)} · p99 ${formatMs(p99)} (n=${formatCount(endpoint.executionCount)})`;
    const named = `${shownText(endpoint.endpoint)}: ${values}`;
    const bar = [
      `<title>${text(named)}</title>`,
      `<rect x="0" y="6" width="${x(p50)}" height="12" class="p50"/>`,
      `<rect x="${x(p50)}" y="6" width="${round(x(p95) - x(p50))}" height="12" class="p95"/>`,
      `<line x1="${x(p95)}" y1="12" x2="${x(p99)}" y2="12" class="p99"/>`,
      `<line x1="${x(p99)}" y1="4" x2="${x(p99)}" y2="20" class="p99"/>`,
    ].join('');
    return (
      `<div class="chart-row"><div class="chart-label">${stateBadge(state)} ${label(endpoint.endpoint)} ` +
      `<span class="chart-values">${text(values)}</span></div>` +
      `<svg class="bar" viewBox="0 0 1000 24" preserveAspectRatio="none" role="img" aria-label="${attribute(named)}">` +
      `<g data-endpoint="${attribute(endpoint.endpoint)}" data-state="${describeState(state)}">${bar}</g>` +
      `<line class="threshold" x1="${thresholdX}" y1="0" x2="${thresholdX}" y2="24"/></svg></div>`
    );
  });
  const legend = [
    '<span><span class="swatch" style="background: var(--p50)"></span>up to p50</span>',
    '<span><span class="swatch" style="background: var(--p95)"></span>p50 to p95</span>',
    '<span>┤ p99</span>',
    `<span class="bad">┆ slow threshold, ${text(formatMs(threshold))}</span>`,
    `<span>logarithmic scale, ${text(formatMs(low))} to ${text(formatMs(high))}: each tenfold step is the same width</span>`,
  ].join('');
  return `<section id="chart"><h2>Response time by endpoint</h2>
<p class="legend">${legend}</p>
${rows.join('\n')}
</section>`;
}
