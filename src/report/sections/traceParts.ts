import { attribute, text } from './htmlParts.js';

/**
 * A call's trace in the Markdown, the page and the pull-request comment
 * (issue 37): linked to the team's tracing backend where traceUrlTemplate
 * gives its URL, else the trace id itself as code, to paste into a search.
 * Ids are W3C hexadecimal (the report's schema holds them to it); the
 * template is text from a setting, escaped for each syntax it lands in.
 */

/** The trace context the report keeps of a call or a test. */
export interface TraceIds {
  readonly traceId?: string | undefined;
  readonly spanId?: string | undefined;
}

/** How many hexadecimal digits of a trace id a link shows: the full id is in its URL (and the page's title). */
const SHORT_ID_LENGTH = 8;

/**
 * The URL of a call's trace: the template with `{traceId}` (and `{spanId}`,
 * where the template has it) replaced by the call's ids, as the URL parser
 * writes it. Undefined without a template, for a call without a trace id,
 * for a template with `{spanId}` and a call without a span id (a link
 * without it would open the wrong span or none), and for a template that is
 * not an http or https URL (the setting's rule refuses one; this holds for
 * the library API too).
 */
export function traceUrlOf(template: string | undefined, { traceId, spanId }: TraceIds): string | undefined {
  if (template === undefined || traceId === undefined) return undefined;
  if (template.includes('{spanId}') && spanId === undefined) return undefined;
  const filled = template.replaceAll('{traceId}', traceId).replaceAll('{spanId}', spanId ?? '');
  try {
    const url = new URL(filled);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A URL as a Markdown link destination: every character but letters,
 * digits and `-._~:/?#@!$&+,;=%` percent-encoded (so that no `)`, `|`,
 * space, bracket or backtick ends the link or a table cell), and an `&`
 * that would start an entity reference (`&amp;`) escaped with a backslash.
 */
export function markdownDestination(url: string): string {
  return url
    .replace(/[^A-Za-z0-9\-._~:/?#@!$&+,;=%]/g, (char) =>
      [...new TextEncoder().encode(char)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
    )
    .replace(/&(?=[#A-Za-z0-9]+;)/g, '\\&');
}

/** `[trace 4bf92f35](https://…)`, or `` trace `4bf92f3505f1a3b2c4d5e6f708192a3b` `` without a link; '' for a call without a trace id. */
export function traceMarkdown(ids: TraceIds, template: string | undefined): string {
  const { traceId } = ids;
  if (traceId === undefined) return '';
  const url = traceUrlOf(template, ids);
  return url === undefined ? `trace \`${traceId}\`` : `[trace ${traceId.slice(0, SHORT_ID_LENGTH)}](${markdownDestination(url)})`;
}

/** The trace as the page shows it: a link whose title holds the whole id, or the id as code; '' for a call without a trace id. */
export function traceHtml(ids: TraceIds, template: string | undefined): string {
  const { traceId } = ids;
  if (traceId === undefined) return '';
  const url = traceUrlOf(template, ids);
  if (url === undefined) return `trace <code data-trace-id="${attribute(traceId)}">${text(traceId)}</code>`;
  return (
    `<a href="${attribute(url)}" title="${attribute(`trace ${traceId}`)}" data-trace-id="${attribute(traceId)}">` +
    `trace <code>${text(traceId.slice(0, SHORT_ID_LENGTH))}</code></a>`
  );
}

/** Parts of a cell joined by ` · `, those empty left out. */
export function joinedParts(parts: readonly string[]): string {
  return parts.filter((part) => part !== '').join(' · ');
}
