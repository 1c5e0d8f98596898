/**
 * The order checks run in. One at a time: selection order. Otherwise two lanes side by side:
 * the timed checks (the time window) one after another, their requests first through the gate
 * (a time probe waits one spacing at most), and the other checks `width` at a time, the check
 * with the fewest requests in flight served first; then the `runLast` ones.
 */
import type { CheckDefinition } from '../judgement/types.js';
import { inOrder } from './pool.js';
import type { Place } from './transport.js';

/** A request waiting longer than this, ms, goes before the other checks' that have waited less (none starves). */
export const OVERDUE_MS = 1000;

/** The queue place of a timed check's requests (discovery's too): first. */
const TIMED = 0;
/** The queue place of the other checks' requests (an overdue one counts as 1). */
const OTHERS = 2;

/**
 * Run `runOne` over `selected` in lane order until `halted()`; each call gets the check's index
 * and the queue place its requests take (conformance/engine/gate.ts), which the check's session passes
 * with every request sent on its behalf (its follow-ups included).
 */
export async function schedule(
  selected: readonly CheckDefinition[],
  width: number,
  runOne: (index: number, place: Place) => Promise<void>,
  halted: () => boolean,
): Promise<void> {
  if (width === 1) {
    for (const i of selected.keys()) {
      if (halted()) return;
      await runOne(i, { priority: TIMED });
    }
    return;
  }
  const where = (pick: (c: CheckDefinition) => boolean): number[] => selected.flatMap((c, i) => (pick(c) ? [i] : []));
  const pool = async (list: readonly number[]): Promise<void> => {
    await inOrder(list, width, (i) => runOne(i, { priority: OTHERS, flow: i }), halted);
  };
  const timedLane = async (): Promise<void> => {
    for (const i of where((c) => c.timed === true && c.runLast !== true)) {
      if (halted()) return;
      await runOne(i, { priority: TIMED, flow: i });
    }
  };
  await Promise.all([timedLane(), pool(where((c) => c.timed !== true && c.runLast !== true))]);
  if (!halted()) await pool(where((c) => c.runLast === true));
}

/** Where the run stands, for the console: checks ended of `total`, those under way, requests sent. */
export interface RunProgress {
  done: number;
  total: number;
  current?: string;
  requests: number;
}

/** The run's progress events (`onProgress`): a check starts, ends, or is not run. */
export function createProgress(total: number, requests: () => number, onProgress?: (p: RunProgress) => void) {
  const running = new Set<string>();
  let done = 0;
  const emit = (): void => {
    const current = running.size === 0 ? undefined : [...running].join(', ');
    onProgress?.({ done, total, requests: requests(), ...(current === undefined ? {} : { current }) });
  };
  return {
    /** After every request. */
    update: emit,
    start(id: string): void {
      running.add(id);
      emit();
    },
    /** The check ended: it counts as done. */
    end(id: string): void {
      running.delete(id);
      done++;
      emit();
    },
    /** The check was abandoned (the run interrupted): not done. */
    abandon(id: string): void {
      running.delete(id);
    },
    /** A check not run (the deadline): done, no event. */
    skip(): void {
      done++;
    },
    done: (): number => done,
    /** The last event, once every check is decided. */
    final(): void {
      onProgress?.({ done, total, requests: requests() });
    },
  };
}
