/**
 * Counts keyed by integer-like strings (status codes: `{ "200": 9, "404": 1 }`),
 * as the report holds them; JSON gives such keys in ascending order.
 *
 * Made with sparse (dictionary) elements: V8 gives an object whose keys are
 * integers below 1,024 a dense store with a slot for every integer up to
 * the largest, about 5 KB for a `503`. On a run of 50,000 endpoints the
 * status counts alone took 500 MB that way (npm run bench); sparse, about
 * 200 bytes an object. A spread (`{ ...counts }`) makes a dense store again:
 * copy with {@link copySparseCounts}.
 */
export function sparseCounts(entries: Iterable<readonly [string | number, number]>): Record<string, number> {
  const counts: Record<string, number> = {};
  // An index this far past the others makes V8 switch the object to sparse elements, which it keeps after the delete.
  counts[FAR_INDEX] = 0;
  Reflect.deleteProperty(counts, FAR_INDEX);
  for (const [key, count] of entries) counts[key] = count;
  return counts;
}

/** A copy of counts keyed by integer-like strings, sparse as {@link sparseCounts} makes them. */
export function copySparseCounts(counts: Readonly<Record<string, number>>): Record<string, number> {
  return sparseCounts(Object.entries(counts));
}

const FAR_INDEX = 1_000_000;
