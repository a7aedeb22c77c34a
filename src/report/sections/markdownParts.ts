import { shownText } from '../renderers/presentation.js';

/**
 * Little to judge, said briefly: one line that counts, and what it counts
 * folded under it (`<details>`, which GitHub shows closed; the blank lines
 * let the Markdown inside render).
 */
export function foldedMarkdown(line: string, folded: string): string {
  return `<details><summary>${escapeHtml(line)}</summary>\n\n${folded}\n\n</details>`;
}

// The summary line is HTML inside the Markdown: its text escaped as the page escapes it.
function escapeHtml(value: string): string {
  return value.replace(/[&<>]/g, (char) => (char === '&' ? '&amp;' : char === '<' ? '&lt;' : '&gt;'));
}

/** One row of a Markdown table. */
export function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/**
 * Text from input as a code span: shown as written, with no markup, link or
 * emoji; a `|` escaped for the table, and fenced with one backtick more than
 * the longest run inside (CommonMark's rule), padded when it starts or ends
 * with one.
 */
export function code(text: string): string {
  const shown = shownText(text).replace(/\|/g, '\\|');
  const longestRun = Math.max(0, ...(shown.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = shown.startsWith('`') || shown.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}
