/**
 * Route templates: the same route called with different ids is one endpoint.
 * A path segment that is a number, a UUID or a long hexadecimal id (16 or
 * more hex digits, such as a MongoDB ObjectId or a hash) becomes `:id`:
 * `GET /booking/42` and `GET /booking/7` are both `GET /booking/:id`.
 */

const ID_SEGMENT_PATTERNS: readonly RegExp[] = [
  /^\d+$/,
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  // Long hex ids hold at least one digit, so that a long word of the letters a to f stays a word.
  /^(?=[0-9a-f]*\d)[0-9a-f]{16,}$/i,
];

/** The placeholder an id segment becomes. */
const ID_PLACEHOLDER = ':id';

/** Whether one path segment is an id (a number, a UUID or a long hex string). */
function isIdSegment(segment: string): boolean {
  return ID_SEGMENT_PATTERNS.some((pattern) => pattern.test(segment));
}

/** A path with its id segments replaced by `:id`; `/booking/42/items` becomes `/booking/:id/items`. */
export function templatePath(path: string): string {
  return path
    .split('/')
    .map((segment) => (isIdSegment(segment) ? ID_PLACEHOLDER : segment))
    .join('/');
}

/** A canonical `<METHOD> <path>` label with its path templated. */
export function templateEndpoint(label: string): string {
  const space = label.indexOf(' ');
  return space === -1 ? label : `${label.slice(0, space)} ${templatePath(label.slice(space + 1))}`;
}
