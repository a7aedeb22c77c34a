import { escapeControlCharacters } from '../../renderValue.js';
import type { QualityReport } from '../qualityReport.js';
import { countOf, failedStatus, failedWhere, formatCount, formatMs, shownText } from '../renderers/presentation.js';
import { attribute, round, text } from './htmlParts.js';
import { joinedParts, traceHtml } from './traceParts.js';

type Endpoint = QualityReport['endpoints'][number];

/** How many failed calls and tests an endpoint's row opens to. */
const HTML_DETAIL_LIMIT = 10;

/**
 * What an endpoint's row of the page opens to: its failed calls with where
 * each came from (the page's rendering of the Markdown's failed calls,
 * ./failedCalls.ts), its tests, and its latency distribution.
 */
export function endpointDetail(report: QualityReport, endpoint: Endpoint, traceUrlTemplate?: string): string {
  const parts: string[] = [];
  const failed = endpoint.failedExecutions ?? [];
  if (failed.length > 0) {
    const items = failed.map((execution) => {
      const call = `<code>${text(shownText(`${execution.method} ${execution.path}`))}</code>`;
      const where = joinedParts([testLink(report, execution.test, failedWhere(execution)), traceHtml(execution, traceUrlTemplate)]);
      const excerpt =
        execution.excerpt === undefined ? '' : `<pre class="excerpt">${text(escapeControlCharacters(execution.excerpt))}</pre>`;
      const time = text(formatMs(execution.responseTimeMs));
      return `<li data-failed-call><strong>${text(failedStatus(execution))}</strong> ${call} · ${time} · ${where}${excerpt}</li>`;
    });
    const moreFailed = endpoint.failedExecutionCount - failed.length;
    const more = moreFailed > 0 ? ` (${formatCount(moreFailed)} more in the report)` : '';
    parts.push(`<p class="detail-title">First failed calls${more}</p><ul>${items.join('')}</ul>`);
  }
  const tests = (endpoint.tests ?? []).slice(0, HTML_DETAIL_LIMIT);
  if (tests.length > 0) {
    const moreTests = (endpoint.testCount ?? tests.length) - tests.length;
    const items = tests.map((test) => {
      const calls = `${countOf(test.calls, 'call')}, ${formatCount(test.failedCalls)} failed`;
      return `<li>${testLink(report, test, `${test.file}:${test.line} · ${test.title}`)} · ${text(calls)}</li>`;
    });
    const more = moreTests > 0 ? ` (${formatCount(moreTests)} more in the report)` : '';
    parts.push(`<p class="detail-title">Tests that called it${more}</p><ul>${items.join('')}</ul>`);
  }
  parts.push(distribution(endpoint));
  return `<div class="detail">${parts.join('')}</div>`;
}

/** A test, linked into Playwright's HTML report when the report says where that is. */
export function testLink(report: QualityReport, test: { readonly testId?: string | undefined } | undefined, words: string): string {
  const shown = `<code>${text(shownText(words))}</code>`;
  if (report.playwrightHtmlReport === undefined || test?.testId === undefined) return shown;
  return `<a href="${attribute(`${encodeURI(report.playwrightHtmlReport)}#?testId=${encodeURIComponent(test.testId)}`)}">${shown}</a>`;
}

/** How many columns the distribution chart draws at most: buckets side by side are merged to fit. */
const DISTRIBUTION_COLUMNS = 60;

/**
 * An endpoint's latency distribution from its histogram, on a logarithmic
 * axis: a column per bucket (neighbours merged to at most 60 columns), the
 * exact p50, p95 and p99 marked.
 */
function distribution(endpoint: Endpoint): string {
  const { bins } = endpoint.latencyHistogram;
  if (bins.length === 0) return '';
  const first = bins[0]![0];
  const last = bins[bins.length - 1]![0];
  const width = Math.max(1, Math.ceil((last - first + 1) / DISTRIBUTION_COLUMNS));
  const columnCount = Math.floor((last - first) / width) + 1;
  // A count a column, 0 for none; bins read by index, not destructured: this runs once per endpoint, before the JIT has
  // optimised it, when each destructuring walks an iterator (a quarter of a page's time at 200 endpoints).
  const columns = new Float64Array(columnCount);
  for (let at = 0; at < bins.length; at++) {
    const bin = bins[at]!;
    const column = Math.floor((bin[0] - first) / width);
    columns[column] = columns[column]! + bin[1];
  }
  let tallest = 0;
  for (let column = 0; column < columnCount; column++) tallest = Math.max(tallest, columns[column]!);
  const columnWidth = 1000 / columnCount;
  const rectWidth = round(Math.max(1, columnWidth - 1));
  let rects = '';
  for (let column = 0; column < columnCount; column++) {
    const count = columns[column]!;
    if (count === 0) continue;
    const height = round((count / tallest) * 70);
    const box = `x="${round(column * columnWidth)}" y="${round(80 - height)}" width="${rectWidth}" height="${height}"`;
    // A count of calls holds no character to escape.
    rects += `<rect ${box}><title>${countOf(count, 'call')}</title></rect>`;
  }
  // The axis runs over the buckets' bounds: (γ^(first-1), γ^last].
  const gamma = (1 + endpoint.latencyHistogram.relativeAccuracy) / (1 - endpoint.latencyHistogram.relativeAccuracy);
  const from = Math.log(gamma) * (first - 1);
  const to = Math.log(gamma) * (first + columnCount * width - 1);
  const at = (value: number | null) =>
    value === null || value <= 0 ? 0 : Math.max(0, Math.min(1000, round(((Math.log(value) - from) / (to - from)) * 1000)));
  const { p50, p95, p99 } = endpoint.responseTimeMs;
  const marks = (
    [
      ['p50', p50],
      ['p95', p95],
      ['p99', p99],
    ] as const
  ).map(
    ([name, value]) =>
      `<line class="mark ${name}" x1="${at(value)}" y1="0" x2="${at(value)}" y2="80"><title>${name} ${text(formatMs(value))}</title></line>`,
  );
  const zeros =
    endpoint.latencyHistogram.zeroCount > 0 ? ` · ${text(countOf(endpoint.latencyHistogram.zeroCount, 'call'))} of 0 ms not drawn` : '';
  const named = `latency distribution of ${shownText(endpoint.endpoint)}, p50 ${formatMs(p50)}, p95 ${formatMs(p95)}, p99 ${formatMs(p99)}`;
  const svg =
    `<svg class="distribution" viewBox="0 0 1000 80" preserveAspectRatio="none" role="img" aria-label="${attribute(named)}">` +
    `${rects}${marks.join('')}</svg>`;
  const legend = [
    `<span>${text(formatMs(round(Math.exp(from))))}</span>`,
    `<span class="mark-p50">│ p50 ${text(formatMs(p50))}</span>`,
    `<span class="mark-p95">│ p95 ${text(formatMs(p95))}</span>`,
    `<span class="mark-p99">│ p99 ${text(formatMs(p99))}</span>`,
    `<span>${text(formatMs(round(Math.exp(to))))}, logarithmic${zeros}</span>`,
  ].join('');
  return `<p class="detail-title">Latency distribution</p>${svg}<p class="legend">${legend}</p>`;
}
