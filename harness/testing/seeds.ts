/**
 * Seeds for property tests: a fixed list, so every run covers the same
 * cases, plus one random seed per run, printed when it fails so the failure can be
 * rerun (SPOTCHECK_PROPERTY_SEED=S replaces the random one).
 */
import fc from 'fast-check';

/** The fixed seeds every run uses. */
export const FIXED_SEEDS: readonly number[] = [1, 42, 20261123];

/** The fixed seeds and this run's extra seed (random, or SPOTCHECK_PROPERTY_SEED). */
export function propertySeeds(env: NodeJS.ProcessEnv = process.env): number[] {
  const given = env.SPOTCHECK_PROPERTY_SEED;
  const extra = given !== undefined && /^-?\d+$/.test(given) ? Number(given) : Math.floor(Math.random() * 2 ** 31);
  return [...FIXED_SEEDS, extra];
}

/**
 * `fc.assert` once per seed, `numRuns` shared between the seeds (the total stays the
 * same); a failure names its seed and how to rerun it.
 */
export async function assertSeeded<Ts>(
  property: fc.IAsyncProperty<Ts> | fc.IProperty<Ts>,
  params: { numRuns: number },
  seeds: readonly number[] = propertySeeds(),
): Promise<void> {
  const perSeed = Math.max(1, Math.ceil(params.numRuns / seeds.length));
  for (const seed of seeds) {
    try {
      await fc.assert(property, { numRuns: perSeed, seed });
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      throw new Error(
        `property failed with seed ${seed} (rerun it: SPOTCHECK_PROPERTY_SEED=${seed} npx vitest run <file>)\n${msg}`,
        { cause: err },
      );
    }
  }
}
