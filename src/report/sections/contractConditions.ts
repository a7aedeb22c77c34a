import type { ContractCoverage } from '../contractSchemas.js';
import {
  operationConditionsText,
  unmetConditionParts,
  unmetConditionsWorstFirst,
  unmetGroupText,
  type TextPart,
  type UnmetConditionGroup,
} from '../renderers/conditionPresentation.js';
import { countOf, formatCount } from '../renderers/presentation.js';
import { attribute, label, text } from './htmlParts.js';
import { code } from './markdownParts.js';

/**
 * The contract section's last part, in the Markdown and on the page: what
 * each operation called never met, grouped by kind, worst-covered
 * operations first (see unmetConditionsWorstFirst), each condition in words
 * with its pointer into the document. Capped, so that a document of a
 * thousand operations makes neither a job summary past GitHub's limit nor a
 * page of megabytes: the JSON report counts every condition and lists the
 * first 50 unmet of each operation.
 */

/** How many operations the Markdown lists, and how many conditions of each kind under each. */
const MARKDOWN_CONDITION_LIMITS = { operations: 20, perKind: 3 } as const;

/** How many operations the page lists, and how many conditions of each kind under each. */
const HTML_CONDITION_LIMITS = { operations: 100, perKind: 5 } as const;

/** The part's Markdown lines, the first blank as the section's other parts start; none when every operation called met all it declares. */
export function unmetConditionsMarkdown(contract: ContractCoverage, reportName: string, operationLimit: number): string[] {
  const operations = unmetConditionsWorstFirst(contract);
  if (operations.length === 0) return [];
  const limit = Math.min(operationLimit, MARKDOWN_CONDITION_LIMITS.operations);
  const uncalled = contract.operations.some((operation) => operation.executionCount === 0);
  const lines = [
    '',
    `**Conditions never met** (${countOf(operations.length, 'operation')}, worst-covered first` +
      `${uncalled ? '; those never called are under **Never called**' : ''}):`,
    '',
  ];
  for (const { operation, groups } of operations.slice(0, limit)) {
    const name =
      operation.operationId === undefined ? code(operation.endpoint) : `${code(operation.endpoint)} (${code(operation.operationId)})`;
    lines.push(`- ${name}: ${operationConditionsText(operation)}`);
    for (const group of groups) {
      lines.push(`  - ${unmetGroupText(group)}:`);
      const shown = group.listed.slice(0, MARKDOWN_CONDITION_LIMITS.perKind);
      for (const condition of shown) lines.push(`    - ${markdownOf(unmetConditionParts(condition))} · ${code(condition.where)}`);
      if (group.unmetCount > shown.length) lines.push(`    - … and ${formatCount(group.unmetCount - shown.length)} more`);
    }
  }
  if (operations.length > limit) {
    lines.push(`- … ${countOf(operations.length - limit, 'more operation')} with conditions never met in ${code(reportName)}`);
  }
  return lines;
}

/** The part's HTML; '' when every operation called met all it declares. */
export function unmetConditionsHtml(contract: ContractCoverage, operationLimit: number): string {
  const operations = unmetConditionsWorstFirst(contract);
  if (operations.length === 0) return '';
  const limit = Math.min(operationLimit, HTML_CONDITION_LIMITS.operations);
  const uncalled = contract.operations.some((operation) => operation.executionCount === 0);
  const blocks = operations.slice(0, limit).map(({ operation, groups }) => {
    const operationId = operation.operationId === undefined ? '' : ` <span class="muted">${label(operation.operationId)}</span>`;
    const head = `<h4>${label(operation.endpoint)}${operationId}: ${text(operationConditionsText(operation))}</h4>`;
    return `<div class="detail" data-endpoint="${attribute(operation.endpoint)}">${head}<ul>${groups.map(groupHtml).join('')}</ul></div>`;
  });
  const more =
    operations.length > limit
      ? `<p>${text(countOf(operations.length - limit, 'more operation'))} with conditions never met in the report.</p>`
      : '';
  const order = `Worst-covered first${uncalled ? '; those never called are under “Never called”' : ''}.`;
  return `<h3>Conditions never met (${formatCount(operations.length)})</h3><p class="muted">${order}</p>${blocks.join('')}${more}`;
}

function groupHtml(group: UnmetConditionGroup): string {
  const shown = group.listed.slice(0, HTML_CONDITION_LIMITS.perKind);
  const items = shown.map(
    (condition) => `<li>${htmlOf(unmetConditionParts(condition))} <span class="muted">${label(condition.where)}</span></li>`,
  );
  if (group.unmetCount > shown.length) items.push(`<li>${text(`… and ${formatCount(group.unmetCount - shown.length)} more`)}</li>`);
  return `<li>${text(unmetGroupText(group))}<ul>${items.join('')}</ul></li>`;
}

/** A condition in words as Markdown: the document's names and values in code spans, escaped as input is. */
export function markdownOf(parts: readonly TextPart[]): string {
  return parts.map((part) => (typeof part === 'string' ? part : code(part.code))).join('');
}

/** A condition in words as HTML: the document's names and values escaped, in code. */
export function htmlOf(parts: readonly TextPart[]): string {
  return parts.map((part) => (typeof part === 'string' ? text(part) : label(part.code))).join('');
}
