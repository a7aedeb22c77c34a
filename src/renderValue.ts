/**
 * Short, single-line, printable renderings of values for error messages. A
 * message may show a field's value but never a whole record or a whole input,
 * and nothing here recurses into a value, so no input can make a message
 * expensive or overflow the stack.
 */

/**
 * A whole number with thousands separators, as en-US writes it (`86,400,000`), by hand: the limits that messages quote
 * are written when their modules load, and `toLocaleString` would load ICU's locale data then, in every run and every
 * test worker (docs/architecture.md, "What a run loads").
 */
export function groupDigits(value: number): string {
  // Most numbers written are below a thousand: nothing to group.
  return Math.abs(value) < 1000 ? String(value) : grouped(String(value));
}

// A string of digits with a comma before each group of three from the right.
function grouped(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, ',');
}

/**
 * A number as `new Intl.NumberFormat('en-US', { maximumFractionDigits })`
 * writes it, by hand, so that no run loads ICU's locale data (about 15 ms
 * the first time, docs/architecture.md, "What a run loads"): thousands
 * separators, at most `maximumFractionDigits` decimals (Intl's default is
 * 3) without trailing zeros, `-0`, `NaN`, `∞`. Like V8's Intl, it rounds the
 * shortest decimal that reads back as the number (`String(value)`), half
 * away from zero: 0.15 is `0.2` to one decimal, though the double below it
 * is nearer 0.1. A property spec holds it equal to Intl on any double.
 */
export function formatDecimal(value: number, maximumFractionDigits = 3): string {
  if (Number.isNaN(value)) return 'NaN';
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  if (!Number.isFinite(value)) return `${sign}∞`;
  // A count, the most written number: its digits are String's.
  if (Number.isSafeInteger(value)) return `${sign}${groupDigits(Math.abs(value))}`;
  // The shortest decimal's digits, and how many of them stand before the point (negative: zeros after it first).
  const written = String(Math.abs(value));
  const exponentAt = written.indexOf('e');
  const mantissa = exponentAt < 0 ? written : written.slice(0, exponentAt);
  const pointAt = mantissa.indexOf('.');
  let digits = pointAt < 0 ? mantissa : mantissa.slice(0, pointAt) + mantissa.slice(pointAt + 1);
  let point = (pointAt < 0 ? mantissa.length : pointAt) + (exponentAt < 0 ? 0 : Number(written.slice(exponentAt + 1)));
  const leadingZeros = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(leadingZeros);
  point -= leadingZeros;
  // Rounded half up at the last kept decimal: a carry may add a digit in front.
  const kept = point + maximumFractionDigits;
  if (kept < digits.length) {
    const roundsUp = kept >= 0 && digits.charCodeAt(kept) >= 0x35;
    digits = kept <= 0 ? '' : digits.slice(0, kept);
    if (roundsUp && kept <= 0) {
      // Every digit is past the last decimal: the number rounds up to that decimal's unit.
      digits = '1';
      point = 1 - maximumFractionDigits;
    } else if (roundsUp) {
      let at = digits.length - 1;
      while (at >= 0 && digits[at] === '9') at--;
      if (at < 0) {
        digits = '1' + '0'.repeat(digits.length);
        point++;
      } else digits = digits.slice(0, at) + String(Number(digits[at]) + 1) + '0'.repeat(digits.length - at - 1);
    }
  }
  const whole = point <= 0 ? '0' : digits.slice(0, point).padEnd(point, '0');
  const fraction = (point < 0 ? '0'.repeat(-point) + digits : digits.slice(Math.max(point, 0))).replace(/0+$/, '');
  return `${sign}${grouped(whole)}${fraction === '' ? '' : `.${fraction}`}`;
}

/** Cuts `text` to at most `maxLength` characters, ending with "…" when cut. */
export function shorten(text: string, maxLength: number): string {
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

/**
 * Replaces control characters (C0, DEL, C1) and the bidirectional controls
 * that reorder what is displayed (U+061C, U+200E, U+200F, U+202A to U+202E,
 * U+2066 to U+2069) with `\uXXXX` escapes, so that text from input shows on
 * a terminal or a page as what it is. With `keepNewlines`, line feeds stay
 * (a message of several lines).
 */
export function escapeControlCharacters(text: string, { keepNewlines = false }: { keepNewlines?: boolean } = {}): string {
  // Printable ASCII, most of what is shown (labels, paths), has nothing to escape: told by a loop, not the expression.
  let printable = true;
  for (let at = 0; at < text.length && printable; at++) {
    const code = text.charCodeAt(at);
    printable = code >= 0x20 && code < 0x7f;
  }
  if (printable) return text;
  return text.replace(keepNewlines ? CONTROL_BUT_NEWLINE : CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The longest path a message shows whole; a longer one is cut in the middle, keeping its file name. */
const MAX_SHOWN_PATH_LENGTH = 120;

/**
 * A path as a message names it: quoted, its control and bidirectional
 * characters escaped, and cut in the middle when it is long (a path may come
 * from a variable, so a message shows no more of it than it needs).
 */
export function quotePath(path: string): string {
  const half = Math.floor((MAX_SHOWN_PATH_LENGTH - 1) / 2);
  const shown = path.length > MAX_SHOWN_PATH_LENGTH ? `${path.slice(0, half)}…${path.slice(path.length - half)}` : path;
  return escapeControlCharacters(JSON.stringify(shown));
}

/** Text from input or settings as a message shows it: quoted, shortened to `maxLength`, its controls escaped. */
export function quoteText(text: string, maxLength = 200): string {
  return escapeControlCharacters(JSON.stringify(shorten(text, maxLength)));
}

/** A value as shown in a message: a shortened rendering and its type, e.g. `"200" (a string)`. */
export function renderValue(value: unknown, maxLength = 40): string {
  return `${shorten(renderBare(value, maxLength), maxLength)} (${describeType(value)})`;
}

/** The kind of a value in words: `a number`, `an array`, `null`, `nothing` (undefined). */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function renderBare(value: unknown, maxLength: number): string {
  if (typeof value !== 'object' || value === null) return renderScalar(value, maxLength);
  // One level deep, a few entries: enough to recognise the value, never all of it.
  if (Array.isArray(value)) {
    const items: readonly unknown[] = value;
    return `[${items
      .slice(0, 3)
      .map((item) => renderNested(item, maxLength))
      .join(',')}${items.length > 3 ? ',…' : ''}]`;
  }
  const keys = Object.keys(value);
  const entries = keys
    .slice(0, 3)
    .map((key) => `${JSON.stringify(key.slice(0, maxLength))}:${renderNested((value as Record<string, unknown>)[key], maxLength)}`);
  return `{${entries.join(',')}${keys.length > 3 ? ',…' : ''}}`;
}

function renderNested(value: unknown, maxLength: number): string {
  if (typeof value !== 'object' || value === null) return renderScalar(value, maxLength);
  return Array.isArray(value) ? '[…]' : '{…}';
}

function renderScalar(value: unknown, maxLength: number): string {
  switch (typeof value) {
    case 'string':
      // Only the part that can be shown is escaped, however long the string.
      return escapeControlCharacters(JSON.stringify(value.slice(0, maxLength)));
    case 'bigint':
      return `${value}n`;
    case 'symbol':
      return value.toString();
    case 'function':
      return 'a function';
    default:
      return String(value);
  }
}
