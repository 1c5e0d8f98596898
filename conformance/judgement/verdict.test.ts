import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/response.js';
import {
  expect as want,
  judgeExchange,
  refusalToConfirm,
  routeVerdicts,
  type CheckOutcome,
  type Expectation,
  type Knowledge,
  type RouteKnowledge,
  type RouteTally,
  type Verdict,
} from './verdict.js';

const SIG = 'HTTP 401 code -1022';
const KEY = 'HTTP 401 code -2015';
const MISSING = 'HTTP 400 code -1102';
const FILTER = 'HTTP 400 code -1013';
const ENUM = 'HTTP 400 code -1100';
const POSITION = 'HTTP 400 code -2022';

const accepted: RouteKnowledge = { state: 'accepted', observed: 'HTTP 200', validRefusals: [], ruleRefusals: [] };
/** A target whose batch and v1/query routes took a valid order, v1/body refused one for a price filter, v1.1/body refused one like a missing parameter, v1/split answered 404. */
const k: Knowledge = {
  routes: {
    'batch/json': accepted,
    'v1/query': { ...accepted, ruleRefusals: [ENUM], validRefusals: [POSITION] },
    'v1/body': {
      state: 'signature-ok',
      observed: `${FILTER} PRICE_FILTER`,
      fingerprint: FILTER,
      validRefusals: [FILTER],
      ruleRefusals: [],
    },
    'v1.1/body': {
      state: 'signature-ok',
      observed: `${MISSING} symbol`,
      fingerprint: MISSING,
      validRefusals: [MISSING],
      ruleRefusals: [],
    },
    'v1.1/split': { state: 'not-offered', observed: 'not offered', absent: true, validRefusals: [], ruleRefusals: [] },
    'v1/split': {
      state: 'refused',
      observed: 'HTTP 404',
      fingerprint: 'HTTP 404 code none',
      absent: true,
      validRefusals: [],
      ruleRefusals: [],
    },
  },
  signature: SIG,
  unknownKey: KEY,
  missing: [MISSING],
};

const ok: Observation = { verdict: 'accepted', status: 200, json: { code: 0 }, text: '{"code":0}' };
const refused = (fp: string, json: unknown = {}): Observation => {
  const m = /^HTTP (\d+) code (.*)$/.exec(fp);
  const code = m?.[2] === 'none' ? undefined : Number(m?.[2]);
  return {
    verdict: 'rejected',
    status: Number(m?.[1]),
    ...(code === undefined ? {} : { code }),
    json: { ...(code === undefined ? {} : { code }), ...(json as object) },
    text: '{}',
  };
};
const noAnswer: Observation = { verdict: 'no-answer', error: 'timeout after 10000 ms', errorCode: 'ERR_TIMEOUT' };
const fiveHundred: Observation = { verdict: 'server-error', status: 500, text: 'oops' };
const entries = (codes: number[]): Observation => ({
  verdict: 'accepted',
  status: 200,
  json: { code: 0, result: codes.map((code) => ({ code, msg: '' })) },
  text: '',
});

type Row = [string, Expectation, Observation, string | undefined, Verdict, RegExp?, string[]?];

const rows: Row[] = [
  // accept: a valid, correctly signed request
  ['accepted valid request', want.accept, ok, 'batch/json', 'pass'],
  [
    'a valid batch refused as badly signed fails (partial-body signature)',
    want.accept,
    refused(SIG),
    'batch/json',
    'fail',
    /valid, correctly signed request was refused/,
  ],
  ['a valid request refused for any reason fails', want.accept, refused(FILTER), 'batch/json', 'fail'],
  [
    'a valid request meeting a refusal valid orders met on its route is inconclusive',
    want.accept,
    refused(POSITION),
    'v1/query',
    'inconclusive',
    /same refusal/,
  ],
  [
    'a valid request on a route without control: inconclusive',
    want.accept,
    refused(FILTER),
    'v1/body',
    'inconclusive',
    /no positive control/,
  ],
  [
    '... unless the check establishes that route: fail',
    want.accept,
    refused(FILTER),
    'v1/body',
    'fail',
    /positive control was in discovery/,
    ['v1/body'],
  ],
  ['a 5xx to a valid request fails', want.accept, fiveHundred, 'batch/json', 'fail'],
  ['no answer is neither accepted nor refused', want.accept, noAnswer, 'batch/json', 'unanswered'],
  // signature-accepted: shown by difference only
  [
    'signature accepted: a refusal unlike the wrong-signature and missing answers',
    want.signatureAccepted,
    refused(FILTER),
    'batch/json',
    'pass',
    /signature accepted/,
  ],
  ['signature accepted on a filtered route (price filter)', want.signatureAccepted, refused(FILTER), 'v1/body', 'pass'],
  ['a "signature missing" answer proves nothing: fail', want.signatureAccepted, refused(MISSING), 'batch/json', 'fail'],
  ['the signature fingerprint: fail', want.signatureAccepted, refused(SIG), 'batch/json', 'fail'],
  [
    'v1.1 ignoring the form body: the establishing placement check fails',
    want.signatureAccepted,
    refused(MISSING),
    'v1.1/body',
    'fail',
    /positive control/,
    ['v1.1/body'],
  ],
  [
    '... and a check merely using it is inconclusive',
    want.signatureAccepted,
    refused(MISSING),
    'v1.1/body',
    'inconclusive',
    /no positive control/,
  ],
  // refuse
  ['rule refusal', want.refuse(), refused(ENUM), 'batch/json', 'pass'],
  [
    'rule probe refused with the signature fingerprint: never reached the rule',
    want.refuse(),
    refused(SIG),
    'batch/json',
    'inconclusive',
    /signature fingerprint/,
  ],
  [
    'auth probe refused with the signature fingerprint: its refusal',
    want.refuse('auth'),
    refused(SIG),
    'batch/json',
    'pass',
  ],
  [
    'a business refusal learnt mid-run never counts as the rule refusal',
    want.refuse(),
    refused(POSITION),
    'batch/json',
    'inconclusive',
    /business refusal/,
  ],
  [
    '... nor a filter met by a control in discovery',
    want.refuse(),
    refused(FILTER),
    'batch/json',
    'inconclusive',
    /business refusal/,
  ],
  [
    'a control refused like a missing parameter (a route that does not read it) is no business refusal elsewhere',
    want.refuse('auth'),
    refused(MISSING),
    'batch/json',
    'pass',
  ],
  ['two faults: any refusal', want.refuse('any'), refused(POSITION), 'batch/json', 'pass'],
  ['a negative probe accepted fails', want.refuse(), ok, 'batch/json', 'fail'],
  ['every entry failed counts only when allowed', want.refuse('rule', true), entries([-1100]), 'batch/json', 'pass'],
  ['every entry failed is no rejection otherwise', want.refuse(), entries([-1100]), 'batch/json', 'fail'],
  [
    'a rejection still reporting placed orders fails',
    want.refuse(),
    refused(ENUM, { result: [{ code: 0 }] }),
    'batch/json',
    'fail',
    /placed/,
  ],
  ['no answer to a negative probe: unanswered, not accepted', want.refuse(), noAnswer, 'batch/json', 'unanswered'],
  [
    'a refusal on a route without control: inconclusive',
    want.refuse(),
    refused(ENUM),
    'v1/split',
    'inconclusive',
    /no positive control/,
  ],
  ['an auth probe on a route that verifies signatures decides', want.refuse('auth'), refused(SIG), 'v1/body', 'pass'],
  [
    "... but not when the refusal is the control's own",
    want.refuse('auth'),
    refused(FILTER),
    'v1/body',
    'inconclusive',
  ],
  // entry
  ['entry failed inside an accepted batch', want.entry(1), entries([0, -1100]), 'batch/json', 'pass'],
  ['entry placed fails', want.entry(1), entries([0, 0]), 'batch/json', 'fail'],
  ['whole call refused', want.entry(1), refused(ENUM), 'batch/json', 'pass'],
  // observe
  ['an open point: what the server did', want.observe, refused(ENUM), 'batch/json', 'pass'],
  ['an open point refused at the signature: inconclusive', want.observe, refused(SIG), 'batch/json', 'inconclusive'],
  ['an open point answered 5xx fails', want.observe, fiveHundred, 'batch/json', 'fail'],
  [
    'rate limited is no verdict',
    want.accept,
    { verdict: 'rate-limited', status: 429 },
    'batch/json',
    'inconclusive',
    /rate limited/,
  ],
  ['not sent is no verdict', want.accept, { verdict: 'not-sent', error: 'budget' }, 'batch/json', 'inconclusive'],
  [
    'a route not offered fails the check establishing it',
    want.accept,
    { verdict: 'not-sent', error: 'the target does not offer v1.1/split' },
    'v1.1/split',
    'fail',
    /does not offer/,
    ['v1.1/split'],
  ],
  [
    '... and only that check',
    want.accept,
    { verdict: 'not-sent', error: 'the target does not offer v1.1/split' },
    'v1.1/split',
    'inconclusive',
  ],
];

describe('judgeExchange: (expectation, knowledge, exchange) -> verdict', () => {
  for (const [name, exp, o, route, verdict, reason, establishes] of rows) {
    it(name, () => {
      const got = judgeExchange(
        exp,
        k,
        { observation: o, ...(route === undefined ? {} : { route }) },
        establishes === undefined ? {} : { establishes },
      );
      expect(got.verdict).toBe(verdict);
      if (reason !== undefined) expect(got.reason).toMatch(reason);
    });
  }
});

describe('refusalToConfirm: when a re-sent positive control decides', () => {
  const cases: Array<[string, Observation, string, string | undefined]> = [
    ['a refusal not seen on the route yet', refused(FILTER), 'batch/json', FILTER],
    ['another new refusal', refused(POSITION), 'batch/json', POSITION],
    ["a refusal already known as the rule's", refused(ENUM), 'v1/query', undefined],
    ['a refusal already known as business', refused(POSITION), 'v1/query', undefined],
    ['the signature fingerprint needs no control', refused(SIG), 'batch/json', undefined],
    ['a missing-parameter answer needs no control', refused(MISSING), 'batch/json', undefined],
    ['a route without control', refused(FILTER), 'v1/body', undefined],
    ['an acceptance', ok, 'batch/json', undefined],
  ];
  for (const [name, o, route, fp] of cases)
    it(name, () => expect(refusalToConfirm(k, { observation: o, route })).toBe(fp));
});

describe('routeVerdicts: a check over its routes', () => {
  const tally = (t: Partial<RouteTally>): RouteTally => ({
    pass: 0,
    fail: 0,
    inconclusive: 0,
    unanswered: 0,
    requests: 1,
    ...t,
  });
  const routes = ['batch/json', 'v1/query', 'v1/body'];
  it('an inconclusive route never hides judged ones: decided where it could be, inconclusive naming the rest', () => {
    const t = new Map([
      ['batch/json', tally({ inconclusive: 1, firstReason: 'no positive control: batch/json' })],
      ['v1/query', tally({ pass: 2 })],
      ['v1/body', tally({ pass: 1 })],
    ]);
    const r = routeVerdicts({ status: 'pass' }, routes, t, new Set());
    expect(r.outcome.status).toBe('inconclusive');
    expect(r.outcome.status === 'inconclusive' && r.outcome.reason).toMatch(
      /decided on v1\/query, v1\/body; not on batch\/json \(no positive control/,
    );
    expect(r.cells.map((c) => c.verdict)).toEqual(['inconclusive', 'pass', 'pass']);
  });
  it('a route the target does not offer is not required: pass', () => {
    const t = new Map([
      ['v1/query', tally({ pass: 2 })],
      ['v1/body', tally({ pass: 1 })],
      ['batch/json', tally({ inconclusive: 1 })],
    ]);
    const r = routeVerdicts({ status: 'pass' }, routes, t, new Set(['batch/json']));
    expect(r.outcome.status).toBe('pass');
    expect(r.cells.map((c) => c.verdict)).toEqual(['not-offered', 'pass', 'pass']);
  });
  it('a failure names its route; the other cells keep their verdicts', () => {
    const out: CheckOutcome = {
      status: 'fail',
      expected: 'a refusal',
      actual: 'accepted',
      exchange: { observation: ok, route: { endpoint: 'v1', placement: 'body' } },
    };
    const r = routeVerdicts(
      out,
      routes,
      new Map([
        ['v1/query', tally({ pass: 1 })],
        ['v1/body', tally({ fail: 1 })],
      ]),
      new Set(),
    );
    expect(r.outcome.status).toBe('fail');
    expect(r.cells.map((c) => c.verdict)).toEqual(['inconclusive', 'pass', 'fail']);
  });
  it("a check's own cells decide: any failed route fails the check", () => {
    const cells = [
      { route: 'batch/json', verdict: 'pass' as const, requests: 1 },
      { route: 'v1/query', verdict: 'fail' as const, reason: 'accepted', requests: 1 },
      { route: 'v1/body', verdict: 'inconclusive' as const, reason: 'x', requests: 1 },
    ];
    const r = routeVerdicts({ status: 'inconclusive', reason: 'x', cells }, routes, new Map(), new Set());
    expect(r.outcome.status).toBe('fail');
    expect(r.outcome.status === 'fail' && r.outcome.actual).toMatch(/^v1\/query: accepted/);
  });
  it('only unanswered requests: the cell says so, and the check is not passed', () => {
    const r = routeVerdicts(
      { status: 'pass' },
      ['batch/json'],
      new Map([['batch/json', tally({ unanswered: 3, firstUnanswered: 'no answer (timeout)' })]]),
      new Set(),
    );
    expect(r.cells[0]?.verdict).toBe('unanswered');
    expect(r.outcome.status).toBe('inconclusive');
  });
  it("a check's own inconclusive outcome stands", () => {
    const r = routeVerdicts(
      { status: 'inconclusive', reason: 'duplicates accepted' },
      ['v1/query'],
      new Map([['v1/query', tally({ pass: 1 })]]),
      new Set(),
    );
    expect(r.outcome).toEqual({ status: 'inconclusive', reason: 'duplicates accepted' });
  });
  it('info and skip outcomes have no cells', () => {
    expect(routeVerdicts({ status: 'info', observed: 'x' }, routes, new Map(), new Set()).cells).toEqual([]);
  });
});

describe('a connection closed before the answer', () => {
  const closed = (error: string, errorCode: 'ERR_NETWORK' | 'ERR_TIMEOUT' = 'ERR_NETWORK') => ({
    observation: { verdict: 'no-answer' as const, error, errorCode },
  });
  it('refuses a request a front may refuse so (observeClosing), and nothing else', () => {
    expect(judgeExchange(want.observeClosing, k, closed('write EPIPE')).verdict).toBe('pass');
    // a plain observation, a timeout, or a request given up because the target went down stay unanswered
    expect(judgeExchange(want.observe, k, closed('write EPIPE')).verdict).toBe('unanswered');
    expect(judgeExchange(want.observeClosing, k, closed('timed out', 'ERR_TIMEOUT')).verdict).toBe('unanswered');
    expect(judgeExchange(want.observeClosing, k, closed('given up: the target stopped answering')).verdict).toBe(
      'unanswered',
    );
  });
});
