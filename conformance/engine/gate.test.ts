import { describe, expect, it } from 'vitest';
import { createGate } from './gate.js';

/** A hand-driven clock: timers run when the test moves time past them (optionally late). */
function manualClock() {
  let t = 0;
  const timers: Array<{ at: number; fn: () => void }> = [];
  return {
    now: () => t,
    later: (fn: () => void, ms: number) => {
      timers.push({ at: t + ms, fn });
    },
    /** Move to `to`, running each due timer at its time plus `late` ms. */
    async advance(to: number, late = 0) {
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const due = timers[0];
        if (due === undefined || due.at > to) break;
        timers.shift();
        t = Math.max(t, due.at + late);
        due.fn();
        await flush();
      }
      t = Math.max(t, to);
      await flush();
    },
  };
}

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

/** Enter the gate, recording the order and time of each start. */
function entrant(gate: ReturnType<typeof createGate>, log: Array<[string, number]>, now: () => number) {
  const leaves = new Map<string, () => void>();
  return {
    enter(name: string, priority?: number, flow?: string) {
      void gate.enter(priority, flow).then((leave) => {
        log.push([name, now()]);
        leaves.set(name, leave);
      });
    },
    leave(name: string) {
      leaves.get(name)?.();
    },
  };
}

describe('the request gate', () => {
  it('keeps at most `width` requests in flight and lets the next one through when one is answered', async () => {
    const gate = createGate({ width: 2, rate: 0 });
    const log: Array<[string, number]> = [];
    const e = entrant(gate, log, () => 0);
    for (const n of ['a', 'b', 'c']) e.enter(n);
    await flush();
    expect(log.map(([n]) => n)).toEqual(['a', 'b']);
    expect(gate.state()).toEqual({ inFlight: 2, waiting: 1 });
    e.leave('a');
    e.leave('a'); // a second call frees nothing more
    await flush();
    expect(log.map(([n]) => n)).toEqual(['a', 'b', 'c']);
    expect(gate.state()).toEqual({ inFlight: 2, waiting: 0 });
  });

  it('lets waiting requests through by priority, then in arrival order', async () => {
    const gate = createGate({ width: 1, rate: 0 });
    const log: Array<[string, number]> = [];
    const e = entrant(gate, log, () => 0);
    e.enter('first');
    for (const [n, p] of [
      ['p5', 5],
      ['p1a', 1],
      ['p3', 3],
      ['p1b', 1],
    ] as const)
      e.enter(n, p);
    await flush();
    for (const n of ['first', 'p1a', 'p1b', 'p3']) {
      e.leave(n);
      await flush();
    }
    expect(log.map(([n]) => n)).toEqual(['first', 'p1a', 'p1b', 'p3', 'p5']);
  });

  it('starts requests one spacing apart at a rate, and a request waiting for its turn holds no place in flight', async () => {
    const c = manualClock();
    const gate = createGate({ width: 2, rate: 100, now: c.now, later: c.later });
    const log: Array<[string, number]> = [];
    const e = entrant(gate, log, c.now);
    for (const n of ['a', 'b', 'c', 'd']) e.enter(n);
    await flush();
    expect(log).toEqual([['a', 0]]);
    expect(gate.state()).toEqual({ inFlight: 1, waiting: 3 });
    await c.advance(10);
    expect(log).toEqual([
      ['a', 0],
      ['b', 10],
    ]);
    // both places taken: c waits for an answer, then for its turn
    await c.advance(40);
    expect(log.length).toBe(2);
    e.leave('a');
    await c.advance(40);
    expect(log.at(-1)).toEqual(['c', 40]);
    e.leave('b');
    await c.advance(60);
    expect(log.at(-1)).toEqual(['d', 50]);
  });

  it('keeps the rate over the second when its timer fires late, never more than one start per spacing on average', async () => {
    const c = manualClock();
    const gate = createGate({ width: Infinity, rate: 100, now: c.now, later: c.later });
    const log: Array<[string, number]> = [];
    const e = entrant(gate, log, c.now);
    for (let i = 0; i < 101; i++) e.enter(`r${i}`);
    await flush();
    await c.advance(2000, 3);
    // 101 starts: the first at once, then one per 10 ms grid slot, each at most 3 ms late
    expect(log.length).toBe(101);
    expect(log.at(-1)?.[1]).toBeGreaterThanOrEqual(1000);
    expect(log.at(-1)?.[1]).toBeLessThanOrEqual(1003);
    for (let i = 1; i < log.length; i++) {
      const at = log[i]?.[1] ?? 0;
      expect(at).toBeGreaterThanOrEqual(i * 10);
      expect(at).toBeLessThan(i * 10 + 10);
    }
  });

  it('gives a high-priority request the next rate turn ahead of those already waiting', async () => {
    const c = manualClock();
    const gate = createGate({ width: 16, rate: 100, now: c.now, later: c.later });
    const log: Array<[string, number]> = [];
    const e = entrant(gate, log, c.now);
    for (let i = 0; i < 10; i++) e.enter(`bulk${i}`, 5);
    await flush();
    await c.advance(15);
    e.enter('probe', 0);
    await c.advance(25);
    expect(log.map(([n]) => n)).toEqual(['bulk0', 'bulk1', 'probe']);
    expect(log.at(-1)).toEqual(['probe', 20]);
  });
});

describe('the request gate under a backlog', () => {
  it('raises a request that has waited past `overdue.afterMs` to that priority, so none starves', async () => {
    let t = 0;
    const gate = createGate({ width: 1, rate: 0, now: () => t, overdue: { afterMs: 50, priority: 1 } });
    const log: Array<[string, number]> = [];
    const e = entrant(gate, log, () => t);
    e.enter('first', 5);
    e.enter('old', 9);
    e.enter('busyA', 5);
    await flush();
    t = 10;
    e.leave('first');
    await flush();
    // within 50 ms, "old" waits behind the better priority
    expect(log.at(-1)).toEqual(['busyA', 10]);
    e.enter('busyB', 5);
    e.enter('probe', 0);
    t = 60;
    e.leave('busyA');
    await flush();
    e.leave('probe');
    await flush();
    // past it, "old" goes before busyB (its raised priority 1 beats 5), never before the probe (0)
    expect(log.map(([n]) => n)).toEqual(['first', 'busyA', 'probe', 'old']);
    e.leave('old');
    await flush();
    expect(log.at(-1)?.[0]).toBe('busyB');
  });

  it('among equal priorities, lets the flow with the fewest requests in flight go first', async () => {
    const gate = createGate({ width: 3, rate: 0 });
    const log: Array<[string, number]> = [];
    const e = entrant(gate, log, () => 0);
    // a bulk flow fills the gate and queues more; a one-at-a-time flow arrives after them
    for (let i = 0; i < 6; i++) e.enter(`bulk${i}`, 2, 'bulk');
    e.enter('chain1', 2, 'chain');
    await flush();
    e.leave('bulk0');
    await flush();
    expect(log.at(-1)?.[0]).toBe('chain1');
    e.enter('chain2', 2, 'chain');
    e.leave('bulk1');
    await flush();
    // chain1 still in flight: one each, the earlier arrival goes
    expect(log.at(-1)?.[0]).toBe('bulk3');
    e.leave('chain1');
    await flush();
    expect(log.at(-1)?.[0]).toBe('chain2');
  });

  it('quiet: holds every request above priority 0, resolves once those in flight ended, and lets them go when released', async () => {
    const gate = createGate({ width: 4, rate: 0 });
    const log: Array<[string, number]> = [];
    const e = entrant(gate, log, () => 0);
    e.enter('check1', 2, 'c1');
    e.enter('check2', 2, 'c2');
    await flush();
    let release: (() => void) | undefined;
    void gate.quiet().then((r) => {
      release = r;
    });
    e.enter('check3', 2, 'c3');
    e.enter('sample1', 0);
    await flush();
    // the sample goes at once; the new check request waits; the hold waits for the two in flight
    expect(log.map(([n]) => n)).toEqual(['check1', 'check2', 'sample1']);
    expect(release).toBeUndefined();
    e.leave('check1');
    await flush();
    expect(release).toBeUndefined();
    e.leave('check2');
    await flush();
    expect(release).toBeTypeOf('function');
    e.enter('sample2', 0);
    await flush();
    expect(log.map(([n]) => n)).toEqual(['check1', 'check2', 'sample1', 'sample2']);
    release?.();
    release?.(); // a second call lets go of nothing more
    await flush();
    expect(log.map(([n]) => n)).toEqual(['check1', 'check2', 'sample1', 'sample2', 'check3']);
  });
});
