/**
 * The input domain (spec/domain.json) sent: every invalid form of every input once per run,
 * one form per probe so a refusal is attributable, on a route rotating with the seed; the
 * valid-but-unusual forms several to an accepted request; the forms the readings of the seed
 * disagree on as INFO under their decision (design notes, "The input domain is data",
 * "Probes valid or invalid under every reading").
 */
import { ORDER_FIELDS } from '../../src/core/validation/fields.js';
import type { RuleId } from '../../src/core/rule-id.js';
import type { RawRequest } from '../../src/client/http.js';
import { rule } from '../../src/rules.js';
import { describe, entriesOf, entryFailed } from '../../src/core/response.js';
import type { SignatureEdit } from '../engine/sig-edits.js';
import type { CheckContext, CheckDefinition } from '../judgement/types.js';
import type { CheckOutcome, FormFailure, RouteCell } from '../judgement/verdict.js';
import { expect as want } from '../judgement/verdict.js';
import type { Built, Route, SignOptions } from '../engine/requests.js';
import { routeKey } from '../engine/requests.js';
import {
  acceptRule,
  acceptedPlan,
  domainCatalogue,
  fillTemplate,
  inputOf,
  invalidPlan,
  largestBatch,
  largestBatchEscaped,
  lenientPlan,
  longestOrder,
  openPlan,
  orderText,
  type AcceptedRequest,
  type DomainForm,
  type Fill,
  type PlannedProbe,
} from '../judgement/domain.js';
import {
  expectAccepted,
  expectRefused,
  expectRejected,
  fail,
  firstFailure,
  inconclusive,
  info,
  openPoint,
  outcome,
  send,
  verdictOf,
  type Step,
} from './helpers.js';
import { limitParams, marketParams } from './orders.js';
import { encodeComponent } from '../../src/core/signing/query.js';
import { inOrder } from '../engine/pool.js';
import { MAX_RECV_WINDOW } from '../../src/core/validation/time-params.js';

type Params = Record<string, unknown>;

/** The default window (§5.4 item 2: 5000), sent, or the target's largest when it declares a smaller one. */
const defaultWindow = (ctx: CheckContext): number => Math.min(5000, ctx.target.profile?.maxRecvWindow ?? 5000);

/** Whether the target declares the prices or quantities it takes (target description grids). */
const declaresGrid = (ctx: CheckContext): boolean =>
  ctx.target.profile?.price !== undefined || ctx.target.profile?.quantity !== undefined;

/** The template values of one request. */
function fillOf(ctx: CheckContext): Fill {
  return {
    now: ctx.clock.serverNow(),
    symbol: ctx.target.symbol,
    clientId: ctx.clientId,
    key: ctx.target.apiKey,
    order: (variant) => orderText(limitParams(ctx), variant),
    largest: () => largestBatch(limitParams(ctx), ctx.clientId, !declaresGrid(ctx)),
    largestEscaped: () => largestBatchEscaped(limitParams(ctx), ctx.clientId, !declaresGrid(ctx)),
    maxRecvWindow: ctx.target.profile?.maxRecvWindow ?? MAX_RECV_WINDOW,
  };
}

/**
 * Whether a valid form stays inside what the target declares (design notes, "Probes valid or
 * invalid under every reading"): a recvWindow over its `maxRecvWindow` is no positive probe there
 * (D-RECVWINDOW-MAX).
 */
function insideDescription(form: DomainForm, ctx: CheckContext): boolean {
  const max = BigInt(ctx.target.profile?.maxRecvWindow ?? MAX_RECV_WINDOW);
  const window = form.input === 'recvWindow' && !form.absent ? form.text : form.with?.recvWindow;
  if (window === undefined) return true;
  const v = fillTemplate(window, fillOf(ctx));
  return !/^[0-9]+$/.test(v) || BigInt(v) <= max;
}

/** A placeholder for a raw JSON value inside an order's JSON text. */
const raw = (i: number): string => `\u0000raw${i}\u0000`;

/** A valid order with the order-field forms applied: as a batch element (JSON text) and as single-order parameters. */
function orderWith(base: Params, forms: readonly DomainForm[], f: Fill): { element: string; params: Params } {
  const o: Params = { ...base };
  const raws: string[] = [];
  const dups: Array<[string, string]> = [];
  for (const form of forms) {
    delete o[form.input];
    if (form.absent) continue;
    const name = form.key ?? form.input;
    if (form.json !== undefined) {
      o[name] = raw(raws.length);
      raws.push(fillTemplate(form.json, f));
    } else o[name] = fillTemplate(form.text ?? '', f);
    if (form.duplicate !== undefined) dups.push([name, fillTemplate(form.duplicate, f)]);
  }
  let element = JSON.stringify(o);
  raws.forEach((r, i) => {
    element = element.replace(JSON.stringify(raw(i)), r);
  });
  for (const [k, v] of dups) element = element.replace(/}$/, `,${JSON.stringify(k)}:${JSON.stringify(v)}}`);
  return { element, params: o };
}

/** A signature form as a rewrite of the genuine signature with its bash form, so a printed curl re-signs and applies it. */
function signatureEdit(text: string, f: Fill): SignatureEdit {
  const apply = (sig: string) => fillTemplate(text, { ...f, sig });
  const exact = /^([^{}$"`\\]*)\{(sig|SIG)(?::(mixed|spaced|[0-9]+))?\}([^{}$"`\\]*)$/.exec(text);
  let shell = `SIG=${JSON.stringify(apply('0'.repeat(64)))}  # not reproducible in the shell`;
  if (text === '') shell = "SIG=''";
  else if (exact !== null) {
    const [, pre = '', name, variant, post = ''] = exact;
    const base =
      name === 'SIG'
        ? `SIG=$(printf '%s' "$SIG" | tr a-f A-F)`
        : variant === 'mixed'
          ? `SIG=$(printf '%s' "$SIG" | awk '{ for (i = 1; i <= length($0); i++) { c = substr($0, i, 1); printf "%s", (i % 2 == 1 ? toupper(c) : c) } }')`
          : variant === 'spaced'
            ? `SIG=$(printf '%s' "$SIG" | sed 's/../& /g; s/ $//')`
            : variant !== undefined
              ? `SIG="\${SIG:0:${variant}}"`
              : '';
    shell = [base, pre !== '' || post !== '' ? `SIG="${pre}\${SIG}${post}"` : ''].filter((x) => x !== '').join('; ');
    if (shell === '') shell = ':';
  }
  return Object.assign(apply, { what: `signature form ${JSON.stringify(text)}`, shell });
}

/** A text rewrite applied alike to the bytes sent and the bytes signed (the query syntax forms, §5.3). */
function rewrite(t: (s: string) => string): Pick<SignOptions, 'signedString' | 'tamper'> {
  return {
    signedString: (_tp, q, b) => t(q) + t(b),
    tamper: (req: RawRequest) => ({ ...req, query: t(req.query ?? ''), body: t(req.body ?? '') }),
  };
}

/** The signature pair the builder appends last to a query or body, and the text before it. */
function splitSignature(s: string): { rest: string; pair: string } {
  const m = /(?:^|&)signature=[^&]*$/.exec(s);
  return m === null ? { rest: s, pair: '' } : { rest: s.slice(0, m.index), pair: m[0].replace(/^&/, '') };
}

/** A rewrite of the signed pairs only (the signature pair kept last, untouched): signed and sent alike, empty text left empty. */
function rewritePairs(t: (s: string, part: 'query' | 'body') => string): Pick<SignOptions, 'signedString' | 'tamper'> {
  const tt = (s: string, part: 'query' | 'body') => (s === '' ? s : t(s, part));
  const sent = (s: string, part: 'query' | 'body') => {
    const { rest, pair } = splitSignature(s);
    const head = tt(rest, part);
    return pair === '' ? head : head === '' ? pair : `${head}&${pair}`;
  };
  return {
    signedString: (_tp, q, b) => tt(q, 'query') + tt(b, 'body'),
    tamper: (req: RawRequest) => ({
      ...req,
      query: sent(req.query ?? '', 'query'),
      body: sent(req.body ?? '', 'body'),
    }),
  };
}

/** Every UTF-8 byte of `s` as an upper-case percent-escape, unreserved characters included (RFC 3986 §2.1). */
const escapeAll = (s: string): string =>
  [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** A parameter's name spelt otherwise where it stands (query or body), signed as sent. */
const renamed = (name: string, to: string) =>
  rewritePairs((s) => s.replace(new RegExp(`(^|&)${name}=`), (_m, p: string) => `${p}${to}=`));

/** The signature pair's name spelt otherwise on the wire (the signature is never part of the signed string, §5.3 item 5). */
const signatureRenamed = (to: string): SignOptions => ({
  tamper: (req: RawRequest) => {
    const t = (s: string) => s.replace(/(^|&)signature=/, (_m, p: string) => `${p}${to}=`);
    return { ...req, query: t(req.query ?? ''), body: t(req.body ?? '') };
  },
});

/** The signature in the query and in the body: the genuine value or one digit changed in each (D-DUPLICATE-PARAM). */
function signatureTwice(which: 'same' | 'query' | 'body'): SignOptions {
  return {
    tamper: (req: RawRequest) => {
      const q = splitSignature(req.query ?? '');
      const b = splitSignature(req.body ?? '');
      const sig = (q.pair || b.pair).slice('signature='.length);
      const wrong = `${sig.startsWith('0') ? '1' : '0'}${sig.slice(1)}`;
      const add = (s: string, v: string) => (s === '' ? `signature=${v}` : `${s}&signature=${v}`);
      const formBody = b.rest === '' ? { 'content-type': 'application/x-www-form-urlencoded' } : {};
      return {
        ...req,
        headers: { ...req.headers, ...formBody },
        query: add(q.rest, which === 'body' ? wrong : sig),
        body: add(b.rest, which === 'query' ? wrong : sig),
      };
    },
  };
}

/** Order fields (§2.1): the pairs the `;` separators join. */
const ORDER_FIELD_SET: ReadonlySet<string> = new Set(ORDER_FIELDS);

/** The order-field pairs of a query or body joined by `;` instead of `&`, the time parameters left apart. */
function semicolonJoined(s: string): string {
  const out: string[] = [];
  for (const pair of s.split('&')) {
    const name = pair.slice(0, pair.indexOf('='));
    const prev = out.at(-1);
    if (ORDER_FIELD_SET.has(name) && prev !== undefined && ORDER_FIELD_SET.has(prev.slice(0, prev.indexOf('='))))
      out[out.length - 1] = `${prev};${pair}`;
    else out.push(pair);
  }
  return out.join('&');
}

/** The HTTP method of a method form (`method-PUT`), if it is one. */
const methodOf = (name: string): string | undefined => /^method-([A-Z]+)$/.exec(name)?.[1];

/** The query-syntax variants (spec/domain.json input `syntax`): parameters and rewrites of a valid LIMIT order. */
function syntaxVariant(name: string, params: Params, ctx: CheckContext): { params: Params; opts: SignOptions } {
  const { side, ...rest } = params;
  const method = methodOf(name);
  if (method !== undefined) return { params, opts: { tamper: (req: RawRequest) => ({ ...req, method }) } };
  const field = /^name-(escaped|upper)-([A-Za-z]+)$/.exec(name);
  if (field !== null) {
    const [, how, f = ''] = field;
    const to = how === 'upper' ? f.toUpperCase() : `%${f.charCodeAt(0).toString(16).toUpperCase()}${f.slice(1)}`;
    const withField = f === 'stpMode' ? { ...params, stpMode: 'EXPIRE_TAKER' } : params;
    const opts: SignOptions = f === 'signature' ? signatureRenamed(to) : renamed(f, to);
    return { params: withField, opts: f === 'recvWindow' ? { ...opts, recvWindow: defaultWindow(ctx) } : opts };
  }
  const id = String(params.newClientOrderId).replace(/ a\+b$/, '');
  const tailed = (tail: string, t: (enc: string, part: 'query' | 'body') => string) => ({
    params: { ...params, newClientOrderId: `${id}${tail}` },
    opts: rewritePairs((s, part) => s.replace(encodeComponent(tail), () => t(encodeComponent(tail), part))),
  });
  switch (name) {
    case 'plain':
    case 'space-%20':
      return { params, opts: {} };
    case 'space-+':
      return { params, opts: rewrite((s) => s.replace(/%20/g, '+')) };
    case 'lower-escapes':
      return { params, opts: rewrite((s) => s.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())) };
    case 'upper-escapes':
      return tailed('~Az-é日', () => escapeAll('~Az-é日'));
    case 'raw-subdelims':
      // a WHATWG URL (the HTTP client's parser) percent-encodes ' in a query: raw there in a form body only
      return tailed("!$'()*,:@/?", (_e, part) => (part === 'body' ? "!$'()*,:@/?" : '!$%27()*,:@/?'));
    case 'semicolon-in-value':
      return tailed(';a=b', (enc) => enc.replace('%3B', ';'));
    case 'space-+-bare':
      // the only escape of the value: a + read as a blank by a form reader, however it skips escape-free text
      return tailed(' x', (enc) => enc.replace('%20', '+'));
    case 'malformed-escape':
      // "%ZZ" starts no escape (RFC 3986 §2.1): sent raw, signed as sent
      return tailed('%ZZ', (enc) => enc.replace('%25ZZ', '%ZZ'));
    case 'escaped-letter':
      return {
        params,
        opts: rewrite((s) =>
          s.replace(
            /(^|&)symbol=([A-Za-z])/,
            (_m, p: string, c: string) => `${p}symbol=%${c.charCodeAt(0).toString(16).toUpperCase()}`,
          ),
        ),
      };
    case 'bare-name':
      // "stpMode" with no "=" after the other pairs, signed as sent: an empty stpMode
      return { params, opts: rewritePairs((s) => `${s}&stpMode`) };
    case 'after-signature':
      // an unsigned pair after the signature pair, wherever the signature travels
      return {
        params,
        opts: {
          tamper: (req: RawRequest) =>
            /(^|&)signature=/.test(req.query ?? '')
              ? { ...req, query: `${req.query}&stpMode=EXPIRE_MAKER` }
              : { ...req, body: `${req.body}&stpMode=EXPIRE_MAKER` },
        },
      };
    case 'unsigned-query-signed-body':
      // side left out of the signed body, sent unsigned in the query (§5.3 item 4: totalParams is the query, then the body)
      return { params: rest, opts: { tamper: (req: RawRequest) => ({ ...req, query: 'side=SELL' }) } };
    case 'signature-twice-same':
      return { params, opts: signatureTwice('same') };
    case 'signature-twice-query-valid':
      return { params, opts: signatureTwice('query') };
    case 'signature-twice-body-valid':
      return { params, opts: signatureTwice('body') };
    case 'empty-pair':
      return { params, opts: rewritePairs((s) => s.replace('&', '&&')) };
    case 'leading-ampersand':
      return { params, opts: rewritePairs((s) => `&${s}`) };
    case 'trailing-ampersand':
      return { params, opts: rewritePairs((s) => `${s}&`) };
    case 'semicolon-separators':
      return { params, opts: rewritePairs(semicolonJoined) };
    case 'longest':
      return {
        params: longestOrder({ ...params, stpMode: 'EXPIRE_MAKER' }, ctx.clientId, !declaresGrid(ctx)),
        // (the default window, sent: a window a venue may cap is recvWindow's forms' to judge)
        opts: { recvWindow: defaultWindow(ctx) },
      };
    case 'array-name':
      return { params: { ...rest, 'side[]': side }, opts: {} };
    case 'name-case':
      return { params: { ...rest, SIDE: side }, opts: {} };
    case 'semicolon':
      return {
        params: { ...rest, side },
        opts: rewrite((s) => {
          const t = s.replace('&side=BUY', ';side=BUY');
          return t !== s ? t : s.replace(/^side=BUY&/, 'side=BUY;');
        }),
      };
    case 'duplicate-last-valid':
      return { params, opts: rewrite((s) => s.replace('side=BUY', 'side=HOLD&side=BUY')) };
    case 'duplicate-first-valid':
      return { params, opts: rewrite((s) => s.replace('side=BUY', 'side=BUY&side=HOLD')) };
    default:
      throw new Error(`unknown query syntax variant ${name}`);
  }
}

/** The request carrying `forms` on `route` (for a batch element form: in a batch of `size` at `at`). */
function build(ctx: CheckContext, route: Route, forms: readonly DomainForm[], size = 1, at = 0): Built {
  const f = fillOf(ctx);
  const opts: SignOptions = {};
  const orderForms: DomainForm[] = [];
  let body: string | undefined;
  let syntax: string | undefined;
  // a target declaring its order values (target description) gets its own decimals: unusual ones would meet its filters
  const grid = declaresGrid(ctx);
  for (const form of forms) {
    const kind = inputOf(form).kind;
    if (kind === 'order') {
      const ownDecimal = grid && form.class !== 'invalid' && (form.input === 'price' || form.input === 'quantity');
      if (!ownDecimal) orderForms.push(form);
    } else if (kind === 'time') {
      if (form.absent) {
        if (form.input === 'timestamp') opts.omitTimestamp = true;
      } else if (form.input === 'timestamp') opts.timestamp = fillTemplate(form.text ?? '', f);
      else opts.recvWindow = fillTemplate(form.text ?? '', f);
      if (form.with?.timestamp !== undefined) opts.timestamp = fillTemplate(form.with.timestamp, f);
      if (form.with?.recvWindow !== undefined) opts.recvWindow = fillTemplate(form.with.recvWindow, f);
    } else if (kind === 'signature') {
      opts.signature = signatureEdit(form.text ?? '', f);
    } else if (kind === 'header') opts.apiKey = form.absent ? null : fillTemplate(form.text ?? '', f);
    else if (kind === 'body') body = form.body ?? '';
    else if (kind === 'element') {
      const element = fillTemplate(form.element ?? '', f);
      const orders = Array.from({ length: size - 1 }, () => orderText(limitParams(ctx), 'plain'));
      orders.splice(at, 0, element);
      body = `[${orders.join(',')}]`;
    } else syntax = form.query;
  }
  const amount = orderForms.some((x) => x.input === 'amount');
  const base: Params = amount ? (({ quantity: _q, ...m }) => m)(marketParams(ctx)) : limitParams(ctx);
  if (route.endpoint === 'batch') {
    const rawBody = body === undefined ? `[${orderWith(base, orderForms, f).element}]` : fillTemplate(body, f);
    // of the query syntax, only another method travels on the batch (its body is JSON)
    const method = syntax === undefined ? undefined : methodOf(syntax);
    if (syntax !== undefined && method === undefined) throw new Error(`query syntax ${syntax} has no batch form`);
    const other = method === undefined ? {} : { tamper: (req: RawRequest) => ({ ...req, method }) };
    return ctx.requests.batch(undefined, { ...opts, ...other, rawBody });
  }
  const version = route.endpoint === 'v1.1' ? 'v1.1' : 'v1';
  const placement = route.placement === 'json' ? 'query' : route.placement;
  if (syntax !== undefined) {
    const s = syntaxVariant(syntax, { ...limitParams(ctx), newClientOrderId: `${ctx.clientId()} a+b` }, ctx);
    return ctx.requests.order(s.params, version, placement, { ...opts, ...s.opts });
  }
  return ctx.requests.order(orderWith(base, orderForms, f).params, version, placement, opts);
}

/** A step of a per-input check with what it sent: its route and the forms its request carried. */
interface FormStep {
  step: Step;
  route: Route;
  forms: readonly DomainForm[];
}

/**
 * A per-input check's outcome from all its steps: every failing form listed (`failures`; the
 * first is Expected/Actual, so a second bug does not hide behind the first), and the check's own
 * cell on every route it sent to (fail where a form failed, inconclusive where a probe was not
 * decided, else pass), so the route cells agree with the check.
 */
export function formsOutcome(
  results: readonly FormStep[],
  extra: { observed?: string; runs?: number } = {},
): CheckOutcome {
  const byRoute = new Map<string, { fail?: string; open?: string; requests: number }>();
  for (const r of results) {
    const key = routeKey(r.route);
    const c = byRoute.get(key) ?? { requests: 0 };
    c.requests++;
    const s = r.step;
    if (s?.status === 'fail')
      c.fail ??= `${r.forms.map((f) => f.id).join(', ')}: expected ${s.expected}; got ${s.actual}`;
    else if (s !== undefined && s.status !== 'pass') c.open ??= 'reason' in s ? s.reason : s.status;
    byRoute.set(key, c);
  }
  const cells: RouteCell[] = [...byRoute].map(([route, c]) =>
    c.fail !== undefined
      ? { route, verdict: 'fail', reason: c.fail, requests: c.requests }
      : c.open !== undefined
        ? { route, verdict: 'inconclusive', reason: c.open, requests: c.requests }
        : { route, verdict: 'pass', requests: c.requests },
  );
  const failures: FormFailure[] = results.flatMap((r) =>
    r.step?.status === 'fail'
      ? [
          {
            route: routeKey(r.route),
            forms: r.forms.map((f) => f.id),
            expected: r.step.expected,
            actual: r.step.actual,
          },
        ]
      : [],
  );
  const first = results.find((r) => r.step?.status === 'fail')?.step;
  if (first?.status === 'fail') {
    const more = failures.slice(1);
    return {
      ...first,
      ...(more.length === 0
        ? {}
        : {
            actual: `${first.actual} (and ${more.length} more failing form${more.length === 1 ? '' : 's'}: ${more
              .slice(0, 8)
              .map((f) => `${f.forms.join(' + ')} on ${f.route}`)
              .join(', ')}${more.length > 8 ? ', …' : ''}; every one in the report's failures)`,
          }),
      ...(extra.runs === undefined ? {} : { runs: extra.runs }),
      failures,
      cells,
    };
  }
  const o = outcome(firstFailure(...results.map((r) => r.step)), extra);
  return o.status === 'pass' || o.status === 'inconclusive' ? { ...o, cells } : o;
}

/** What a probe carries, for messages. */
function label(p: { route: Route; forms: readonly DomainForm[]; size?: number }): string {
  const sized = p.size !== undefined && p.size > 1 ? ` in a batch of ${p.size}` : '';
  return `${routeKey(p.route)}: ${p.forms.map((f) => `${f.id}${f.note === undefined ? '' : ` (${f.note})`}`).join(', ')}${sized}`;
}

/** The step of an element probe in a batch of 20: its entry failed, or the whole call was refused (§4.1 rule 3). */
function entryStep(r: Awaited<ReturnType<typeof send>>, at: number, what: string): Step {
  const v = verdictOf(r, want.entry(at));
  if (v.verdict === 'pass') return undefined;
  if (v.verdict === 'fail')
    return fail(`${what}: entry ${at} failed, or the call refused; never a 5xx`, v.reason, r.exchange);
  return inconclusive(`${what}: ${v.reason}`, r.exchange);
}

/**
 * A valid order sent with another method than POST (§4.1, §4.2): refused, any refusal, and
 * placing nothing. An answer to OPTIONS without a body describes the resource (RFC 9110
 * §9.3.7) and shows no order; one to HEAD leaves unshown whether the GET it mirrors placed one.
 */
function methodStep(r: Awaited<ReturnType<typeof send>>, what: string, method: string): Step {
  const o = r.observation;
  const bodiless = o.verdict === 'bad-response' && o.status !== undefined && o.status >= 200 && o.status < 300;
  if (bodiless && method === 'OPTIONS') return undefined;
  if (bodiless && method === 'HEAD')
    return inconclusive(
      `${what}: answered ${o.status} without a body, so whether the order was placed is not shown`,
      r.exchange,
    );
  return expectRefused(r, what, 'any');
}

/** Send one planned invalid form and state what its answer must be. */
async function probeInvalid(ctx: CheckContext, p: PlannedProbe): Promise<Step> {
  const r = await send(ctx, build(ctx, p.route, [p.form], p.size, p.at));
  const what = label({ route: p.route, forms: [p.form], ...(p.size === undefined ? {} : { size: p.size }) });
  const kind = inputOf(p.form).kind;
  const method = p.form.query === undefined ? undefined : methodOf(p.form.query);
  if (method !== undefined) return methodStep(r, what, method);
  if (kind === 'element') return p.size === 20 ? entryStep(r, p.at ?? 0, what) : expectRefused(r, what);
  if (kind === 'signature' || kind === 'header' || /^(SIG|AUTH)-/.test(p.ruleId))
    return expectRejected(r, what, 'auth');
  if (kind === 'order' || kind === 'syntax') return expectRefused(r, what);
  return expectRejected(r, what);
}

const cat = domainCatalogue();
/** Inputs by rule, for titles. */
function inputsOf(ruleId: RuleId, pick: (f: DomainForm) => boolean): string {
  return [
    ...new Set(cat.forms.filter((f) => pick(f) && (f.ruleId ?? inputOf(f).ruleId) === ruleId).map((f) => f.input)),
  ].join(', ');
}

/** Rules of the run's invalid probes (seed-independent: every invalid form is sent every run). */
const INVALID_RULES = [...new Set(invalidPlan(0).map((p) => p.ruleId))];
const OPEN_RULES = [...new Set(openPlan(0).map((p) => p.ruleId))];
const LENIENT_RULES = [...new Set(lenientPlan(0).map((p) => p.ruleId))];
const ACCEPT_RULES = [...new Set(acceptedPlan(0).flatMap((a) => a.forms.map((f) => acceptRule(f))))];

/** Every invalid form of the rule's inputs, once, one to a probe: refused. */
function invalidCheck(ruleId: RuleId): CheckDefinition {
  const inputs =
    ruleId === 'BATCH-MAX-ORDERS'
      ? 'element'
      : inputsOf(ruleId, (f) => f.class === 'invalid' && f.decision === undefined);
  return {
    id: `${ruleId}.domain`,
    ruleId,
    title:
      ruleId === 'BATCH-MAX-ORDERS'
        ? 'a batch of 21 elements, one of them not an order (null, {}, a string, a number...), is refused: never counted away (§4.1, spec/domain.json)'
        : `every invalid form of ${inputs} in the domain catalogue (spec/domain.json) is refused, one form per probe, on routes rotating with the seed`,
    ...(ruleId === 'BATCH-PER-ORDER-RULES' ? { placesOrders: true } : {}),
    async run(ctx) {
      const probes = invalidPlan(ctx.seed).filter((p) => p.ruleId === ruleId);
      const steps = await inOrder(probes, ctx.parallel ?? 1, (p) => probeInvalid(ctx, p));
      return formsOutcome(
        probes.map((p, i) => ({ step: steps[i], route: p.route, forms: [p.form] })),
        { observed: `${probes.length} invalid forms sent`, runs: probes.length },
      );
    },
  };
}

/**
 * Extensions a parser may accept (D-JSON-TEXT: comments, a trailing comma, single quotes; RFC 8259
 * §9): refused at SHOULD, since accepting one changes nothing the client signed or meant.
 */
function lenientCheck(ruleId: RuleId): CheckDefinition {
  return {
    id: `${ruleId}.domain-lenient`,
    ruleId,
    title: `the extensions of ${inputsOf(ruleId, (f) => f.level === 'SHOULD')} a parser may accept (RFC 8259 §9: comments, a trailing comma, single-quoted strings; spec/domain.json) are refused`,
    level: 'SHOULD',
    levelReason:
      'RFC 8259 §9 lets a JSON parser accept extensions; accepting one changes nothing the client signed or meant (D-JSON-TEXT), so a server taking it is lenient, not wrong',
    async run(ctx) {
      const probes = lenientPlan(ctx.seed).filter((p) => p.ruleId === ruleId);
      const steps = await inOrder(probes, ctx.parallel ?? 1, (p) => probeInvalid(ctx, p));
      return formsOutcome(
        probes.map((p, i) => ({ step: steps[i], route: p.route, forms: [p.form] })),
        { observed: `${probes.length} extensions sent`, runs: probes.length },
      );
    },
  };
}

/** Forms the readings disagree on: what the server did, as INFO under each form's decision. */
function openCheck(ruleId: RuleId): CheckDefinition {
  return {
    id: `${ruleId}.domain-open`,
    ruleId,
    title: `forms of ${inputsOf(ruleId, (f) => f.decision !== undefined || (f.input === 'amount' && f.class !== 'invalid'))} the readings of the seed disagree on (spec/domain.json, each naming its decision): what the server does`,
    ...(rule(ruleId).level === 'INFO'
      ? {}
      : {
          level: 'INFO' as const,
          levelReason:
            'each form is an open point of spec/decisions.md (its decision is named): reported, never failed',
        }),
    async run(ctx) {
      const probes = openPlan(ctx.seed).filter((p) => p.ruleId === ruleId);
      const outs: CheckOutcome[] = await inOrder(probes, ctx.parallel ?? 1, async (p) => {
        const r = await send(ctx, build(ctx, p.route, [p.form]));
        const decision = p.form.decision ?? 'D-V11-MARKET-SIZE';
        const entries = entriesOf(r.observation.json);
        if (
          r.observation.verdict === 'accepted' &&
          entries !== undefined &&
          entries.length > 0 &&
          entries.every(entryFailed)
        ) {
          const what = `${label({ route: p.route, forms: [p.form] })} [${decision}]`;
          return info(
            `${what}: every entry failed (${describe(r.observation)})`,
            p.form.class === 'invalid',
            r.exchange,
          );
        }
        const what = `${label({ route: p.route, forms: [p.form] })} [${decision}]`;
        // a signature form's refusal at the signature is the reading observed, through a controlled route
        if (/^(SIG|AUTH)-/.test(p.ruleId) && r.observation.verdict === 'rejected') {
          const v = verdictOf(r, want.refuse('auth'));
          if (v.verdict === 'inconclusive') return inconclusive(`${what}: ${v.reason}`, r.exchange);
          return info(`${what}: rejected (${describe(r.observation)})`, p.form.class === 'invalid', r.exchange);
        }
        return openPoint(r, what, p.form.class === 'invalid' ? 'rejected' : 'accepted');
      });
      const bad = outs.find((o) => o.status !== 'info');
      if (bad !== undefined) return bad;
      const all = outs as Array<Extract<CheckOutcome, { status: 'info' }>>;
      return info(
        all.map((o) => o.observed).join('; '),
        all.every((o) => o.matchesReference !== false),
      );
    },
  };
}

/** The client id a built request carries (batch element 0, or the single order's parameter), if any. */
function sentClientId(b: Built): string | undefined {
  try {
    if (b.request.path.includes('batch')) {
      const list: unknown = JSON.parse(b.request.body ?? '');
      const first = Array.isArray(list) ? (list[0] as { newClientOrderId?: unknown } | undefined) : undefined;
      return typeof first?.newClientOrderId === 'string' ? first.newClientOrderId : undefined;
    }
  } catch {
    return undefined;
  }
  for (const part of [b.request.query ?? '', b.request.body ?? '']) {
    const id = new URLSearchParams(part).get('newClientOrderId');
    if (id !== null) return id;
  }
  return undefined;
}

/** Send an accepted request of the plan once for the run (the rules of its forms and the echo invariant judge the same answer). */
async function sendAccepted(
  ctx: CheckContext,
  a: AcceptedRequest,
): Promise<{ r: Awaited<ReturnType<typeof send>>; id: string | undefined }> {
  const key = `domain-accepted ${routeKey(a.route)} ${a.forms.map((f) => f.id).join(',')}`;
  const make = () => {
    const built = build(ctx, a.route, a.forms);
    return { built, carry: sentClientId(built) };
  };
  if (ctx.shared === undefined) {
    const { built, carry } = make();
    return { r: await send(ctx, built), id: carry };
  }
  const { result, carry } = await ctx.shared(key, make);
  return { r: result, id: carry };
}

/** The clientOrderId an accepted answer echoes: the first batch entry's order, or the single order's (D-SINGLE-RESPONSE). */
function echoedClientId(json: unknown): unknown {
  const entries = entriesOf(json);
  const holder: unknown = entries === undefined ? json : entries[0];
  if (typeof holder !== 'object' || holder === null) return undefined;
  const h = holder as { order?: { clientOrderId?: unknown }; clientOrderId?: unknown };
  return h.order?.clientOrderId ?? h.clientOrderId;
}

/**
 * Every accepted request of the domain plan echoes the client id exactly as sent (§2.2):
 * letter case, blanks, non-ASCII and astral characters, 255 characters of them. No request
 * of its own: it judges the answers the unusual-form checks got.
 */
const echoCheck: CheckDefinition = {
  id: 'RESULT-CLIENT-ORDER-ID-ECHO.domain',
  ruleId: 'RESULT-CLIENT-ORDER-ID-ECHO',
  title:
    'the clientOrderId of every accepted request of the domain catalogue is the newClientOrderId sent, exactly (letter case, blanks, non-ASCII and astral characters, 255 characters)',
  placesOrders: true,
  async run(ctx) {
    const plan = acceptedPlan(ctx.seed)
      .map((a) => ({ ...a, forms: a.forms.filter((f) => insideDescription(f, ctx)) }))
      .filter((a) => a.forms.some((f) => f.input === 'newClientOrderId'));
    const steps = await inOrder(plan, ctx.parallel ?? 1, async (a): Promise<Step> => {
      const { r, id } = await sendAccepted(ctx, a);
      if (r.observation.verdict !== 'accepted' || id === undefined) return undefined;
      const echo = echoedClientId(r.observation.json);
      if (echo === undefined || echo === id) return undefined;
      return fail(
        `${label(a)}: clientOrderId ${JSON.stringify(id)}`,
        `clientOrderId ${JSON.stringify(echo)}`,
        r.exchange,
      );
    });
    return formsOutcome(
      plan.map((a, i) => ({ step: steps[i], route: a.route, forms: a.forms })),
      { runs: plan.length },
    );
  },
};

/**
 * The valid-but-unusual forms of the rule's inputs are accepted: they travel several to a
 * request (one request shared by the rules of its forms); a refused request is resent with
 * only this rule's forms, so a refusal fails the rule whose form it is.
 */
function acceptCheck(ruleId: RuleId): CheckDefinition {
  const forms = acceptedPlan(0).flatMap((a) => a.forms.filter((f) => acceptRule(f) === ruleId));
  return {
    id: `${ruleId}.domain-unusual`,
    ruleId,
    title: `the canonical and valid-but-unusual forms of ${[...new Set(forms.map((f) => f.input))].join(', ')} (spec/domain.json: longest, letter case, blanks, non-ASCII and astral characters, JSON numbers, trailing zeros) are accepted`,
    ...(rule(ruleId).level === 'SHOULD'
      ? {
          level: 'MUST' as const,
          levelReason:
            'a valid form of a field the seed defines must be accepted (§2.1); the SHOULD of the rule is about refusing invalid values',
        }
      : {}),
    placesOrders: true,
    async run(ctx) {
      const plan = acceptedPlan(ctx.seed)
        .map((a) => ({ ...a, forms: a.forms.filter((f) => insideDescription(f, ctx)) }))
        .filter((a) => a.forms.some((f) => acceptRule(f) === ruleId));
      const steps = await inOrder(plan, ctx.parallel ?? 1, async (a) => {
        const { r } = await sendAccepted(ctx, a);
        if (r.observation.verdict === 'accepted') return expectAccepted(r, label(a));
        const mine = a.forms.filter((f) => acceptRule(f) === ruleId);
        if (mine.length === a.forms.length) return expectAccepted(r, label(a));
        // the combined request was refused: this rule's forms alone decide
        const alone = await send(ctx, build(ctx, a.route, mine));
        const others = a.forms.length - mine.length;
        return expectAccepted(
          alone,
          `${label({ route: a.route, forms: mine })} (sent again on their own: the request that also carried ${others} form${others === 1 ? '' : 's'} of other rules was ${r.observation.verdict})`,
        );
      });
      return formsOutcome(
        plan.map((a, i) => ({
          step: steps[i],
          route: a.route,
          forms: a.forms.filter((f) => acceptRule(f) === ruleId),
        })),
        { runs: plan.length },
      );
    },
  };
}

export const domainChecks: CheckDefinition[] = [
  ...INVALID_RULES.map(invalidCheck),
  ...ACCEPT_RULES.map(acceptCheck),
  ...OPEN_RULES.map(openCheck),
  ...LENIENT_RULES.map(lenientCheck),
  echoCheck,
];
