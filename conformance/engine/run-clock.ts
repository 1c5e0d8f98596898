/**
 * The run's clock, measured in the background (§5.4: the time checks stand around the server's
 * time). Discovery and the checks that only stamp timestamps start on the first sample's
 * estimate; the checks that read the offset or its uncertainty (`needsClock`) wait for the
 * whole measurement, taken while the other checks run. When that traffic visibly slowed the
 * samples (their median round trip over three times the fastest of the run, plus 50 ms: a
 * target serving requests one after another; less than that moves the time checks' margins,
 * with their 150 ms of safety, hardly at all), the measurement is taken once more with every
 * other request held, as on an idle target.
 */
import { measureClock, unknownClock, type ClockEstimate, type MeasureOptions } from './clock.js';
import type { TargetProfile } from '../target/description.js';
import { quantile } from './traffic.js';
import type { Sender } from './transport.js';

/** What the run's clock needs of the run. */
export interface RunClockInput {
  send: Sender;
  profile: TargetProfile;
  timePath?: string;
  /** Whether a selected check reads the offset closely (12 samples over 1.1 s; else 2 at once). */
  needsClock: boolean;
  /** Hold every other request; resolves once none is in flight (conformance/engine/gate.ts quiet). */
  quiet: () => Promise<() => void>;
  /** The clock samples' spread, ms (default 1100; tests shorten it). */
  spreadMs?: number;
  sleep?: MeasureOptions['sleep'];
}

/** Samples slowed by the run's own traffic: their median round trip over 3 x the fastest + 50 ms. */
export function slowedByTraffic(samples: readonly number[], fastest: number): boolean {
  const median = quantile(
    [...samples].sort((a, b) => a - b),
    0.5,
  );
  return median !== undefined && Number.isFinite(fastest) && median > 3 * fastest + 50;
}

/** Start measuring; `first` settles on the first estimate. */
export function startRunClock(i: RunClockInput) {
  const ep = i.profile.endpoints;
  let clock: ClockEstimate = unknownClock('not measured yet');
  let firstEstimate = (): void => {};
  const estimated = new Promise<void>((r) => {
    firstEstimate = r;
  });
  let sampleLatencies: number[] = [];
  const measure = (onFirst?: (e: ClockEstimate) => void) =>
    measureClock({
      send: async (...args) => {
        const r = await i.send(...args);
        if (r.observation.elapsedMs !== undefined) sampleLatencies.push(r.observation.elapsedMs);
        return r;
      },
      probe: { method: 'POST', path: ep.batch.offered ? ep.batch.path : ep.v1.path, query: '', body: '', headers: {} },
      ...(i.timePath === undefined ? {} : { timePath: i.timePath }),
      // without time checks, timestamps need the offset only to within the window: no waiting
      samples: i.needsClock ? 12 : 2,
      spreadMs: i.needsClock ? (i.spreadMs ?? 1100) : 0,
      ...(i.sleep === undefined ? {} : { sleep: i.sleep }),
      ...(onFirst === undefined ? {} : { onFirstEstimate: onFirst }),
    });
  const measured = measure((e) => {
    clock = e;
    firstEstimate();
  }).then((e) => {
    clock = e;
  });
  // a measurement that fails ends the run: before discovery (a --time-path that does not answer), or
  // as an interruption (settled false)
  const settled = measured.then(
    () => true,
    () => false,
  );
  let steady: Promise<boolean> | undefined;
  /** The whole measurement, taken again with the target quiet when the run's traffic slowed its samples (once per run); false: interrupted. */
  const steadied = (before: readonly number[]): Promise<boolean> =>
    (steady ??= settled.then(async (ok) => {
      if (!ok || clock.method === 'none') return ok;
      if (!slowedByTraffic(sampleLatencies, Math.min(...before, ...sampleLatencies))) return true;
      const release = await i.quiet();
      try {
        sampleLatencies = [];
        const again = await measure();
        clock = {
          ...again,
          note: `measured again with every other request held: the run's own traffic slowed the first samples${again.note === undefined ? '' : `; ${again.note}`}`,
        };
        return true;
      } catch {
        return false;
      } finally {
        release();
      }
    }));
  return {
    now: (): ClockEstimate => clock,
    first: Promise.race([estimated, measured]),
    /**
     * What a check reading the offset sees (`needsClock`): the steady clock and the slowest round
     * trip of its samples and of `before` (the run's before the checks; time.ts probeMargin);
     * undefined when the run was interrupted.
     */
    forReaders: async (before: readonly number[]): Promise<{ clock: ClockEstimate; maxRttMs: number } | undefined> =>
      (await steadied(before)) ? { clock, maxRttMs: Math.ceil(Math.max(0, ...before, ...sampleLatencies)) } : undefined,
    /** Whether the first measurement ended (false: interrupted). */
    settled: (): Promise<boolean> => settled,
  };
}
