import { randomInt } from 'node:crypto';
import type fc from 'fast-check';

/**
 * How property specs run: at least 10,000 generated cases per property
 * (QE_PROPERTY_RUNS changes it for a quick local look), every property of a
 * run from one seed, which the global setup chooses and prints
 * ({@link choosePropertySeed}) and hands to the workers as QE_PROPERTY_SEED.
 * A failure prints fast-check's shrunk counterexample with that seed, and
 * `QE_PROPERTY_SEED=<seed>` replays it.
 */
export const PROPERTY_RUNS = Math.max(1, Number(process.env['QE_PROPERTY_RUNS'] ?? 10_000));

/**
 * The seed of every run under `CI=true`: CI checks the same cases each time,
 * so a red build is the code's doing, not the draw's. Local runs draw a fresh
 * seed and so explore new cases each time.
 */
export const CI_PROPERTY_SEED = 0x5eed;

/** The seed of this run, and why it is that one (printed beside it). */
export interface PropertySeed {
  readonly seed: number;
  readonly why: string;
}

/**
 * The seed of a run from its environment: QE_PROPERTY_SEED when given (a
 * failure's seed, to replay it; a whole number, as fast-check prints it),
 * else {@link CI_PROPERTY_SEED} under `CI=true`, else a fresh random one.
 */
export function choosePropertySeed(
  env: Readonly<Record<string, string | undefined>>,
  draw: () => number = () => randomInt(2 ** 31),
): PropertySeed {
  const given = env['QE_PROPERTY_SEED'];
  if (given !== undefined) {
    if (!/^-?\d{1,10}$/.test(given.trim())) throw new Error('QE_PROPERTY_SEED must be a whole number, the seed a failing property printed');
    return { seed: Number(given), why: 'QE_PROPERTY_SEED' };
  }
  if (env['CI'] === 'true') return { seed: CI_PROPERTY_SEED, why: 'fixed under CI=true' };
  return { seed: draw(), why: 'random; CI=true fixes it' };
}

/**
 * The parameters every property spec passes to `fc.assert`: `numRuns` cases
 * (default {@link PROPERTY_RUNS}) from the run's seed.
 */
export function propertyParameters<Ts>(numRuns: number = PROPERTY_RUNS): fc.Parameters<Ts> {
  return { numRuns, seed: choosePropertySeed(process.env).seed };
}
