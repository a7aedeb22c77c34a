import { InputSyntaxError } from '../errors.js';
import { escapeControlCharacters, shorten } from '../renderValue.js';
import { lineAndColumnInText } from './lineBreaks.js';
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
    const { detail, offset } = describeJsonParseFailure(error, body);
    throw new InputSyntaxError(detail, offset === undefined ? undefined : lineAndColumnInText(body, offset), { cause: error });
  }
}

/**
 * What `JSON.parse(text)` threw, for a message: V8's words without its
 * position and its quoted snippet of the input (it may hold anything the
 * input holds, control characters included), and the offset in `text` where
 * parsing stopped. V8 names the position for most errors; for an unexpected
 * token it does not, and the scanner finds the place instead (undefined when
 * it finds none).
 */
export function describeJsonParseFailure(error: unknown, text: string): { readonly detail: string; readonly offset: number | undefined } {
  const message = error instanceof Error ? error.message : String(error);
  const match = /at position (\d+)/.exec(message);
  const what = message.replace(/ (?:in JSON )?at position \d+.*$/s, '').replace(/, (?:"|\.\.\.").*$/s, '');
  return { detail: shorten(escapeControlCharacters(what), 160), offset: match === null ? locateJsonSyntaxError(text) : Number(match[1]) };
}
