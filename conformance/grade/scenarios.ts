/**
 * The scenarios of `spotcheck grade`: a client asks for one, and the grading server plays
 * the server's side on cue (a 429 with Retry-After, a 5xx, a held answer, a time refusal,
 * a clock jump, a failing batch entry), so the report can say whether the client retried,
 * re-signed, backed off or gave up.
 *
 * How a client selects a scenario, either way:
 * - the header `X-Spotcheck-Scenario: <name>` on the request, or
 * - a newClientOrderId starting with `<name>.` (for a client whose headers are fixed).
 * The first request of a scenario with a given content (its orders, without timestamp and
 * signature) gets the cue; the requests that repeat that content are its follow-ups.
 */
import { SEED_WIRE, type EndpointSpec, type WireProfile } from '../../src/core/wire.js';

/** The request header that selects a scenario. */
export const SCENARIO_HEADER = 'X-Spotcheck-Scenario';

/** What the server does with the first request of a scenario. */
export type Cue =
  | { kind: 'normal' }
  | { kind: 'status'; status: number; code: number; msg: string; retryAfterS?: number }
  | { kind: 'hold' }
  | { kind: 'clock-jump'; jumpMs: number }
  | { kind: 'failing-entry' };

/** One scenario: its name, what the client is to send, what the server plays, what is expected of the client. */
export interface Scenario {
  name: string;
  /** What the client sends, naming the paths of the wire served (a target description may move them). */
  send: (wire: WireProfile) => string;
  /** What the server answers on cue. */
  server: string;
  /** What a correct client does. */
  expect: string;
  cue: Cue;
  /** The shape the request must have to count as this scenario (undefined: any signed order request). */
  shape?: (endpoint: EndpointSpec | undefined, orders: readonly unknown[]) => string | undefined;
}

/** A field of an order object (undefined for anything else). */
export const field = (o: unknown, k: string): unknown =>
  typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[k] : undefined;

const single =
  (type: string, version: 'v1' | 'v1.1' | 'any', need?: string) =>
  (ep: EndpointSpec | undefined, orders: readonly unknown[]): string | undefined => {
    if (ep === undefined || ep.bodyKind !== 'form') return 'expected a single-order request';
    if (version !== 'any' && ep.version !== version) return `expected the ${version} order endpoint`;
    const o = orders[0];
    if (field(o, 'type') !== type) return `expected a ${type} order`;
    if (need !== undefined && field(o, need) === undefined) return `expected ${need} on the order`;
    return undefined;
  };

/** The published scenarios (`spotcheck grade --scenarios`). */
export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'limit-order',
    send: (w) => `one LIMIT order (price and quantity) to ${w.endpoints.v1.path} or ${w.endpoints['v1.1'].path}`,
    server: 'answers normally',
    expect: 'the order is accepted',
    cue: { kind: 'normal' },
    shape: single('LIMIT', 'any', 'price'),
  },
  {
    name: 'market-v1',
    send: (w) => `one MARKET order by quantity to ${w.endpoints.v1.path}`,
    server: 'answers normally',
    expect: 'the order is accepted',
    cue: { kind: 'normal' },
    shape: single('MARKET', 'v1', 'quantity'),
  },
  {
    name: 'market-amount-v1.1',
    send: (w) => `one MARKET order by amount (quote currency) to ${w.endpoints['v1.1'].path}`,
    server: 'answers normally',
    expect: 'the order is accepted',
    cue: { kind: 'normal' },
    shape: single('MARKET', 'v1.1', 'amount'),
  },
  {
    name: 'batch-20',
    send: (w) => `one batch of 20 orders for one symbol to ${w.endpoints.batch.path}`,
    server: 'answers normally',
    expect: 'all 20 orders are accepted',
    cue: { kind: 'normal' },
    shape: (ep, orders) =>
      ep?.bodyKind !== 'json'
        ? 'expected a batch request'
        : orders.length !== 20
          ? `expected 20 orders, got ${orders.length}`
          : undefined,
  },
  {
    name: 'batch-failing-entry',
    send: (w) => `one batch of 2 or more orders, each with a newClientOrderId, to ${w.endpoints.batch.path}`,
    server: 'places every entry but the last, which fails with code -1130',
    expect: 'the client sends again only the failed entry (re-signed), or stops; never the placed ones',
    cue: { kind: 'failing-entry' },
    shape: (ep, orders) =>
      ep?.bodyKind !== 'json'
        ? 'expected a batch request'
        : orders.length < 2
          ? 'expected at least 2 orders'
          : undefined,
  },
  {
    name: 'clock-jump',
    send: () => 'one order, and the same order again after a refusal',
    server:
      'its clock jumps 10 s ahead and stays there: the order is refused with the time error (-1021); every answer’s Date header shows the new time',
    expect:
      'the client re-reads the server time (the Date header), re-signs with a timestamp on the new clock, and is accepted',
    cue: { kind: 'clock-jump', jumpMs: 10_000 },
  },
  {
    name: 'rate-limit-429',
    send: () => 'one order',
    server: 'answers 429 with Retry-After: 1 (nothing placed)',
    expect: 'the client waits at least 1 s, then re-signs and sends again, or gives up',
    cue: {
      kind: 'status',
      status: 429,
      code: -1003,
      msg: 'Too many requests (scenario rate-limit-429)',
      retryAfterS: 1,
    },
  },
  {
    name: 'server-error-5xx',
    send: () => 'one order with a newClientOrderId',
    server: 'answers 500 (nothing placed)',
    expect: 'the client re-signs and sends again with the same newClientOrderId, or gives up; never the same bytes',
    cue: { kind: 'status', status: 500, code: -1000, msg: 'Internal error (scenario server-error-5xx)' },
  },
  {
    name: 'slow-answer',
    send: () => 'one order with a newClientOrderId',
    server:
      'holds the answer past the client’s timeout (until the client closes the connection, at most the hold time), nothing placed',
    expect: 'the client gives up on the answer, then re-signs and sends again with the same newClientOrderId, or stops',
    cue: { kind: 'hold' },
  },
  {
    name: 'time-refusal',
    send: () => 'one order',
    server: 'refuses it with the time error (400, code -1021; nothing placed)',
    expect: 'the client re-signs with a fresh timestamp and sends again, never the same bytes',
    cue: {
      kind: 'status',
      status: 400,
      code: -1021,
      msg: 'Timestamp for this request is outside the recvWindow (scenario time-refusal)',
    },
  },
];

/** The scenario a request asks for: its header first, else a client id prefix; undefined for none. */
export function selectedScenario(
  headers: Readonly<Record<string, string>>,
  clientOrderIds: readonly string[],
): { scenario?: Scenario; unknown?: string } {
  const h = headers[SCENARIO_HEADER.toLowerCase()];
  if (h !== undefined && h.trim() !== '') {
    const s = SCENARIOS.find((x) => x.name === h.trim());
    return s === undefined ? { unknown: h.trim() } : { scenario: s };
  }
  for (const id of clientOrderIds) {
    const s = SCENARIOS.find((x) => id.startsWith(`${x.name}.`));
    if (s !== undefined) return { scenario: s };
  }
  return {};
}

/** `spotcheck grade --scenarios`: the list as text, on the paths of the wire served. */
export function scenarioList(wire: WireProfile = SEED_WIRE): string {
  const lines = [
    `Scenarios (select one with the header ${SCENARIO_HEADER}: <name>, or a newClientOrderId starting with <name>.):`,
    '',
  ];
  for (const s of SCENARIOS) {
    lines.push(`  ${s.name}`);
    lines.push(`    send:   ${s.send(wire)}`);
    lines.push(`    server: ${s.server}`);
    lines.push(`    expect: ${s.expect}`);
  }
  return `${lines.join('\n')}\n`;
}
