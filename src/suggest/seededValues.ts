/**
 * Values `suggest` makes up where a document gives none: each drawn from a
 * generator seeded by the run's seed and the place the value goes (a schema's
 * pointer and the value's place in the request), so that one seed gives the
 * same value at one place however the rest of the document changes, and the
 * same document and seed give the same drafts byte for byte.
 */

/**
 * A generator of numbers in [0, 1): FNV-1a over the seed and the salt
 * gives a starting count, and each number is the next count through
 * MurmurHash3's finaliser, which spreads a change of one bit over all 32
 * (so that seeds one apart give unrelated values).
 */
export function seededRandom(seed: number, ...salt: readonly string[]): () => number {
  let state = 0x811c9dc5;
  const text = `${seed}\u0000${salt.join('\u0000')}`;
  for (let index = 0; index < text.length; index++) {
    state ^= text.charCodeAt(index);
    state = Math.imul(state, 0x01000193);
  }
  return () => {
    state = (state + 0x9e3779b9) | 0;
    let mixed = Math.imul(state ^ (state >>> 16), 0x85ebca6b);
    mixed = Math.imul(mixed ^ (mixed >>> 13), 0xc2b2ae35);
    mixed ^= mixed >>> 16;
    return (mixed >>> 0) / 4294967296;
  };
}

/** A whole number from `low` to `high`, both included. */
export function wholeNumber(random: () => number, low: number, high: number): number {
  return low + Math.floor(random() * (high - low + 1));
}

const LETTERS = 'abcdefghijkmnopqrstuvwxyz';
const LETTERS_AND_DIGITS = `${LETTERS}23456789`;

/** A word of lower-case letters and digits, starting with a letter: `k3vq9wza`. */
export function seededWord(random: () => number, length: number): string {
  let word = '';
  for (let index = 0; index < length; index++) {
    const alphabet = index === 0 ? LETTERS : LETTERS_AND_DIGITS;
    word += alphabet.charAt(Math.floor(random() * alphabet.length));
  }
  return word;
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/** A string of a format JSON Schema or OpenAPI names, or undefined for a format not known here. */
export function formattedString(random: () => number, format: string): string | undefined {
  const date = () => `${wholeNumber(random, 2020, 2029)}-${pad(wholeNumber(random, 1, 12))}-${pad(wholeNumber(random, 1, 28))}`;
  const time = () => `${pad(wholeNumber(random, 0, 23))}:${pad(wholeNumber(random, 0, 59))}:${pad(wholeNumber(random, 0, 59))}Z`;
  const hex = (length: number) => Array.from({ length }, () => Math.floor(random() * 16).toString(16)).join('');
  switch (format) {
    case 'date':
      return date();
    case 'date-time':
      return `${date()}T${time()}`;
    case 'time':
      return time();
    case 'duration':
      return `P${wholeNumber(random, 1, 30)}D`;
    case 'email':
    case 'idn-email':
      return `${seededWord(random, 8)}@example.com`;
    case 'uuid':
      return `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[Math.floor(random() * 4)]}${hex(3)}-${hex(12)}`;
    case 'uri':
    case 'url':
    case 'iri':
    case 'uri-reference':
    case 'iri-reference':
      return `https://example.com/${seededWord(random, 8)}`;
    case 'hostname':
    case 'idn-hostname':
      return `${seededWord(random, 8)}.example.com`;
    case 'ipv4':
      // 192.0.2.0/24 is TEST-NET-1 (RFC 5737): documentation only, never a real host.
      return `192.0.2.${wholeNumber(random, 1, 254)}`;
    case 'ipv6':
      return `2001:db8::${hex(4)}`;
    case 'byte':
      return Buffer.from(seededWord(random, 9), 'utf8').toString('base64');
    default:
      return undefined;
  }
}

/** One atom of a simple pattern: the characters it may be, and how many times. */
interface PatternAtom {
  readonly characters: readonly string[];
  readonly least: number;
  readonly most: number;
}

const DIGITS = '0123456789';
const WORD = `${LETTERS}ABCDEFGHJKLMNPQRSTUVWXYZ${DIGITS}_`;
/** How many more times than its least a quantifier without an upper bound (`*`, `+`, `{2,}`) repeats its atom at most. */
const OPEN_REPEATS = 3;

/**
 * A string a simple `pattern` matches, or undefined for one that is not
 * simple: anchors, literal characters, escapes (`\d`, `\w`, `\.`), `.`,
 * classes of characters and ranges (`[a-z0-9_-]`, not negated), each with
 * `?`, `*`, `+` or `{n}`, `{n,}`, `{n,m}`. Groups, alternatives, lookarounds
 * and back-references are not simple: such a pattern is not followed.
 */
export function stringOfPattern(random: () => number, pattern: string): string | undefined {
  const atoms = patternAtoms(pattern);
  if (atoms === undefined) return undefined;
  let text = '';
  for (const { characters, least, most } of atoms) {
    const count = wholeNumber(random, least, most);
    for (let index = 0; index < count; index++) text += characters[Math.floor(random() * characters.length)] ?? '';
  }
  return text;
}

function patternAtoms(pattern: string): PatternAtom[] | undefined {
  const atoms: PatternAtom[] = [];
  const characters = Array.from(pattern);
  let index = 0;
  if (characters[0] === '^') index++;
  const end = characters.length - (characters.length > index && characters[characters.length - 1] === '$' ? 1 : 0);
  while (index < end) {
    const char = characters[index]!;
    let set: string | undefined;
    if (char === '\\') {
      set = escapeSet(characters[index + 1]);
      index += 2;
    } else if (char === '[') {
      const close = characters.indexOf(']', index + 1);
      if (close < 0) return undefined;
      set = classSet(characters.slice(index + 1, close));
      index = close + 1;
    } else if (char === '.') {
      set = LETTERS;
      index++;
    } else if ('()|?*+{}^$'.includes(char)) return undefined;
    else {
      set = char;
      index++;
    }
    if (set === undefined || set === '') return undefined;
    const quantifier = quantifierAt(characters, index, end);
    if (quantifier === undefined) return undefined;
    index = quantifier.next;
    atoms.push({ characters: Array.from(set), least: quantifier.least, most: quantifier.most });
  }
  return atoms;
}

function escapeSet(char: string | undefined): string | undefined {
  if (char === undefined) return undefined;
  if (char === 'd') return DIGITS;
  if (char === 'w') return WORD;
  if (char === 's') return ' ';
  // A letter or digit escaped names something else (\b, \p, \1): not simple.
  if (/[A-Za-z0-9]/.test(char)) return undefined;
  return char;
}

function classSet(inside: readonly string[]): string | undefined {
  if (inside[0] === '^' || inside.length === 0) return undefined;
  let set = '';
  for (let index = 0; index < inside.length; index++) {
    let char = inside[index]!;
    if (char === '\\') {
      const escaped = escapeSet(inside[index + 1]);
      if (escaped === undefined) return undefined;
      index++;
      if (escaped.length > 1) {
        set += escaped;
        continue;
      }
      char = escaped;
    }
    const next = inside[index + 2];
    if (inside[index + 1] === '-' && next !== undefined && next !== '\\') {
      const from = char.codePointAt(0)!;
      const to = next.codePointAt(0)!;
      if (to < from || to - from > 256) return undefined;
      for (let code = from; code <= to; code++) set += String.fromCodePoint(code);
      index += 2;
    } else set += char;
  }
  return set;
}

function quantifierAt(
  characters: readonly string[],
  index: number,
  end: number,
): { readonly least: number; readonly most: number; readonly next: number } | undefined {
  const char = index < end ? characters[index] : undefined;
  if (char === '?') return { least: 1, most: 1, next: index + 1 };
  if (char === '*' || char === '+') return { least: 1, most: 1 + OPEN_REPEATS, next: index + 1 };
  if (char !== '{') return { least: 1, most: 1, next: index };
  const close = characters.indexOf('}', index);
  if (close < 0 || close >= end) return undefined;
  const match = /^(\d{1,3})(,(\d{0,3}))?$/.exec(characters.slice(index + 1, close).join(''));
  if (match === null) return undefined;
  const least = Number(match[1]);
  const most = match[2] === undefined ? least : match[3] === '' ? least + OPEN_REPEATS : Number(match[3]);
  if (most < least) return undefined;
  return { least, most, next: close + 1 };
}
