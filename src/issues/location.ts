import { escapeControlCharacters } from '../renderValue.js';

/**
 * Where a record came from, as data: one kind per way records arrive. A
 * reader attaches one to every record it yields, and messages describe it
 * with {@link describeLocation}, so no caller ever parses a rendered path.
 */
export type RecordLocation =
  /** An element of a JSON list: `executions[3]`, or `[3]` in a bare array; the file when there are several. */
  | { readonly kind: 'list'; readonly listPath: string; readonly index: number; readonly file?: string | undefined }
  /** A line of an NDJSON file, 1-based. */
  | { readonly kind: 'line'; readonly line: number; readonly file: string }
  /** An entry of a HAR file's `log.entries`, 0-based as in the file. */
  | { readonly kind: 'harEntry'; readonly index: number; readonly file: string }
  /** A record attached by a Playwright test, in its attempt (1-based). */
  | { readonly kind: 'test'; readonly title: string; readonly attempt: number }
  /** The document as a whole: its top-level shape. */
  | { readonly kind: 'document'; readonly file?: string | undefined }
  /** A place a report gave in words that name none of the above (a report edited by hand): kept as the words. */
  | { readonly kind: 'described'; readonly text: string };

/** A location in words: `executions[3]`, `line 12 of b.ndjson`, `HAR entry 40 of c.har`, `test "orders › list" (attempt 2)`. */
export function describeLocation(location: RecordLocation): string {
  switch (location.kind) {
    case 'list':
      return `${location.listPath}[${location.index}]${location.file === undefined ? '' : ` of ${location.file}`}`;
    case 'line':
      return `line ${location.line} of ${location.file}`;
    case 'harEntry':
      return `HAR entry ${location.index} of ${location.file}`;
    case 'test':
      // A test's title is the user's text: a newline in it must not forge a line of a message.
      return `test "${escapeControlCharacters(location.title)}" (attempt ${location.attempt})`;
    case 'document':
      return location.file === undefined ? '(top level)' : `(top level) of ${location.file}`;
    case 'described':
      return location.text;
  }
}

/**
 * A location a report gives in words ({@link describeLocation}'s) as data
 * again, so that a report's failed calls keep their places in a merge as
 * the records' did; words that describe them otherwise stay as they are.
 */
export function parseLocation(text: string): RecordLocation {
  const parsed = parsedLocation(text);
  return parsed !== undefined && describeLocation(parsed) === text ? parsed : { kind: 'described', text };
}

function parsedLocation(text: string): RecordLocation | undefined {
  let match = /^line (\d{1,15}) of (.+)$/s.exec(text);
  if (match !== null) return { kind: 'line', line: Number(match[1]), file: match[2]! };
  match = /^HAR entry (\d{1,15}) of (.+)$/s.exec(text);
  if (match !== null) return { kind: 'harEntry', index: Number(match[1]), file: match[2]! };
  match = /^test "(.*)" \(attempt (\d{1,15})\)$/s.exec(text);
  if (match !== null) return { kind: 'test', title: match[1]!, attempt: Number(match[2]) };
  match = /^\(top level\)(?: of (.+))?$/s.exec(text);
  if (match !== null) return { kind: 'document', file: match[1] };
  match = /^(.*?)\[(\d{1,15})\](?: of (.+))?$/s.exec(text);
  if (match !== null) return { kind: 'list', listPath: match[1]!, index: Number(match[2]), file: match[3] };
  return undefined;
}
