import type { ContractOperationCoverage } from '../contractSchemas.js';
import {
  bodiesText,
  contractNumbers,
  SHOWN_VIOLATIONS,
  undeclaredWorstFirst,
  untestedByTag,
  violationsWorstFirst,
  violationText,
} from '../renderers/contractPresentation.js';
import { countOf, formatCount, shownText } from '../renderers/presentation.js';
import { changesHtml, changesMarkdown } from './contractChanges.js';
import { unmetConditionsHtml, unmetConditionsMarkdown } from './contractConditions.js';
import { attribute, label, text } from './htmlParts.js';
import { code, row } from './markdownParts.js';
import type { ReportSection } from './reportSection.js';

/**
 * The API's contract: its numbers, the operations answered with statuses it
 * does not declare, the bodies off their schema, the operations never called
 * (by tag; the page filters them by tag), the calls matching no operation,
 * the deprecated operations called, and the conditions never met
 * (./contractConditions.ts).
 */
export const contractSection: ReportSection<'contract'> = {
  id: 'contract',
  keptWhenCut: false,
  markdown: (report, { reportName, limits }) => {
    const contract = report.contract;
    if (contract === undefined) return [];
    const lines = ['', '### Contract', '', contractNumbers(contract).join(' · ')];
    if (contract.changes !== undefined) lines.push(...changesMarkdown(contract.changes, report.tests !== undefined, limits.operations));
    const undeclared = undeclaredWorstFirst(contract);
    if (undeclared.length > 0) {
      lines.push('', '| Operation | Undeclared statuses | Declared | Calls |', '|---|---|---|---:|');
      for (const operation of undeclared.slice(0, limits.operations)) {
        const declared = operation.declaredStatuses.map(code).join(', ');
        lines.push(
          row([operationCell(operation), operation.undeclaredStatuses.join(', '), declared, formatCount(operation.executionCount)]),
        );
      }
      if (undeclared.length > limits.operations) {
        lines.push(
          '',
          `${countOf(undeclared.length - limits.operations, 'more operation')} with undeclared statuses in ${code(reportName)}.`,
        );
      }
    }
    const violating = violationsWorstFirst(contract);
    if (violating.length > 0) {
      lines.push('', '| Operation | Bodies | Most frequent violations |', '|---|---|---|');
      for (const operation of violating.slice(0, limits.operations)) {
        const violations = operation.topViolations.slice(0, SHOWN_VIOLATIONS).map((violation) => code(violationText(violation)));
        lines.push(row([operationCell(operation), bodiesText(operation), violations.join(', ')]));
      }
      if (violating.length > limits.operations) {
        lines.push(
          '',
          `${countOf(violating.length - limits.operations, 'more operation')} with bodies off their schema in ${code(reportName)}.`,
        );
      }
    }
    const untested = untestedByTag(contract);
    if (untested.length > 0) {
      const total = untested.reduce((sum, group) => sum + group.operations.length, 0);
      lines.push('', `**Never called** (${formatCount(total)}, by tag):`, '');
      let shown = 0;
      for (const { tag, operations } of untested) {
        const room = limits.operations - shown;
        if (room <= 0) break;
        const listed = operations.slice(0, room);
        shown += listed.length;
        lines.push(
          `- ${code(tag)}: ${listed.map((operation) => code(operation.endpoint)).join(', ')}${listed.length < operations.length ? ', …' : ''}`,
        );
      }
      if (total > shown) lines.push(`- … ${countOf(total - shown, 'more operation')} never called in ${code(reportName)}`);
    }
    if (contract.unmatchedEndpoints.length > 0) {
      const listed = contract.unmatchedEndpoints.slice(0, limits.operations);
      const more = contract.unmatchedEndpoints.length - listed.length;
      const calls = listed.map(({ endpoint, executionCount }) => `${code(endpoint)} ×${formatCount(executionCount)}`).join(', ');
      lines.push('', `**Matching no operation**: ${calls}${more > 0 ? `, and ${formatCount(more)} more` : ''}`);
    }
    if (contract.deprecatedOperationsCalled.length > 0) {
      lines.push(
        '',
        `**Deprecated operations called**: ${contract.deprecatedOperationsCalled.slice(0, limits.operations).map(code).join(', ')}`,
      );
    }
    lines.push(...unmetConditionsMarkdown(contract, reportName, limits.operations));
    return lines;
  },
  html: (report, { limits }) => {
    const contract = report.contract;
    if (contract === undefined) return '';
    const limit = limits.endpoints;
    const parts = [`<section id="contract"><h2>Contract</h2><p>${text(contractNumbers(contract).join(' · '))}</p>`];
    if (contract.changes !== undefined) parts.push(changesHtml(contract.changes, report.tests !== undefined, limit));
    const undeclared = undeclaredWorstFirst(contract);
    if (undeclared.length > 0) {
      const rows = undeclared.slice(0, limit).map((operation) => {
        const cells = [
          `<td data-label="Operation">${operationLabel(operation)}</td>`,
          `<td data-label="Undeclared">${text(operation.undeclaredStatuses.join(', '))}</td>`,
          `<td data-label="Declared">${operation.declaredStatuses.map(label).join(', ')}</td>`,
          `<td class="num" data-label="Calls">${formatCount(operation.executionCount)}</td>`,
        ];
        return `<tr data-endpoint="${attribute(operation.endpoint)}">${cells.join('')}</tr>`;
      });
      const more =
        undeclared.length > limit
          ? `<p>${text(countOf(undeclared.length - limit, 'more operation'))} with undeclared statuses in the report.</p>`
          : '';
      const head = '<th>Operation</th><th>Undeclared</th><th>Declared</th><th class="num">Calls</th>';
      const table = `<table class="cards"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
      parts.push(`<h3>Statuses the contract does not declare</h3><div class="scroll">${table}</div>${more}`);
    }
    const violating = violationsWorstFirst(contract);
    if (violating.length > 0) {
      const rows = violating.slice(0, limit).map((operation) => {
        const violations = operation.topViolations.slice(0, SHOWN_VIOLATIONS).map((violation) => label(violationText(violation)));
        const cells = [
          `<td data-label="Operation">${operationLabel(operation)}</td>`,
          `<td data-label="Bodies">${text(bodiesText(operation))}</td>`,
          `<td data-label="Most frequent violations">${violations.join('<br>')}</td>`,
        ];
        return `<tr data-endpoint="${attribute(operation.endpoint)}">${cells.join('')}</tr>`;
      });
      const more =
        violating.length > limit
          ? `<p>${text(countOf(violating.length - limit, 'more operation'))} with bodies off their schema in the report.</p>`
          : '';
      const head = '<th>Operation</th><th>Bodies</th><th>Most frequent violations</th>';
      const table = `<table class="cards"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
      parts.push(`<h3>Bodies off their schema</h3><div class="scroll">${table}</div>${more}`);
    }
    const untested = untestedByTag(contract);
    if (untested.length > 0) {
      const total = untested.reduce((sum, group) => sum + group.operations.length, 0);
      const options = untested.map(
        ({ tag, operations }) => `<option value="${attribute(tag)}">${text(shownText(tag))} (${formatCount(operations.length)})</option>`,
      );
      let room = limit;
      const groups = untested.map(({ tag, operations }) => {
        const listed = operations.slice(0, Math.max(0, room));
        room -= listed.length;
        const cut =
          listed.length < operations.length
            ? `<li>${text(`… and ${formatCount(operations.length - listed.length)} more in the report`)}</li>`
            : '';
        const items = listed.map(
          (operation) => `<li>${label(operation.endpoint)}${operation.deprecated ? ' <span class="muted">deprecated</span>' : ''}</li>`,
        );
        return `<div data-tag="${attribute(tag)}"><h4>${text(shownText(tag))}</h4><ul>${items.join('')}${cut}</ul></div>`;
      });
      const filter = `<p><label for="untested-tag">Tag</label> <select id="untested-tag"><option value="">every tag</option>${options.join('')}</select></p>`;
      parts.push(`<h3>Never called (${formatCount(total)})</h3>${filter}${groups.join('')}`);
    }
    if (contract.unmatchedEndpoints.length > 0) {
      const listed = contract.unmatchedEndpoints.slice(0, limit);
      const more =
        contract.unmatchedEndpoints.length > listed.length
          ? `<li>${text(`… and ${formatCount(contract.unmatchedEndpoints.length - listed.length)} more in the report`)}</li>`
          : '';
      const items = listed.map(({ endpoint, executionCount }) => `<li>${label(endpoint)} ×${formatCount(executionCount)}</li>`);
      parts.push(`<h3>Matching no operation</h3><ul>${items.join('')}${more}</ul>`);
    }
    if (contract.deprecatedOperationsCalled.length > 0) {
      const items = contract.deprecatedOperationsCalled.slice(0, limit).map((endpoint) => `<li>${label(endpoint)}</li>`);
      parts.push(`<h3>Deprecated operations called</h3><ul>${items.join('')}</ul>`);
    }
    parts.push(unmetConditionsHtml(contract, limit));
    parts.push('</section>');
    return parts.join('');
  },
};

function operationCell(operation: ContractOperationCoverage): string {
  return operation.operationId === undefined ? code(operation.endpoint) : `${code(operation.endpoint)} (${code(operation.operationId)})`;
}

function operationLabel(operation: ContractOperationCoverage): string {
  return `${label(operation.endpoint)}${operation.operationId === undefined ? '' : ` <span class="muted">${label(operation.operationId)}</span>`}`;
}
