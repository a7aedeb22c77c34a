import { escapeControlCharacters } from '../../renderValue.js';
import { describeState, shownText, stateMark, type EndpointState } from '../renderers/presentation.js';

/** Escapes text for an element's content. */
export function text(value: string): string {
  return value.replace(/[&<>]/g, (char) => (char === '&' ? '&amp;' : char === '<' ? '&lt;' : '&gt;'));
}

/** Escapes text for a double-quoted attribute. */
export function attribute(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** An endpoint label as shown: escaped, in code, the whole label in its title when it was cut. */
export function label(endpoint: string): string {
  const shown = shownText(endpoint);
  return `<code${shown === endpoint ? '' : ` title="${attribute(escapeControlCharacters(endpoint))}"`}>${text(shown)}</code>`;
}

/** A number's cell: its value for sorting and for readers of the page, shown as given. */
export function numberCell(field: string, name: string, value: number | null, shownValue: string): string {
  return `<td class="num" data-field="${field}" data-label="${name}" data-value="${value ?? ''}">${text(shownValue)}</td>`;
}

/** An endpoint's state: its symbol and words, in its tone's colour. */
export function stateBadge(state: EndpointState): string {
  const { symbol, tone } = stateMark(state);
  return `<span class="state ${tone}">${symbol} ${text(describeState(state))}</span>`;
}

/** Little to judge, said briefly: one line that counts, what it counts folded under it; `field` names it for readers of the page. */
export function foldedHtml(field: string, line: string, foldedHtmlContent: string): string {
  return `<details class="folded" data-field="${field}"><summary>${text(line)}</summary><p>${foldedHtmlContent}</p></details>`;
}

/** A drawing's coordinate, to a tenth. */
export function round(value: number): number {
  return Math.round(value * 10) / 10;
}
