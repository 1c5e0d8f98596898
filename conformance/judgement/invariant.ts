/**
 * The invariants every accepted answer of a run keeps, whichever check sent it (design notes,
 * "The input domain is data"): one `result` entry per submitted element, in order (§2.2, §4.1
 * rule 4, D-RESULT-ORDER), and each placed order echoing what was sent by its seed meaning: the
 * symbol as the same pair, side, type and timeInForce exactly, price, origQty and reqAmount by
 * exact decimal value, or, for a value sent as a JSON number, the double nearest it (RFC 8259 §6
 * lets a parser read numbers so; D-DECIMALS) (RESULT-ORDER-ECHO), clientOrderId exactly (RESULT-CLIENT-ORDER-ID-ECHO),
 * executedQty from 0 to origQty (RESULT-EXECUTED-QTY). A field is compared only where every
 * reading that accepts the request agrees on what was sent: a name sent twice (D-DUPLICATE-PARAM,
 * D-JSON-TEXT), an optional one spelt otherwise (D-PARAM-NAMES), a JSON value of another type
 * (D-JSON-TYPES) or a value no reading takes is left to the checks of its own rule. Pure.
 */
import { decodeComponent } from '../../src/core/signing/query.js';
import { echoesDecimal, plainDecimal } from '../../src/core/validation/decimal.js';
import { sameSymbol } from '../../src/core/validation/meaning.js';
import { isOneOf, ORDER_FIELDS, ORDER_TYPES, SIDES, TIME_IN_FORCE_VALUES } from '../../src/core/validation/fields.js';
import { entriesOf, entryPlaced, isRecord, type Observation } from '../../src/core/response.js';
import type { RawRequest } from '../../src/client/http.js';
import type { Route } from '../engine/requests.js';

/** The rules the invariants judge. */
export const INVARIANT_RULES = [
  'RESULT-ORDER-ECHO',
  'RESULT-ONE-PER-ORDER',
  'RESULT-ORDER-MATCH',
  'RESULT-CLIENT-ORDER-ID-ECHO',
  'RESULT-EXECUTED-QTY',
] as const;
export type InvariantRule = (typeof INVARIANT_RULES)[number];

/** One broken invariant of one answer. */
export interface Violation {
  ruleId: InvariantRule;
  expected: string;
  actual: string;
}

/** What one answer showed: the rules it had something to compare for, and what it broke. */
export interface AnswerJudgement {
  checked: ReadonlySet<InvariantRule>;
  violations: readonly Violation[];
}

/** The parts of an exchange the invariants read. */
export interface AnsweredExchange {
  request: RawRequest;
  observation: Observation;
  route?: Route;
}

/** A value sent for an order field: its text, and whether it travelled as a JSON number. */
interface SentValue {
  text: string;
  number: boolean;
}

/** One order as sent: its fields with one agreed meaning. */
type SentOrder = Map<string, SentValue>;

/** The order field a name is, spelt otherwise (another letter case, a character folding onto one: `ſide`). */
function foldsTo(name: string): string | undefined {
  const folded = name.normalize('NFKC').toLowerCase();
  return ORDER_FIELDS.find((f) => f.toLowerCase() === folded);
}

/** Optional fields whose absence has a meaning of its own (an id generated, a default): one sent under a name spelt otherwise may be read as absent. */
const DEFAULTED = new Set(['newClientOrderId', 'timeInForce', 'stpMode']);

/**
 * Fields of one order from its name/value pairs. A field sent twice, or as a value of another
 * JSON type, has no agreed meaning. One sent under a name spelt otherwise (`%73ide`, `SIDE`,
 * `ſide`, D-PARAM-NAMES) is read as that field: a reading that does not refuses the order
 * without it, so an accepted order shows the field's value; except where its absence is valid too.
 */
function orderOf(pairs: ReadonlyArray<{ raw: string; name: string; value: SentValue | undefined }>): SentOrder {
  const out: SentOrder = new Map();
  const unclear = new Set<string>();
  const seen = new Set<string>();
  for (const { raw, name, value } of pairs) {
    const field = foldsTo(name);
    if (field === undefined) continue;
    if ((raw !== field && DEFAULTED.has(field)) || value === undefined || seen.has(field)) unclear.add(field);
    seen.add(field);
    if (value !== undefined) out.set(field, value);
  }
  for (const f of unclear) out.delete(f);
  return out;
}

/** A single order's parameters as sent (§5.3: query, form body or both), names and values percent-decoded. */
function sentParams(req: RawRequest): SentOrder {
  const pairs: Array<{ raw: string; name: string; value: SentValue }> = [];
  for (const part of [req.query, req.body])
    for (const p of part.split('&')) {
      if (p === '') continue;
      const eq = p.indexOf('=');
      const raw = eq === -1 ? p : p.slice(0, eq);
      const name = decodeComponent(raw);
      if (name === 'signature') continue;
      pairs.push({ raw, name, value: { text: decodeComponent(eq === -1 ? '' : p.slice(eq + 1)), number: false } });
    }
  return orderOf(pairs);
}

// ---------------------------------------------------------------- a JSON reader keeping number text and repeated names

type Node =
  | { kind: 'object'; members: Array<[string, Node]> }
  | { kind: 'array'; items: Node[] }
  | { kind: 'string'; value: string }
  | { kind: 'number'; text: string }
  | { kind: 'literal' };

const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const LITERAL = /true|false|null/y;
const BLANK = /[ \t\n\r]*/y;

/** RFC 8259 JSON text as a tree keeping each number's text and every member of an object (repeats included); undefined when it is no JSON. */
export function readJson(text: string): Node | undefined {
  let i = 0;
  /** The match of a sticky pattern at `i`, moving past it. */
  const take = (re: RegExp): string | undefined => {
    re.lastIndex = i;
    const m = re.exec(text);
    if (m === null) return undefined;
    i = re.lastIndex;
    return m[0];
  };
  const ws = () => take(BLANK);
  const value = (depth: number): Node => {
    if (depth > 64) throw new Error('too deep');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const members: Array<[string, Node]> = [];
      ws();
      if (text[i] === '}') {
        i++;
        return { kind: 'object', members };
      }
      for (;;) {
        ws();
        const k = value(depth + 1);
        if (k.kind !== 'string') throw new Error('key');
        ws();
        if (text[i++] !== ':') throw new Error(':');
        members.push([k.value, value(depth + 1)]);
        ws();
        const d = text[i++];
        if (d === '}') return { kind: 'object', members };
        if (d !== ',') throw new Error(',');
      }
    }
    if (c === '[') {
      i++;
      const items: Node[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return { kind: 'array', items };
      }
      for (;;) {
        items.push(value(depth + 1));
        ws();
        const d = text[i++];
        if (d === ']') return { kind: 'array', items };
        if (d !== ',') throw new Error(',');
      }
    }
    if (c === '"') {
      const str = take(STRING);
      if (str === undefined) throw new Error('string');
      return { kind: 'string', value: str.includes('\\') ? (JSON.parse(str) as string) : str.slice(1, -1) };
    }
    const num = take(NUMBER);
    if (num !== undefined) return { kind: 'number', text: num };
    if (take(LITERAL) === undefined) throw new Error('value');
    return { kind: 'literal' };
  };
  try {
    const v = value(0);
    ws();
    return i === text.length ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The batch elements as sent (§4.1), undefined when the body is no JSON array. */
function sentElements(body: string): SentOrder[] | undefined {
  const v = readJson(body);
  if (v?.kind !== 'array') return undefined;
  return v.items.map((item) =>
    item.kind !== 'object'
      ? new Map()
      : orderOf(
          item.members.map(([raw, n]) => ({
            raw,
            name: raw,
            value:
              n.kind === 'string'
                ? { text: n.value, number: false }
                : n.kind === 'number'
                  ? { text: n.text, number: true }
                  : undefined,
          })),
        ),
  );
}

// ---------------------------------------------------------------- exact decimals

/** A decimal (plain or exponent text, or a JSON number) as an exact integer and a power of ten; undefined for anything else. */
function exact(v: unknown): { m: bigint; e: number } | undefined {
  const t = typeof v === 'number' ? (Number.isFinite(v) ? plainDecimal(v) : undefined) : v;
  if (typeof t !== 'string') return undefined;
  const x = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(t);
  if (x === null) return undefined;
  const frac = x[3] ?? '';
  const m = BigInt(`${x[1]}${x[2]}${frac}`);
  return { m, e: Number(x[4] ?? '0') - frac.length };
}

/** a < b, a = b or a > b by exact value (-1, 0, 1); undefined when either is no decimal. */
export function compareDecimals(a: unknown, b: unknown): number | undefined {
  const x = exact(a);
  const y = exact(b);
  if (x === undefined || y === undefined) return undefined;
  const e = Math.min(x.e, y.e);
  const xs = x.m * 10n ** BigInt(x.e - e);
  const ys = y.m * 10n ** BigInt(y.e - e);
  return xs < ys ? -1 : xs > ys ? 1 : 0;
}

// ---------------------------------------------------------------- the invariants

const DECIMAL_STRING = /^[0-9]+(\.[0-9]+)?$/;

/** A DECIMAL every reading takes (§2.1: a positive decimal string, or a JSON number): its text. */
function decimalSent(v: SentValue | undefined): string | undefined {
  if (v === undefined) return undefined;
  const ok = v.number ? /^[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(v.text) : DECIMAL_STRING.test(v.text);
  return ok && compareDecimals(v.text, '0') === 1 ? v.text : undefined;
}

/** A decimal's value as a double (a JSON number, or a decimal string); NaN for anything else. */
const asDouble = (x: unknown): number =>
  typeof x === 'number'
    ? x
    : typeof x === 'string' && /^[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(x)
      ? Number(x)
      : Number.NaN;

/** A STRING or ENUM every reading takes: sent as a string. */
const textSent = (v: SentValue | undefined): string | undefined => (v === undefined || v.number ? undefined : v.text);

/**
 * Each echo comparison with the seed sentence it rests on and the routes and order types that
 * sentence covers (design notes, "Every MUST traced, every reading run"): a field is compared only
 * where its sentence defines it, so a server that ignores a field its route or type does not
 * define (D-UNDEFINED-FIELDS, D-AMOUNT-ELSEWHERE) is right whatever it echoes. `named`: the field
 * is compared only when the value sent is the one the sentence names for the order's type.
 */
export interface EchoTrace {
  field: string;
  echo: string;
  section: string;
  quote: string;
  routes: 'all' | 'v1.1';
  types: readonly string[];
  named?: Readonly<Record<string, string>>;
}

const ALL_TYPES = ['LIMIT', 'MARKET', 'LIMIT_MAKER'] as const;

export const ECHO_TRACES: readonly EchoTrace[] = [
  {
    field: 'symbol',
    echo: 'symbol',
    section: '2.2',
    quote: 'order.symbol | STRING | Trading pair.',
    routes: 'all',
    types: ALL_TYPES,
  },
  {
    field: 'side',
    echo: 'side',
    section: '2.2',
    quote: 'order.side | ENUM | `BUY` or `SELL`.',
    routes: 'all',
    types: ALL_TYPES,
  },
  {
    field: 'type',
    echo: 'type',
    section: '2.2',
    quote: 'order.type | ENUM | Order type (same values as the request).',
    routes: 'all',
    types: ALL_TYPES,
  },
  {
    field: 'timeInForce',
    echo: 'timeInForce',
    section: '2.1',
    quote: 'timeInForce | ENUM | no | `GTC` for limit and maker limit orders; `IOC` for market orders.',
    routes: 'all',
    types: ALL_TYPES,
    named: { LIMIT: 'GTC', LIMIT_MAKER: 'GTC', MARKET: 'IOC' },
  },
  {
    field: 'price',
    echo: 'price',
    section: '2.1',
    quote: 'price | DECIMAL | conditional | Required when type is `LIMIT` or `LIMIT_MAKER`.',
    routes: 'all',
    types: ['LIMIT', 'LIMIT_MAKER'],
  },
  {
    field: 'quantity',
    echo: 'origQty',
    section: '2.2',
    quote: 'order.origQty | DECIMAL | Ordered quantity.',
    routes: 'all',
    types: ALL_TYPES,
  },
  {
    field: 'amount',
    echo: 'reqAmount',
    section: '2.1',
    quote:
      'amount | DECIMAL | v1.1 only; conditional | Cash amount in units of the quote currency. Market orders only.',
    routes: 'v1.1',
    types: ['MARKET'],
  },
  {
    field: 'newClientOrderId',
    echo: 'clientOrderId',
    section: '2.2',
    quote: 'order.clientOrderId | STRING | Client-defined id, or the generated one if none was sent.',
    routes: 'all',
    types: ALL_TYPES,
  },
];

const TRACE = new Map(ECHO_TRACES.map((t) => [t.field, t]));

/**
 * Whether the sentence of a field's echo covers this order: its route, its type, and for a field
 * whose sentence names its value, that value. A v1.1 MARKET order sized by quantity and amount
 * together is compared on neither origQty nor reqAmount (nor the executed bound): which size
 * governs is open (D-V11-MARKET-SIZE).
 */
export function echoCovered(field: string, sent: SentOrder, endpoint: string): boolean {
  const t = TRACE.get(field);
  if (t === undefined) return false;
  const type = textSent(sent.get('type'));
  if (type === undefined || !t.types.includes(type)) return false;
  if (t.routes === 'v1.1' && endpoint !== 'v1.1') return false;
  if (t.named !== undefined && textSent(sent.get(field)) !== t.named[type]) return false;
  // a v1.1 MARKET order sized by both: which size governs is open (D-V11-MARKET-SIZE), so neither echo is compared
  if (endpoint === 'v1.1' && type === 'MARKET' && sent.has('amount') && sent.has('quantity'))
    return field !== 'quantity' && field !== 'amount';
  return true;
}

/** The order an accepted single-order answer shows (D-SINGLE-RESPONSE: top level, or under `order` or `data`). */
function singleOrder(json: unknown): Record<string, unknown> | undefined {
  if (!isRecord(json) || 'result' in json) return undefined;
  const shows = (o: unknown): o is Record<string, unknown> =>
    isRecord(o) && ['symbol', 'side', 'type', 'clientOrderId', 'orderId', 'origQty'].some((k) => k in o);
  return [json.order, json.data, json].find(shows);
}

/** Echo and executed-quantity invariants of one placed order against the order sent on `endpoint`; `at` names it in messages. */
function judgeOrder(
  sent: SentOrder,
  echo: Record<string, unknown>,
  at: string,
  out: Judgement,
  endpoint: string,
): void {
  const wrong: string[] = [];
  let compared = false;
  const covered = (field: string) => echoCovered(field, sent, endpoint);
  const symbol = textSent(sent.get('symbol'));
  if (symbol !== undefined && symbol !== '' && echo.symbol !== undefined && covered('symbol')) {
    compared = true;
    if (!sameSymbol(echo.symbol, symbol)) wrong.push(`symbol ${JSON.stringify(echo.symbol)} for ${symbol}`);
  }
  for (const [field, values] of [
    ['side', SIDES],
    ['type', ORDER_TYPES],
    ['timeInForce', TIME_IN_FORCE_VALUES],
  ] as const) {
    const v = textSent(sent.get(field));
    if (!isOneOf(values as readonly string[], v) || echo[field] === undefined || !covered(field)) continue;
    compared = true;
    if (echo[field] !== v) wrong.push(`${field} ${JSON.stringify(echo[field])} for ${v}`);
  }
  for (const [field, key] of [
    ['price', 'price'],
    ['quantity', 'origQty'],
    ['amount', 'reqAmount'],
  ] as const) {
    const sentValue = sent.get(field);
    const v = decimalSent(sentValue);
    if (v === undefined || echo[key] === undefined || !covered(field)) continue;
    // a JSON number may be read as the double nearest it (RFC 8259 §6): its echo may be that double
    const same =
      echoesDecimal(echo[key], v) === true || (sentValue?.number === true && asDouble(echo[key]) === Number(v));
    if (!same && echoesDecimal(echo[key], v) === undefined) continue;
    compared = true;
    if (!same) wrong.push(`${key} ${JSON.stringify(echo[key])} for ${field} ${v}`);
  }
  if (compared) out.checked.add('RESULT-ORDER-ECHO');
  if (wrong.length > 0)
    out.violations.push({
      ruleId: 'RESULT-ORDER-ECHO',
      expected: `${at}: the order as sent, by the seed meaning of each field`,
      actual: wrong.join(', '),
    });
  const id = textSent(sent.get('newClientOrderId'));
  if (id !== undefined && id !== '' && echo.clientOrderId !== undefined && covered('newClientOrderId')) {
    out.checked.add('RESULT-CLIENT-ORDER-ID-ECHO');
    if (echo.clientOrderId !== id)
      out.violations.push({
        ruleId: 'RESULT-CLIENT-ORDER-ID-ECHO',
        expected: `${at}: clientOrderId ${JSON.stringify(id)}, exactly`,
        actual: `clientOrderId ${JSON.stringify(echo.clientOrderId)}`,
      });
  }
  if (echo.executedQty !== undefined) {
    out.checked.add('RESULT-EXECUTED-QTY');
    // the ordered quantity (§2.2 origQty): the one sent where it has one meaning, else the one echoed
    const ordered = (covered('quantity') ? decimalSent(sent.get('quantity')) : undefined) ?? echo.origQty;
    const low = compareDecimals(echo.executedQty, '0');
    const high = ordered === undefined ? -1 : compareDecimals(echo.executedQty, ordered);
    if (low === undefined || low < 0 || high === undefined || high > 0)
      out.violations.push({
        ruleId: 'RESULT-EXECUTED-QTY',
        expected: `${at}: executedQty a decimal from 0 to the quantity ordered, ${JSON.stringify(ordered)}`,
        actual: `executedQty ${JSON.stringify(echo.executedQty)}`,
      });
  }
}

interface Judgement {
  checked: Set<InvariantRule>;
  violations: Violation[];
}

const judged = new WeakMap<object, AnswerJudgement>();

/** The invariants one accepted answer keeps or breaks (nothing to judge for any other answer). */
export function judgeAnswer(x: AnsweredExchange): AnswerJudgement {
  const known = judged.get(x);
  if (known !== undefined) return known;
  const out: Judgement = { checked: new Set(), violations: [] };
  judged.set(x, out);
  const o = x.observation;
  if (o.verdict !== 'accepted' || x.route === undefined || x.request.method !== 'POST') return out;
  if (x.route.endpoint !== 'batch') {
    const echo = singleOrder(o.json);
    if (echo !== undefined) judgeOrder(sentParams(x.request), echo, 'the order', out, x.route.endpoint);
    return out;
  }
  const sent = sentElements(x.request.body);
  const entries = entriesOf(o.json);
  if (sent === undefined || entries === undefined) return out;
  out.checked.add('RESULT-ONE-PER-ORDER');
  if (entries.length !== sent.length)
    out.violations.push({
      ruleId: 'RESULT-ONE-PER-ORDER',
      expected: `${sent.length} result entries, one per element sent`,
      actual: `${entries.length} entries`,
    });
  const ids = sent.map((s) => textSent(s.get('newClientOrderId')));
  for (const [i, entry] of entries.entries()) {
    const order = isRecord(entry) && isRecord(entry.order) && entryPlaced(entry) ? entry.order : undefined;
    const mine = sent[i];
    if (order === undefined || mine === undefined) continue;
    const echoed = order.clientOrderId;
    const other = typeof echoed === 'string' && echoed !== ids[i] ? ids.indexOf(echoed) : -1;
    if (ids[i] !== undefined && echoed !== undefined) out.checked.add('RESULT-ORDER-MATCH');
    if (other !== -1) {
      out.violations.push({
        ruleId: 'RESULT-ORDER-MATCH',
        expected: `result[${i}] answering element ${i} (clientOrderId ${JSON.stringify(ids[i])})`,
        actual: `result[${i}] answers element ${other} (clientOrderId ${JSON.stringify(echoed)})`,
      });
      continue;
    }
    judgeOrder(mine, order, `result[${i}].order`, out, 'batch');
  }
  return out;
}
