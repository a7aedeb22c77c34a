/**
 * Templates learned from a run's labels, for the ids that no shape rule
 * knows (see templateEndpoint.ts): ServeRest's `8P0BlkWfpjRO60K1`, nanoids,
 * ULIDs, slugs with digits. A position in the path is a parameter when the
 * run called more than one opaque-looking value there, under the same
 * preceding segments; a word there stays a word. Learned from the set of
 * labels alone, so that the result does not depend on the order of the
 * records, on how they were split into files, shards or threads, or on how
 * often each was called.
 */

/** The placeholder a learned id becomes, as the shape rules' ids do. */
const ID_PLACEHOLDER = ':id';

/** Shorter values are never learned: versions (`v2`), locales (`pt-BR`), short codes. */
const MIN_LEARNED_LENGTH = 6;

/** A run of letters as words are written: `cancelar`, `Compra`, `getUserById`, `ProjectsList`, `CSV`. */
const WORD_RUN = /^(?:[a-z]+(?:[A-Z][a-z]+)*|[A-Z][a-z]+(?:[A-Z][a-z]+)*|[A-Z]+)$/;
/** A short number between words, as in `users-28-day`: a fixed name, not an id. */
const SHORT_NUMBER_RUN = /^\d{1,3}$/;
const RUN_SEPARATORS = /[-_.~]/;

/**
 * Whether a path segment looks opaque (a value, not a name): at least six
 * characters, and some run of it between `-`, `_`, `.` and `~` is neither
 * a word (lower case, Capitalised, camelCase or CAPITALS) nor a number of
 * at most three digits. `8P0BlkWfpjRO60K1`, `01HF3Q5Z8XJ9`, `iphone15`,
 * `product-1732400000123` look opaque; `cancelar-compra`, `getUserById`,
 * `users-28-day`, `openapi.json` do not.
 */
export function looksOpaque(segment: string): boolean {
  if (segment.length < MIN_LEARNED_LENGTH || segment.startsWith(':')) return false;
  return segment.split(RUN_SEPARATORS).some((run) => run !== '' && !WORD_RUN.test(run) && !SHORT_NUMBER_RUN.test(run));
}

/** One label being learned: its method, and its path segments, rewritten in place as positions are learned. */
interface LearnedLabel {
  readonly label: string;
  readonly method: string;
  readonly segments: string[];
}

/**
 * The labels whose paths learning changes, each to its template
 * (`GET /usuarios/8P0BlkWfpjRO60K1` to `GET /usuarios/:id`); labels it leaves
 * as they are are not in the map.
 *
 * The rule, position by position from the left: the labels whose paths
 * share the preceding segments (as learned so far; every method together,
 * since a resource's id is the same whatever is done to it) are siblings.
 * The position is a parameter when its siblings hold at least two distinct
 * opaque-looking values ({@link looksOpaque}), or one beside an id the
 * shape rules made already (`:id`); its opaque-looking values then become
 * `:id`, and so do values of their length and alphabet that read as words
 * only by chance (`uZowkAzjcVmDovZj` beside `8P0BlkWfpjRO60K1`: see
 * `letterIdTest`); every other value (a word such as `cancelar-compra`) stays.
 * Labels must be canonical (`METHOD /path`).
 */
export function learnTemplates(labels: Iterable<string>): ReadonlyMap<string, string> {
  const entries: LearnedLabel[] = [];
  for (const label of new Set(labels)) {
    const space = label.indexOf(' ');
    const path = label.slice(space + 1);
    entries.push({ label, method: label.slice(0, space), segments: path === '/' ? [] : path.slice(1).split('/') });
  }
  learnPosition(entries, 0);
  const learned = new Map<string, string>();
  for (const { label, method, segments } of entries) {
    const template = `${method} /${segments.join('/')}`;
    if (template !== label) learned.set(label, template);
  }
  return learned;
}

// Learns one position of siblings (labels that share the segments before `depth`), then the next position of each group of them.
function learnPosition(siblings: readonly LearnedLabel[], depth: number): void {
  const deeper = siblings.filter((entry) => entry.segments.length > depth);
  if (deeper.length === 0) return;
  const opaque = new Set<string>();
  let shapedId = false;
  for (const { segments } of deeper) {
    const segment = segments[depth]!;
    if (segment === ID_PLACEHOLDER) shapedId = true;
    else if (looksOpaque(segment)) opaque.add(segment);
  }
  if (opaque.size >= 2 || (opaque.size === 1 && shapedId)) {
    const isLetterId = letterIdTest(opaque);
    for (const { segments } of deeper) {
      const segment = segments[depth]!;
      if (opaque.has(segment) || isLetterId(segment)) segments[depth] = ID_PLACEHOLDER;
    }
  }
  const groups = new Map<string, LearnedLabel[]>();
  for (const entry of deeper) {
    const key = entry.segments[depth]!;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [entry]);
    else group.push(entry);
  }
  for (const group of groups.values()) learnPosition(group, depth + 1);
}

/** Ids of letters and digits alone, such as NeDB's and ServeRest's `8P0BlkWfpjRO60K1`. */
const ALPHANUMERIC = /^[A-Za-z0-9]+$/;
/** Letters alone, capitals and lower case mixed: `uZowkAzjcVmDovZj`. */
const MIXED_CASE_LETTERS = /^(?=[A-Za-z]*[a-z])(?=[A-Za-z]*[A-Z])[A-Za-z]+$/;

/**
 * Which values that look like words are ids of a parameter's kind: a random
 * id of letters and digits now and then holds no digit (a 16-character NeDB
 * id about 6% of the time), and some of those read as camelCase
 * (`uZowkAzjcVmDovZj`). When the opaque values at the position are at least
 * two, all of one length, of letters and digits alone, with capitals and
 * lower-case letters among them, a value of that length made of capitals and
 * lower-case letters mixed is one of them. A word of another length
 * (`search`), of one case (`administradores`) or with a separator
 * (`cancelar-compra`) stays a word.
 */
function letterIdTest(opaque: ReadonlySet<string>): (segment: string) => boolean {
  const ids = [...opaque];
  const length = ids[0]?.length;
  const sameKind =
    ids.length >= 2 &&
    ids.every((id) => id.length === length && ALPHANUMERIC.test(id)) &&
    MIXED_CASE_LETTERS.test(ids.join('').replace(/\d/g, ''));
  return (segment) => sameKind && segment.length === length && MIXED_CASE_LETTERS.test(segment);
}
