/**
 * Measuring throughput for the benchmarks: variants run in alternating order over
 * several rounds in one process, and each is summarised by its median, so a
 * candidate and its baseline see the same machine state.
 */

/** One thing to measure: `run(i)` performs one operation (`i` counts up, to vary inputs). */
export interface Variant {
  /** Short label printed in the table. */
  name: string;
  /** Performs one operation. */
  run: (i: number) => unknown;
}

/** Options of {@link compare}. */
export interface CompareOptions {
  /** Measured rounds (after one warm-up round that is discarded). */
  rounds: number;
  /** Minimum duration of one sample, in milliseconds. */
  sampleMs: number;
}

/** Operations per second of one variant: every round's figure and their median. */
export interface Throughput {
  name: string;
  samples: number[];
  median: number;
}

/** Median of a non-empty list. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  if (s.length === 0) throw new RangeError('median of an empty list');
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** Keeps results alive so the engine cannot drop the measured work. */
let sink: unknown;

/** Operations per second of `v` over at least `ms` milliseconds. */
function sample(v: Variant, ms: number, start: number): number {
  const budget = BigInt(Math.round(ms * 1e6));
  const t0 = process.hrtime.bigint();
  let n = 0;
  let elapsed = 0n;
  do {
    for (let k = 0; k < 64; k++) sink = v.run(start + n + k);
    n += 64;
    elapsed = process.hrtime.bigint() - t0;
  } while (elapsed < budget);
  return n / (Number(elapsed) / 1e9);
}

/**
 * Throughput of each variant: one warm-up round, then `rounds` rounds in which the
 * variants take turns, the order reversed every other round.
 */
export function compare(variants: readonly Variant[], opts: CompareOptions): Throughput[] {
  const samples = variants.map(() => [] as number[]);
  let counter = 0;
  for (let round = -1; round < opts.rounds; round++) {
    const order = variants.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      const v = variants[i] as Variant;
      const opsPerSec = sample(v, opts.sampleMs, counter);
      counter += 1_000_003;
      if (round >= 0) samples[i]?.push(opsPerSec);
    }
  }
  if (sink === Symbol.for('never')) console.log(sink);
  return variants.map((v, i) => {
    const s = samples[i] ?? [];
    return { name: v.name, samples: s, median: median(s) };
  });
}

/** `1234567.8` as `1,234,568`. */
export function formatRate(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}

/** Left-aligned first column, right-aligned others. */
export function table(rows: ReadonlyArray<readonly string[]>): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows
    .map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  '))
    .join('\n');
}
