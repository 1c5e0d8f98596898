import { describe, expect, it } from 'vitest';
import { slowedByTraffic, startRunClock } from './run-clock.js';
import { resolveDescription } from '../target/description.js';
import type { SendResult, Sender } from './transport.js';

describe('slowedByTraffic', () => {
  it.each([
    [[5, 6, 7], 2, false],
    [[12, 15, 40], 2, false],
    [[90, 100, 120], 10, true],
    // a loaded machine's loopback: a median of 36 ms against 4 ms idle is no target queueing up
    [[4, 8, 8, 9, 29, 31, 40, 52, 55, 59, 66, 78], 4, false],
    // a target serving one request at a time under the run's 16 in flight
    [[45, 234, 161, 85, 268, 267, 268, 268, 267, 269, 270, 270], 24, true],
    [[50, 150, 100, 80], 50, false],
    [[], 1, false],
    [[30], Number.POSITIVE_INFINITY, false],
  ])('samples %j, fastest %d: %s', (samples, fastest, slowed) => {
    expect(slowedByTraffic(samples, fastest)).toBe(slowed);
  });
});

/** A target whose Date header is the local time, answering each sample after `rttMs` (reported, not waited). */
function target(rttMs: () => number) {
  let sent = 0;
  const send: Sender = async (request) => {
    sent++;
    const sentAt = Date.now();
    const elapsedMs = rttMs();
    const receivedAt = sentAt + elapsedMs;
    const observation = { verdict: 'rejected' as const, status: 401, elapsedMs };
    return {
      observation,
      exchange: { request, observation },
      response: {
        status: 401,
        headers: { date: new Date(sentAt + elapsedMs / 2).toUTCString() },
        text: '',
        json: undefined,
        elapsedMs,
        sentAt,
        receivedAt,
      },
    } as SendResult;
  };
  return { send, sent: () => sent };
}

describe('startRunClock', () => {
  const profile = resolveDescription({});
  /** The clock of a run whose selected checks read it, samples at once. */
  const start = (t: ReturnType<typeof target>, quiet: () => Promise<() => void>) =>
    startRunClock({ spreadMs: 0, sleep: async () => undefined, send: t.send, profile, needsClock: true, quiet });

  it('keeps the measurement taken beside the checks when its samples were as fast as the run', async () => {
    const t = target(() => 4);
    let holds = 0;
    const clock = start(t, async () => {
      holds++;
      return () => undefined;
    });
    await clock.first;
    const seen = await clock.forReaders([3, 5]);
    expect(seen).toBeDefined();
    expect([holds, t.sent(), seen?.clock.method, seen?.clock.note]).toEqual([0, 12, 'date-header', undefined]);
  });

  it('measures again, once, with every other request held, when the run slowed its samples', async () => {
    let rtt = 200;
    const t = target(() => rtt);
    const events: string[] = [];
    const clock = start(t, async () => {
      events.push('hold');
      rtt = 4;
      return () => events.push('release');
    });
    await clock.first;
    const [a, b] = await Promise.all([clock.forReaders([3, 5]), clock.forReaders([3, 5])]);
    const c = await clock.forReaders([3]);
    expect([a, b, c].map((x) => x !== undefined)).toEqual([true, true, true]);
    expect(events).toEqual(['hold', 'release']);
    expect(t.sent()).toBe(24);
    expect(a?.clock.note).toMatch(/measured again with every other request held/);
    // the margin's slowest round trip is the quiet samples' and the run's before the checks
    expect(a?.maxRttMs).toBe(5);
  });
});
