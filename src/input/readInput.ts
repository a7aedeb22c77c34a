import { InputSyntaxError } from '../errors.js';
import { escapeControlCharacters, shorten } from '../renderValue.js';
import { locateJsonSyntaxError } from './locateJsonSyntaxError.js';

/**
 * Parses the input text as JSON and returns it untyped: validation decides
 * what it is. A leading byte-order mark is ignored, as editors on some
 * platforms write one.
 */
export function parseInputJson(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new InputSyntaxError(describeSyntaxError(detail), locate(body, detail), { cause: error });
  }
}

// V8 reports "... at position N" for most errors; for an unexpected token it
// does not, and the scanner finds the place instead.
function locate(text: string, detail: string): { line: number; column: number } | undefined {
  const match = /at position (\d+)/.exec(detail);
  const offset = match === null ? locateJsonSyntaxError(text) : Number(match[1]);
  return offset === undefined ? undefined : lineAndColumn(text, offset);
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
    line++;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

// The position moves into the line and column, and V8's quoted snippet of
// the input is dropped: it may hold anything the file holds, control
// characters included, and the line and column say where to look.
function describeSyntaxError(detail: string): string {
  const what = detail.replace(/ (?:in JSON )?at position \d+.*$/s, '').replace(/, (?:"|\.\.\.").*$/s, '');
  return shorten(escapeControlCharacters(what), 160);
}
