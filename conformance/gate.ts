/**
 * The run's gate to the target: at most `width` requests in flight and, with a rate, one
 * start per `1000 / rate` ms (the `--rate` ceiling). Waiting requests go through by
 * priority (lower first), so a time-window probe jumps the queue and its timestamp ages
 * by at most one spacing while it waits (checks/time.ts probeMargin); among equals, the
 * flow (a check) with the fewest requests in flight first, so a check sending one request
 * after another is not queued behind the many cases another keeps in flight; then in
 * arrival order. A request holds no place in flight while it waits for its rate turn.
 */

export interface Gate {
  /**
   * Wait for a turn (priority: lower goes first, default 0; flow: whose request it is, for
   * the fair share); call the function returned once the request is answered.
   */
  enter(priority?: number, flow?: unknown): Promise<() => void>;
  /** Requests in flight now, and waiting. */
  state(): { inFlight: number; waiting: number };
}

export interface GateOptions {
  /** Requests in flight at most (Infinity: no cap). */
  width: number;
  /** Starts per second at most; 0 = unlimited. */
  rate: number;
  /**
   * A request that has waited longer than `afterMs` counts as of `priority` (when that is
   * better than its own): no priority starves another for long (default: never).
   */
  overdue?: { afterMs: number; priority: number };
  /** The clock, ms (default Date.now). */
  now?: () => number;
  /** Run `fn` after `ms` (default setTimeout). */
  later?: (fn: () => void, ms: number) => void;
}

interface Waiter {
  priority: number;
  flow: unknown;
  since: number;
  go: () => void;
}

/** Make a gate. */
export function createGate(o: GateOptions): Gate {
  const width = Math.max(1, Math.floor(o.width));
  const interval = o.rate > 0 ? 1000 / o.rate : 0;
  const now = o.now ?? Date.now;
  const later =
    o.later ??
    ((fn: () => void, ms: number) => {
      setTimeout(fn, ms);
    });
  const waiting: Waiter[] = [];
  let inFlight = 0;
  /** The earliest start of the next request. */
  let next = -Infinity;
  let timerSet = false;

  const overdue = o.overdue ?? { afterMs: Infinity, priority: 0 };
  /** Requests in flight per flow. */
  const flows = new Map<unknown, number>();
  /** The next to go: the best priority (an overdue request's raised), then the flow with the fewest in flight, then the earliest arrival. */
  function pick(t: number): number {
    let best = 0;
    let bestKey = Infinity;
    let bestLoad = Infinity;
    for (const [i, w] of waiting.entries()) {
      const key = t - w.since > overdue.afterMs ? Math.min(w.priority, overdue.priority) : w.priority;
      const load = flows.get(w.flow) ?? 0;
      if (key < bestKey || (key === bestKey && load < bestLoad)) {
        best = i;
        bestKey = key;
        bestLoad = load;
      }
    }
    return best;
  }

  function pump(): void {
    while (waiting.length > 0 && inFlight < width) {
      if (interval > 0) {
        const t = now();
        if (t < next) {
          if (!timerSet) {
            timerSet = true;
            later(
              () => {
                timerSet = false;
                pump();
              },
              Math.ceil(next - t),
            );
          }
          return;
        }
        // a timer that fired late keeps the spacing's grid (the rate is kept over the second); after a pause the grid restarts
        next = t - next < interval ? next + interval : t + interval;
      }
      const [w] = waiting.splice(pick(now()), 1) as [Waiter];
      inFlight++;
      flows.set(w.flow, (flows.get(w.flow) ?? 0) + 1);
      w.go();
    }
  }

  return {
    enter(priority = 0, flow = undefined) {
      return new Promise((resolve) => {
        waiting.push({
          priority,
          flow,
          since: now(),
          go: () => {
            let left = false;
            resolve(() => {
              if (left) return;
              left = true;
              inFlight--;
              const n = (flows.get(flow) ?? 1) - 1;
              if (n > 0) flows.set(flow, n);
              else flows.delete(flow);
              pump();
            });
          },
        });
        pump();
      });
    },
    state: () => ({ inFlight, waiting: waiting.length }),
  };
}
