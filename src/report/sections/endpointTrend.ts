import type { QualityReport } from '../qualityReport.js';
import { countOf, formatMs, TREND_ARROWS, trendWords } from '../renderers/presentation.js';
import { flakinessWords } from './history.js';
import { attribute, round, text } from './htmlParts.js';

type Endpoint = QualityReport['endpoints'][number];

/** Where the sparkline draws: the p95 line in the top 24 units, the failure-rate bars in the 8 below. */
const SPARK = { width: 120, lineTop: 2, lineBottom: 22, barBottom: 34, barHeight: 8, margin: 4 } as const;

/**
 * An endpoint's trend cell in the page's endpoint table (the page's
 * rendering of the Markdown's history section, ./history.ts): a sparkline of
 * its p95 over the earlier runs of the history and this run (the last point,
 * marked), over the band of its range; a strip of bars below it, each run's
 * failure rate; and the trend in words. A run that did not call the endpoint
 * leaves a gap.
 */
export function trendCell(report: QualityReport, endpoint: Endpoint): string {
  const entry = endpoint.history;
  const history = report.history;
  if (entry === undefined || history === undefined) return '<td data-label="Trend"></td>';
  const p95s = [...entry.p95, endpoint.responseTimeMs.p95];
  const rates = [...entry.failureRate, endpoint.executionCount === 0 ? null : endpoint.failedExecutionCount / endpoint.executionCount];
  const count = p95s.length;
  const step = count === 1 ? 0 : (SPARK.width - 2 * SPARK.margin) / (count - 1);
  const x = (index: number) => round(count === 1 ? SPARK.width / 2 : SPARK.margin + index * step);
  const present = p95s.filter((value): value is number => value !== null);
  const low = Math.min(...present, entry.p95Range?.low ?? Number.POSITIVE_INFINITY);
  const high = Math.max(...present, entry.p95Range?.high ?? Number.NEGATIVE_INFINITY);
  const y = (value: number) =>
    round(
      high === low
        ? (SPARK.lineTop + SPARK.lineBottom) / 2
        : SPARK.lineBottom - ((value - low) / (high - low)) * (SPARK.lineBottom - SPARK.lineTop),
    );
  const range = entry.p95Range;
  const band =
    range === null
      ? ''
      : `<rect class="range" x="0" y="${y(range.high)}" width="${SPARK.width}" height="${round(y(range.low) - y(range.high))}"/>`;
  // One polyline per stretch of runs that called the endpoint.
  const segments: string[][] = [[]];
  p95s.forEach((value, index) => {
    if (value === null) segments.push([]);
    else segments[segments.length - 1]!.push(`${x(index)},${y(value)}`);
  });
  const lines = segments.filter((points) => points.length > 1).map((points) => `<polyline points="${points.join(' ')}"/>`);
  const current = endpoint.responseTimeMs.p95;
  const now = current === null ? '' : `<circle class="now ${entry.trend}" cx="${x(count - 1)}" cy="${y(current)}" r="2.5"/>`;
  const barWidth = Math.max(1, round((count === 1 ? 8 : step) * 0.7));
  const bars = rates.map((rate, index) => {
    if (rate === null) return '';
    const height = rate === 0 ? 1 : Math.max(2, round(rate * SPARK.barHeight));
    const box = `x="${round(x(index) - barWidth / 2)}" y="${SPARK.barBottom - height}" width="${barWidth}" height="${height}"`;
    return `<rect class="${rate === 0 ? 'passed' : 'failed'}" ${box}/>`;
  });
  const words = `${TREND_ARROWS[entry.trend]} ${trendWords(entry, history.minimumRuns)}`;
  const title =
    `p95 over ${countOf(count - 1, 'earlier run')} and this one (${formatMs(current)}, the last point); ` +
    `bars: the failure rate of each run; ${words}`;
  const spark =
    `<svg class="spark" viewBox="0 0 ${SPARK.width} ${SPARK.barBottom}" role="img" aria-label="${attribute(title)}">` +
    `<title>${text(title)}</title>${band}${lines.join('')}${now}${bars.join('')}</svg>`;
  // Only a flaky endpoint says more: a steady one's cell is as it was.
  const flaky =
    entry.flakiness?.state === 'flaky' ? `<span class="trend-words flakiness">${text(flakinessWords(entry.flakiness))}</span>` : '';
  return `<td data-label="Trend" data-field="history.trend" data-value="${entry.trend}">${spark}<span class="trend-words">${text(words)}</span>${flaky}</td>`;
}
