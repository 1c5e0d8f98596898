/**
 * The order checks run in. One at a time: selection order. Otherwise two lanes side by side:
 * the timed checks (the time window) one after another, their requests first through the gate
 * (a time probe waits one spacing at most), and the other checks `width` at a time, the check
 * with the fewest requests in flight served first; then the `runLast` ones.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { CheckDefinition } from './types.js';
import { inOrder } from './pool.js';

/** A request waiting longer than this, ms, goes before the other checks' that have waited less (none starves). */
export const OVERDUE_MS = 1000;

/** The queue place of the requests of the check under way (conformance/gate.ts): timed checks and discovery 0, overdue 1, others 2. */
export function createLanes() {
  const lane = new AsyncLocalStorage<{ priority: number; flow: number }>();
  return {
    place: (): { priority: number; flow?: unknown } => lane.getStore() ?? { priority: 0 },
    run: <T>(priority: number, flow: number, f: () => Promise<T>): Promise<T> => lane.run({ priority, flow }, f),
  };
}

export type Lanes = ReturnType<typeof createLanes>;

/** Run `runOne` over `selected` in lane order until `halted()`; each call gets the check's index. */
export async function schedule(
  selected: readonly CheckDefinition[],
  width: number,
  lanes: Lanes,
  runOne: (index: number) => Promise<void>,
  halted: () => boolean,
): Promise<void> {
  if (width === 1) {
    for (const i of selected.keys()) {
      if (halted()) return;
      await runOne(i);
    }
    return;
  }
  const where = (pick: (c: CheckDefinition) => boolean): number[] => selected.flatMap((c, i) => (pick(c) ? [i] : []));
  const pool = async (list: readonly number[]): Promise<void> => {
    await inOrder(list, width, (i) => lanes.run(2, i, () => runOne(i)), halted);
  };
  const timedLane = async (): Promise<void> => {
    for (const i of where((c) => c.timed === true && c.runLast !== true)) {
      if (halted()) return;
      await lanes.run(0, i, () => runOne(i));
    }
  };
  await Promise.all([timedLane(), pool(where((c) => c.timed !== true && c.runLast !== true))]);
  if (!halted()) await pool(where((c) => c.runLast === true));
}
