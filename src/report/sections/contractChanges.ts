import type { WeighedChange, WeighedSummary } from '../../contract/diff/weighedChange.js';
import { breakingChangesLine } from '../../contract/diff/weighedChange.js';
import { countOf, formatCount } from '../renderers/presentation.js';
import { label, text } from './htmlParts.js';
import { code, row } from './markdownParts.js';

/**
 * The contract's changes since the base document (issue 38), as a run with
 * `openapiBase` weighed them: the summary line, then each breaking change
 * and warning with what the run's evidence says of it (how many responses
 * carried a removed property, the calls and the tests that made them, or
 * not exercised). Info changes are counted, not listed. In the contract
 * section of the Markdown and the page, and in the pull-request comment.
 */

/** The changes a report holds (its `contract.changes`), as far as they are shown. */
export interface ShownChanges {
  readonly base: readonly string[];
  readonly summary: WeighedSummary;
  readonly changes: readonly WeighedChange[];
  readonly omittedChangeCount?: number | undefined;
}

/** How many tests an evidence cell names before `and N more`. */
const SHOWN_TESTS = 3;

/** The summary line, with the counts of warnings and info: `2 breaking changes: 2 exercised by 3 tests · 1 warning · 0 info`. */
export function changesHeadline(shown: ShownChanges, testsKnown: boolean): string {
  const { warning, info } = shown.summary;
  return `${breakingChangesLine(shown.summary, shown.changes, { testsKnown, runCount: 1 })} · ${countOf(warning, 'warning')} · ${formatCount(info)} info`;
}

/** The changes a reader acts on: breaking, then warnings, as listed. */
function listedChanges(shown: ShownChanges): WeighedChange[] {
  return shown.changes.filter((change) => change.level !== 'info');
}

/** The change in words without its operation, which the cell shows apart: `response 200: property name removed`. */
function whatChanged(change: WeighedChange): string {
  const prefix = `${change.operation.label}: `;
  return change.message.startsWith(prefix) ? change.message.slice(prefix.length) : change.message;
}

/** How many carried what changed: `present in 2 of 2 responses answered 200`, `sent in 1 of 2 requests`. */
function presenceText(change: WeighedChange): string | undefined {
  if (!change.evidence.exercised || change.evidence.presence === undefined) return undefined;
  const { direction, status, of, present, atLeast } = change.evidence.presence;
  const count = `${atLeast === true ? 'at least ' : ''}${formatCount(present)} of ${formatCount(of)}`;
  if (direction === 'response') return `present in ${count} response${of === 1 ? '' : 's'} answered ${status ?? ''}`.trimEnd();
  return change.subject.kind === 'parameter'
    ? `sent in ${count} call${of === 1 ? '' : 's'}`
    : `sent in ${count} request${of === 1 ? '' : 's'}`;
}

/** The evidence of one change, in parts: the presence, the calls, the tests (`file:line`), or not exercised. */
function evidenceParts(change: WeighedChange): { readonly presence?: string; readonly calls: string; readonly tests: readonly string[] } {
  const { evidence } = change;
  if (!evidence.exercised) return { calls: 'not exercised', tests: [] };
  const presence = presenceText(change);
  const tests = (evidence.tests ?? []).map((test) => `${test.file}:${test.line}`);
  const unique = [...new Set(tests)];
  const more = unique.length - SHOWN_TESTS + evidence.unlistedTestCount;
  const shownTests = [...unique.slice(0, SHOWN_TESTS), ...(more > 0 ? [`and ${countOf(more, 'more test')}`] : [])];
  const calls = countOf(evidence.calls, 'call') + (evidence.tests !== undefined && shownTests.length === 0 ? ', outside tests' : '');
  return { ...(presence === undefined ? {} : { presence }), calls, tests: shownTests };
}

/** The head of the Markdown table of changes. */
export const CHANGES_TABLE_HEAD: readonly string[] = ['| Level | Operation | Change | Evidence |', '|---|---|---|---|'];

/** The line that opens the changes: `**Contract changes** against `base.yaml`: 2 breaking changes: …`. */
export function changesLineMarkdown(shown: ShownChanges, testsKnown: boolean): string {
  return `**Contract changes** against ${shown.base.map(code).join(', ')}: ${changesHeadline(shown, testsKnown)}`;
}

/** One Markdown row per breaking change and warning, as listed. */
export function changeRowsMarkdown(shown: ShownChanges): string[] {
  return listedChanges(shown).map((change) => {
    const { presence, calls, tests } = evidenceParts(change);
    const byTests = tests.length === 0 ? '' : ` by ${tests.map((test) => (test.startsWith('and ') ? test : code(test))).join(', ')}`;
    const evidence = change.evidence.exercised
      ? `${presence === undefined ? '' : `${presence} · `}${calls}${byTests}`
      : '**not exercised**';
    return row([change.level, code(change.operation.label), code(whatChanged(change)), evidence]);
  });
}

/** The Markdown part: the line, then the rows, at most `limit`, then a line counting the rest. */
export function changesMarkdown(shown: ShownChanges, testsKnown: boolean, limit: number): string[] {
  const lines = ['', changesLineMarkdown(shown, testsKnown)];
  const rows = changeRowsMarkdown(shown);
  if (rows.length === 0) return lines;
  lines.push('', ...CHANGES_TABLE_HEAD, ...rows.slice(0, limit));
  const more = rows.length - Math.min(limit, rows.length) + (shown.omittedChangeCount ?? 0);
  if (more > 0) lines.push('', `${countOf(more, 'more change')} in the report.`);
  return lines;
}

/** The page's part: the line, then a table of the listed changes. */
export function changesHtml(shown: ShownChanges, testsKnown: boolean, limit: number): string {
  const against = shown.base.map(label).join(', ');
  const parts = [`<h3>Contract changes</h3><p>Against ${against}: ${text(changesHeadline(shown, testsKnown))}</p>`];
  const listed = listedChanges(shown);
  if (listed.length === 0) return parts.join('');
  const rows = listed.slice(0, limit).map((change) => {
    const { presence, calls, tests } = evidenceParts(change);
    const evidence = change.evidence.exercised
      ? [
          ...(presence === undefined ? [] : [text(presence)]),
          text(calls),
          ...(tests.length === 0 ? [] : [`by ${tests.map(label).join(', ')}`]),
        ].join('<br>')
      : '<strong>not exercised</strong>';
    const cells = [
      `<td data-label="Level">${text(change.level)}</td>`,
      `<td data-label="Operation">${label(change.operation.label)}</td>`,
      `<td data-label="Change">${text(whatChanged(change))} <span class="muted">${text(change.rule)}</span></td>`,
      `<td data-label="Evidence">${evidence}</td>`,
    ];
    return `<tr>${cells.join('')}</tr>`;
  });
  const head = '<th>Level</th><th>Operation</th><th>Change</th><th>Evidence</th>';
  parts.push(`<div class="scroll"><table class="cards"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`);
  const more = listed.length - Math.min(limit, listed.length) + (shown.omittedChangeCount ?? 0);
  if (more > 0) parts.push(`<p>${text(countOf(more, 'more change'))} in the report.</p>`);
  return parts.join('');
}
