import { countOf, endpointsByTrend, formatCount, formatMs, lastValues, TREND_ARROWS, trendWords } from '../renderers/presentation.js';
import { code, foldedMarkdown, row } from './markdownParts.js';
import type { ReportSection } from './reportSection.js';

/** How many of an endpoint's last p95s the history table shows. */
const MARKDOWN_LAST_RUNS = 5;

/**
 * Each endpoint's p95 against the history's earlier runs, the most unusual
 * first. No HTML: the page's endpoint table gives each endpoint's trend in a
 * column of its own (./endpointTrend.ts), and its headline the history's
 * damaged lines.
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
    if (shown.length === 0) return [...lines, ...tooFewLine.slice(1)];
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
    return [...lines, ...tooFewLine];
  },
};
