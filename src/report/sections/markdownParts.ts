import { shownText } from '../renderers/presentation.js';

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
