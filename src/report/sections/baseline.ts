import {
  baselineChanges,
  baselineLists,
  baselineNumbers,
  countOf,
  formatChangePercent,
  formatCount,
  formatCountChange,
  formatMs,
  formatPValue,
  formatRateChange,
  isRegression,
  shownText,
  SIGNIFICANCE_METHOD,
  tooFewToJudge,
  type BaselineChange,
  type ShownList,
} from '../renderers/presentation.js';
import { contractCoverageChangeText } from '../renderers/conditionPresentation.js';
import { newlyMetHtml, newlyMetMarkdown, noLongerMetHtml, noLongerMetMarkdown } from './conditionChanges.js';
import { attribute, foldedHtml, label, text } from './htmlParts.js';
import { code, foldedMarkdown, row } from './markdownParts.js';
import type { ReportSection } from './reportSection.js';

/**
 * The changes against the baseline, regressions first, and each endpoint the
 * test could not judge, with its samples: a p95 that moved on 5 calls is no
 * change, and no evidence of none. The contract's coverage, the conditions
 * no longer met open beside it, those newly met folded last.
 */
export const baselineSection: ReportSection<'baseline'> = {
  id: 'baseline',
  keptWhenCut: true,
  markdown: (report, { limits }) => {
    const comparison = report.baseline;
    if (comparison === undefined) return [];
    const lines = [
      '',
      '### Changes against the baseline',
      '',
      `Baseline ${code(comparison.environment.before)}: ${baselineNumbers(comparison)}`,
      '',
    ];
    const changes = baselineChanges(report);
    if (changes.length === 0) lines.push('No endpoint changed.');
    else {
      lines.push(
        '| Change | Endpoint | p95 before | p95 after | p95 change | n before → after | p-value | Failure rate |',
        '|---|---|---:|---:|---:|---|---:|---|',
      );
      for (const change of changes.slice(0, limits.changes)) lines.push(changeRow(change));
      if (changes.length > limits.changes)
        lines.push('', `${countOf(changes.length - limits.changes, 'more change')} in the report's \`baseline\` section.`);
    }
    const tooFew = tooFewToJudge(comparison, limits.changes);
    if (tooFew.count > 0) {
      const more = tooFew.more > 0 ? `, and ${formatCount(tooFew.more)} more` : '';
      lines.push('', foldedMarkdown(tooFew.line, `${tooFew.shown.map(code).join(', ')}${more}.`));
    }
    const { contract } = comparison;
    if (contract !== undefined)
      lines.push(
        '',
        `**Contract**: ${contractCoverageChangeText(contract, report.contract)}.`,
        ...noLongerMetMarkdown(contract, limits.changes),
      );
    for (const list of baselineLists(comparison, limits.changes)) lines.push('', listMarkdown(list));
    if (contract !== undefined) lines.push(...newlyMetMarkdown(contract, limits.changes));
    lines.push('', `<sub>${SIGNIFICANCE_METHOD} (level ${comparison.significanceLevel}).</sub>`);
    return lines;
  },
  html: (report, { limits }) => {
    const comparison = report.baseline;
    if (comparison === undefined) return '';
    const lead = `<p>Baseline <code>${text(shownText(comparison.environment.before))}</code>: ${text(baselineNumbers(comparison))}</p>`;
    const changes = baselineChanges(report);
    const method = `<p class="muted">${text(`${SIGNIFICANCE_METHOD} (level ${comparison.significanceLevel}).`)}</p>`;
    const tooFew = tooFewToJudge(comparison, limits.changes);
    const tooFewMore = tooFew.more > 0 ? text(`, and ${formatCount(tooFew.more)} more`) : '';
    const tooFewLine =
      tooFew.count === 0
        ? ''
        : foldedHtml(
            'tooFewSamples',
            tooFew.line,
            `${tooFew.shown.map((entry) => `<code>${text(entry)}</code>`).join(', ')}${tooFewMore}.`,
          );
    const contract =
      comparison.contract === undefined
        ? ''
        : `<p data-field="contract"><strong>Contract</strong>: ${text(contractCoverageChangeText(comparison.contract, report.contract))}.</p>` +
          noLongerMetHtml(comparison.contract);
    const newlyMet = comparison.contract === undefined ? '' : newlyMetHtml(comparison.contract);
    const lists = `${contract}${baselineLists(comparison, limits.changes).map(listHtml).join('')}${newlyMet}`;
    const title = '<section id="baseline"><h2>Changes against the baseline</h2>';
    if (changes.length === 0) return `${title}${lead}<p>No endpoint changed.</p>${tooFewLine}${lists}${method}</section>`;
    const rows = changes.slice(0, limits.changes).map(changeRowHtml);
    const moreChanges = countOf(changes.length - limits.changes, 'more change');
    const more = changes.length > limits.changes ? `<p>${text(moreChanges)} in the report's <code>baseline</code> section.</p>` : '';
    const head =
      '<th>Change</th><th>Endpoint</th><th class="num">p95 before</th><th class="num">p95 after</th><th class="num">p95 change</th>' +
      '<th class="num">n before → after</th><th class="num">p-value</th><th class="num">Failure rate</th>';
    const table = `<table class="cards"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
    return `${title}${lead}<div class="scroll">${table}</div>${more}${tooFewLine}${lists}${method}</section>`;
  },
};

// Entries apart by semicolons: a detail may hold commas (`409, 503`).
function listMarkdown({ title, entries, more }: ShownList): string {
  const shown = entries.map(({ name, detail }) => (detail === '' ? code(name) : `${code(name)} ${detail}`));
  return `**${title}**: ${shown.join('; ')}${more > 0 ? `; and ${formatCount(more)} more` : ''}.`;
}

function listHtml({ field, title, entries, more }: ShownList): string {
  const shown = entries.map(({ name, detail }) => (detail === '' ? label(name) : `${label(name)} ${text(detail)}`));
  const rest = more > 0 ? text(`; and ${formatCount(more)} more`) : '';
  return `<p data-field="${field}"><strong>${text(title)}</strong>: ${shown.join('; ')}${rest}.</p>`;
}

function changeRow({ endpoint, kind, entry }: BaselineChange): string {
  return row([
    `${isRegression(kind) ? '🔺' : kind === 'missing' || kind === 'new' ? '•' : '🔻'} ${kind}`,
    code(endpoint),
    entry === undefined ? '' : formatMs(entry.p95.before),
    entry === undefined ? '' : formatMs(entry.p95.after),
    entry === undefined ? '' : formatChangePercent(entry.p95.changePercent),
    entry === undefined ? '' : formatCountChange({ before: entry.latencyTest.nBefore, after: entry.latencyTest.nAfter }),
    entry === undefined ? '' : formatPValue(entry.latencyTest.pValue),
    entry === undefined ? '' : formatRateChange(entry.failureRate),
  ]);
}

function changeRowHtml({ endpoint, kind, entry }: BaselineChange): string {
  const regression = isRegression(kind);
  const newOrMissing = kind === 'new' || kind === 'missing';
  const cell = (name: string, value: string) => `<td class="num" data-label="${name}">${entry === undefined ? '' : text(value)}</td>`;
  const tone = regression ? 'bad' : newOrMissing ? '' : 'good';
  const change = `<td class="state ${tone}" data-label="Change">${regression ? '▲' : newOrMissing ? '•' : '▼'} ${text(kind)}</td>`;
  const numbers =
    entry === undefined
      ? '<td colspan="6"></td>'
      : [
          cell('p95 before', formatMs(entry.p95.before)),
          cell('p95 after', formatMs(entry.p95.after)),
          cell('p95 change', formatChangePercent(entry.p95.changePercent)),
          cell('n before → after', formatCountChange({ before: entry.latencyTest.nBefore, after: entry.latencyTest.nAfter })),
          cell('p-value', formatPValue(entry.latencyTest.pValue)),
          cell('Failure rate', formatRateChange(entry.failureRate)),
        ].join('');
  return `<tr data-change-endpoint="${attribute(endpoint)}">${change}<td data-label="Endpoint">${label(endpoint)}</td>${numbers}</tr>`;
}
