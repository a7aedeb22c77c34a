/**
 * Lists of HTTP status codes, as people write them for expected statuses:
 * codes and inclusive ranges, comma-separated (`100-399,404`), or, where a
 * typed value is possible, an array of codes and range strings
 * (`[200, "400-404"]`). Codes run from 100 to 599.
 */

/** A list as written: text, or an array of codes and range texts. */
export type StatusListInput = string | readonly (number | string)[];

/** A parsed list: a membership table over the codes 0 to 599, and its canonical text. */
export interface StatusSet {
  /** `table[code] === 1` when the code is in the list. */
  readonly table: Uint8Array;
  /** The list in canonical form: sorted, merged ranges (`100-399,404`). */
  readonly text: string;
}

/** Today's rule, and the default: failed means 400 or above. */
export const DEFAULT_EXPECTED_STATUSES = '100-399';

const MIN_STATUS = 100;
const MAX_STATUS = 599;

/** Parses a list, or says what is wrong with it (in words that follow the setting's name). */
export function parseStatusList(input: unknown): { readonly set: StatusSet } | { readonly problem: string } {
  const parts = typeof input === 'string' ? input.split(',') : Array.isArray(input) ? (input as unknown[]) : undefined;
  if (parts === undefined) return { problem: `must be a list of status codes and ranges, such as "200-299,404"` };
  const table = new Uint8Array(MAX_STATUS + 1);
  let any = false;
  for (const [index, part] of parts.entries()) {
    const range = parsePart(part);
    // The item's position, never its text: the list may come from a variable, whose value is never shown.
    if ('problem' in range)
      return { problem: parts.length === 1 ? range.problem : `item ${index + 1} of ${parts.length} ${range.problem}` };
    table.fill(1, range.from, range.to + 1);
    any = true;
  }
  if (!any) return { problem: 'must name at least one status code' };
  return { set: { table, text: canonicalText(table) } };
}

/** Parses a list known to be valid (a default, or one already checked). */
export function statusSet(input: StatusListInput): StatusSet {
  const parsed = parseStatusList(input);
  if ('problem' in parsed) throw new TypeError(`invalid status list: ${parsed.problem}`);
  return parsed.set;
}

/**
 * Parses lists by their text, remembering each: records repeat the same few
 * lists, so each is parsed once. Stops remembering at `limit` lists.
 */
export function createStatusListCache(limit = 1000): (input: unknown) => ReturnType<typeof parseStatusList> {
  const cache = new Map<string, ReturnType<typeof parseStatusList>>();
  return (input) => {
    const key = typeof input === 'string' ? input : Array.isArray(input) ? JSON.stringify(input) : undefined;
    if (key === undefined) return parseStatusList(input);
    const known = cache.get(key);
    if (known !== undefined) return known;
    const parsed = parseStatusList(input);
    if (cache.size < limit) cache.set(key, parsed);
    return parsed;
  };
}

const OUTSIDE = `is outside the status codes ${MIN_STATUS} to ${MAX_STATUS}`;

function parsePart(part: unknown): { readonly from: number; readonly to: number } | { readonly problem: string } {
  if (typeof part === 'number') {
    if (!Number.isInteger(part) || part < MIN_STATUS || part > MAX_STATUS) return { problem: OUTSIDE };
    return { from: part, to: part };
  }
  if (typeof part !== 'string') return { problem: 'is neither a status code (a number) nor a range (a string such as "200-299")' };
  const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part.trim());
  if (match === null) return { problem: 'is neither a status code nor a range such as 200-299' };
  const from = Number(match[1]);
  const to = match[2] === undefined ? from : Number(match[2]);
  if ([from, to].some((code) => code < MIN_STATUS || code > MAX_STATUS)) return { problem: OUTSIDE };
  if (from > to) return { problem: 'is a range that ends before it starts' };
  return { from, to };
}

function canonicalText(table: Uint8Array): string {
  const parts: string[] = [];
  for (let code = MIN_STATUS; code <= MAX_STATUS; code++) {
    if (table[code] !== 1) continue;
    let end = code;
    while (end + 1 <= MAX_STATUS && table[end + 1] === 1) end++;
    parts.push(end === code ? String(code) : `${code}-${end}`);
    code = end;
  }
  return parts.join(',');
}

/** The statuses in either list. */
export function unionOf(a: StatusSet, b: StatusSet): StatusSet {
  const table = new Uint8Array(MAX_STATUS + 1);
  for (let code = 0; code <= MAX_STATUS; code++) table[code] = a.table[code]! | b.table[code]!;
  return { table, text: canonicalText(table) };
}
