import type { UnmetCondition } from '../contractSchemas.js';
import {
  conditionChangesByOperation,
  newlyMetConditionParts,
  noLongerMetConditionParts,
  type TextPart,
} from '../renderers/conditionPresentation.js';
import { formatCount } from '../renderers/presentation.js';
import type { ContractComparison } from '../verdictSchemas.js';
import { htmlOf, markdownOf } from './contractConditions.js';
import { label, text } from './htmlParts.js';
import { code } from './markdownParts.js';

/**
 * The conditions the baseline's comparison found no longer met and newly
 * met (issue 36), in the baseline section of the Markdown and the page:
 * those no longer met are a regression, shown open beside the contract's
 * coverage; those newly met are folded. Each condition in the words of the
 * conditions never met, with the verb of a change (no longer sent, now
 * sent), grouped by operation, with its pointer into the document. The
 * report lists 50 of each and counts them all; the Markdown shows at most
 * {@link MARKDOWN_CONDITION_CHANGE_LIMIT} of each.
 */

/** The most conditions of each list the Markdown shows (a job summary has GitHub's limit); the page shows all the report lists. */
export const MARKDOWN_CONDITION_CHANGE_LIMIT = 20;

/** Which list: its field in the report, its title, and the words of one of its conditions. */
interface ChangeList {
  readonly field: 'noLongerMetConditions' | 'newlyMetConditions';
  readonly title: string;
  readonly listed: readonly { readonly operation: string; readonly condition: UnmetCondition }[];
  readonly count: number;
  readonly partsOf: (condition: UnmetCondition) => TextPart[];
}

function listsOf(contract: ContractComparison): { noLonger?: ChangeList; newly?: ChangeList } {
  const { noLongerMetConditions, noLongerMetConditionCount, newlyMetConditions, newlyMetConditionCount } = contract;
  return {
    ...(noLongerMetConditions === undefined || (noLongerMetConditionCount ?? noLongerMetConditions.length) === 0
      ? {}
      : {
          noLonger: {
            field: 'noLongerMetConditions',
            title: 'Conditions no longer met',
            listed: noLongerMetConditions,
            count: noLongerMetConditionCount ?? noLongerMetConditions.length,
            partsOf: noLongerMetConditionParts,
          },
        }),
    ...(newlyMetConditions === undefined || (newlyMetConditionCount ?? newlyMetConditions.length) === 0
      ? {}
      : {
          newly: {
            field: 'newlyMetConditions',
            title: 'Conditions newly met',
            listed: newlyMetConditions,
            count: newlyMetConditionCount ?? newlyMetConditions.length,
            partsOf: newlyMetConditionParts,
          },
        }),
  };
}

/** The conditions no longer met, as Markdown lines (the first blank); none when there are none. */
export function noLongerMetMarkdown(contract: ContractComparison, limit: number): string[] {
  const list = listsOf(contract).noLonger;
  return list === undefined ? [] : ['', `**${list.title}** (${formatCount(list.count)}):`, '', ...itemsMarkdown(list, limit)];
}

/** The conditions newly met, folded, as Markdown lines (the first blank); none when there are none. */
export function newlyMetMarkdown(contract: ContractComparison, limit: number): string[] {
  const list = listsOf(contract).newly;
  if (list === undefined) return [];
  return [
    '',
    '<details>',
    `<summary>${list.title} (${formatCount(list.count)})</summary>`,
    '',
    ...itemsMarkdown(list, limit),
    '',
    '</details>',
  ];
}

function itemsMarkdown(list: ChangeList, limit: number): string[] {
  const shown = Math.min(limit, MARKDOWN_CONDITION_CHANGE_LIMIT);
  const lines: string[] = [];
  for (const { operation, conditions } of conditionChangesByOperation(list.listed.slice(0, shown))) {
    lines.push(`- ${code(operation)}:`);
    for (const condition of conditions) lines.push(`  - ${markdownOf(list.partsOf(condition))} · ${code(condition.where)}`);
  }
  const more = list.count - Math.min(shown, list.listed.length);
  if (more > 0) lines.push(`- … and ${formatCount(more)} more in the report's \`baseline.contract.${list.field}\``);
  return lines;
}

/** The conditions no longer met, as HTML; '' when there are none. */
export function noLongerMetHtml(contract: ContractComparison): string {
  const list = listsOf(contract).noLonger;
  if (list === undefined) return '';
  return `<div data-field="${list.field}"><p><strong>${text(list.title)}</strong> (${text(formatCount(list.count))}):</p>${itemsHtml(list)}</div>`;
}

/** The conditions newly met, folded, as HTML; '' when there are none. */
export function newlyMetHtml(contract: ContractComparison): string {
  const list = listsOf(contract).newly;
  if (list === undefined) return '';
  const summary = `<summary>${text(`${list.title} (${formatCount(list.count)})`)}</summary>`;
  return `<details class="folded" data-field="${list.field}">${summary}${itemsHtml(list)}</details>`;
}

function itemsHtml(list: ChangeList): string {
  const operations = conditionChangesByOperation(list.listed).map(({ operation, conditions }) => {
    const items = conditions.map(
      (condition) => `<li>${htmlOf(list.partsOf(condition))} <span class="muted">${label(condition.where)}</span></li>`,
    );
    return `<li>${label(operation)}<ul>${items.join('')}</ul></li>`;
  });
  const more = list.count - list.listed.length;
  if (more > 0) operations.push(`<li>${text(`… and ${formatCount(more)} more in the report's baseline.contract.${list.field}`)}</li>`);
  return `<ul>${operations.join('')}</ul>`;
}
