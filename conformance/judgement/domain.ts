/**
 * The input domain (spec/domain.json) as probes: every form of every input of the seed, filled
 * in for one request, and the run's plan that sends each invalid form once on a route rotating
 * with the seed, and combines the valid-but-unusual forms several to an accepted request
 * (design notes, "The input domain is data").
 */
import { readKitJson } from '../../src/paths.js';
import { coverage } from '../../src/rules.js';
import type { RuleId } from '../../src/core/rule-id.js';
import { routeKey, type Route } from '../engine/requests.js';
import { allRoutes } from '../engine/discovery.js';

/** The class of a form: the plain valid one, a valid but unusual one, or an invalid one. */
export type FormClass = 'canonical' | 'unusual' | 'invalid';

/** Where an input travels: an order field (§2.1), a time parameter (§5.4), the signature (§5.3), the key header (§5.2), the batch body or an element (§4.1), the query syntax (§5.3). */
export type InputKind = 'order' | 'time' | 'signature' | 'header' | 'body' | 'element' | 'syntax';

/** One parser behaviour with its public source. */
export interface DomainParser {
  id: string;
  language: string;
  function: string;
  behaviour: string;
  source: string;
}

/** One input of the seed. */
export interface DomainInput {
  id: string;
  section: string;
  type: string;
  kind: InputKind;
  ruleId: RuleId;
}

/** One form of an input's value (spec/domain.schema.json). */
export interface DomainForm {
  id: string;
  input: string;
  class: FormClass;
  text?: string;
  json?: string;
  absent?: true;
  body?: string;
  element?: string;
  query?: string;
  key?: string;
  duplicate?: string;
  ruleId?: RuleId;
  decision?: string;
  acceptedBy?: string[];
  note?: string;
  /** Other time inputs sent with this form (templates filled in alike): a window and an age probed together (§5.4). */
  with?: { timestamp?: string; recvWindow?: string };
  /** The only routes the form travels on (route keys), when fewer than its input's. */
  routes?: string[];
  /** Sent once on each endpoint every run (a placement rotating with the seed): a form every order path must meet. */
  everyEndpoint?: true;
  /** An invalid form whose acceptance is a SHOULD failure (an extension a parser may accept that changes nothing sent, D-JSON-TEXT). */
  level?: 'SHOULD';
}

export interface DomainCatalogue {
  seed: string;
  description: string;
  parsers: DomainParser[];
  inputs: DomainInput[];
  forms: DomainForm[];
}

let cache: DomainCatalogue | undefined;

/** The catalogue (spec/domain.json); spec/domain.test.ts validates it against its schema and the reference validator. */
export function domainCatalogue(): DomainCatalogue {
  cache ??= readKitJson<DomainCatalogue>('spec', 'domain.json');
  return cache;
}

/** The input a form belongs to. */
export function inputOf(form: DomainForm, cat: DomainCatalogue = domainCatalogue()): DomainInput {
  const i = cat.inputs.find((x) => x.id === form.input);
  if (i === undefined) throw new Error(`form ${form.id}: unknown input ${form.input}`);
  return i;
}

// ---------------------------------------------------------------- filling in templates

/** What a template is filled in with for one request. */
export interface Fill {
  /** The estimated server time, ms. */
  now: number;
  symbol: string;
  /** A fresh client id (unique in the run). */
  clientId: () => string;
  /** The genuine signature (for signature forms). */
  sig?: string;
  /** The target's API key (for key forms). */
  key?: string;
  /** A valid order's JSON text in a variant (`plain`, `escaped`, `reversed`, `single-quoted`, `dup-side`, `minimal`). */
  order?: (variant: string) => string;
  /** The largest valid batch body (§4.1, §8): 20 orders with the longest ids and decimals. */
  largest?: () => string;
  /** The same in its longest usual spelling (`{largest:escaped}`): astral ids, json.dumps's escapes and separators. */
  largestEscaped?: () => string;
  /** The largest recvWindow the target honours (its description's `maxRecvWindow`, else 60000, D-RECVWINDOW-MAX). */
  maxRecvWindow?: number;
}

const ARABIC = '٠١٢٣٤٥٦٧٨٩';
const FULLWIDTH = '０１２３４５６７８９';

/** A digit string in another notation (the LONG forms of §5.4 templates). */
function longVariant(digits: string, variant: string | undefined): string {
  switch (variant) {
    case undefined:
      return digits;
    case 'underscore':
      return digits.replace(/\B(?=(\d{3})+(?!\d))/g, '_');
    case 'arabic':
      return [...digits].map((d) => ARABIC[Number(d)]).join('');
    case 'fullwidth':
      return [...digits].map((d) => FULLWIDTH[Number(d)]).join('');
    case 'hex':
      return `0x${BigInt(digits).toString(16)}`;
    case 'ns':
      return (BigInt(digits) * 1_000_000n).toString();
    case 'us':
      return (BigInt(digits) * 1_000n).toString();
    case 's':
      return (BigInt(digits) / 1_000n).toString();
    case 'sf':
      return `${BigInt(digits) / 1_000n}.${(BigInt(digits) % 1_000n).toString().padStart(3, '0')}`;
    default:
      throw new Error(`unknown LONG variant ${variant}`);
  }
}

/** `s` padded with the code points of `unit`, in turn, to exactly `n` characters (code points). */
function padTo(s: string, unit: string, n: number): string {
  const chars = [...s].slice(0, Math.min(n, 40));
  const cycle = [...unit];
  for (let i = 0; chars.length < n; i++) chars.push(cycle[i % cycle.length] as string);
  return chars.join('');
}

/** The value of a template sum such as `2^15+1` or `-2^64`, from `base` (left to right). */
function sumOf(base: bigint, terms: string): bigint {
  let v = base;
  for (const [, sign, term] of terms.matchAll(/([+-])(2\^[0-9]+|[0-9]+)/g)) {
    const t = (term as string).startsWith('2^') ? 2n ** BigInt((term as string).slice(2)) : BigInt(term as string);
    v = sign === '+' ? v + t : v - t;
  }
  return v;
}

function hexCase(sig: string, variant: string | undefined): string {
  switch (variant) {
    case undefined:
      return sig;
    case 'mixed':
      return [...sig].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c)).join('');
    case 'spaced':
      return (sig.match(/../g) ?? []).join(' ');
    case 'base64':
      return Buffer.from(sig, 'hex').toString('base64');
    default:
      return sig.slice(0, Number(variant));
  }
}

const TEMPLATE = /\{([a-zA-Z0-9]+)((?:[+-](?:2\^[0-9]+|[0-9]+))*)(?::([^}]+))?\}/g;

/** Fill the `{...}` templates of a form's text (spec/domain.json description). */
export function fillTemplate(text: string, f: Fill): string {
  return text.replace(TEMPLATE, (whole, name: string, terms: string, variant?: string) => {
    if (/^[0-9]+$/.test(name)) return longVariant(sumOf(BigInt(name), terms).toString(), variant);
    switch (name) {
      case 'now':
      case 'w':
        return longVariant(sumOf(BigInt(name === 'now' ? Math.round(f.now) : 5000), terms).toString(), variant);
      case 'wmax':
        return longVariant(sumOf(BigInt(f.maxRecvWindow ?? 60000), terms).toString(), variant);
      case 'symbol':
        if (variant === 'escaped')
          return [...f.symbol].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
        return variant === 'lower' ? f.symbol.toLowerCase() : f.symbol;
      case 'cid':
        return f.clientId();
      case 'cid255':
      case 'cid256':
        return padTo(f.clientId(), variant ?? 'x', name === 'cid255' ? 255 : 256);
      case 'sig':
        return hexCase(f.sig ?? '', variant);
      case 'SIG':
        return (f.sig ?? '').toUpperCase();
      case 'key': {
        const k = f.key ?? '';
        if (variant === 'upper') return k === k.toUpperCase() ? k.toLowerCase() : k.toUpperCase();
        if (variant === 'prefix') return k.slice(0, -1);
        if (variant === 'inner-blank') return `${k.slice(0, 1)} ${k.slice(1)}`;
        return k;
      }
      case 'order':
        if (f.order === undefined) throw new Error('no order to fill in');
        return f.order(variant ?? 'plain');
      case 'largest':
        if (variant === 'escaped') {
          if (f.largestEscaped === undefined) throw new Error('no largest batch to fill in');
          return f.largestEscaped();
        }
        if (f.largest === undefined) throw new Error('no largest batch to fill in');
        return f.largest();
      default:
        return whole;
    }
  });
}

// ---------------------------------------------------------------- the largest valid request

/** A decimal as long as its value allows: 18 fraction digits, trailing zeros added (§2.1 DECIMAL: the same value). */
export function longestDecimal(v: unknown): unknown {
  if (typeof v !== 'string' || !/^[0-9]+(\.[0-9]+)?$/.test(v)) return v;
  const [i, f = ''] = v.split('.');
  return `${i}.${f.padEnd(18, '0')}`;
}

/** A client id of 255 characters (§2.1, §8): the fresh id, then upper- and lower-case letters and two- and three-byte characters. */
export function longestId(id: string): string {
  return padTo(`${id}-`, 'Aé日z', 255);
}

/**
 * An order at its longest: the longest id and decimals, its other fields kept. A target that
 * declares its order values (a price or quantity grid) keeps its own decimals: a venue may refuse
 * more places than its precision, trailing zeros included.
 */
export function longestOrder(
  order: Record<string, unknown>,
  clientId: () => string,
  padDecimals = true,
): Record<string, unknown> {
  const pad = (v: unknown) => (padDecimals ? longestDecimal(v) : v);
  return {
    ...order,
    newClientOrderId: longestId(clientId()),
    ...(order.quantity === undefined ? {} : { quantity: pad(order.quantity) }),
    ...(order.price === undefined ? {} : { price: pad(order.price) }),
  };
}

/**
 * JSON text as Python's `json.dumps` writes it by default: ", " and ": " between items, every
 * non-ASCII character as a `\u` escape, an astral one as its surrogate pair (RFC 8259 §7: the
 * same text). Valid JSON, the same value, and the longest spelling a common client sends.
 */
export function dumpsAscii(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(dumpsAscii).join(', ')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${dumpsAscii(k)}: ${dumpsAscii(x)}`)
      .join(', ')}}`;
  if (typeof v === 'string')
    return JSON.stringify(v).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return JSON.stringify(v);
}

/**
 * The largest valid batch body (§4.1, §8) in its longest usual spelling: 20 orders, each with a
 * 255-character id of non-ASCII characters of the Basic Multilingual Plane (six bytes escaped; an
 * astral one would be two UTF-16 units, and 255 of them are no valid id under every reading,
 * D-CLIENT-ID-CHARS), every optional field, written by {@link dumpsAscii}: about 36 KB, three
 * times the compact spelling of the same orders.
 */
export function largestBatchEscaped(
  order: Record<string, unknown>,
  clientId: () => string,
  padDecimals = true,
): string {
  const orders = Array.from({ length: 20 }, () => ({
    ...longestOrder({ ...order, stpMode: 'EXPIRE_MAKER' }, clientId, padDecimals),
    newClientOrderId: padTo(`${clientId()}-`, '日', 255),
  }));
  return dumpsAscii(orders);
}

/** The largest valid batch body (§4.1, §8): 20 orders, each at its longest. */
export function largestBatch(order: Record<string, unknown>, clientId: () => string, padDecimals = true): string {
  return JSON.stringify(Array.from({ length: 20 }, () => longestOrder(order, clientId, padDecimals)));
}

// ---------------------------------------------------------------- orders as JSON text

/** A placeholder standing for a raw JSON value in an order's JSON text. */
const RAW = '\u0000domain-raw\u0000';

/** JSON text of an order in a variant of its notation (the `{order:...}` templates). */
export function orderText(order: Record<string, unknown>, variant: string): string {
  switch (variant) {
    case 'plain':
      return JSON.stringify(order);
    case 'escaped': {
      const sym = String(order.symbol);
      const esc = [...sym].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
      return JSON.stringify(order).replace(`"symbol":${JSON.stringify(sym)}`, `"symbol":"${esc}"`);
    }
    case 'reversed':
      return JSON.stringify(Object.fromEntries(Object.entries(order).reverse()));
    case 'single-quoted':
      return JSON.stringify(order).replace(/"/g, "'");
    case 'dup-side': {
      const { side, ...rest } = order;
      return JSON.stringify({ side: 'HOLD', ...rest }).replace(/}$/, `,"side":${JSON.stringify(side)}}`);
    }
    case 'minimal': {
      const { newClientOrderId: _c, timeInForce: _t, stpMode: _s, ...rest } = order;
      return JSON.stringify(rest);
    }
    default:
      throw new Error(`unknown order variant ${variant}`);
  }
}

/** The batch element (JSON text) with one order-field form applied to a valid order. */
export function elementWithForm(order: Record<string, unknown>, field: string, form: DomainForm, f: Fill): string {
  const o: Record<string, unknown> = { ...order };
  delete o[field];
  const name = form.key ?? field;
  if (form.absent) return JSON.stringify(o);
  if (form.json !== undefined) {
    o[name] = RAW;
    return JSON.stringify(o).replace(JSON.stringify(RAW), fillTemplate(form.json, f));
  }
  o[name] = fillTemplate(form.text ?? '', f);
  const text = JSON.stringify(o);
  return form.duplicate === undefined
    ? text
    : text.replace(/}$/, `,${JSON.stringify(name)}:${JSON.stringify(fillTemplate(form.duplicate, f))}}`);
}

/** Single-order parameters with one order-field form applied (text, absent or another name; never raw JSON). */
export function paramsWithForm(
  params: Record<string, unknown>,
  field: string,
  form: DomainForm,
  f: Fill,
): Record<string, unknown> {
  const o: Record<string, unknown> = { ...params };
  delete o[field];
  if (form.absent) return o;
  o[form.key ?? field] = fillTemplate(form.text ?? '', f);
  return o;
}

// ---------------------------------------------------------------- the plan of a run

const BATCH: Route = { endpoint: 'batch', placement: 'json' };

/** The rule a form rests on: its own, else its input's (spec/rules.json quotes the seed sentence). */
export function ruleOfForm(form: DomainForm, cat: DomainCatalogue = domainCatalogue()): RuleId {
  return form.ruleId ?? inputOf(form, cat).ruleId;
}

/** The order type a form travels with: MARKET for amount (§2.1: "Market orders only"), else LIMIT. */
export function typeOfForm(form: DomainForm): 'MARKET' | 'LIMIT' {
  return form.input === 'amount' ? 'MARKET' : 'LIMIT';
}

/**
 * The routes a form can travel on (§4, §5.3): raw JSON only in a batch body, amount only on v1.1
 * (§4.2), query syntax on single orders (a method on every path), narrowed by the form's own
 * `routes` and by the routes its rule's sentence covers (spec/rules.json `covers`: a form resting
 * on "quantity ... yes in v1" never goes to v1.1).
 */
export function routesFor(form: DomainForm, cat: DomainCatalogue = domainCatalogue()): Route[] {
  const all = allRoutes();
  const input = inputOf(form, cat);
  const routes =
    input.kind === 'body' || input.kind === 'element'
      ? [BATCH]
      : input.kind === 'syntax'
        ? all.filter((r) => form.everyEndpoint === true || r.endpoint !== 'batch')
        : form.json !== undefined || form.duplicate !== undefined
          ? [BATCH]
          : form.input === 'amount'
            ? all.filter((r) => r.endpoint === 'v1.1')
            : all;
  const only = form.routes;
  const covered = coverage(ruleOfForm(form, cat)).routes;
  return routes.filter((r) => (only === undefined || only.includes(routeKey(r))) && covered.includes(routeKey(r)));
}

/** One probe of the plan: its form, route, and for a batch element the batch size (20 or 21, §4.1) and its position. */
export interface PlannedProbe {
  form: DomainForm;
  route: Route;
  /** Batch size for an element form (20: the element's entry fails; 21: the whole call is refused). */
  size?: number;
  /** Index of the element form inside the batch. */
  at?: number;
  /** The rule this probe's refusal is attributed to. */
  ruleId: RuleId;
}

/** A small deterministic mix of the seed (routes rotate with it). */
function mix(seed: number, salt: number): number {
  let h = (seed ^ Math.imul(salt + 0x9e3779b9, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The routes one run sends the i-th form on: one chosen by the seed, or one per endpoint for a
 * form every order path must meet and for a name in another letter case (`key`), which is a JSON
 * member in a batch and a parameter name elsewhere: two readers (a JSON decoder folding keys, a
 * form binder folding names) each met every run.
 */
function placedOn(form: DomainForm, i: number, seed: number, cat: DomainCatalogue): Route[] {
  const routes = routesFor(form, cat);
  if (form.everyEndpoint !== true && form.key === undefined) return [routes[mix(seed, i) % routes.length] as Route];
  return [...new Set(routes.map((r) => r.endpoint))].map((endpoint, k) => {
    const mine = routes.filter((r) => r.endpoint === endpoint);
    return mine[mix(seed, i + 31 * k) % mine.length] as Route;
  });
}

/**
 * Every invalid form without a decision, once each (the coverage guarantee): on a route of
 * its own routes chosen by the seed (on each endpoint for a form every path must meet), and
 * for a batch element twice, in batches of 20 and 21 (§4.1, §8).
 */
export function invalidPlan(seed: number, cat: DomainCatalogue = domainCatalogue()): PlannedProbe[] {
  const out: PlannedProbe[] = [];
  cat.forms.forEach((form, i) => {
    if (form.class !== 'invalid' || form.decision !== undefined) return;
    const ruleId = form.ruleId ?? inputOf(form, cat).ruleId;
    for (const route of placedOn(form, i, seed, cat)) {
      if (inputOf(form, cat).kind === 'element') {
        out.push({ form, route, size: 20, at: mix(seed, i + 7) % 20, ruleId });
        out.push({ form, route, size: 21, at: mix(seed, i + 11) % 21, ruleId: 'BATCH-MAX-ORDERS' });
      } else out.push({ form, route, ruleId });
    }
  });
  return out;
}

/** Forms the readings of the seed disagree on (a decision named): each sent once and reported as INFO. */
export function openPlan(seed: number, cat: DomainCatalogue = domainCatalogue()): PlannedProbe[] {
  return cat.forms.flatMap((form, i) => {
    const disputed =
      (form.decision !== undefined && form.level === undefined) ||
      (form.input === 'amount' && form.class !== 'invalid');
    if (!disputed) return [];
    const ruleId = form.ruleId ?? (form.input === 'amount' ? 'ORDER-MARKET-SIZE-V11' : inputOf(form, cat).ruleId);
    return placedOn(form, i, seed, cat).map((route) => ({ form, route, ruleId }));
  });
}

/** Invalid forms a parser may accept without changing anything sent (an extension, D-JSON-TEXT): each once, refused at SHOULD. */
export function lenientPlan(seed: number, cat: DomainCatalogue = domainCatalogue()): PlannedProbe[] {
  return cat.forms.flatMap((form, i) =>
    form.level !== 'SHOULD'
      ? []
      : placedOn(form, i, seed, cat).map((route) => ({ form, route, ruleId: ruleOfForm(form, cat) })),
  );
}

/** One accepted request of the plan: the valid forms it carries together. */
export interface AcceptedRequest {
  route: Route;
  forms: DomainForm[];
}

/** Inputs whose valid forms combine on one order request (the rest go alone: body, element, syntax). */
const COMBINED: ReadonlySet<InputKind> = new Set(['order', 'time', 'signature', 'header']);

/** The rule an accepted form exercises: its own when it names one, else its input's, with the signature case and the header's blanks on their own rules. */
export function acceptRule(form: DomainForm, cat: DomainCatalogue = domainCatalogue()): RuleId {
  if (form.ruleId !== undefined && form.decision === undefined) return form.ruleId;
  const input = inputOf(form, cat);
  if (input.kind === 'signature') return 'SIG-CASE-INSENSITIVE';
  if (input.kind === 'header') return 'AUTH-APIKEY-REQUIRED';
  return input.ruleId;
}

/**
 * The valid forms (canonical and unusual, no decision) as accepted requests: request k carries
 * the k-th valid form of every order, time, signature and header input (forms shuffled by the
 * seed), so one request checks many; body, element and syntax forms, and forms sending another
 * time input with them, go one to a request.
 * A request carrying a raw-JSON form goes to the batch; the others rotate over every route.
 */
export function acceptedPlan(seed: number, cat: DomainCatalogue = domainCatalogue()): AcceptedRequest[] {
  const valid = cat.forms
    .map((form, i) => ({ form, i }))
    .filter(({ form }) => form.class !== 'invalid' && form.decision === undefined && form.input !== 'amount');
  const byInput = new Map<string, Array<{ form: DomainForm; i: number }>>();
  const alone: AcceptedRequest[] = [];
  for (const v of valid) {
    const input = inputOf(v.form, cat);
    if (!COMBINED.has(input.kind) || v.form.with !== undefined) {
      for (const route of placedOn(v.form, v.i, seed, cat)) alone.push({ route, forms: [v.form] });
      continue;
    }
    const list = byInput.get(input.id) ?? [];
    list.push(v);
    byInput.set(input.id, list);
  }
  const lists = [...byInput.values()].map((l) => [...l].sort((a, b) => mix(seed, a.i) - mix(seed, b.i)));
  const n = Math.max(0, ...lists.map((l) => l.length));
  const all = allRoutes();
  const combined: AcceptedRequest[] = [];
  for (let k = 0; k < n; k++) {
    const forms = lists.flatMap((l) => {
      const x = l[k];
      return x === undefined ? [] : [x.form];
    });
    const batchOnly = forms.some((f) => f.json !== undefined);
    const route = batchOnly ? BATCH : (all[mix(seed, 1000 + k) % all.length] as Route);
    combined.push({ route, forms });
  }
  return [...combined, ...alone];
}

/** Key of a route, for messages. */
export const where = (r: Route): string => routeKey(r);
