import { ENDPOINT_LABEL_PATTERN, type ExecutionRecord } from './executionRecord.js';

/** A validated record in canonical form: endpoint `METHOD /path`, method upper-cased, one space. */
export interface CanonicalExecutionRecord {
  readonly statusCode: number;
  /** Canonical `<METHOD> <path>` label. */
  readonly endpoint: string;
  readonly responseTimeMs: number;
  readonly id?: string;
}

/**
 * Canonical form of a valid endpoint label: trimmed, the method upper-cased,
 * and the whitespace between method and path collapsed to one space.
 * `"  get   /orders "` and `"GET\t/orders"` both become `GET /orders`.
 */
export function normaliseEndpoint(label: string): string {
  const match = ENDPOINT_LABEL_PATTERN.exec(label);
  if (match === null) throw new TypeError('normaliseEndpoint expects a validated "<METHOD> <path>" label');
  return `${match[1]!.toUpperCase()} ${match[2]!}`;
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

/** Puts validated records in canonical form (pure; the input is not changed). */
export function normaliseExecutionRecords(records: readonly ExecutionRecord[]): CanonicalExecutionRecord[] {
  const normalise = createEndpointNormaliser();
  return records.map((record) => {
    const canonical: { statusCode: number; endpoint: string; responseTimeMs: number; id?: string } = {
      statusCode: record.statusCode,
      endpoint: normalise(record.endpoint),
      responseTimeMs: record.responseTimeMs,
    };
    if (record.id !== undefined) canonical.id = record.id;
    return canonical;
  });
}
