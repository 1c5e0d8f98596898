/**
 * TIME family (§5.4): the window `timestamp < serverTime + 1000` and
 * `serverTime - timestamp <= recvWindow`, probed around the server's measured clock.
 * Probe distances come from the measured uncertainty; when the clock could not be
 * bounded tightly enough the check is skipped with the reason, never guessed.
 */
import { DEFAULT_RECV_WINDOW, MAX_LEAD_MS } from '../../src/core/time.js';
import type { CheckContext, CheckDefinition } from '../judgement/types.js';
import type { CheckOutcome, RouteCell } from '../judgement/verdict.js';
import type { RuleId } from '../../src/core/rule-id.js';
import {
  expectAccepted,
  verdictOf,
  expectRejected,
  fail,
  firstFailure,
  inconclusive,
  info,
  openPoint,
  outcome,
  pass,
  send,
  skip,
  type Step,
} from './helpers.js';
import { oneOrder } from './orders.js';
import { expect as want } from '../judgement/verdict.js';
import { inOrder } from '../engine/pool.js';
import { ALL_ROUTES, cellOf, onRoute, perRoute } from './routes.js';
import { routeKey, type Route } from '../engine/requests.js';

/** Safety added to every margin: scheduling jitter on a busy machine. */
const SAFETY_MS = 150;

/** How far from a boundary a probe must stand to be decided, or why it cannot be sized. */
export function probeMargin(ctx: CheckContext): { margin: number } | { reason: string } {
  const c = ctx.clock;
  if (c.offsetMs === undefined || c.uncertaintyMs === undefined)
    return { reason: `server clock not measured: ${c.note ?? 'unknown'}` };
  return { margin: c.uncertaintyMs + ctx.maxRttMs + ctx.requestSpacingMs + SAFETY_MS };
}

/**
 * The margin of a probe accepted for standing early, inside the lead (§5.4 item 4). A delay
 * on the way only brings its timestamp nearer the server's time (it arrives less early, at
 * worst a little old, well inside the default window), so the round trips and the rate
 * spacing that probeMargin adds for probes a delay pushes across an edge cannot carry it out
 * of the window: only the clock estimate's own error can.
 */
export function earlyMargin(ctx: CheckContext): number {
  return (ctx.clock.uncertaintyMs ?? Number.POSITIVE_INFINITY) + SAFETY_MS;
}

/**
 * Starts of one check's concurrent time probes at least `spacing` ms apart (the --rate
 * spacing): a probe takes its timestamp after its turn, so it waits in the run's rate
 * limit no longer than the one spacing its margin allows (probeMargin).
 */
export function pacer(spacing: number): () => Promise<void> {
  let next = 0;
  return async () => {
    if (spacing <= 0) return;
    const now = Date.now();
    const at = Math.max(now, next);
    next = at + spacing;
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  };
}

/** Send one request on a route whose timestamp is `age` ms before the server's estimated time (negative = ahead); default the batch. */
async function probe(ctx: CheckContext, age: number, recvWindow?: number, route: Route = ALL_ROUTES[0] as Route) {
  const timestamp = Math.round(ctx.clock.serverNow() - age);
  return send(ctx, onRoute(ctx, route, { timestamp, ...(recvWindow === undefined ? {} : { recvWindow }) }));
}

type Probe = { age: number; recvWindow?: number; accept: boolean; what: string };

/** Sends of a time probe whose answer contradicts the §5.4 window rule before it fails (jitter, not the server). */
const TIME_ATTEMPTS = 3;

function timeCheck(
  id: string,
  ruleId: RuleId,
  title: string,
  plan: (margin: number, ctx: CheckContext) => Probe[] | string,
): CheckDefinition {
  return {
    id,
    ruleId,
    title,
    placesOrders: true,
    timed: true,
    needsClock: true,
    timeProbes: true,
    covers: ALL_ROUTES.map(routeKey),
    async run(ctx): Promise<CheckOutcome> {
      const m = probeMargin(ctx);
      if ('reason' in m) return skip(m.reason);
      const probes = plan(m.margin, ctx);
      if (typeof probes === 'string') return skip(probes);
      const steps: Step[] = [];
      const cells: RouteCell[] = [];
      const pace = pacer(ctx.requestSpacingMs);
      // Every route, its probes in turn: the window is one rule of §5.4 wherever the timestamp
      // travels. Routes are independent: up to ctx.parallel of them at once, steps in route order.
      const byRoute = await inOrder(ALL_ROUTES, ctx.parallel ?? 1, async (route) => {
        const mine: Step[] = [];
        for (const p of probes) {
          // A probe near an edge is moved by a request's delay (an "ahead" timestamp arrives less
          // ahead): one that contradicts the rule is sent again, fresh, and fails only when every
          // attempt does. A server breaking the rule does so each time; jitter does not.
          let step: Step;
          let attempt = 0;
          do {
            attempt++;
            await pace();
            const r = await probe(ctx, p.age, p.recvWindow, route);
            const what = `${routeKey(route)}: ${p.what}${attempt > 1 ? ` (attempt ${attempt} of ${TIME_ATTEMPTS})` : ''}`;
            step = p.accept ? expectAccepted(r, what) : expectRejected(r, what);
          } while (step?.status === 'fail' && attempt < TIME_ATTEMPTS);
          mine.push(step);
        }
        return mine;
      });
      for (const [i, mine] of byRoute.entries()) {
        steps.push(...mine);
        cells.push(cellOf(ALL_ROUTES[i] as Route, firstFailure(...mine)));
      }
      const first = outcome(firstFailure(...steps));
      return first.status === 'pass' || first.status === 'fail' || first.status === 'inconclusive'
        ? { ...first, cells }
        : first;
    },
  };
}

const D = DEFAULT_RECV_WINDOW;
const HOUR = 3_600_000;

/**
 * The acceptance window found by behaviour alone: bisect, against the local
 * clock, the newest and the oldest timestamp the server accepts. Each edge moves with the
 * server's clock offset, their distance does not: `recvWindow + 1000` (§5.4 item 3), so
 * the width is checked even when no Date header or time endpoint gives the offset.
 */
async function windowByBehaviour(
  ctx: CheckContext,
  recvWindow?: number,
): Promise<WindowFound | { undecided: string } | string> {
  // The first route whose answers can decide (a positive control in this run).
  let route: Route | undefined;
  for (const r of ALL_ROUTES) {
    const res = await send(ctx, onRoute(ctx, r, { timestamp: Date.now() }));
    const v = verdictOf(res, want.observe).verdict;
    if (v === 'pass' || v === 'fail') {
      route = r;
      break;
    }
  }
  if (route === undefined) return 'inconclusive';
  const on = route;
  /** Why the last valid order refused was no verdict on the window (a business refusal valid orders meet in this run). */
  let undecided: string | undefined;
  const pace = pacer(ctx.requestSpacingMs);
  /** Per shift sent: ms from stamping the timestamp to the answer (queue, flight and server time; the most the server's check can lag). */
  const took = new Map<number, number>();
  const accepted = async (x: number) => {
    await pace();
    const t0 = Date.now();
    const r = await send(
      ctx,
      onRoute(ctx, on, { timestamp: Date.now() + x, ...(recvWindow === undefined ? {} : { recvWindow }) }),
    );
    took.set(x, Math.max(took.get(x) ?? 0, Date.now() - t0));
    const v = verdictOf(r, want.accept);
    if (v.verdict === 'inconclusive') undecided ??= v.reason;
    return r.observation.verdict === 'accepted';
  };
  // A first accepted shift: the local time, or steps out to a minute either way.
  let inside: number | undefined;
  for (const x of [0, -2000, 2000, -5000, 5000, -15000, 15000, -30000, 30000, -60000, 60000]) {
    if (await accepted(x)) {
      inside = x;
      break;
    }
  }
  if (inside === undefined)
    return undecided !== undefined ? { undecided } : 'no timestamp within a minute of the local clock was accepted';
  /** The last accepted shift toward `no`, and how late the server may have checked the two shifts that fixed it. */
  const edge = async (yes: number, no: number): Promise<[number, number]> => {
    while (Math.abs(no - yes) > 25) {
      const mid = Math.round((yes + no) / 2);
      if (await accepted(mid)) yes = mid;
      else no = mid;
    }
    return [yes, Math.max(took.get(yes) ?? 0, took.get(no) ?? 0)];
  };
  // The two edges are independent: bisected side by side when the check may keep two requests in flight.
  const [[lead, leadLagMs], [past, pastLagMs]] =
    (ctx.parallel ?? 1) < 2
      ? [await edge(inside, inside + 70_000), await edge(inside, inside - 70_000)]
      : await Promise.all([edge(inside, inside + 70_000), edge(inside, inside - 70_000)]);
  return { lead, past, route: on, lagMs: leadLagMs + pastLagMs };
}

/** A window found by bisection: its edges (local shifts, ms) and the most the two edges can be off by the requests' lag. */
interface WindowFound {
  lead: number;
  past: number;
  route: Route;
  /**
   * The lag (stamping to answer) of the requests that fixed the lead edge plus that of those that
   * fixed the past edge: a request is checked at most that late, so each edge is that much off at most.
   */
  lagMs: number;
}

/**
 * The two edges of a measured window against the clock estimate: the past edge is expected at
 * local `offset - recvWindow`, the lead edge at local `offset + 1000` (§5.4 item 3), each within
 * the bisection tolerance plus the clock's uncertainty. Undefined without a clock estimate. Pure.
 */
export function windowSides(
  clock: Pick<CheckContext['clock'], 'offsetMs' | 'uncertaintyMs'>,
  found: { lead: number; past: number },
  recvWindow: number,
  tolerance: number,
):
  | {
      past: 'right' | 'off';
      lead: 'right' | 'off';
      pastExpected: number;
      pastOffMs: number;
      leadOffMs: number;
      tolerance: number;
    }
  | undefined {
  if (clock.offsetMs === undefined || clock.uncertaintyMs === undefined) return undefined;
  const t = Math.ceil(tolerance / 2 + clock.uncertaintyMs);
  const pastExpected = Math.round(clock.offsetMs - recvWindow);
  const pastOffMs = Math.round(found.past - pastExpected);
  const leadOffMs = Math.round(found.lead - (clock.offsetMs + MAX_LEAD_MS));
  return {
    past: Math.abs(pastOffMs) <= t ? 'right' : 'off',
    lead: Math.abs(leadOffMs) <= t ? 'right' : 'off',
    pastExpected,
    pastOffMs,
    leadOffMs,
    tolerance: t,
  };
}

/** Measurements of the window width (§5.4 item 3: recvWindow + 1000 ms) before it fails. */
const WIDTH_ATTEMPTS = 3;

function widthCheck(id: string, ruleId: RuleId, recvWindow: number | undefined): CheckDefinition {
  const w = recvWindow ?? D;
  return {
    id,
    ruleId,
    title: `the accepted window is ${w + MAX_LEAD_MS} ms wide (${recvWindow === undefined ? 'default recvWindow' : `recvWindow ${recvWindow}`} + the 1000 ms lead), measured by bisection without any clock`,
    placesOrders: true,
    timed: true,
    needsClock: true,
    timeProbes: true,
    covers: ['batch/json'],
    async run(ctx) {
      const declared = ctx.target.profile?.maxRecvWindow;
      if (recvWindow !== undefined && declared !== undefined && declared < recvWindow)
        return skip(
          `the target's largest recvWindow (${declared} ms, target description) is under the ${recvWindow} ms this measures: no probe outside what it declares`,
        );
      const seen: string[] = [];
      let tolerance = 0;
      // One delayed request near an edge moves that edge: a width off the mark is measured
      // again, and fails only when every one of three measurements is off (a wrong window
      // is off every time; network or machine jitter is not).
      for (let attempt = 1; attempt <= WIDTH_ATTEMPTS; attempt++) {
        const found = await windowByBehaviour(ctx, recvWindow);
        if (found === 'inconclusive') return inconclusive('no route accepted a valid request in this run');
        if (typeof found === 'object' && 'undecided' in found)
          return inconclusive(`valid orders are refused in this run whatever their timestamp: ${found.undecided}`);
        if (typeof found === 'string') return fail('a timestamp near the local clock accepted', found);
        // Each edge is known to 25 ms, plus how late its deciding requests were checked (their
        // measured lag, not the run's slowest round trip: a slow discovery must not hide a wrong
        // width), plus a busy machine's jitter.
        tolerance = 100 + found.lagMs + SAFETY_MS;
        const width = found.lead - found.past;
        if (Math.abs(width - (w + MAX_LEAD_MS)) <= tolerance) {
          return pass({
            observed: `window ${width} ms wide (± ${tolerance} ms) on ${routeKey(found.route)}${attempt > 1 ? `, at measurement ${attempt} (before: ${seen.join('; ')})` : ''}`,
          });
        }
        // Which side is off, from the clock estimate: recvWindow is the past side (§5.4 item 3); a wrong lead is TIME-WINDOW-LEAD's.
        const side = windowSides(ctx.clock, found, w, tolerance);
        if (side?.past === 'right') {
          return pass({
            observed: `the past edge honours recvWindow ${w} (local ${found.past} ms, expected ${side.pastExpected} ms ± ${side.tolerance} ms); the lead edge is ${side.leadOffMs} ms off (judged under TIME-WINDOW-LEAD), so the window is ${width} ms wide`,
          });
        }
        seen.push(
          `accepted from local ${found.past} ms to local +${found.lead} ms: ${width} ms wide${side === undefined ? ' (no clock estimate: the side at fault is not known)' : `; the past edge is ${side.pastOffMs} ms off the clock estimate (± ${side.tolerance} ms)`}`,
        );
      }
      return fail(
        `a window ${w + MAX_LEAD_MS} ms wide (± ${tolerance} ms at the last measurement): timestamps from serverTime - ${w} to serverTime + 1000`,
        `${WIDTH_ATTEMPTS} measurements: ${seen.join('; ')}`,
      );
    },
  };
}

/** One text form of a LONG parameter that must be refused, and the rule that refuses it (D-LONG-CANONICAL). */
interface LongForm {
  id: string;
  ruleId: RuleId;
  param: 'timestamp' | 'recvWindow';
  what: string;
  /** The value sent, from the server's estimated time now (ms). */
  form: (now: number) => string;
}

/**
 * Forms a lenient parser reads as a number but that are not milliseconds as plain digits
 * (§2.1 LONG, §5.4 item 1 "milliseconds"): seconds and microseconds are milliseconds far
 * outside the window, fraction, sign, exponent and a value past 2^63 - 1 are no LONG, a
 * leading zero, a plus sign and padding are no plain digits (SHOULD). Each probe has only
 * that defect: its value is the time now (or the default window 5000) written that way.
 */
export const LONG_FORMS: readonly LongForm[] = [
  {
    id: 'TIME-WINDOW-PAST.seconds',
    ruleId: 'TIME-WINDOW-PAST',
    param: 'timestamp',
    what: 'in seconds (10 digits: as milliseconds, 55 years old)',
    form: (now) => String(Math.floor(now / 1000)),
  },
  {
    id: 'TIME-WINDOW-LEAD.microseconds',
    ruleId: 'TIME-WINDOW-LEAD',
    param: 'timestamp',
    what: 'in microseconds (16 digits: as milliseconds, far ahead)',
    form: (now) => String(now * 1000),
  },
  {
    id: 'ORDER-RECVWINDOW-FORMAT.timestamp-fraction',
    ruleId: 'ORDER-RECVWINDOW-FORMAT',
    param: 'timestamp',
    what: 'with a fraction',
    form: (now) => `${now}.5`,
  },
  {
    id: 'ORDER-RECVWINDOW-FORMAT.timestamp-negative',
    ruleId: 'ORDER-RECVWINDOW-FORMAT',
    param: 'timestamp',
    what: 'negative',
    form: (now) => `-${now}`,
  },
  {
    id: 'ORDER-RECVWINDOW-FORMAT.timestamp-exponent',
    ruleId: 'ORDER-RECVWINDOW-FORMAT',
    param: 'timestamp',
    what: 'with an exponent (its value is the time now)',
    form: (now) => {
      const d = String(now);
      return `${d.slice(0, 1)}.${d.slice(1)}e${d.length - 1}`;
    },
  },
  {
    id: 'ORDER-RECVWINDOW-FORMAT.recvwindow-fraction',
    ruleId: 'ORDER-RECVWINDOW-FORMAT',
    param: 'recvWindow',
    what: 'with a fraction',
    form: () => '5000.5',
  },
  {
    id: 'ORDER-RECVWINDOW-FORMAT.recvwindow-negative',
    ruleId: 'ORDER-RECVWINDOW-FORMAT',
    param: 'recvWindow',
    what: 'negative',
    form: () => '-5000',
  },
  {
    id: 'ORDER-RECVWINDOW-FORMAT.recvwindow-exponent',
    ruleId: 'ORDER-RECVWINDOW-FORMAT',
    param: 'recvWindow',
    what: 'with an exponent (5e3)',
    form: () => '5e3',
  },
  {
    id: 'ORDER-RECVWINDOW-FORMAT.recvwindow-overflow',
    ruleId: 'ORDER-RECVWINDOW-FORMAT',
    param: 'recvWindow',
    what: 'past the LONG range (2^63)',
    form: () => '9223372036854775808',
  },
  {
    id: 'ORDER-RECVWINDOW-FORMAT.timestamp-overflow',
    ruleId: 'ORDER-RECVWINDOW-FORMAT',
    param: 'timestamp',
    what: 'past the LONG range (2^64 + now: a 64-bit integer wraps it to the time now)',
    form: (now) => String(2n ** 64n + BigInt(now)),
  },
  {
    id: 'ORDER-LONG-CANONICAL.timestamp-leading-zero',
    ruleId: 'ORDER-LONG-CANONICAL',
    param: 'timestamp',
    what: 'with a leading zero',
    form: (now) => `0${now}`,
  },
  {
    id: 'ORDER-LONG-CANONICAL.timestamp-plus',
    ruleId: 'ORDER-LONG-CANONICAL',
    param: 'timestamp',
    what: 'with a plus sign',
    form: (now) => `+${now}`,
  },
  {
    id: 'ORDER-LONG-CANONICAL.timestamp-padded',
    ruleId: 'ORDER-LONG-CANONICAL',
    param: 'timestamp',
    what: 'padded with spaces',
    form: (now) => ` ${now} `,
  },
  {
    id: 'ORDER-LONG-CANONICAL.recvwindow-leading-zero',
    ruleId: 'ORDER-LONG-CANONICAL',
    param: 'recvWindow',
    what: 'with a leading zero',
    form: () => '05000',
  },
  {
    id: 'ORDER-LONG-CANONICAL.recvwindow-plus',
    ruleId: 'ORDER-LONG-CANONICAL',
    param: 'recvWindow',
    what: 'with a plus sign',
    form: () => '+5000',
  },
  {
    id: 'ORDER-LONG-CANONICAL.recvwindow-padded',
    ruleId: 'ORDER-LONG-CANONICAL',
    param: 'recvWindow',
    what: 'padded with spaces',
    form: () => ' 5000 ',
  },
];

export const timeChecks: CheckDefinition[] = [
  widthCheck('TIME-RECVWINDOW-DEFAULT.width', 'TIME-RECVWINDOW-DEFAULT', undefined),
  widthCheck('TIME-RECVWINDOW-HONOURED.width', 'TIME-RECVWINDOW-HONOURED', 3000),
  timeCheck(
    'TIME-WINDOW-PAST',
    'TIME-WINDOW-PAST',
    'a timestamp well inside the window is accepted; one older than recvWindow is rejected',
    (m, ctx) => {
      // (a window the target takes: a refusal then differs from an accepted request in the age alone)
      const w = Math.min(3000, ctx.target.profile?.maxRecvWindow ?? 3000);
      return [
        { age: Math.min(1000, D / 4), accept: true, what: 'timestamp 1 s old (default window)' },
        { age: 2 * D, accept: false, what: `timestamp ${2 * D} ms old (default window ${D})` },
        { age: w + m, recvWindow: w, accept: false, what: `timestamp ${w + m} ms old with recvWindow ${w}` },
      ];
    },
  ),
  timeCheck('TIME-RECVWINDOW-DEFAULT', 'TIME-RECVWINDOW-DEFAULT', 'without recvWindow the window is 5000 ms', (m) =>
    m * 2 >= D
      ? `the clock uncertainty (${m} ms margin) is too large to probe a ${D} ms window`
      : [
          { age: D - m, accept: true, what: `timestamp ${D - m} ms old, no recvWindow` },
          { age: D + m, accept: false, what: `timestamp ${D + m} ms old, no recvWindow (default ${D})` },
        ],
  ),
  timeCheck(
    'TIME-RECVWINDOW-HONOURED.small',
    'TIME-RECVWINDOW-HONOURED',
    'a small recvWindow sent is the window used',
    (m, ctx) => {
      const w = Math.max(1000, 3 * m);
      if (w >= D)
        return `the clock uncertainty (${m} ms margin) is too large to probe a window smaller than the default`;
      const declared = ctx.target.profile?.maxRecvWindow;
      if (declared !== undefined && w > declared)
        return `the target's largest recvWindow (${declared} ms, target description) is under the ${w} ms the clock's uncertainty needs`;
      return [
        { age: w + m, recvWindow: w, accept: false, what: `timestamp ${w + m} ms old with recvWindow ${w}` },
        {
          age: Math.max(0, w - m),
          recvWindow: w,
          accept: true,
          what: `timestamp ${Math.max(0, w - m)} ms old with recvWindow ${w}`,
        },
      ];
    },
  ),
  timeCheck(
    'TIME-RECVWINDOW-HONOURED.large',
    'TIME-RECVWINDOW-HONOURED',
    'a large recvWindow sent is the window used',
    (m, ctx) => {
      // 30000, or the target's largest recvWindow when it declares a smaller one (target description).
      const w = Math.min(30000, ctx.target.profile?.maxRecvWindow ?? 30000);
      if (w <= D + 2 * m) return `the target's largest recvWindow (${w} ms) leaves no room above the default to probe`;
      return [
        {
          age: w - Math.max(m, w / 3),
          recvWindow: w,
          accept: true,
          what: `timestamp ${w - Math.max(m, w / 3)} ms old with recvWindow ${w}`,
        },
        { age: w + m, recvWindow: w, accept: false, what: `timestamp ${w + m} ms old with recvWindow ${w}` },
      ];
    },
  ),
  timeCheck(
    'TIME-WINDOW-LEAD',
    'TIME-WINDOW-LEAD',
    'a timestamp 1000 ms or more ahead of the server is rejected',
    (m) => [
      { age: -(MAX_LEAD_MS + m), accept: false, what: `timestamp ${MAX_LEAD_MS + m} ms ahead of the server` },
      { age: -5000, accept: false, what: 'timestamp 5000 ms ahead of the server' },
    ],
  ),
  timeCheck(
    'TIME-WINDOW-LEAD.within',
    'TIME-WINDOW-LEAD',
    'a timestamp slightly ahead, within the allowed lead, is accepted',
    (_m, ctx) =>
      earlyMargin(ctx) >= MAX_LEAD_MS / 2
        ? `the clock uncertainty (${earlyMargin(ctx)} ms margin) is too large to place a probe inside the ${MAX_LEAD_MS} ms lead`
        : [
            {
              age: -Math.round(MAX_LEAD_MS / 2),
              accept: true,
              what: `timestamp ${MAX_LEAD_MS / 2} ms ahead of the server`,
            },
          ],
  ),
  // Far past both edges: where exactly the edges stand is TIME-WINDOW-PAST's and TIME-WINDOW-LEAD's to judge, so a
  // wrong edge fails its own rule only.
  timeCheck(
    'TIME-REJECTED',
    'TIME-REJECTED',
    'a batch failing the time check, too old or too far ahead, is rejected as a whole and places nothing',
    () => [
      { age: 3 * D, accept: false, what: `a batch ${3 * D} ms old` },
      { age: -HOUR, accept: false, what: 'a batch an hour ahead' },
    ],
  ),
  {
    id: 'TIME-RECVWINDOW-RECOMMENDED',
    ruleId: 'TIME-RECVWINDOW-RECOMMENDED',
    covers: ['batch/json'],
    title:
      'what the server does with a recvWindow far above the recommended 5000 (largest accepted: not shown, D-RECVWINDOW-MAX)',
    placesOrders: true,
    async run(ctx) {
      return openPoint(
        await send(ctx, ctx.requests.batch([oneOrder(ctx)], { recvWindow: 120000 })),
        'recvWindow 120000',
        'rejected',
      );
    },
  },
  perRoute({
    id: 'TIME-TIMESTAMP-REQUIRED',
    ruleId: 'TIME-TIMESTAMP-REQUIRED',
    title: 'a request without timestamp is rejected, on every route',
    routes: ALL_ROUTES,
    probe: async (ctx, r) =>
      expectRejected(await send(ctx, onRoute(ctx, r, { omitTimestamp: true })), `${routeKey(r)} without timestamp`),
  }),
  perRoute({
    id: 'ORDER-RECVWINDOW-FORMAT',
    ruleId: 'ORDER-RECVWINDOW-FORMAT',
    title: 'a non-numeric timestamp or recvWindow is rejected, on every route',
    routes: ALL_ROUTES,
    async probe(ctx, r) {
      const steps: Step[] = [];
      for (const timestamp of ['abc', '1.5e12', '-1', '']) {
        steps.push(
          expectRejected(await send(ctx, onRoute(ctx, r, { timestamp })), `${routeKey(r)}: timestamp '${timestamp}'`),
        );
      }
      steps.push(
        expectRejected(await send(ctx, onRoute(ctx, r, { recvWindow: 'soon' })), `${routeKey(r)}: recvWindow 'soon'`),
      );
      return firstFailure(...steps);
    },
  }),
  // recvWindow=0 is a zero-width window (§5.4 item 3 with recvWindow 0), not the default.
  perRoute({
    id: 'TIME-RECVWINDOW-HONOURED.zero',
    ruleId: 'TIME-RECVWINDOW-HONOURED',
    title:
      'recvWindow 0 is a window of 0 ms, not the default: a timestamp 2.5 s old is refused with it, on every route',
    routes: ALL_ROUTES,
    needsClock: true,
    async probe(ctx, r) {
      const m = probeMargin(ctx);
      if ('reason' in m) return skip(m.reason);
      // 2.5 s old: outside a 0 ms window, inside the default 5000 ms one, whatever the measured uncertainty up to 2 s
      if (m.margin > 2000)
        return skip(
          `the clock uncertainty (${m.margin} ms margin) is too large to stand 2.5 s inside the default window`,
        );
      return expectRejected(await probe(ctx, 2500, 0, r), `${routeKey(r)}: timestamp 2500 ms old with recvWindow 0`);
    },
  }),
  // Text forms of timestamp and recvWindow (D-LONG-CANONICAL): each a one-defect probe on every route.
  ...LONG_FORMS.map(({ id, ruleId, param, what, form }) =>
    perRoute({
      id,
      ruleId,
      title: `${param} ${what} is refused, on every route`,
      routes: ALL_ROUTES,
      async probe(ctx, r) {
        const value = form(Math.round(ctx.clock.serverNow()));
        const opts = param === 'timestamp' ? { timestamp: value } : { recvWindow: value };
        return expectRejected(
          await send(ctx, onRoute(ctx, r, opts)),
          `${routeKey(r)}: ${param} ${JSON.stringify(value)} (${what})`,
        );
      },
    }),
  ),
  // Clock-free: an hour beyond either edge is outside the window whatever the
  // offset, so these run even when the server's clock could not be measured.
  perRoute({
    id: 'TIME-WINDOW-PAST.hour',
    ruleId: 'TIME-WINDOW-PAST',
    title: 'a timestamp an hour old is rejected on every route, whatever the clock offset',
    routes: ALL_ROUTES,
    timeProbes: true,
    probe: async (ctx, r) =>
      expectRejected(
        await send(ctx, onRoute(ctx, r, { timestamp: Date.now() - HOUR })),
        `${routeKey(r)} with a timestamp an hour old`,
      ),
  }),
  perRoute({
    id: 'TIME-WINDOW-LEAD.hour',
    ruleId: 'TIME-WINDOW-LEAD',
    title: 'a timestamp an hour ahead is rejected on every route, whatever the clock offset',
    routes: ALL_ROUTES,
    timeProbes: true,
    probe: async (ctx, r) =>
      expectRejected(
        await send(ctx, onRoute(ctx, r, { timestamp: Date.now() + HOUR })),
        `${routeKey(r)} with a timestamp an hour ahead`,
      ),
  }),
  {
    id: 'TIME-TOLERANCE-OBSERVED',
    ruleId: 'TIME-TOLERANCE-OBSERVED',
    covers: ['batch/json'],
    title: 'the measured clock offset and the lead and age the server actually tolerates',
    placesOrders: true,
    timed: true,
    needsClock: true,
    timeProbes: true,
    async run(ctx) {
      const m = probeMargin(ctx);
      if ('reason' in m) return skip(m.reason);
      /** Largest x in [lo, hi] for which accepted(x) holds, by bisection to 50 ms. */
      async function edge(
        lo: number,
        hi: number,
        accepted: (x: number) => Promise<boolean>,
      ): Promise<number | undefined> {
        if (!(await accepted(lo))) return undefined;
        if (await accepted(hi)) return hi;
        while (hi - lo > 50) {
          const mid = Math.round((lo + hi) / 2);
          if (await accepted(mid)) lo = mid;
          else hi = mid;
        }
        return lo;
      }
      const pace = pacer(ctx.requestSpacingMs);
      const accepted = async (age: number) => {
        await pace();
        return (await probe(ctx, age)).observation.verdict === 'accepted';
      };
      const ahead = () => edge(0, 5000, (x) => accepted(-x));
      const old = () => edge(0, 20000, (x) => accepted(x));
      // The two edges are independent: bisected side by side when the check may keep two requests in flight.
      const [lead, age] = (ctx.parallel ?? 1) < 2 ? [await ahead(), await old()] : await Promise.all([ahead(), old()]);
      const c = ctx.clock;
      const text =
        `clock offset ${c.offsetMs} ms ± ${c.uncertaintyMs} ms (${c.method}); ` +
        `accepted up to ~${lead ?? 'none'} ms ahead (seed: < ${MAX_LEAD_MS}) and ~${age ?? 'none'} ms old with the default window (seed: ${D}), each ± ${m.margin} ms`;
      const matches =
        lead !== undefined &&
        age !== undefined &&
        Math.abs(lead - MAX_LEAD_MS) <= m.margin &&
        Math.abs(age - D) <= m.margin;
      return info(text, matches);
    },
  },
];
