/**
 * The kit's one worker pool: `items` mapped through `f` with at most `width` calls in flight,
 * results in input order; no new item starts once `stop(next)` says so (the run halted, a
 * property failed before `next`). Used by the scheduler, the checks' route probes and property
 * cases, and the matrix's targets.
 */
export async function inOrder<T, R>(
  items: readonly T[],
  width: number,
  f: (item: T, index: number) => Promise<R>,
  stop: (next: number) => boolean = () => false,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !stop(next)) {
      const i = next++;
      out[i] = await f(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, worker));
  return out;
}
