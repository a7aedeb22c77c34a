import type { CanonicalExecutionRecord, ExecutionRecord } from './executionRecord.js';

export type { CanonicalExecutionRecord } from './executionRecord.js';
import { ENDPOINT_LABEL_PATTERN } from './recordCheck.js';
import type { Mutable } from '../deepReadonly.js';

/**
 * Canonical form of a valid endpoint label: trimmed, the method upper-cased,
 * the whitespace between method and path collapsed to one space, and the
 * path's matrix parameters removed ({@link withoutMatrixParameters}).
 * `"  get   /orders "` and `"GET\t/orders"` both become `GET /orders`.
 */
export function normaliseEndpoint(label: string): string {
  const match = ENDPOINT_LABEL_PATTERN.exec(label);
  if (match === null) throw new TypeError('normaliseEndpoint expects a validated "<METHOD> <path>" label');
  return `${match[1]!.toUpperCase()} ${withoutMatrixParameters(match[2]!)}`;
}

/**
 * A path without its matrix parameters: `;` and what follows it in each
 * segment, as in `/cart;jsessionid=…/items`, which becomes `/cart/items`.
 * They are a URL's parameters, as its query is, and as often hold a session
 * id; unlike the query, a URL's `pathname` keeps them, so every path a run
 * takes loses them here. A query or fragment after the path is left as it is.
 */
export function withoutMatrixParameters(path: string): string {
  if (!path.includes(';')) return path;
  const end = path.search(/[?#]/);
  const segments = end === -1 ? path : path.slice(0, end);
  return segments.replace(/;[^/]*/g, '') + (end === -1 ? '' : path.slice(end));
}

/**
 * Creates a normaliser that remembers the labels it has seen. Real inputs
 * repeat a few hundred labels millions of times, so the cache turns the
 * per-record regex into a map lookup; it stops growing at `limit` entries so
 * that an input of all-distinct labels cannot use unbounded memory.
 */
export function createEndpointNormaliser(limit = 10_000): (label: string) => string {
  const cache = new Map<string, string>();
  return (label) => {
    const known = cache.get(label);
    if (known !== undefined) return known;
    const canonical = normaliseEndpoint(label);
    if (cache.size < limit) cache.set(label, canonical);
    return canonical;
  };
}

/**
 * Yields validated records in canonical form, one at a time. The sequence is
 * lazy so that a million records are never held twice in memory: the
 * summary consumes each canonical record as it is made. Use `Array.from` for
 * a list. The input records are not changed.
 */
export function* normaliseExecutionRecords(records: Iterable<ExecutionRecord>): Generator<CanonicalExecutionRecord, void, undefined> {
  const normalise = createEndpointNormaliser();
  for (const record of records) yield normaliseExecutionRecord(record, normalise);
}

// One record in canonical form: only the record's own fields, each only when
// present, so that canonical records serialise the same whatever else the
// input carried.
function normaliseExecutionRecord(record: ExecutionRecord, normalise: (label: string) => string): CanonicalExecutionRecord {
  const endpoint = normalise(record.endpoint);
  const { statusCode, errorCode, responseTimeMs, id, timingMs } = record;
  const canonical: Mutable<CanonicalExecutionRecord> =
    statusCode === undefined ? { errorCode: errorCode!, endpoint, responseTimeMs } : { statusCode, endpoint, responseTimeMs };
  if (id !== undefined) canonical.id = id;
  if (timingMs !== undefined) canonical.timingMs = timingMs;
  return canonical;
}
