import { countOf, endpointsByTrend, formatCount, formatMs, lastValues, TREND_ARROWS, trendWords } from '../renderers/presentation.js';
import { label, text } from './htmlParts.js';
import { code, foldedMarkdown, row } from './markdownParts.js';
import type { QualityReport } from '../qualityReport.js';
import type { ReportSection } from './reportSection.js';

/** How many of an endpoint's last p95s the history table shows. */
const MARKDOWN_LAST_RUNS = 5;

/**
 * Each endpoint's p95 against the history's earlier runs, the most unusual
 * first, then what is flaky across runs. The page gives only the flaky
 * endpoints and tests: its endpoint table gives each endpoint's trend in a
 * column of its own (./endpointTrend.ts, with its flakiness), and its
 * headline the history's damaged lines.
 */
export const historySection: ReportSection<'history'> = {
  id: 'history',
  keptWhenCut: true,
  markdown: (report, { reportName, limits }) => {
    const history = report.history;
    if (history === undefined) return [];
    const lines = ['', '### Against the history', ''];
    const skipped = history.skippedLines ?? [];
    if (skipped.length > 0) {
      const were = skipped.length === 1 ? 'was' : 'were';
      const numbers = skipped.map(({ line }) => formatCount(line)).join(', ');
      lines.push(`⚠️ ${countOf(skipped.length, 'line')} of the history file could not be read and ${were} left out: line ${numbers}.`, '');
    }
    const everyRanked = endpointsByTrend(report);
    if (everyRanked.length === 0) return [...lines, 'No endpoint ran.'];
    const flaky = flakinessMarkdown(report, limits.endpoints, reportName);
    // Little to judge is said briefly: the endpoints with too few runs are one line, their names folded under it.
    const ranked = everyRanked.filter((endpoint) => endpoint.history?.trend !== 'tooFewRuns');
    const tooFew = everyRanked.filter((endpoint) => endpoint.history?.trend === 'tooFewRuns');
    const tooFewLine =
      tooFew.length === 0
        ? []
        : [
            '',
            foldedMarkdown(
              `${countOf(tooFew.length, 'endpoint')} with too few runs to judge (fewer than ${formatCount(history.minimumRuns)} earlier runs)`,
              `${tooFew
                .slice(0, limits.endpoints)
                .map((endpoint) => code(endpoint.endpoint))
                .join(', ')}${tooFew.length > limits.endpoints ? `, and ${formatCount(tooFew.length - limits.endpoints)} more` : ''}.`,
            ),
          ];
    const shown = ranked.slice(0, limits.endpoints);
    if (shown.length === 0) return [...lines, ...tooFewLine.slice(1), ...flaky];
    lines.push(
      `Each endpoint's p95 against the p95s of its last ${formatCount(history.windowRuns)} earlier runs (their median, and a range of 3.5 modified ` +
        'z-scores, about 5.2 median absolute deviations, on a logarithmic scale); ' +
        `the last ${MARKDOWN_LAST_RUNS} earlier values, oldest first.`,
      '',
      '| Trend | Endpoint | p95 now | Median | Last runs |',
      '|---|---|---:|---:|---|',
    );
    for (const endpoint of shown) {
      const entry = endpoint.history!;
      lines.push(
        row([
          `${TREND_ARROWS[entry.trend]} ${trendWords(entry, history.minimumRuns)}`,
          code(endpoint.endpoint),
          formatMs(endpoint.responseTimeMs.p95),
          formatMs(entry.p95Median),
          lastValues(entry.p95, MARKDOWN_LAST_RUNS),
        ]),
      );
    }
    if (ranked.length > shown.length) lines.push('', `${countOf(ranked.length - shown.length, 'more endpoint')} in ${code(reportName)}.`);
    return [...lines, ...tooFewLine, ...flaky];
  },
  html: (report, { limits }) => flakinessHtml(report, limits.endpoints),
};

/** What the renderings say of an endpoint's or a test's flakiness across runs (the report's, the comment's). */
export interface FlakinessWords {
  readonly score: number;
  readonly runCount: number;
  readonly flakyRunCount: number;
  readonly trend: string;
}

/** An endpoint's or a test's flakiness across runs in words: `4 of 30 runs flaky (13%), rising`. */
export function flakinessWords({ score, runCount, flakyRunCount, trend }: FlakinessWords): string {
  const percent = Math.round(score * 100);
  return `${formatCount(flakyRunCount)} of ${countOf(runCount, 'run')} flaky (${percent === 0 ? '<1' : percent}%), ${trend}`;
}

/** A test as the flaky tests name it: `tests/orders.spec.ts:12 › lists orders`, as text. */
export function testPlace({ file, line, title }: { readonly file: string; readonly line: number; readonly title: string }): string {
  return `${file}:${line} › ${title}`;
}

/**
 * The endpoints and tests flaky across the runs scored, each with its score
 * and trend; nothing when none is (a report with no flakiness says nothing more).
 */
function flakinessMarkdown(report: QualityReport, limit: number, reportName: string): string[] {
  const flakiness = report.history?.flakiness;
  if (flakiness === undefined || (flakiness.flakyEndpoints.length === 0 && flakiness.flakyTestCount === 0)) return [];
  const byLabel = new Map(report.endpoints.map((endpoint) => [endpoint.endpoint, endpoint]));
  const endpoints = flakiness.flakyEndpoints.slice(0, limit).map((label) => {
    const scored = byLabel.get(label)?.history?.flakiness;
    return `- ${code(label)}: ${scored === undefined ? 'flaky' : flakinessWords(scored)}`;
  });
  const moreEndpoints = flakiness.flakyEndpoints.length - endpoints.length;
  const tests = flakiness.flakyTests.slice(0, limit).map((test) => `- test ${code(testPlace(test))}: ${flakinessWords(test)}`);
  const moreTests = flakiness.flakyTestCount - tests.length;
  return [
    '',
    `Flaky across the last ${countOf(flakiness.runCount, 'run')} (this one the last): failed, then passed on a retry or in the next run of the same commit.`,
    '',
    ...endpoints,
    ...(moreEndpoints > 0 ? [`- and ${countOf(moreEndpoints, 'more endpoint')} in ${code(reportName)}`] : []),
    ...tests,
    ...(moreTests > 0 ? [`- and ${countOf(moreTests, 'more flaky test')}`] : []),
  ];
}

/** The page's list of what is flaky across runs: '' when nothing is. */
function flakinessHtml(report: QualityReport, limit: number): string {
  const flakiness = report.history?.flakiness;
  if (flakiness === undefined || (flakiness.flakyEndpoints.length === 0 && flakiness.flakyTestCount === 0)) return '';
  const byLabel = new Map(report.endpoints.map((endpoint) => [endpoint.endpoint, endpoint]));
  const endpoints = flakiness.flakyEndpoints.slice(0, limit).map((endpointLabel) => {
    const scored = byLabel.get(endpointLabel)?.history?.flakiness;
    return `<li data-flaky-endpoint>${label(endpointLabel)}: ${text(scored === undefined ? 'flaky' : flakinessWords(scored))}</li>`;
  });
  const moreEndpoints = flakiness.flakyEndpoints.length - endpoints.length;
  const tests = flakiness.flakyTests
    .slice(0, limit)
    .map((test) => `<li data-flaky-test><code>${text(testPlace(test))}</code>: ${text(flakinessWords(test))}</li>`);
  const moreTests = flakiness.flakyTestCount - tests.length;
  const more = (count: number, noun: string) => (count > 0 ? [`<li>${text(`… and ${countOf(count, noun)}`)}</li>`] : []);
  const lead =
    `Across the last ${countOf(flakiness.runCount, 'run')} (this one the last): ` +
    'failed, then passed on a retry or in the next run of the same commit.';
  return (
    `<section data-field="history.flakiness"><h2>Flaky across runs</h2><p>${text(lead)}</p>` +
    `<ul>${[...endpoints, ...more(moreEndpoints, 'more endpoint'), ...tests, ...more(moreTests, 'more flaky test')].join('')}</ul></section>`
  );
}
