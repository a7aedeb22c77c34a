/**
 * Line breaks, counted alike by every reader and every message: a line feed,
 * a carriage return and a line feed together, or a carriage return alone
 * (files from old Mac tools), each ends one line.
 */

export const LINE_FEED = 0x0a;
export const CARRIAGE_RETURN = 0x0d;

/** What a stretch of bytes holds of line breaks. */
export interface LineBreaks {
  /** How many lines end in the stretch. */
  readonly count: number;
  /** The offset just after the last CR or LF in the stretch, where the next line starts; -1 when there is none. */
  readonly lastLineStart: number;
}

/**
 * The line breaks in `bytes[start, end)`. `afterCarriageReturn` says that
 * the byte before `start` is a CR, so that a LF at `start` ends no new line.
 */
export function countLineBreaks(bytes: Buffer, start: number, end: number, afterCarriageReturn = false): LineBreaks {
  let count = 0;
  let lastLineStart = -1;
  // Every CR ends a line; a LF ends one unless a CR is just before it. Both found by memchr, not byte by byte.
  for (let at = bytes.indexOf(CARRIAGE_RETURN, start); at !== -1 && at < end; at = bytes.indexOf(CARRIAGE_RETURN, at + 1)) {
    count++;
    lastLineStart = at + 1;
  }
  for (let at = bytes.indexOf(LINE_FEED, start); at !== -1 && at < end; at = bytes.indexOf(LINE_FEED, at + 1)) {
    const previous = at === start ? (afterCarriageReturn ? CARRIAGE_RETURN : undefined) : bytes[at - 1];
    if (previous !== CARRIAGE_RETURN) count++;
    lastLineStart = Math.max(lastLineStart, at + 1);
  }
  return { count, lastLineStart };
}

/** The 1-based line and column (in UTF-16 units) of `offset` in a text. */
export function lineAndColumnInText(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === CARRIAGE_RETURN || (code === LINE_FEED && text.charCodeAt(index - 1) !== CARRIAGE_RETURN)) line++;
    if (code === CARRIAGE_RETURN || code === LINE_FEED) lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** A text's lines, split at every kind of line break. */
export function splitLines(text: string): string[] {
  return text.includes('\r') ? text.split(/\r\n|\r|\n/) : text.split('\n');
}
