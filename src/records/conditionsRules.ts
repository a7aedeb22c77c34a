/**
 * What a valid `conditions` of a record is, as plain comparisons: the
 * hot-path twin of its zod schema (conditionsRecord.ts), with no zod loaded,
 * for the record check a worker thread runs.
 */

/** Positions above this are refused: no operation declares a million conditions. */
export const MAX_CONDITION_POSITION = 999_999;

/** Whether a value is a valid `conditions`: the same rules as the schema, with no allocation. */
export function isConditionsRecord(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { fingerprint, met, outside } = value as Record<string, unknown>;
  return (
    typeof fingerprint === 'string' &&
    /^[0-9a-f]{16}$/.test(fingerprint) &&
    arePositions(met) &&
    (outside === undefined || arePositions(outside))
  );
}

function arePositions(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  let previous = -1;
  for (const position of value as unknown[]) {
    if (typeof position !== 'number' || !Number.isInteger(position) || position <= previous || position > MAX_CONDITION_POSITION)
      return false;
    previous = position;
  }
  return true;
}
