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
  /**
   * Hold every request of a priority above 0 (their turn waits; none is lost) and resolve once none
   * is in flight: the target then serves only priority-0 requests (the clock's samples). Call the
   * function resolved to let the others go again.
   */
  quiet(): Promise<() => void>;
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
  /** As asked (an overdue one's raise is applied in `pick`). */
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
  /** Holds asked for (quiet) and not yet let go; requests above priority 0 in flight; who waits for them to end. */
  let holds = 0;
  let othersInFlight = 0;
  let drained: Array<() => void> = [];
  /** The next to go: the best priority (an overdue request's raised), then the flow with the fewest in flight, then the earliest arrival; -1 when none may go (a hold). */
  function pick(t: number): number {
    let best = -1;
    let bestKey = Infinity;
    let bestLoad = Infinity;
    for (const [i, w] of waiting.entries()) {
      if (holds > 0 && w.priority > 0) continue;
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
      const i = pick(now());
      if (i === -1) return;
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
      const [w] = waiting.splice(i, 1) as [Waiter];
      inFlight++;
      if (w.priority > 0) othersInFlight++;
      flows.set(w.flow, (flows.get(w.flow) ?? 0) + 1);
      w.go();
    }
  }

  function settleDrained(): void {
    if (holds === 0 || othersInFlight > 0) return;
    const ready = drained;
    drained = [];
    for (const r of ready) r();
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
              if (priority > 0) othersInFlight--;
              const n = (flows.get(flow) ?? 1) - 1;
              if (n > 0) flows.set(flow, n);
              else flows.delete(flow);
              settleDrained();
              pump();
            });
          },
        });
        pump();
      });
    },
    state: () => ({ inFlight, waiting: waiting.length }),
    quiet() {
      holds++;
      let released = false;
      const release = (): void => {
        if (released) return;
        released = true;
        holds--;
        pump();
      };
      return new Promise((resolve) => {
        drained.push(() => resolve(release));
        settleDrained();
      });
    },
  };
}
