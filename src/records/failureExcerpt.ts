/**
 * The excerpt of a failed call's response body (the `failureExcerptBytes`
 * setting, off by default: bodies may hold personal data): its first bytes,
 * with every value under a key that looks secret replaced first, so that no
 * cut can leave part of a secret behind. Headers are never read.
 *
 * Only a body whose secrets can be found by key is excerpted: one that
 * parses as JSON, or as a form (`application/x-www-form-urlencoded`:
 * `key=value&…`). In JSON every object key at any depth is checked, and a
 * string value is JSON of its own when it parses as such (a body logged into
 * an error message) and is checked the same way; a string value that is not
 * JSON and names a secret key word (`"invalid token: abc"`) is replaced
 * whole, as it cannot be redacted by key. A form's keys are checked, and its
 * values are taken as JSON's string values are. Any other body (text, HTML,
 * XML, single-quoted pseudo-JSON, JSON that does not parse, one over 1 MiB,
 * one that is not UTF-8 text) is withheld: its excerpt is a reason in
 * brackets, never a byte of the body.
 */

/** The most bytes an excerpt may be asked for: 4 KiB, enough for an error message, too little for a payload. */
export const MAX_FAILURE_EXCERPT_BYTES = 4096;

/** The largest body parsed to find its secrets; a larger one is withheld. */
const WHOLE_BODY_LIMIT = 1024 * 1024;

/** How deep JSON (strings of JSON inside it included) is followed; a deeper body is withheld. */
const MAX_DEPTH = 256;

/** What a secret's value is replaced by. */
export const REDACTED = '[redacted]';

/** Why a body gave no excerpt of its own: the excerpt the report shows instead, whole whatever the bytes asked for. */
export const WITHHELD = {
  tooLarge: '[withheld: the body is over 1 MiB, more than is parsed to find its secrets]',
  notText: '[withheld: the body is not UTF-8 text]',
  notParsed: '[withheld: the body is neither JSON nor a form (key=value&…), so its secrets cannot be found by key]',
  tooDeep: `[withheld: the body's JSON nests deeper than ${MAX_DEPTH} levels]`,
} as const;

/** Key words that mark a value secret, matched in a key with case, `-` and `_` aside: `X-Api-Key`, `access_token`, `userPassword`. */
export const SECRET_KEY_WORDS = [
  'password',
  'passwd',
  'token',
  'secret',
  'authorization',
  'cookie',
  'apikey',
  'credential',
  'session',
  'privatekey',
] as const;

/** A key as it is matched: lower case, without separators. */
function keyWords(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Whether a key looks secret: it holds one of the words, or one of the user's keys. */
export function looksSecret(key: string, extraKeys: readonly string[] = []): boolean {
  return secretTest(extraKeys)(key);
}

/** {@link looksSecret} for one set of the user's keys, their words worked out once. */
function secretTest(extraKeys: readonly string[]): (text: string) => boolean {
  const words = [...SECRET_KEY_WORDS, ...extraKeys.map(keyWords).filter((words) => words !== '')];
  return (text) => {
    const matched = keyWords(text);
    return matched !== '' && words.some((word) => matched.includes(word));
  };
}

/**
 * The excerpt of a body: at most `limit` bytes of its redacted text (cut at
 * a character, marked with `…` when cut), or the reason it is withheld
 * ({@link WITHHELD}); undefined when the body is empty or `limit` is 0.
 */
export function failureExcerpt(body: Uint8Array, limit: number, extraKeys: readonly string[] = []): string | undefined {
  return createFailureExcerpter(limit, extraKeys)(body);
}

/** {@link failureExcerpt} for one run's settings, the user's keys worked out once. */
export function createFailureExcerpter(limit: number, extraKeys: readonly string[] = []): (body: Uint8Array) => string | undefined {
  const isSecret = secretTest(extraKeys);
  return (body) => {
    if (limit <= 0 || body.length === 0) return undefined;
    if (body.length > WHOLE_BODY_LIMIT) return WITHHELD.tooLarge;
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch {
      return WITHHELD.notText;
    }
    // eslint-disable-next-line no-control-regex -- control characters other than tab and line breaks mark a binary body
    if (/[\u0000-\u0008\u000e-\u001f]/.test(text)) return WITHHELD.notText;
    const redacted = redactBody(text, isSecret);
    return 'withheld' in redacted ? redacted.withheld : cut(redacted.text, limit);
  };
}

/** Thrown when JSON nests deeper than {@link MAX_DEPTH}: the body is withheld. */
class TooDeep extends Error {}

/** A body's text with every secret replaced, as JSON or as a form; else the reason it is withheld. */
function redactBody(text: string, isSecret: (text: string) => boolean): { readonly text: string } | { readonly withheld: string } {
  try {
    const parsed = parseJson(text);
    if (parsed !== NOT_JSON) return { text: JSON.stringify(redactValue(parsed, isSecret, 0)) };
    const form = redactForm(text.trim(), isSecret);
    return form === undefined ? { withheld: WITHHELD.notParsed } : { text: form };
  } catch (error) {
    if (error instanceof TooDeep) return { withheld: WITHHELD.tooDeep };
    throw error;
  }
}

const NOT_JSON: unique symbol = Symbol('not JSON');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

function redactValue(value: unknown, isSecret: (text: string) => boolean, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new TooDeep();
  if (typeof value === 'string') return redactString(value, isSecret, depth);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, isSecret, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  const redacted: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    // defineProperty: a "__proto__" key of a body stays a key, never a prototype.
    const kept = isSecret(key) ? REDACTED : redactValue(inner, isSecret, depth + 1);
    Object.defineProperty(redacted, key, { value: kept, enumerable: true, writable: true, configurable: true });
  }
  return redacted;
}

/**
 * A string value: JSON of its own (an object, an array or a string of JSON)
 * redacted as JSON and written back as a string; otherwise replaced whole when
 * it names a secret key word, since free text cannot be redacted by key.
 */
function redactString(value: string, isSecret: (text: string) => boolean, depth: number): string {
  if (/^\s*[[{"]/.test(value)) {
    const parsed = parseJson(value);
    if (parsed !== NOT_JSON && typeof parsed === 'object' && parsed !== null)
      return JSON.stringify(redactValue(parsed, isSecret, depth + 1));
    if (typeof parsed === 'string') return JSON.stringify(redactString(parsed, isSecret, depth + 1));
  }
  return isSecret(value) ? REDACTED : value;
}

/** One `key=value` pair of a form: no space, quote, angle bracket or brace, which a form's encoding never leaves bare. */
const FORM_PAIR = /^[A-Za-z0-9._~%+*!$'()[\]:@/,;-]+=[A-Za-z0-9._~%+*!$'()[\]:@/,;?=-]*$/;

/**
 * A form's text with the value of every secret-looking key replaced, and its
 * other values redacted as JSON's string values are (percent-encoded back);
 * undefined when the text is not a form.
 */
function redactForm(text: string, isSecret: (text: string) => boolean): string | undefined {
  if (text === '') return undefined;
  const pairs = text.split('&');
  if (!pairs.every((pair) => FORM_PAIR.test(pair))) return undefined;
  try {
    return pairs
      .map((pair) => {
        const equals = pair.indexOf('=');
        const key = pair.slice(0, equals);
        if (isSecret(decodeFormText(key))) return `${key}=${REDACTED}`;
        const value = decodeFormText(pair.slice(equals + 1));
        const redacted = redactString(value, isSecret, 0);
        if (redacted === value) return pair;
        return `${key}=${redacted === REDACTED ? REDACTED : encodeURIComponent(redacted)}`;
      })
      .join('&');
  } catch (error) {
    // Bad percent-encoding: not a form after all.
    if (error instanceof URIError) return undefined;
    throw error;
  }
}

/** A form's key or value as text: `+` a space, percent-encoding decoded. */
function decodeFormText(encoded: string): string {
  return decodeURIComponent(encoded.replace(/\+/g, ' '));
}

/** The first `limit` bytes of a text, cut between characters, `…` added when cut. */
function cut(text: string, limit: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limit) return text;
  let end = limit;
  // Back to the start of a character: continuation bytes are 10xxxxxx.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return `${bytes.subarray(0, end).toString('utf8')}…`;
}
