import { formatCount } from '../renderers/presentation.js';
import { label, text } from './htmlParts.js';
import { code } from './markdownParts.js';

/** A titled list of endpoint labels, at most `limit` of them, as Markdown lines; none for no labels. */
export function endpointListMarkdown(title: string, lead: string, items: readonly string[], limit: number): readonly string[] {
  if (items.length === 0) return [];
  const lines = ['', `### ${title}`, '', lead, '', ...items.slice(0, limit).map((item) => `- ${code(item)}`)];
  if (items.length > limit) lines.push(`- … and ${formatCount(items.length - limit)} more in the report`);
  return lines;
}

/** The same list as a section of the page; '' for no labels. */
export function endpointListHtml(title: string, lead: string, items: readonly string[], limit: number): string {
  if (items.length === 0) return '';
  const more = items.length > limit ? `<li>${text(`… and ${formatCount(items.length - limit)} more in the report`)}</li>` : '';
  const listed = items.slice(0, limit).map((item) => `<li>${label(item)}</li>`);
  return `<section><h2>${text(title)}</h2><p>${text(lead)}</p><ul>${listed.join('')}${more}</ul></section>`;
}
