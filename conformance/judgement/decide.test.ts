import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/response.js';
import { decide, type CheckRecord, type Decision, type Evidence, type RunFacts } from './decide.js';
import { decideAgainst, type Answering, type Received } from '../../harness/testing/one-check.js';
import { PAST_LONG } from '../checks/extremes.js';
import { incompleteMust } from '../report/run-report.js';
import { expect as want, type CheckOutcome, type Knowledge, type RouteKnowledge } from './verdict.js';
import type { CheckDefinition, CheckReport } from './types.js';

const ok: Observation = { verdict: 'accepted', status: 200, json: { code: 0 }, text: '{"code":0}' };
const batchPlaced: Observation = {
  verdict: 'accepted',
  status: 200,
  json: { code: 0, result: [{ code: 0, msg: 'ok' }] },
};
const batchFailed: Observation = {
  verdict: 'accepted',
  status: 200,
  json: { code: 0, result: [{ code: -2010, msg: 'balance' }] },
};
const refused = (code: number): Observation => ({ verdict: 'rejected', status: 400, code, json: { code } });
const silent: Observation = { verdict: 'no-answer', error: 'no complete answer within 3000 ms' };

const accepted: RouteKnowledge = { state: 'accepted', observed: 'HTTP 200', validRefusals: [], ruleRefusals: [] };
const knowledge: Knowledge = {
  routes: {
    'batch/json': accepted,
    'v1/query': accepted,
    'v1/body': {
      state: 'signature-ok',
      observed: 'HTTP 400 code -2010',
      fingerprint: 'HTTP 400 code -2010',
      validRefusals: [],
      ruleRefusals: [],
      blocking: ['HTTP 400 code -2010'],
    },
  },
  signature: 'HTTP 401 code -1022',
  unknownKey: 'HTTP 401 code -2015',
  missing: ['HTTP 400 code -1102'],
};
const facts: RunFacts = {
  knowledge,
  profile: 'core',
  absent: new Set(),
  controlFailed: new Set(['v1/body']),
  lastAnswered: new Map([
    ['batch/json', 50],
    ['v1/query', 50],
  ]),
  budgetLabel: '--max-orders 7',
  deadlineLabel: '--max-time 5000 ms',
};

const def = (over: Partial<CheckDefinition> = {}): CheckDefinition => ({
  id: 'ORDER-SIDE-ENUM',
  ruleId: 'ORDER-SIDE-ENUM',
  title: 't',
  covers: ['batch/json', 'v1/query'],
  run: () => Promise.resolve({ status: 'pass' }),
  ...over,
});
const ev = (route: string, expectation: Evidence['expectation'], observation: Observation, seq = 1): Evidence => ({
  route,
  expectation,
  observation,
  seq,
});
const rec = (over: Partial<CheckRecord> & { outcome?: CheckOutcome }): CheckRecord => ({
  def: def(),
  evidence: [],
  withheld: 0,
  cut: 0,
  effects: { shown: 0, methods: [] },
  durationMs: 1,
  ...over,
});
const decidedBoth = [ev('batch/json', want.refuse(), refused(-1100)), ev('v1/query', want.refuse(), refused(-1100))];

/** [name, record, expected status, expected cause or reason pattern] */
type Row = [string, CheckRecord, CheckReport['status'], RegExp | string | undefined];
const rows: Row[] = [
  // an unanswered valid request: a valid request left unanswered
  [
    'an unanswered valid request: a valid request unanswered while its route answered requests sent after it fails',
    rec({
      def: def({ id: 'SIG-CASE-INSENSITIVE', ruleId: 'SIG-CASE-INSENSITIVE' }),
      outcome: { status: 'inconclusive', reason: 'no answer' },
      evidence: [ev('batch/json', want.signatureAccepted, silent, 10), ev('v1/query', want.accept, ok, 11)],
    }),
    'fail',
    /never answered, while batch\/json answered requests sent after it/,
  ],
  [
    'an unanswered valid request: ... the route answering nothing after it leaves it undecided (a target that went down)',
    rec({
      def: def({ id: 'SIG-CASE-INSENSITIVE', ruleId: 'SIG-CASE-INSENSITIVE' }),
      outcome: { status: 'inconclusive', reason: 'no answer' },
      evidence: [ev('batch/json', want.accept, silent, 60), ev('v1/query', want.accept, ok, 11)],
    }),
    'inconclusive',
    'unanswered',
  ],
  [
    "an unanswered valid request: an invalid request unanswered is ROBUST-NO-HANG's, not the rule's",
    rec({ outcome: { status: 'pass' }, evidence: [...decidedBoth, ev('batch/json', want.refuse(), silent, 10)] }),
    'pass',
    undefined,
  ],
  // an acceptance never excused: an acceptance of what must be refused
  [
    'an acceptance never excused: an invalid order placed fails the check even when the check concluded pass',
    rec({ outcome: { status: 'pass' }, evidence: [...decidedBoth, ev('batch/json', want.refuse(), batchPlaced)] }),
    'fail',
    /broken in one way is refused/,
  ],
  [
    'an acceptance never excused: ... and a business refusal shown later never excuses it',
    rec({
      outcome: {
        status: 'fail',
        expected: 'refused',
        actual: 'accepted',
        exchange: { observation: batchPlaced, route: { endpoint: 'batch', placement: 'json' } },
      },
      evidence: [ev('batch/json', want.refuse(), batchPlaced)],
      business: { mark: 'entry code -2019', reason: 'a position' },
    }),
    'fail',
    undefined,
  ],
  [
    'an acceptance never excused: a batch answered 200 with every entry failed placed nothing: refused as asked',
    rec({
      outcome: { status: 'pass' },
      evidence: [...decidedBoth, ev('batch/json', want.refuse('rule', true), batchFailed)],
    }),
    'pass',
    undefined,
  ],
  [
    'an acceptance never excused: a measurement check (time window) weighs its own retried probes',
    rec({
      def: def({ timed: true }),
      outcome: { status: 'pass' },
      evidence: [...decidedBoth, ev('batch/json', want.refuse(), batchPlaced)],
    }),
    'pass',
    undefined,
  ],
  // a failed control: a route whose control failed
  [
    'a failed control: for a check that merely uses it, a route whose control failed is not offered; decided on the others',
    rec({
      def: def({ covers: ['batch/json', 'v1/query', 'v1/body'] }),
      outcome: { status: 'pass' },
      evidence: [...decidedBoth, ev('v1/body', want.refuse(), refused(-2010))],
    }),
    'pass',
    undefined,
  ],
  [
    'a failed control: the check establishing that route fails there',
    rec({
      def: def({
        id: 'ORDER-V1-ENDPOINT',
        ruleId: 'ORDER-V1-ENDPOINT',
        covers: ['v1/query', 'v1/body'],
        establishes: ['v1/query', 'v1/body'],
      }),
      outcome: { status: 'pass' },
      evidence: [ev('v1/query', want.accept, ok), ev('v1/body', want.accept, refused(-2010))],
    }),
    'fail',
    /v1\/body/,
  ],
  // the account refusing, shown by a control: business only when a control showed it
  [
    'the account refusing, shown by a control: a refused valid order with a control pair showing the account refused it: undecided, cause business',
    rec({
      outcome: {
        status: 'fail',
        expected: 'accepted',
        actual: 'refused',
        exchange: { observation: refused(-2010), route: { endpoint: 'v1', placement: 'query' } },
      },
      evidence: [ev('v1/query', want.accept, refused(-2010))],
      business: { mark: 'HTTP 400 code -2010', reason: 'a SELL order sent with it was placed' },
    }),
    'inconclusive',
    'business',
  ],
  [
    'the account refusing, shown by a control: ... without a control showing it, the failure stands',
    rec({
      outcome: {
        status: 'fail',
        expected: 'accepted',
        actual: 'refused',
        exchange: { observation: refused(-2010), route: { endpoint: 'v1', placement: 'query' } },
      },
      evidence: [ev('v1/query', want.accept, refused(-2010))],
    }),
    'fail',
    undefined,
  ],
  [
    "the account refusing, shown by a control: a refusal valid controls meet with nothing showing it is the account's fails a valid request",
    rec({
      def: def({ covers: ['v1/body'], establishes: ['v1/body'] }),
      outcome: { status: 'pass' },
      evidence: [ev('v1/body', want.accept, refused(-2010))],
    }),
    'fail',
    undefined,
  ],
  // the rest of the one decision
  [
    'effects: a refused call shown by effect to have placed an order fails',
    rec({
      outcome: { status: 'pass' },
      evidence: decidedBoth,
      placedByRefused: {
        refused: { route: 'v1/query', observation: refused(-1100) },
        shown: 'reuse showed the id used',
      },
    }),
    'fail',
    /it placed an order: reuse showed the id used/,
  ],
  [
    'not run past the deadline: skip, cause deadline',
    rec({ notRun: { cause: 'deadline', reason: 'not run: --max-time 5000 ms was reached' } }),
    'skip',
    'deadline',
  ],
  [
    'every request held back by the order budget: skip, cause budget, naming the budget',
    rec({
      outcome: { status: 'pass' },
      withheld: 1,
      evidence: [
        ev('batch/json', want.accept, { verdict: 'not-sent', error: 'the order budget (--max-orders 7) is spent' }),
      ],
    }),
    'skip',
    'budget',
  ],
  ['a check that threw fails, naming the error', rec({ crashed: 'boom' }), 'fail', /internal error: boom/],
  [
    'a pass earned by no request that reached the rule is no pass',
    rec({
      def: def({ covers: [] }),
      outcome: { status: 'pass' },
      evidence: [ev('batch/json', want.refuse(), { verdict: 'rate-limited', status: 429 })],
    }),
    'inconclusive',
    'rate-limited',
  ],
];

describe('decide(): one decision per check from its evidence and the final knowledge', () => {
  for (const [name, record, status, cause] of rows) {
    it(name, () => {
      const d = decide(record, facts);
      expect(d.status).toBe(status);
      if (typeof cause === 'string') expect(d.cause).toBe(cause);
      if (cause instanceof RegExp)
        expect(`${d.reason ?? ''} ${d.actual ?? ''} ${JSON.stringify(d.cells ?? [])}`).toMatch(cause);
    });
  }

  it('a failed control: the cells name the failed control of a route not offered to the check', () => {
    const d = decide(
      rec({
        def: def({ covers: ['batch/json', 'v1/query', 'v1/body'] }),
        outcome: { status: 'pass' },
        evidence: [...decidedBoth, ev('v1/body', want.refuse(), refused(-2010))],
      }),
      facts,
    );
    expect(d.cells?.find((c) => c.route === 'v1/body')).toMatchObject({
      verdict: 'not-offered',
      reason: expect.stringMatching(/positive control failed in this run/),
    });
  });

  it('levels and profile: an INFO rule never fails; the reference profile pins a different choice as a MUST failure', () => {
    expect(
      decide(
        rec({
          def: def({ id: 'BATCH-ATOMICITY', ruleId: 'BATCH-ATOMICITY', covers: [] }),
          outcome: { status: 'fail', expected: 'x', actual: 'y' },
        }),
        facts,
      ).status,
    ).toBe('info');
    const pinned = decide(
      rec({
        def: def({ id: 'BATCH-ATOMICITY', ruleId: 'BATCH-ATOMICITY', covers: [] }),
        outcome: { status: 'info', observed: 'partial', matchesReference: false },
      }),
      { ...facts, profile: 'reference' },
    );
    expect([pinned.status, pinned.level]).toEqual(['fail', 'MUST']);
  });

  it('is pure: the same record and facts give the same decision', () => {
    for (const [, record] of rows) expect(decide(record, facts)).toEqual(decide(record, facts));
  });

  it('the reference profile only adds failures to the core one: an INFO choice the decisions record pins otherwise', () => {
    const atomicity = def({ id: 'BATCH-ATOMICITY', ruleId: 'BATCH-ATOMICITY', covers: [] });
    const open: Array<[string, CheckRecord]> = [true, false, undefined].map((m) => [
      `an open point, matchesReference ${m}`,
      rec({
        def: atomicity,
        outcome: { status: 'info', observed: 'partial', ...(m === undefined ? {} : { matchesReference: m }) },
      }),
    ]);
    const added: string[] = [];
    for (const [name, record] of [...rows.map(([n, r]) => [n, r] as [string, CheckRecord]), ...open]) {
      const core = decide(record, facts).status;
      const ref = decide(record, { ...facts, profile: 'reference' }).status;
      expect([name, ref === core || (core === 'info' && ref === 'fail')]).toEqual([name, true]);
      if (ref !== core) added.push(name);
    }
    expect(added).toEqual(['an open point, matchesReference false']);
  });
});

/*
 * Verdict rules 1-3 compare or recognise inside a check's own code (an echo by its seed meaning,
 * the forms a probe may take, a differential pair), which decide() alone cannot be handed: each
 * row runs the real check through the run's session against a target answering in process
 * (harness/testing/one-check.ts), then decide() its recorded evidence.
 */

/** Each order placed, as §2.2 shows it; `echo` spells each echoed field (default: as sent). */
function placing(
  echo: (field: 'symbol' | 'price' | 'quantity' | 'orderId', value: unknown, n: number) => unknown = (_f, v) => v,
): Answering {
  let n = 0;
  const order = (o: Record<string, unknown>) => {
    const k = n++;
    return {
      orderId: echo('orderId', String(1000 + k), k),
      clientOrderId: o.newClientOrderId,
      symbol: echo('symbol', o.symbol, k),
      side: o.side,
      type: o.type,
      ...(o.timeInForce === undefined ? {} : { timeInForce: o.timeInForce }),
      ...(o.price === undefined ? {} : { price: echo('price', o.price, k) }),
      ...(o.quantity === undefined ? {} : { origQty: echo('quantity', o.quantity, k) }),
      status: 'NEW',
      transactTime: Date.now(),
    };
  };
  return (r) =>
    r.route === 'batch/json'
      ? { status: 200, json: { code: 0, result: r.orders.map((o) => ({ code: 0, msg: 'ok', order: order(o) })) } }
      : { status: 200, json: { code: 0, ...order(r.orders[0] ?? {}) } };
}

/** The same decimal in another spelling: a trailing zero (`1.5` is echoed `1.50`, `2` as `2.0`). */
const padded = (v: unknown): unknown => (typeof v !== 'string' ? v : v.includes('.') ? `${v}0` : `${v}.0`);

/**
 * A venue reading D-V11-MARKET-SIZE its own way: which sizes a v1.1 MARKET order may carry
 * (`both`: §2.1 read literally; `one`: exactly one of them; `either`: the reference's choice;
 * `none`: no form at all). Every other order is placed.
 */
function marketReading(reading: 'both' | 'one' | 'either' | 'none'): Answering {
  const place = placing();
  return (r) => {
    const o = r.orders[0] ?? {};
    if (r.route.startsWith('v1.1/') && o.type === 'MARKET') {
      const sizes = (o.quantity === undefined ? 0 : 1) + (o.amount === undefined ? 0 : 1);
      const ok = { both: sizes === 2, one: sizes === 1, either: sizes >= 1, none: false }[reading];
      if (!ok)
        return sizes === 2
          ? { status: 400, json: { code: -1106, msg: "Parameter 'amount' sent when not required." } }
          : {
              status: 400,
              json: { code: -1102, msg: 'Mandatory parameter was not sent, was empty/null, or malformed.' },
            };
    }
    return place(r);
  };
}

/**
 * A small venue whose duplicate-id and balance refusals share one code (-2010): a repeated client
 * id is refused; past `balance` orders on a route, every order is; a wrong signature, a timestamp
 * an hour old or side HOLD are refused, and with `placesRefused` their order is placed all the same.
 */
function sharedCodeVenue(opts: { balance: number; placesRefused?: boolean }): Answering {
  const used = new Set<string>();
  const placedOn = new Map<string, number>();
  const place = placing();
  return (r: Received) => {
    const o = r.orders[0] ?? {};
    const id = String(o.newClientOrderId ?? '');
    const broken =
      !r.signed || Number(r.params.timestamp) < Date.now() - 60_000 || !['BUY', 'SELL'].includes(String(o.side));
    if (broken) {
      if (opts.placesRefused === true) used.add(id);
      return { status: 400, json: { code: -1100, msg: 'Illegal characters found in a parameter.' } };
    }
    if (used.has(id)) return { status: 400, json: { code: -2010, msg: 'Duplicate order sent.' } };
    if ((placedOn.get(r.route) ?? 0) >= opts.balance)
      return { status: 400, json: { code: -2010, msg: 'Account has insufficient balance for requested action.' } };
    used.add(id);
    placedOn.set(r.route, (placedOn.get(r.route) ?? 0) + 1);
    return place(r);
  };
}

/** [name citing the seed section or decision, the check's decision, expected status, cause or pattern] */
type CheckRow = [string, () => Promise<Decision>, CheckReport['status'], RegExp | string | undefined];
const BTC_LOWER = { order: { symbol: 'btcusdt' } };
const checkRows: CheckRow[] = [
  // 1. values compared by their seed meaning
  [
    'values by their seed meaning: an echo differing only in spelling passes (§2.1 DECIMAL "1.5" echoed "1.50"; a symbol placed "btcusdt" echoed "BTCUSDT", the same pair)',
    () =>
      decideAgainst(
        'RESULT-ORDER-ECHO',
        placing((f, v) => (f === 'symbol' ? String(v).toUpperCase() : f === 'orderId' ? v : padded(v))),
        { description: BTC_LOWER },
      ),
    'pass',
    undefined,
  ],
  [
    'values by their seed meaning: ... an echo of another value fails (§2.2 order.price)',
    () =>
      decideAgainst(
        'RESULT-ORDER-ECHO',
        placing((f, v) => (f === 'price' ? `${String(v)}1` : v)),
      ),
    'fail',
    /price/,
  ],
  [
    'values by their seed meaning: LONG "0042" and 42 are one orderId, given twice (§2.2 order.orderId LONG, D-WIRE-NUMBERS)',
    () =>
      decideAgainst(
        'RESULT-ORDER-ID',
        placing((f, v, n) => (f !== 'orderId' ? v : n === 0 ? '0042' : n === 1 ? 42 : v)),
      ),
    'fail',
    /0?42 was already given/,
  ],
  [
    'values by their seed meaning: ... "0042" beside 43 are two (§2.2 order.orderId LONG: leading zeros spell it, they do not change it)',
    () =>
      decideAgainst(
        'RESULT-ORDER-ID',
        placing((f, v, n) => (f !== 'orderId' ? v : n === 0 ? '0042' : 43 + n)),
      ),
    'pass',
    undefined,
  ],
  [
    `values by their seed meaning: quantity ${PAST_LONG} (2^64 + 5) placed and echoed with its exact value in another spelling passes (§2.1 DECIMAL)`,
    () =>
      decideAgainst(
        'ORDER-DECIMAL-FORMAT.huge',
        placing((f, v) => (f === 'orderId' ? v : padded(v))),
      ),
    'pass',
    undefined,
  ],
  [
    `values by their seed meaning: ... echoed 18446744073709552000 (the double nearest it) fails: not its value (§2.1 DECIMAL)`,
    () =>
      decideAgainst(
        'ORDER-DECIMAL-FORMAT.huge',
        placing((f, v) => (f === 'quantity' && v === PAST_LONG ? '18446744073709552000' : v)),
      ),
    'fail',
    /18446744073709552000/,
  ],
  // 2. probes valid or invalid under every reading
  ...(['both', 'one', 'either'] as const).map(
    (reading): CheckRow => [
      `valid under every reading: a v1.1 MARKET positive probe takes a form the venue's reading accepts, whichever it is (D-V11-MARKET-SIZE, reading "${reading}")`,
      () => decideAgainst('ORDER-V11-ENDPOINT', marketReading(reading)),
      'pass',
      undefined,
    ],
  ),
  [
    'valid under every reading: ... a venue accepting no MARKET form at all fails (§9 v1.1, §2.1 type MARKET)',
    () => decideAgainst('ORDER-V11-ENDPOINT', marketReading('none')),
    'fail',
    /MARKET/,
  ],
  [
    'valid under every reading: a property never draws the disputed v1.1 MARKET as a positive probe: §2.1 read literally (quantity and amount) refuses none of its cases (D-V11-MARKET-SIZE)',
    () => decideAgainst('SIG-PLACEMENT-QUERY.v1.1', marketReading('both'), { runs: 40 }),
    'pass',
    undefined,
  ],
  ...(['both', 'one'] as const).map(
    (reading): CheckRow => [
      `valid under every reading: the disputed point itself is INFO, never a failure (D-V11-MARKET-SIZE, reading "${reading}")`,
      () => decideAgainst('ORDER-MARKET-SIZE-V11.which', marketReading(reading)),
      'info',
      undefined,
    ],
  ),
  // 3. a refusal recognised by a control, not its code
  [
    'a refusal recognised by a control: a repeated client id refused (-2010) while the fresh-id twin sent with it is refused alike (the balance shares the code) is undecided (§2.1 newClientOrderId, D-DUPLICATE-CLIENT-ID)',
    () => decideAgainst('ROBUST-REJECT-PLACES-NOTHING.reuse', sharedCodeVenue({ balance: 1 })),
    'inconclusive',
    /not shown to be about the id/,
  ],
  [
    "a refusal recognised by a control: ... with the twin placed, the refusal is the id's, and the run decides: refused calls left their ids free (§4.1)",
    () => decideAgainst('ROBUST-REJECT-PLACES-NOTHING.reuse', sharedCodeVenue({ balance: Infinity })),
    'pass',
    undefined,
  ],
  [
    'a refusal recognised by a control: ... and decides a refused call that used its id (placed all the same) as a failure (§4.1: a refused call places nothing)',
    () =>
      decideAgainst('ROBUST-REJECT-PLACES-NOTHING.reuse', sharedCodeVenue({ balance: Infinity, placesRefused: true })),
    'fail',
    /while the same order with a fresh id, sent with it, was placed/,
  ],
];

describe('decide() on the evidence of checks whose comparison is their own (verdict rules 1-3)', () => {
  for (const [name, decision, status, cause] of checkRows) {
    it(name, async () => {
      const d = await decision();
      expect(d.status, `${d.reason ?? ''} ${d.actual ?? ''}`).toBe(status);
      if (typeof cause === 'string') expect(d.cause).toBe(cause);
      if (cause instanceof RegExp)
        expect(`${d.reason ?? ''} ${d.actual ?? ''} ${JSON.stringify(d.cells ?? [])}`).toMatch(cause);
    });
  }
});

describe('undecided is not passed', () => {
  const report = (over: Partial<CheckReport>): CheckReport => ({
    id: 'X',
    ruleId: 'ORDER-SIDE-ENUM',
    family: 'ORDER',
    level: 'MUST',
    status: 'inconclusive',
    title: 't',
    section: '2.1',
    requirement: 'r',
    durationMs: 0,
    ...over,
  });
  it('a MUST check inconclusive on an offered route makes the run incomplete; one undecided only where the target lacks the route, a SHOULD, a pass or a skip does not', () => {
    const cases: Array<[Partial<CheckReport>, boolean]> = [
      [{ cause: 'business' }, true],
      [{ cause: 'no-control' }, true],
      [{ cause: 'unanswered' }, true],
      [{ cause: 'not-offered' }, false],
      [{ level: 'SHOULD', cause: 'business' }, false],
      [{ status: 'pass' }, false],
      [{ status: 'skip', cause: 'budget' }, false],
    ];
    for (const [over, incomplete] of cases)
      expect(incompleteMust([report(over)]).length, JSON.stringify(over)).toBe(incomplete ? 1 : 0);
  });
});

describe('no status is set outside decide()', () => {
  /** Files that may write a status: the decision, the routes' tally it calls, the checks (their claims), the grade (its own verdicts) and the load engine (an HTTP status). */
  const allowed = [
    /^conformance\/judgement\/decide\.ts$/,
    /^conformance\/judgement\/verdict\.ts$/,
    /^conformance\/checks\//,
    /^conformance\/grade\//,
    /^conformance\/load\/engine\.ts$/,
    /^conformance\/report\/cells\.ts$/,
  ];
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
    });
  it('conformance/ assigns or builds a status only in the files allowed to', () => {
    const root = join(import.meta.dirname, '..', '..');
    const offenders = files(join(root, 'conformance'))
      .map((p) => relative(root, p))
      .filter((p) => !allowed.some((a) => a.test(p)))
      .filter((p) =>
        /\.status = |status: '(pass|fail|info|skip|inconclusive)'/.test(readFileSync(join(root, p), 'utf8')),
      );
    expect(offenders).toEqual([]);
  });
});
