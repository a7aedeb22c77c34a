import type fc from 'fast-check';

/**
 * How property specs run: at least 10,000 generated cases per property
 * (QE_PROPERTY_RUNS changes it for a quick local look), from a fresh seed
 * each run unless QE_PROPERTY_SEED replays one. A failure prints fast-check's
 * shrunk counterexample with its seed and path.
 */
export const PROPERTY_RUNS = Math.max(1, Number(process.env['QE_PROPERTY_RUNS'] ?? 10_000));

/** The parameters every property spec passes to `fc.assert`. */
export function propertyParameters<Ts>(): fc.Parameters<Ts> {
  const seed = process.env['QE_PROPERTY_SEED'];
  return { numRuns: PROPERTY_RUNS, ...(seed === undefined ? {} : { seed: Number(seed) }) };
}
