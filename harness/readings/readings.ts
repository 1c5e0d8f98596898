/**
 * The other reading of every open point of spec/decisions.md, as options of the readings front
 * (harness/readings/front.ts): each is what a correct server may do where the seed leaves the
 * choice, unlike the reference. The kit must pass each alone and all of them together
 * (readings.test.ts, matrix.test.ts). Test harness only.
 */
import { ORDER_PATHS } from '../../src/client/requests.js';
import { ORDER_FIELDS } from '../../src/core/validation/fields.js';
import { validateBatch } from '../../src/core/validation/batch.js';
import { validateOrder } from '../../src/core/validation/order.js';
import { plainDecimal } from '../../src/core/validation/decimal.js';
import { isRecord } from '../../src/core/response.js';
import {
  editOrders,
  elementsOf,
  fieldsOf,
  member,
  ok,
  paramsOf,
  rawNumber,
  refuse,
  setElements,
  setParams,
  text,
  type FrontRequest,
  type Reading,
} from './front.js';
import { dedupe, depthOf, readJsonText, writeJsonText, type JsonNode } from './json-text.js';

/** The optional fields of §2.1 and §5.4 whose absence has a meaning (a generated id, a default). */
const OPTIONAL = new Set(['newClientOrderId', 'timeInForce', 'stpMode', 'recvWindow']);
const KNOWN_PARAMS = new Set<string>([...ORDER_FIELDS, 'timestamp', 'recvWindow', 'signature']);
const STRING_FIELDS = ['symbol', 'side', 'type', 'newClientOrderId', 'timeInForce', 'stpMode'];
const DECIMAL_FIELDS = ['quantity', 'price', 'amount'];
const LONG_MAX = 2n ** 63n - 1n;

/** A time parameter's value (the batch's query, a single order's parameters), first as sent. */
function timeParam(req: FrontRequest, name: string): string | undefined {
  const from = req.endpoint === 'batch' ? { ...req, body: '' } : req;
  return paramsOf(from).find((p) => p.name === name)?.value;
}

/** Replace a time parameter's value (every pair of that name). */
function setTimeParam(req: FrontRequest, name: string, value: string): void {
  const batch = req.endpoint === 'batch';
  const params = paramsOf(batch ? { ...req, body: '' } : req).map((p) => (p.name === name ? { ...p, value } : p));
  const body = req.body;
  setParams(req, params);
  if (batch) req.body = body;
}

/** Each order of the request as a JSON tree (a single order's parameters as strings). */
function ordersAsNodes(req: FrontRequest): JsonNode[] {
  if (req.endpoint === 'batch') return elementsOf(req) ?? [];
  const members: Array<[string, JsonNode]> = [];
  for (const [k, v] of fieldsOf(req)) members.push([k, { kind: 'string', value: v }]);
  return [{ kind: 'object', members }];
}

/** The value of a decimal field as text (a string's value, a number's text). */
function decimalText(o: JsonNode, f: string): string | undefined {
  const v = member(o, f);
  return v?.kind === 'string' ? v.value : v?.kind === 'number' ? v.text : undefined;
}

/** Objects inside an answer that show an order: the single answer (or its `data`), each batch entry's `order`. */
function ordersIn(json: unknown): Array<Record<string, unknown>> {
  if (!isRecord(json)) return [];
  if (Array.isArray(json.result))
    return json.result.flatMap((e) => (isRecord(e) && isRecord(e.order) ? [e.order] : []));
  if (isRecord(json.data)) return [json.data];
  return 'orderId' in json || 'clientOrderId' in json ? [json] : [];
}

/** Whether a batch answer's entry failed (a non-zero code). */
const failedEntry = (e: unknown): boolean => isRecord(e) && e.code !== undefined && Number(e.code) !== 0;

const NGINX_PAGE = (status: number, reason: string) =>
  `<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${status} ${reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Not Allowed',
  408: 'Request Time-out',
  413: 'Request Entity Too Large',
  415: 'Unsupported Media Type',
};

/** A JSON number's text as plain decimal text, exactly (`1E21` is `1000000000000000000000`); undefined for an exponent past 400. */
function plainExact(t: string): string | undefined {
  const m = /^([0-9]+)(?:\.([0-9]+))?[eE]([+-]?[0-9]+)$/.exec(t);
  if (m === null) return t;
  const exp = Number(m[3]);
  if (Math.abs(exp) > 400) return undefined;
  const digits = `${m[1]}${m[2] ?? ''}`;
  const point = (m[1] ?? '').length + exp;
  const body =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  const [int = '0', frac = ''] = body.split('.');
  const i = int.replace(/^0+(?=[0-9])/, '');
  const f = frac.replace(/0+$/, '');
  return f === '' ? i : `${i}.${f}`;
}

/** The largest body the tight-limit reading reads: just above the kit's largest valid request in its longest legal spelling (§4.1, §8). */
export const TIGHT_BODY_LIMIT = 36 * 1024;

export const READINGS: readonly Reading[] = [
  // ------------------------------------------------------------ request readings
  {
    id: 'empty-optional-omitted',
    decisions: ['D-EMPTY-OPTIONAL'],
    summary: 'an optional field sent empty (newClientOrderId=, timeInForce=, stpMode=, recvWindow=) is read as omitted',
    request: (req) => {
      let changed = editOrders(req, (f) => ({
        drop: [...f].filter(([k, v]) => OPTIONAL.has(k) && v === '').map(([k]) => k),
      }));
      if (req.endpoint === 'batch' && timeParam(req, 'recvWindow') === '') {
        const body = req.body;
        setParams(
          req,
          paramsOf({ ...req, body: '' }).filter((p) => p.name !== 'recvWindow'),
        );
        req.body = body;
        changed = true;
      }
      return changed;
    },
  },
  {
    id: 'undefined-fields-ignored',
    decisions: ['D-AMOUNT-ELSEWHERE', 'D-UNDEFINED-FIELDS'],
    summary:
      'a field the route or the order type does not define is ignored, never validated nor echoed: amount on v1, in a batch and on a non-MARKET v1.1 order, price and timeInForce on MARKET',
    request: (req) =>
      editOrders(req, (f, ep) => {
        const market = f.get('type') === 'MARKET';
        const drop: string[] = [];
        if (f.has('amount') && (ep !== 'v1.1' || !market)) drop.push('amount');
        if (market && f.has('price')) drop.push('price');
        if (market && f.has('timeInForce')) drop.push('timeInForce');
        return { drop };
      }),
  },
  {
    id: 'unknown-parameters-refused',
    decisions: ['D-UNKNOWN-FIELDS'],
    summary: 'a parameter or order member the seed does not name is refused (HTTP 400, -1104)',
    request: (req) => {
      const names =
        req.endpoint === 'batch'
          ? [
              ...paramsOf({ ...req, body: '' }).map((p) => p.name),
              ...(elementsOf(req) ?? []).flatMap((o) => (o.kind === 'object' ? o.members.map(([k]) => k) : [])),
            ]
          : paramsOf(req).map((p) => p.name);
      const unknown = names.find((n) => !KNOWN_PARAMS.has(n));
      return unknown === undefined ? false : refuse(-1104, `unknown parameter ${JSON.stringify(unknown)}`);
    },
  },
  {
    id: 'duplicate-first-wins',
    decisions: ['D-DUPLICATE-PARAM'],
    group: 'duplicate-param',
    signaturePick: 'first',
    summary: 'a parameter sent twice: the first value is read (a first-wins parameter reader)',
    request: (req) => dedupeParams(req, 'first'),
  },
  {
    id: 'duplicate-last-wins',
    decisions: ['D-DUPLICATE-PARAM'],
    group: 'duplicate-param',
    signaturePick: 'last',
    summary: 'a parameter sent twice: the last value is read (PHP, Rack, Express without arrays)',
    request: (req) => dedupeParams(req, 'last'),
  },
  {
    id: 'names-case-insensitive',
    decisions: ['D-PARAM-NAMES'],
    summary: 'parameter names and JSON member names are matched in any letter case (ASP.NET binding, Go encoding/json)',
    request: (req) => {
      const canonical = (n: string) => [...KNOWN_PARAMS].find((k) => k.toLowerCase() === n.toLowerCase());
      if (req.endpoint === 'batch') {
        const items = elementsOf(req);
        if (items === undefined) return false;
        let changed = false;
        const out = items.map((o) => {
          if (o.kind !== 'object') return o;
          const have = new Set(o.members.map(([k]) => k));
          return {
            kind: 'object' as const,
            members: o.members.map(([k, v]): [string, JsonNode] => {
              const c = canonical(k);
              if (c === undefined || c === k || have.has(c)) return [k, v];
              changed = true;
              return [c, v];
            }),
          };
        });
        if (changed) setElements(req, out);
        return changed;
      }
      const params = paramsOf(req);
      const have = new Set(params.map((p) => p.name));
      let changed = false;
      const out = params.map((p) => {
        const c = canonical(p.name);
        if (c === undefined || c === p.name || have.has(c)) return p;
        changed = true;
        return { ...p, name: c };
      });
      if (changed) setParams(req, out);
      return changed;
    },
  },
  {
    id: 'empty-pairs-refused',
    decisions: ['D-EMPTY-PAIRS'],
    summary:
      'a query or form body with an empty pair, a leading or trailing & or a name with no = is refused (a strict reader)',
    request: (req) => {
      const parts = req.endpoint === 'batch' ? [req.query] : [req.query, req.body];
      const bad = parts.some((s) => s !== '' && s.split('&').some((p) => p === '' || !p.includes('=')));
      return bad ? refuse(-1100, 'malformed parameters') : false;
    },
  },
  {
    id: 'malformed-escape-refused',
    decisions: ['D-MALFORMED-ESCAPE'],
    summary: 'a % that starts no escape in a query or form body is refused (a strict decoder)',
    request: (req) => {
      const parts = req.endpoint === 'batch' ? [req.query] : [req.query, req.body];
      return parts.some((s) => /%(?![0-9A-Fa-f]{2})/.test(s)) ? refuse(-1100, 'malformed escape') : false;
    },
  },
  {
    id: 'semicolon-refused',
    decisions: ['D-SEMICOLON'],
    summary: 'a query or form body holding an unescaped ";" is refused (Go 1.17 and later)',
    request: (req) => {
      const parts = req.endpoint === 'batch' ? [req.query] : [req.query, req.body];
      return parts.some((p) => p.includes(';')) ? refuse(-1100, 'invalid semicolon separator in query') : false;
    },
  },
  {
    id: 'long-lenient',
    decisions: ['D-LONG-CANONICAL'],
    summary: 'timestamp and recvWindow read by a lenient integer parser: leading zeros, a plus sign, blanks around',
    request: (req) => {
      let changed = false;
      for (const name of ['timestamp', 'recvWindow']) {
        const v = timeParam(req, name);
        const m = v === undefined ? null : /^\s*\+?([0-9]+)\s*$/.exec(v);
        if (m === null || m[1] === undefined) continue;
        const canonical = BigInt(m[1]).toString();
        if (canonical === v) continue;
        setTimeParam(req, name, canonical);
        changed = true;
      }
      return changed;
    },
  },
  {
    id: 'json-first-wins',
    decisions: ['D-JSON-TEXT'],
    group: 'json-duplicate',
    summary: 'of a member sent twice in one JSON object, the first value is read',
    request: (req) => {
      if (req.endpoint !== 'batch') return false;
      const v = readJsonText(req.body);
      if (v === undefined) return false;
      const out = writeJsonText(dedupe(v, 'first'));
      if (out === writeJsonText(v)) return false;
      req.body = out;
      return true;
    },
  },
  {
    id: 'json-lenient',
    decisions: ['D-JSON-TEXT'],
    group: 'json-duplicate',
    summary:
      'the JSON reader accepts what RFC 8259 §9 lets a parser accept: a byte order mark, comments, trailing commas, single-quoted strings',
    request: (req) => {
      if (req.endpoint !== 'batch' || readJsonText(req.body) !== undefined) return false;
      const v = readJsonText(req.body, { bom: true, comments: true, trailingCommas: true, singleQuotes: true });
      if (v === undefined) return false;
      req.body = writeJsonText(dedupe(v, 'last'));
      return true;
    },
  },
  {
    id: 'json-scalars-as-text',
    decisions: ['D-JSON-TYPES'],
    summary: 'a JSON number or boolean where §2.1 says STRING or ENUM is read as its text (Jackson scalar coercion)',
    request: (req) => {
      if (req.endpoint !== 'batch') return false;
      const items = elementsOf(req);
      if (items === undefined) return false;
      let changed = false;
      const out = items.map((o) =>
        o.kind !== 'object'
          ? o
          : {
              kind: 'object' as const,
              members: o.members.map(([k, v]): [string, JsonNode] => {
                if (!STRING_FIELDS.includes(k)) return [k, v];
                if (v.kind === 'number' || (v.kind === 'literal' && v.text !== 'null')) {
                  changed = true;
                  return [k, { kind: 'string', value: v.text }];
                }
                return [k, v];
              }),
            },
      );
      if (changed) setElements(req, out);
      return changed;
    },
  },
  {
    id: 'symbol-case-folded',
    decisions: ['D-SYMBOL-FORM'],
    summary: 'a symbol is matched in any letter case and read upper-case (one trading pair)',
    request: (req) =>
      editOrders(req, (f) => {
        const s = f.get('symbol');
        return s !== undefined && s !== s.toUpperCase() ? { set: { symbol: s.toUpperCase() } } : {};
      }),
  },
  {
    id: 'header-blanks-dropped',
    decisions: ['D-HEADER-OWS'],
    early: true,
    summary:
      'an API-key header whose value starts or ends with blanks is dropped, as an HTTP/2 front drops a malformed field',
    request: (req) => {
      if (req.keyBlanks !== true) return false;
      delete req.headers['x-svc-apikey'];
      return false;
    },
  },
  {
    id: 'client-id-utf16-units',
    decisions: ['D-CLIENT-ID-CHARS'],
    summary:
      'newClientOrderId counted in UTF-16 code units (Java, JavaScript): 255 astral characters are 510 and refused',
    request: (req) => {
      const long = ordersAsNodes(req).some((o) => (text(o, 'newClientOrderId')?.length ?? 0) > 255);
      return long ? refuse(-1130, 'newClientOrderId is longer than 255 characters') : false;
    },
  },
  {
    id: 'recvwindow-max-10000',
    decisions: ['D-RECVWINDOW-MAX'],
    group: 'recvwindow-max',
    summary: 'recvWindow over 10000 is refused, and the deployment declares it (maxRecvWindow: 10000)',
    description: { maxRecvWindow: 10000 },
    request: (req) => {
      const v = timeParam(req, 'recvWindow');
      return v !== undefined && /^[0-9]+$/.test(v) && BigInt(v) > 10000n
        ? refuse(-1130, 'recvWindow must be at most 10000')
        : false;
    },
  },
  {
    id: 'recvwindow-unbounded',
    decisions: ['D-RECVWINDOW-MAX'],
    group: 'recvwindow-max',
    summary: 'any recvWindow (a LONG) is taken, a value over 60000 read as 60000 (a window capped, never refused)',
    request: (req) => {
      const v = timeParam(req, 'recvWindow');
      // (a LONG still: past 2^63 - 1 it is no int64, §4.1, and the reference refuses it)
      if (v === undefined || !/^[0-9]+$/.test(v) || BigInt(v) <= 60000n || BigInt(v) > LONG_MAX) return false;
      setTimeParam(req, 'recvWindow', '60000');
      return true;
    },
  },
  {
    id: 'decimals-range-refused',
    decisions: ['D-DECIMALS'],
    summary: 'a DECIMAL past the LONG range (integer part over 2^63 - 1) or past the double range is refused',
    request: (req) => {
      const huge = ordersAsNodes(req).some((o) =>
        DECIMAL_FIELDS.some((f) => {
          const t = decimalText(o, f);
          if (t === undefined) return false;
          const plain = /^[0-9]+(\.[0-9]+)?$/.test(t) ? t : plainExact(t);
          if (plain === undefined) return true;
          if (!/^[0-9]+(\.[0-9]+)?$/.test(plain)) return false;
          return BigInt(plain.split('.')[0] ?? '0') > LONG_MAX || !Number.isFinite(Number(t));
        }),
      );
      return huge ? refuse(-1130, 'value out of range') : false;
    },
  },
  {
    id: 'decimals-exponent-accepted',
    decisions: ['D-DECIMALS'],
    group: 'decimal-exponent',
    summary:
      'a decimal string in exponent notation ("1E21", "1.5e-3") is read by its exact value (BigDecimal, Python Decimal)',
    request: (req) =>
      editOrders(req, (f) => {
        const set: Record<string, string> = {};
        for (const k of DECIMAL_FIELDS) {
          const v = f.get(k);
          if (v === undefined || !/^[0-9]+(\.[0-9]+)?[eE][+-]?[0-9]+$/.test(v)) continue;
          const p = plainExact(v);
          if (p !== undefined) set[k] = p;
        }
        return { set };
      }),
  },
  {
    id: 'decimals-exponent-refused',
    decisions: ['D-DECIMALS'],
    group: 'decimal-exponent',
    summary: 'a DECIMAL sent as a JSON number in exponent notation (1E21) is refused: plain digits only',
    request: (req) => {
      if (req.endpoint !== 'batch') return false;
      const bad = (elementsOf(req) ?? []).some((o) =>
        DECIMAL_FIELDS.some((f) => {
          const v = member(o, f);
          return v?.kind === 'number' && /[eE]/.test(v.text);
        }),
      );
      return bad ? refuse(-1130, 'decimal in exponent notation') : false;
    },
  },
  {
    id: 'json-numbers-as-doubles',
    decisions: ['D-DECIMALS'],
    summary:
      'a DECIMAL sent as a JSON number is read as the double nearest it (RFC 8259 §6), one past the double range refused',
    request: (req) => {
      if (req.endpoint !== 'batch') return false;
      const items = elementsOf(req);
      if (items === undefined) return false;
      let changed = false;
      let infinite = false;
      const out = items.map((o) =>
        o.kind !== 'object'
          ? o
          : {
              kind: 'object' as const,
              members: o.members.map(([k, v]): [string, JsonNode] => {
                if (!DECIMAL_FIELDS.includes(k) || v.kind !== 'number') return [k, v];
                const d = Number(v.text);
                if (!Number.isFinite(d)) infinite = true;
                const t = Number.isFinite(d) ? plainDecimal(d) : v.text;
                if (t !== v.text) changed = true;
                return [k, { kind: 'number', text: t }];
              }),
            },
      );
      if (infinite) return refuse(-1130, 'number out of range');
      if (changed) setElements(req, out);
      return changed;
    },
  },
  {
    id: 'market-needs-both',
    decisions: ['D-V11-MARKET-SIZE'],
    group: 'market-size',
    summary: '§2.1 read literally: a v1.1 MARKET order needs quantity and amount',
    request: (req) => {
      if (req.endpoint !== 'v1.1') return false;
      const f = fieldsOf(req);
      return f.get('type') === 'MARKET' && (!f.has('quantity') || !f.has('amount'))
        ? refuse(-1102, 'a MARKET order needs quantity and amount')
        : false;
    },
  },
  {
    id: 'market-quantity-only',
    decisions: ['D-V11-MARKET-SIZE'],
    group: 'market-size',
    summary: 'a v1.1 MARKET order is sized by quantity: amount is ignored',
    request: (req) =>
      req.endpoint === 'v1.1' &&
      editOrders(req, (f) => (f.get('type') === 'MARKET' && f.has('amount') ? { drop: ['amount'] } : {})),
  },
  {
    id: 'market-amount-only',
    decisions: ['D-V11-MARKET-SIZE'],
    group: 'market-size',
    summary: 'a v1.1 MARKET order is sized by amount: quantity is ignored',
    request: (req) =>
      req.endpoint === 'v1.1' &&
      editOrders(req, (f) => (f.get('type') === 'MARKET' && f.has('quantity') ? { drop: ['quantity'] } : {})),
  },
  {
    id: 'v11-limit-without-quantity',
    decisions: ['D-V11-LIMIT-QUANTITY'],
    summary: 'a v1.1 LIMIT or LIMIT_MAKER order without quantity is placed for one lot',
    request: (req) =>
      req.endpoint === 'v1.1' &&
      editOrders(req, (f) =>
        (f.get('type') === 'LIMIT' || f.get('type') === 'LIMIT_MAKER') && !f.has('quantity')
          ? { set: { quantity: '1' } }
          : {},
      ),
  },
  {
    id: 'tif-strict',
    decisions: ['D-TIF-VALUES'],
    summary: 'timeInForce only as §2.1 names it: GTC on LIMIT and LIMIT_MAKER, IOC on MARKET; any other value refused',
    request: (req) => {
      const bad = ordersAsNodes(req).some((o) => {
        const tif = text(o, 'timeInForce');
        if (tif === undefined) return false;
        return text(o, 'type') === 'MARKET' ? tif !== 'IOC' : tif !== 'GTC';
      });
      return bad ? refuse(-1115, 'invalid timeInForce') : false;
    },
  },
  {
    id: 'time-before-signature',
    decisions: ['D-CHECK-ORDER'],
    group: 'check-order',
    early: true,
    summary: 'the time window is checked before the API key and the signature',
    request: (req, ctx) => {
      if (req.endpoint === undefined) return false;
      const ts = timeParam(req, 'timestamp');
      const rw = timeParam(req, 'recvWindow') ?? '5000';
      if (ts === undefined || !/^[0-9]{1,16}$/.test(ts) || !/^[0-9]{1,16}$/.test(rw)) return false;
      const t = Number(ts);
      return t < ctx.now + 1000 && ctx.now - t <= Number(rw) ? false : refuse(-1021, 'timestamp outside recvWindow');
    },
  },
  {
    id: 'validation-before-signature',
    decisions: ['D-CHECK-ORDER'],
    group: 'check-order',
    early: true,
    summary: 'the order fields are validated before the API key and the signature',
    request: (req) => {
      if (req.endpoint === undefined) return false;
      if (req.endpoint === 'batch') {
        let parsed: unknown;
        try {
          parsed = JSON.parse(req.body);
        } catch {
          return false;
        }
        return validateBatch(parsed).length > 0 ? refuse(-1130, 'invalid order') : false;
      }
      const fields: Record<string, string> = {};
      for (const [k, v] of fieldsOf(req)) if (!['timestamp', 'recvWindow'].includes(k)) fields[k] = v;
      return validateOrder(fields, { version: req.endpoint }).length > 0 ? refuse(-1130, 'invalid order') : false;
    },
  },
  {
    id: 'duplicate-client-id-allowed',
    decisions: ['D-DUPLICATE-CLIENT-ID'],
    summary: "a newClientOrderId already used is placed again (ids are the client's own, never checked for uniqueness)",
    request: (req) => {
      const swap = (id: string | undefined): string | undefined => {
        if (id === undefined || id === '' || [...id].length > 255) return undefined;
        const token = `u${(seq++).toString(36)}x${Math.random().toString(36).slice(2, 8)}`;
        tokens.set(token, id);
        return token;
      };
      return editOrders(req, (f) => {
        const t = swap(f.get('newClientOrderId'));
        return t === undefined ? {} : { set: { newClientOrderId: t } };
      });
    },
    answer: (a) => {
      for (const o of ordersIn(a.json))
        if (typeof o.clientOrderId === 'string' && tokens.has(o.clientOrderId))
          o.clientOrderId = tokens.get(o.clientOrderId);
    },
  },
  {
    id: 'empty-batch-accepted',
    decisions: ['D-EMPTY-BATCH'],
    summary: 'an empty batch is answered code 0 with an empty result',
    request: (req) =>
      req.endpoint === 'batch' && readJsonText(req.body)?.kind === 'array' && elementsOf(req)?.length === 0
        ? ok({ code: 0, result: [] })
        : false,
  },
  {
    id: 'content-type-ignored',
    decisions: ['D-CONTENT-TYPE'],
    early: true,
    summary: 'the Content-Type header is not read: a single order body is read as a form, a batch body as JSON',
    request: (req) => {
      if (req.endpoint === undefined || req.body === '') return false;
      req.headers['content-type'] = req.endpoint === 'batch' ? 'application/json' : 'application/x-www-form-urlencoded';
      return false;
    },
  },
  {
    id: 'openapi-prefix-served',
    decisions: ['D-PREFIX'],
    early: true,
    summary: 'the v1 order endpoint is also served at /openapi/v1/order (the signing example of §4.2)',
    request: (req) => {
      if (req.path === '/openapi/v1/order') {
        req.path = ORDER_PATHS.v1;
        req.endpoint = 'v1';
      }
      return false;
    },
  },
  {
    id: 'json-depth-3',
    decisions: ['D-JSON-DEPTH'],
    summary: 'a batch body nesting deeper than 3 levels is refused before it is read (a valid batch has 2)',
    request: (req) => {
      if (req.endpoint !== 'batch') return false;
      const v = readJsonText(req.body);
      return v !== undefined && depthOf(v) > 3 ? refuse(-1130, 'too deep') : false;
    },
  },
  {
    id: 'body-limit-tight',
    decisions: ['D-BODY-LIMIT'],
    bodyLimit: TIGHT_BODY_LIMIT,
    summary: `a body over ${TIGHT_BODY_LIMIT} bytes gets 413 and the connection ends (the largest valid request fits, in its longest spelling)`,
  },
  {
    id: 'connection-cap-low',
    decisions: ['D-CONNECTION-CAP'],
    maxConnections: 24,
    summary: 'over 24 open connections a request gets 503 with Retry-After and the connection ends',
  },
  {
    id: 'store-small',
    decisions: ['D-ORDER-STORE'],
    server: { storeCapacity: 200 },
    summary: 'only the newest 200 orders are kept',
  },
  {
    id: 'batch-all-or-nothing',
    decisions: ['D-BATCH-ATOMICITY'],
    summary: 'a batch with one invalid order is refused whole and places nothing',
    server: {
      policy: { validateBatch: (b: unknown) => validateBatch(b).map((i) => ({ ...i, path: [] })) },
    },
  },
  // ------------------------------------------------------------ answer readings
  {
    id: 'errors-as-200',
    decisions: ['D-ERROR-SHAPE'],
    group: 'error-shape',
    summary: 'every refusal is HTTP 200 with a non-zero code',
    answer: (a) => {
      if (a.status >= 400 && a.status < 500 && isRecord(a.json) && Number(a.json.code) !== 0) a.status = 200;
    },
  },
  {
    id: 'front-html-pages',
    decisions: ['D-ERROR-SHAPE', 'D-BODY-LIMIT'],
    group: 'error-shape',
    summary: "the front's own HTML pages for 404, 405, 413 and 415 (nginx's), never JSON",
    answer: (a) => {
      const reason = REASONS[a.status];
      if (reason === undefined || a.status === 400) return;
      delete a.json;
      a.text = NGINX_PAGE(a.status, reason);
      a.headers['content-type'] = 'text/html';
    },
  },
  {
    id: 'own-codes',
    decisions: ['D-ERROR-SHAPE'],
    summary: 'error codes and messages of its own (positive, five digits), the HTTP statuses kept',
    answer: (a) => {
      const map = (c: unknown) => (typeof c === 'number' && c !== 0 ? 10000 + (Math.abs(c) % 10000) : c);
      if (!isRecord(a.json)) return;
      if (a.json.code !== undefined && a.json.code !== 0) {
        a.json.code = map(a.json.code);
        a.json.msg = `request failed (${String(a.json.code)})`;
      }
      if (Array.isArray(a.json.result))
        for (const e of a.json.result)
          if (isRecord(e) && failedEntry(e)) {
            e.code = map(e.code);
            e.msg = 'order failed';
          }
    },
  },
  {
    id: 'permission-401',
    decisions: ['D-PERMISSION'],
    summary: 'a key without the permission is answered 401, as an unknown key',
    answer: (a) => {
      if (a.status === 403) a.status = 401;
    },
  },
  {
    id: 'top-code-when-all-failed',
    decisions: ['D-TOP-CODE'],
    summary: 'a batch whose every order failed carries the first failure code at the top level',
    answer: (a) => {
      if (a.status !== 200 || !isRecord(a.json) || !Array.isArray(a.json.result)) return;
      const r = a.json.result;
      if (r.length > 0 && r.every(failedEntry)) a.json.code = (r[0] as { code: unknown }).code;
    },
  },
  {
    id: 'failed-entries-echo-order',
    decisions: ['D-RESULT-ORDER'],
    summary: 'a failed batch entry also carries the order as sent (symbol, side, type, clientOrderId)',
    answer: (a, req) => {
      if (!isRecord(a.json) || !Array.isArray(a.json.result)) return;
      const sent = elementsOf(req) ?? [];
      a.json.result.forEach((e, i) => {
        const o = sent[i];
        if (!isRecord(e) || !failedEntry(e) || o === undefined || o.kind !== 'object') return;
        const echo: Record<string, unknown> = {};
        for (const f of ['symbol', 'side', 'type'] as const) if (text(o, f) !== undefined) echo[f] = text(o, f);
        if (text(o, 'newClientOrderId') !== undefined) echo.clientOrderId = text(o, 'newClientOrderId');
        e.order = echo;
      });
    },
  },
  {
    id: 'stp-top-level',
    decisions: ['D-STP-PLACEMENT'],
    summary: 'stpMode and concentration at the top level of the batch answer, not per entry',
    answer: (a) => {
      if (!isRecord(a.json) || !Array.isArray(a.json.result)) return;
      for (const e of a.json.result)
        if (isRecord(e)) {
          delete e.stpMode;
          delete e.concentration;
        }
      a.json.stpMode = 'EXPIRE_TAKER';
      a.json.concentration = '';
    },
  },
  {
    id: 'status-pending',
    decisions: ['D-STATUS'],
    summary: 'every placed order is PENDING_NEW, nothing executed yet',
    answer: (a) => {
      for (const o of ordersIn(a.json)) {
        if (o.status !== undefined) o.status = 'PENDING_NEW';
        if (o.executedQty !== undefined) o.executedQty = '0';
      }
    },
  },
  {
    id: 'entry-msg-empty',
    decisions: ['D-ENTRY-MSG'],
    summary: 'a placed entry says msg ""',
    answer: (a) => {
      if (isRecord(a.json) && Array.isArray(a.json.result))
        for (const e of a.json.result) if (isRecord(e) && !failedEntry(e)) e.msg = '';
    },
  },
  {
    id: 'wire-numbers-json',
    decisions: ['D-WIRE-NUMBERS'],
    group: 'wire',
    summary:
      'LONGs and DECIMALs in answers as JSON numbers (the reference writes strings); reqAmount stays a string (§2.2: STRING)',
    answer: (a) => {
      for (const o of ordersIn(a.json))
        for (const k of ['accountId', 'orderId', 'transactTime', 'price', 'origQty', 'executedQty'])
          if (typeof o[k] === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(o[k])) o[k] = rawNumber(o[k]);
    },
  },
  {
    id: 'decimals-normalised',
    decisions: ['D-WIRE-NUMBERS'],
    group: 'wire',
    summary: 'decimals echoed without trailing zeros ("1.50" as "1.5")',
    answer: (a) => {
      for (const o of ordersIn(a.json))
        for (const k of ['price', 'origQty', 'executedQty', 'reqAmount'])
          if (typeof o[k] === 'string' && /^[0-9]+\.[0-9]+$/.test(o[k])) o[k] = (o[k] as string).replace(/\.?0+$/, '');
    },
  },
  {
    id: 'decimals-padded',
    decisions: ['D-WIRE-NUMBERS'],
    group: 'wire',
    summary: 'decimals echoed with at least 8 places ("1.5" as "1.50000000")',
    answer: (a) => {
      for (const o of ordersIn(a.json))
        for (const k of ['price', 'origQty', 'executedQty', 'reqAmount'])
          if (typeof o[k] === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(o[k])) {
            const [i, f = ''] = (o[k] as string).split('.');
            o[k] = `${i}.${f.padEnd(8, '0')}`;
          }
    },
  },
  {
    id: 'keys-reordered-nulls-omitted',
    decisions: ['D-WIRE-NUMBERS'],
    summary:
      'answer keys in another order, and fields with no value left out (price on MARKET, reqAmount with no amount, an empty concentration)',
    answer: (a) => {
      const reorder = (o: Record<string, unknown>): void => {
        const entries = Object.entries(o).reverse();
        for (const k of Object.keys(o)) delete o[k];
        for (const [k, v] of entries) o[k] = v;
      };
      for (const o of ordersIn(a.json)) {
        if (o.type === 'MARKET') delete o.price;
        if (o.reqAmount === '0') delete o.reqAmount;
        reorder(o);
      }
      if (isRecord(a.json) && Array.isArray(a.json.result))
        for (const e of a.json.result)
          if (isRecord(e)) {
            if (e.concentration === '') delete e.concentration;
            reorder(e);
          }
      if (isRecord(a.json)) reorder(a.json);
    },
  },
  {
    id: 'order-ids-own',
    decisions: ['D-ORDER-IDS'],
    summary: 'order ids counting from 1, and generated client ids of its own form',
    answer: (a) => {
      for (const o of ordersIn(a.json)) {
        if (typeof o.orderId === 'string') {
          const id = ids.get(o.orderId) ?? String(ids.size + 1);
          ids.set(o.orderId, id);
          o.orderId = id;
        }
        if (typeof o.clientOrderId === 'string' && o.clientOrderId.startsWith('spotcheck-'))
          o.clientOrderId = `auto_${o.clientOrderId.slice('spotcheck-'.length)}`;
      }
    },
  },
  {
    id: 'single-answer-wrapped',
    decisions: ['D-SINGLE-RESPONSE'],
    group: 'single-response',
    summary: 'a single order is answered {"code":0,"msg":"success","data":{...order}}',
    answer: (a, req) => {
      if (req.endpoint === 'batch' || req.endpoint === undefined || a.status !== 200 || !isRecord(a.json)) return;
      if (Number(a.json.code) !== 0 || !('orderId' in a.json)) return;
      const { code, ...order } = a.json;
      a.json = { code, msg: 'success', data: order };
    },
  },
  {
    id: 'single-answer-bare',
    decisions: ['D-SINGLE-RESPONSE'],
    group: 'single-response',
    summary: 'a single order is answered with the order alone, no code',
    answer: (a, req) => {
      if (req.endpoint === 'batch' || req.endpoint === undefined || a.status !== 200 || !isRecord(a.json)) return;
      if (Number(a.json.code) !== 0 || !('orderId' in a.json)) return;
      delete a.json.code;
    },
  },
  // (last: the codes the other answer readings read stay numbers until here)
  {
    id: 'codes-as-decimals',
    decisions: ['D-CODE-READING'],
    summary:
      'every code is written as a JSON number with a zero fraction (0.0, -1022.0), as a serializer of doubles writes it: still an integer value',
    answer: (a) => {
      if (!isRecord(a.json)) return;
      if (typeof a.json.code === 'number') a.json.code = rawNumber(`${a.json.code}.0`);
      if (Array.isArray(a.json.result))
        for (const e of a.json.result) if (isRecord(e) && typeof e.code === 'number') e.code = rawNumber(`${e.code}.0`);
    },
  },
];

// state of the readings that keep some (a front serves one run at a time in the tests)
let seq = 0;
const tokens = new Map<string, string>();
const ids = new Map<string, string>();

/** A first-wins or last-wins parameter reader: each name once (the signature pairs are re-signed anyway). */
function dedupeParams(req: FrontRequest, keep: 'first' | 'last'): boolean {
  const from = req.endpoint === 'batch' ? { ...req, body: '' } : req;
  const params = paramsOf(from);
  const names = params.map((p) => p.name);
  if (new Set(names).size === names.length) return false;
  const out = params.filter((p, i) =>
    keep === 'first' ? names.indexOf(p.name) === i : names.lastIndexOf(p.name) === i,
  );
  const body = req.body;
  setParams(req, out);
  if (req.endpoint === 'batch') req.body = body;
  return true;
}

/** A reading by its ID. */
export function reading(id: string): Reading {
  const r = READINGS.find((x) => x.id === id);
  if (r === undefined) throw new Error(`no reading ${id}`);
  return r;
}

/** Every reading that can run together with the others: one of each group, rotating with `seed`. */
export function allTogether(seed: number): Reading[] {
  const groups = new Map<string, Reading[]>();
  const out: Reading[] = [];
  for (const r of READINGS) {
    if (r.group === undefined) out.push(r);
    else groups.set(r.group, [...(groups.get(r.group) ?? []), r]);
  }
  for (const list of groups.values()) out.push(list[seed % list.length] as Reading);
  return out;
}
