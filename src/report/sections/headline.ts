import type { QualityReport } from '../qualityReport.js';
import { serverErrorsOf } from '../buildReport.js';
import { contractNumbers } from '../renderers/contractPresentation.js';
import {
  capitalise,
  comparisonHeadline,
  countOf,
  describeTests,
  formatCount,
  formatMs,
  formatPercentile,
  headlineNumbers,
  historyHeadline,
  passingTestFailureHints,
  shownText,
  verdictOf,
  type VerdictKind,
} from '../renderers/presentation.js';
import { attribute, text } from './htmlParts.js';
import { code } from './markdownParts.js';
import type { ReportSection } from './reportSection.js';

const VERDICT_MARKS: Readonly<Record<VerdictKind, string>> = {
  incomplete: '⚠️',
  'no-executions': '⚠️',
  breached: '❌',
  held: '✅',
  'no-budgets': '⚠️',
  failed: '❌',
  clean: '✅',
};

const VERDICT_CLASSES: Readonly<Record<VerdictKind, { className: string; symbol: string }>> = {
  incomplete: { className: 'warn', symbol: '⚠' },
  'no-executions': { className: 'warn', symbol: '⚠' },
  breached: { className: 'bad', symbol: '✖' },
  held: { className: 'good', symbol: '✔' },
  'no-budgets': { className: 'warn', symbol: '⚠' },
  failed: { className: 'bad', symbol: '✖' },
  clean: { className: 'good', symbol: '✔' },
};

/**
 * The environment, the verdict, the run's numbers and percentiles, and one
 * line each on the baseline, the history and the tests. The page's headline
 * also says the contract's numbers, the history's damaged lines and the hint
 * on passing tests' failed calls (the Markdown says that hint apart, see
 * ./hint.ts).
 */
export const headlineSection: ReportSection<'headline'> = {
  id: 'headline',
  keptWhenCut: true,
  markdown: (report, { dashboardHref }) => {
    const verdict = verdictOf(report);
    const n = report.executionCount;
    const numbers = headlineNumbers(report, { withThreshold: true }).join(' · ');
    const lines: string[] = [
      `## API quality evidence: ${code(report.environment)}`,
      '',
      `${VERDICT_MARKS[verdict.kind]} **${capitalise(verdict.text)}** · ${numbers}`,
    ];
    if (n > 0) {
      const times = report.responseTimeMs;
      const percentiles = (['p50', 'p95', 'p99'] as const).map((name) => formatPercentile(name, times[name], n)).join(' · ');
      lines.push('', `Response time: ${percentiles} · max ${formatMs(times.max)}`);
    }
    if (report.baseline !== undefined) lines.push('', `**${comparisonHeadline(report.baseline)}**`);
    if (report.history !== undefined) {
      const page = dashboardHref === undefined ? '' : ` · [the history page](${dashboardHref})`;
      lines.push('', `**${historyHeadline(report.history)}**${page}`);
    }
    if (report.tests !== undefined) lines.push('', `Tests: ${describeTests(report.tests)}`);
    return lines;
  },
  html: (report, { dashboardHref }) => {
    const { kind, text: verdictText } = verdictOf(report);
    const { className, symbol } = VERDICT_CLASSES[kind];
    const number = (field: string, name: string, value: number, tone = '') =>
      `<div><dt>${name}</dt><dd${tone === '' ? '' : ` class="${tone}"`} data-field="${field}" data-value="${value}">${formatCount(value)}</dd></div>`;
    const serverErrors = serverErrorsOf(report);
    const numbers = [
      number('executionCount', 'Calls', report.executionCount),
      // Server errors lead: a 5xx or a call with no response is the server's defect, where a 4xx is most often a deliberate answer.
      number('serverErrorCount', 'Server errors (5xx, no response)', serverErrors, serverErrors > 0 ? 'bad' : ''),
      number('failedExecutionCount', 'Failed', report.failedExecutionCount),
      number('slowExecutionCount', `Slow (over ${formatMs(report.slowResponseThresholdMs)})`, report.slowExecutionCount),
      number('noResponseCount', 'No response', report.noResponseCount),
    ];
    if (report.expectedErrorCount > 0) numbers.push(number('expectedErrorCount', 'Expected errors', report.expectedErrorCount));
    if (report.unrecordedCallCount !== undefined)
      numbers.push(number('unrecordedCallCount', 'Calls not recorded', report.unrecordedCallCount));
    if (report.skippedAssetCount !== undefined) numbers.push(number('skippedAssetCount', 'Assets left out', report.skippedAssetCount));
    const n = report.executionCount;
    const times = report.responseTimeMs;
    const time = (field: 'p50' | 'p95' | 'p99' | 'max', shown: string) =>
      `<span data-field="responseTimeMs.${field}" data-value="${times[field]}">${text(shown)}</span>`;
    const percentiles =
      n === 0
        ? ''
        : `<p>Response time: ${(['p50', 'p95', 'p99'] as const).map((name) => time(name, formatPercentile(name, times[name], n))).join(' · ')}` +
          ` · max ${time('max', formatMs(times.max))}</p>`;
    const tests = report.tests === undefined ? '' : `<p class="muted">Tests: ${text(describeTests(report.tests))}</p>`;
    const contract =
      report.contract === undefined ? '' : `\n<p data-field="contract">Contract: ${text(contractNumbers(report.contract).join(' · '))}</p>`;
    const comparison =
      report.baseline === undefined
        ? ''
        : `\n<p class="comparison" data-field="baseline"><strong>${text(comparisonHeadline(report.baseline))}</strong></p>`;
    const history =
      report.history === undefined
        ? ''
        : `\n<p class="comparison" data-field="history"><strong>${text(historyHeadline(report.history))}</strong>${historyPageLink(dashboardHref)}\
${historySkipped(report.history)}</p>`;
    const note = passingTestFailureHints(report)
      .map((hint) => `\n<p class="note" data-field="passingTestFailureCount">ℹ ${text(hint)}.</p>`)
      .join('');
    return `<header>
<h1>API quality evidence: <code>${text(shownText(report.environment))}</code></h1>
<p class="verdict ${className}" data-verdict="${kind}"><span aria-hidden="true">${symbol}</span> ${text(capitalise(verdictText))}</p>
<dl class="numbers">${numbers.join('')}</dl>
${percentiles}
${tests}${contract}${comparison}${history}${note}
</header>`;
  },
};

/** The history page written with the report, linked beside the history's headline (a relative link: no request leaves the page). */
function historyPageLink(dashboardHref: string | undefined): string {
  return dashboardHref === undefined ? '' : ` · <a href="${attribute(dashboardHref)}" data-field="dashboard">the history page</a>`;
}

/** The history's damaged lines, said beside its headline. */
function historySkipped(history: NonNullable<QualityReport['history']>): string {
  const skipped = history.skippedLines ?? [];
  if (skipped.length === 0) return '';
  const lines = skipped.map(({ line }) => formatCount(line)).join(', ');
  const were = skipped.length === 1 ? 'was' : 'were';
  const what = `${text(countOf(skipped.length, 'line'))} of the history file could not be read and ${were} left out`;
  return ` <span class="warn">⚠ ${what} (line ${text(lines)})</span>`;
}
