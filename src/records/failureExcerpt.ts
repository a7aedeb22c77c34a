/**
 * The excerpt of a failed call's response body (the `failureExcerptBytes`
 * setting, off by default: bodies may hold personal data): its first bytes,
 * with every value under a key that looks secret replaced first, so that no
 * cut can leave part of a secret behind. JSON bodies are parsed and every
 * object key at any depth is checked; other text has `key=value`,
 * `key: value` and `"key": "value"` forms replaced. Headers are never read.
 * A body that is not UTF-8 text gets no excerpt.
 */

/** The most bytes an excerpt may be asked for: 4 KiB, enough for an error message, too little for a payload. */
export const MAX_FAILURE_EXCERPT_BYTES = 4096;

const WHOLE_BODY_LIMIT = 1024 * 1024;
const PART_READ = 64 * 1024;

/** What a secret's value is replaced by. */
export const REDACTED = '[redacted]';

/** Key words that mark a value secret, matched in a key with case, `-` and `_` aside: `X-Api-Key`, `access_token`, `userPassword`. */
export const SECRET_KEY_WORDS = ['password', 'passwd', 'token', 'secret', 'authorization', 'cookie', 'apikey', 'credential', 'session', 'privatekey'] as const;

/** A key as it is matched: lower case, without separators. */
function keyWords(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Whether a key looks secret: it holds one of the words, or one of the user's keys. */
export function looksSecret(key: string, extraKeys: readonly string[] = []): boolean {
  const words = keyWords(key);
  if (words === '') return false;
  return SECRET_KEY_WORDS.some((word) => words.includes(word)) || extraKeys.some((extra) => keyWords(extra) !== '' && words.includes(keyWords(extra)));
}

/**
 * The excerpt of a body: at most `limit` bytes of its redacted text (cut at
 * a character, marked with `…` when cut); undefined when the body is not
 * UTF-8 text or is empty.
 */
export function failureExcerpt(body: Uint8Array, limit: number, extraKeys: readonly string[] = []): string | undefined {
  if (limit <= 0 || body.length === 0) return undefined;
  // A body past 1 MiB is not parsed whole for a few bytes: its first 64 KiB are redacted as text.
  const read = body.length > WHOLE_BODY_LIMIT ? body.subarray(0, PART_READ) : body;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: read === body }).decode(read);
  } catch {
    return undefined;
  }
  // eslint-disable-next-line no-control-regex -- control characters other than tab and line breaks mark a binary body
  if (/[\u0000-\u0008\u000e-\u001f]/.test(text)) return undefined;
  return cut(redactText(text, extraKeys), limit);
}

/** A body's text with every secret value replaced: as JSON when it parses, else by its `key=value` forms. */
export function redactText(text: string, extraKeys: readonly string[] = []): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) return JSON.stringify(redactValue(parsed, extraKeys));
  } catch {
    // Not JSON: the text forms below.
  }
  // "key": "value" or "key": 123 (JSON that did not parse, cut or broken); key=value up to the next & ; , or space (forms, query strings);
  // key: value up to the end of the line (headers echoed, YAML, logs), so that "Authorization: Bearer abc" keeps neither word.
  return text
    .replace(/("([^"\\]{1,200})"\s*:\s*)("(?:[^"\\]|\\.)*"|[^,}\]\s]+)/g, (match: string, head: string, key: string) => (looksSecret(key, extraKeys) ? `${head}"${REDACTED}"` : match))
    .replace(/(^|[\s&?;,{(])([A-Za-z0-9_.-]{1,200})=([^&;,\s"}]+)/g, (match: string, lead: string, key: string) => (looksSecret(key, extraKeys) ? `${lead}${key}=${REDACTED}` : match))
    .replace(/(^|[\s{(,])([A-Za-z0-9_.-]{1,200}):[ \t]*([^\r\n]+)/g, (match: string, lead: string, key: string) => (looksSecret(key, extraKeys) ? `${lead}${key}: ${REDACTED}` : match));
}

function redactValue(value: unknown, extraKeys: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => redactValue(item, extraKeys));
  if (typeof value !== 'object' || value === null) return value;
  const redacted: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    // defineProperty: a "__proto__" key of a body stays a key, never a prototype.
    Object.defineProperty(redacted, key, { value: looksSecret(key, extraKeys) ? REDACTED : redactValue(inner, extraKeys), enumerable: true, writable: true, configurable: true });
  }
  return redacted;
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
