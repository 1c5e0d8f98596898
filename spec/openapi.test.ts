/**
 * spec/openapi.yaml: a valid OpenAPI 3.1 document whose schemas, examples, signed
 * request samples, rule lists and error codes agree with the rest of the kit.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../src/paths.js';
import type { Rule } from '../src/rules.js';
import { DEMO_API_KEY, DEMO_SECRET } from '../src/server/credentials.js';
import { parsePairs, signatureValues } from '../src/core/signing/query.js';
import { signingSteps, type BodyKind } from '../src/core/signing/total-params.js';
import { verify } from '../src/signing/hmac.js';
import { afterAll } from 'vitest';
import { sendRaw } from '../src/client/http.js';
import { batchOrdersRequest, orderRequest, type NewOrderV1 } from '../src/client/requests.js';
import { startServer, type RunningServer } from '../src/server/server.js';

type Obj = Record<string, unknown>;

const ROOT = packageRoot();
const OPENAPI = join(ROOT, 'spec', 'openapi.yaml');
const ID_IN_TEXT = /(?<![A-Z0-9-])(?:AUTH|SIG|TIME|BATCH|ORDER|RESULT|SCHEMA|ROBUST)-[A-Z0-9]+(?:-[A-Z0-9]+)*\b/g;
const OPERATIONS = [
  ['/api/v1/spot/batchOrders', 'post'],
  ['/api/v1/spot/order', 'post'],
  ['/api/v1.1/spot/order', 'post'],
] as const;

const catalogIds = new Set<string>(
  (JSON.parse(readFileSync(join(ROOT, 'spec', 'rules.json'), 'utf8')) as { rules: Rule[] }).rules.map((r) => r.id),
);
const decisions = readFileSync(join(ROOT, 'spec', 'decisions.md'), 'utf8');
const decisionIds = new Set([...decisions.matchAll(/^\|\s*(D-[A-Z0-9-]+)\s*\|/gm)].map((m) => m[1] as string));
/** Reference error codes of spec/decisions.md: code to the HTTP statuses listed for it. */
const errorTable = new Map(
  [...decisions.matchAll(/^\|\s*(-?[0-9]+)\s*\|\s*([0-9/]+)\s*\|/gm)].map((m) => [
    Number(m[1]),
    (m[2] as string).split('/').map(Number),
  ]),
);

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function obj(v: unknown, what: string): Obj {
  if (!isObj(v)) throw new Error(`${what} is not an object`);
  return v;
}

/** Deep copy without `$id`/`$schema` (each inlined schema file keeps its own, and ajv refuses an id twice). */
function stripIds(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripIds);
  if (isObj(v)) {
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) if (k !== '$id' && k !== '$schema') out[k] = stripIds(x);
    return out;
  }
  return v;
}

/** Every string anywhere in a value. */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (isObj(v)) return Object.values(v).flatMap(strings);
  return [];
}

function countRefs(v: unknown): number {
  if (Array.isArray(v)) return v.reduce<number>((n, x) => n + countRefs(x), 0);
  if (isObj(v)) return ('$ref' in v ? 1 : 0) + Object.values(v).reduce<number>((n, x) => n + countRefs(x), 0);
  return 0;
}

let api: Obj;
const ajv = new Ajv2020({ allErrors: true, strict: true });
const compiled = new Map<object, ValidateFunction>();

function validatorFor(schema: unknown): ValidateFunction {
  const s = obj(schema, 'schema');
  let v = compiled.get(s);
  if (v === undefined) {
    v = ajv.compile(stripIds(s) as object);
    compiled.set(s, v);
  }
  return v;
}

function operation(path: string, method: string): Obj {
  return obj(obj(obj(api.paths, 'paths')[path], path)[method], `${method} ${path}`);
}

/** Example values of a parameter or media type object, by name (`example` is named "example"). */
function examplesOf(holder: Obj): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  if ('example' in holder) out.push(['example', holder.example]);
  if (isObj(holder.examples))
    for (const [name, ex] of Object.entries(holder.examples)) out.push([name, obj(ex, name).value]);
  return out;
}

interface ExampleSite {
  where: string;
  schema: unknown;
  examples: Array<[string, unknown]>;
}

/** Every place of the dereferenced document that pairs a schema with examples. */
function exampleSites(): ExampleSite[] {
  const sites: ExampleSite[] = [];
  const media = (where: string, content: unknown): void => {
    if (!isObj(content)) return;
    for (const [type, m] of Object.entries(content)) {
      const mo = obj(m, type);
      sites.push({ where: `${where} ${type}`, schema: mo.schema, examples: examplesOf(mo) });
    }
  };
  for (const [path, method] of OPERATIONS) {
    const op = operation(path, method);
    const at = `${method.toUpperCase()} ${path}`;
    for (const p of (op.parameters as unknown[] | undefined) ?? []) {
      const po = obj(p, 'parameter');
      sites.push({ where: `${at} parameter ${String(po.name)}`, schema: po.schema, examples: examplesOf(po) });
    }
    if (isObj(op.requestBody)) media(`${at} requestBody`, op.requestBody.content);
    for (const [status, r] of Object.entries(obj(op.responses, 'responses')))
      media(`${at} ${status}`, obj(r, status).content);
  }
  return sites;
}

interface WireRequest {
  op: string;
  method: string;
  path: string;
  query: string;
  headers: Map<string, string>;
  body: string;
}

/** The ```http request samples of an operation description. */
function wireRequests(op: string, description: string): WireRequest[] {
  const out: WireRequest[] = [];
  for (const m of description.matchAll(/```http\n([\s\S]*?)```/g)) {
    const lines = (m[1] as string).replace(/\n$/, '').split('\n');
    const [method, target] = (lines[0] as string).split(' ') as [string, string];
    const q = target.indexOf('?');
    const headers = new Map<string, string>();
    let i = 1;
    for (; i < lines.length && lines[i] !== ''; i++) {
      const line = lines[i] as string;
      const c = line.indexOf(':');
      headers.set(line.slice(0, c).toLowerCase(), line.slice(c + 1).trim());
    }
    out.push({
      op,
      method,
      path: q === -1 ? target : target.slice(0, q),
      query: q === -1 ? '' : target.slice(q + 1),
      headers,
      body: lines.slice(i + 1).join('\n'),
    });
  }
  return out;
}

function bodyKind(w: WireRequest): BodyKind {
  const ct = w.headers.get('content-type');
  if (w.body === '') return 'none';
  if (ct === 'application/json') return 'json';
  if (ct === 'application/x-www-form-urlencoded') return 'form';
  throw new Error(`${w.op}: body without a known Content-Type`);
}

beforeAll(async () => {
  api = obj(await SwaggerParser.validate(OPENAPI), 'document');
});

describe('spec/openapi.yaml as OpenAPI 3.1', () => {
  it('validates and dereferences: external schema files inlined, no $ref left', () => {
    expect(api.openapi).toBe('3.1.0');
    expect(countRefs(api)).toBe(0);
  });

  it('the validator is not a rubber stamp: a broken copy is rejected', async () => {
    const broken = structuredClone(api);
    const bp = obj(obj(obj(broken.paths, 'paths')['/api/v1/spot/batchOrders'], 'path').post, 'op').parameters as Obj[];
    (bp[0] as Obj).in = 'body';
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow(/schema validation failed/i);
  });

  it('batch body: JSON array, maxItems 20, items requiring symbol, side, type, quantity (§4.1, §8)', () => {
    const op = operation('/api/v1/spot/batchOrders', 'post');
    const body = obj(op.requestBody, 'requestBody');
    expect(body.required).toBe(true);
    const schema = obj(obj(obj(body.content, 'content')['application/json'], 'json').schema, 'schema');
    expect(schema.type).toBe('array');
    expect(schema.maxItems).toBe(20);
    expect(obj(schema.items, 'items').required).toEqual(expect.arrayContaining(['symbol', 'side', 'type', 'quantity']));
  });

  it('batch query: timestamp and signature required, recvWindow optional (§4.1)', () => {
    const params = operation('/api/v1/spot/batchOrders', 'post').parameters as Obj[];
    const byName = new Map(params.map((p) => [p.name, p]));
    expect(byName.get('timestamp')).toMatchObject({ in: 'query', required: true });
    expect(byName.get('signature')).toMatchObject({ in: 'query', required: true });
    expect(byName.get('recvWindow')).toMatchObject({ in: 'query', required: false });
  });

  it('response schemas are inlined for every status', () => {
    for (const [path, method] of OPERATIONS) {
      for (const [status, r] of Object.entries(obj(operation(path, method).responses, 'responses'))) {
        const schema = obj(
          obj(obj(obj(r, status).content, 'content')['application/json'], 'json').schema,
          `${path} ${status}`,
        );
        expect(schema.type, `${path} ${status}`).toBe('object');
        expect(obj(schema.properties, 'properties').code).toMatchObject({ type: 'integer' });
      }
    }
    const batch200 = obj(obj(operation('/api/v1/spot/batchOrders', 'post').responses, 'r')['200'], '200');
    const schema = obj(obj(obj(batch200.content, 'c')['application/json'], 'j').schema, 's');
    const entry = obj(obj(obj(schema.properties, 'p').result, 'result').items, 'items');
    expect(obj(obj(entry.properties, 'p').order, 'order').required).toEqual(
      expect.arrayContaining(['orderId', 'clientOrderId']),
    );
  });

  it('single-order endpoints take a form body and the signed parameters in the query (§4.2, §5.3)', () => {
    for (const path of ['/api/v1/spot/order', '/api/v1.1/spot/order']) {
      const op = operation(path, 'post');
      expect(Object.keys(obj(obj(op.requestBody, 'requestBody').content, 'content'))).toEqual([
        'application/x-www-form-urlencoded',
      ]);
      const params = op.parameters as Obj[];
      expect(params).toEqual([expect.objectContaining({ in: 'query', style: 'form', explode: true, required: false })]);
    }
  });
});

describe('spec/openapi.yaml examples', () => {
  it('every example validates against its schema (ajv, 2020-12)', () => {
    let n = 0;
    for (const site of exampleSites()) {
      if (site.examples.length === 0) continue;
      const validate = validatorFor(site.schema);
      for (const [name, value] of site.examples) {
        const ok = validate(value);
        expect(validate.errors ?? [], `${site.where} example ${name}`).toEqual([]);
        expect(ok).toBe(true);
        n++;
      }
    }
    expect(n).toBeGreaterThan(20);
  });

  it('the example check catches a drifted example', () => {
    const site = exampleSites().find((s) => s.where.includes('batchOrders requestBody'));
    expect(site).toBeDefined();
    const validate = validatorFor((site as ExampleSite).schema);
    const [, first] = (site as ExampleSite).examples[0] as [string, unknown];
    expect(validate(first)).toBe(true);
    expect(validate([{ ...((first as Obj[])[0] as Obj), side: 'HOLD' }])).toBe(false);
  });

  it('every rejection example uses a code and HTTP status of the reference table (spec/decisions.md)', () => {
    let n = 0;
    for (const [path, method] of OPERATIONS) {
      for (const [status, r] of Object.entries(obj(operation(path, method).responses, 'responses'))) {
        for (const [name, value] of examplesOf(obj(obj(obj(r, status).content, 'c')['application/json'], 'j'))) {
          const v = obj(value, name);
          const codes = [v.code, ...((v.result as Obj[] | undefined) ?? []).map((e) => e.code)];
          for (const code of codes) {
            expect(typeof code, `${path} ${status} ${name}`).toBe('number');
            expect(errorTable.has(code as number), `${path} ${status} ${name}: code ${String(code)}`).toBe(true);
          }
          if (status === '200') continue;
          expect(errorTable.get(v.code as number), `${path} ${status} ${name}`).toContain(Number(status));
          n++;
        }
      }
    }
    expect(n).toBeGreaterThan(10);
  });

  it('rule and decision IDs named in the document exist', () => {
    const text = strings(api);
    const ruleIds = new Set(text.flatMap((s) => s.match(ID_IN_TEXT) ?? []));
    const dIds = new Set(text.flatMap((s) => s.match(/\bD-[A-Z0-9]+(?:-[A-Z0-9]+)*\b/g) ?? []));
    expect(ruleIds.size).toBeGreaterThan(0);
    expect(dIds.size).toBeGreaterThan(5);
    expect([...ruleIds].filter((id) => !catalogIds.has(id))).toEqual([]);
    expect([...dIds].filter((id) => !decisionIds.has(id))).toEqual([]);
  });
});

describe('spec/openapi.yaml signed request samples', () => {
  const demo = (): { apiKey: string; secret: string } =>
    obj(obj(api.info, 'info')['x-demo-credentials'], 'x-demo-credentials') as { apiKey: string; secret: string };

  function samples(): WireRequest[] {
    return OPERATIONS.flatMap(([path, method]) => wireRequests(path, String(operation(path, method).description)));
  }

  it('the demo credentials are those of the reference server', () => {
    expect(demo()).toEqual({ apiKey: DEMO_API_KEY, secret: DEMO_SECRET });
  });

  it('every sample is signed correctly with the demo secret (§5.3), on its own path, with the key header', () => {
    const all = samples();
    expect(all.length).toBe(7);
    for (const w of all) {
      expect(w.method).toBe('POST');
      expect(w.path).toBe(w.op);
      expect(w.headers.get('x-svc-apikey')).toBe(demo().apiKey);
      const sigs = [...signatureValues(w.query), ...(bodyKind(w) === 'form' ? signatureValues(w.body) : [])];
      expect(sigs, w.op).toHaveLength(1);
      const steps = signingSteps(w.query, w.body, bodyKind(w));
      expect(verify(demo().secret, steps.totalParams, sigs[0] as string), `${w.op} ?${w.query}`).toBe(true);
    }
  });

  it('a sample with one byte changed no longer verifies (the check can fail)', () => {
    const w = samples().find((s) => s.body !== '' && s.query !== '' && bodyKind(s) === 'form') as WireRequest;
    const sig = signatureValues(w.body)[0] as string;
    const tampered = signingSteps(w.query, w.body.replace('timestamp=1', 'timestamp=2'), 'form');
    expect(verify(demo().secret, tampered.totalParams, sig)).toBe(false);
    const withSeparator = signingSteps(`${w.query}&`, w.body, 'form');
    expect(verify(demo().secret, withSeparator.totalParams, sig)).toBe(false);
  });

  it('each single-order endpoint shows all three placements, whose parameters match its schema and examples', () => {
    for (const path of ['/api/v1/spot/order', '/api/v1.1/spot/order']) {
      const op = operation(path, 'post');
      const ws = samples().filter((w) => w.op === path);
      const placements = ws.map((w) => (w.body === '' ? 'query' : w.query === '' ? 'body' : 'split'));
      expect(placements.sort(), path).toEqual(['body', 'query', 'split']);
      const param = obj((op.parameters as Obj[])[0], 'param');
      const validate = validatorFor(param.schema);
      const queryExample = examplesOf(param).find(([n]) => n === 'query')?.[1];
      const bodyMedia = obj(obj(obj(op.requestBody, 'rb').content, 'c')['application/x-www-form-urlencoded'], 'form');
      const bodyExample = examplesOf(bodyMedia).find(([n]) => n === 'body')?.[1];
      expect(queryExample).toBeDefined();
      expect(bodyExample).toEqual(queryExample);
      for (const w of ws) {
        const pairs = [...parsePairs(w.query), ...parsePairs(w.body)];
        const names = pairs.map(([k]) => k);
        expect(new Set(names).size, `${path}: a parameter sent twice`).toBe(names.length);
        const union = Object.fromEntries(pairs);
        expect(validate(union), `${path} ${JSON.stringify(validate.errors)}`).toBe(true);
        const { signature: _s, ...fields } = union;
        const { signature: _e, ...exampleFields } = obj(queryExample, 'query example');
        expect(fields).toEqual(exampleFields);
      }
    }
  });

  it('the batch sample sends its time parameters in the query and a body equal to the request example (§4.1)', () => {
    const [w, ...rest] = samples().filter((s) => s.op === '/api/v1/spot/batchOrders');
    expect(rest).toHaveLength(0);
    const sample = w as WireRequest;
    expect(bodyKind(sample)).toBe('json');
    expect(parsePairs(sample.query).map(([k]) => k)).toEqual(['timestamp', 'recvWindow', 'signature']);
    const media = obj(
      obj(obj(operation(sample.op, 'post').requestBody, 'rb').content, 'c')['application/json'],
      'json',
    );
    const body = JSON.parse(sample.body) as unknown;
    expect(validatorFor(media.schema)(body)).toBe(true);
    expect(examplesOf(media).find(([n]) => n === 'twoOrders')?.[1]).toEqual(body);
  });
});

describe('spec/openapi.yaml security and rules', () => {
  it('X-SVC-APIKEY is an apiKey header scheme (§5.2)', () => {
    const scheme = obj(obj(obj(api.components, 'components').securitySchemes, 'schemes').ApiKeyAuth, 'ApiKeyAuth');
    expect(scheme).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-SVC-APIKEY' });
  });

  it('every operation is TRADE (§5.1): the key scheme required and a signature parameter', () => {
    for (const [path, method] of OPERATIONS) {
      const op = operation(path, method);
      expect(op['x-security-type'], path).toBe('TRADE');
      expect(op.security, path).toEqual([{ ApiKeyAuth: [] }]);
      const params = op.parameters as Obj[];
      const signature = params.some(
        (p) =>
          (p.name === 'signature' && p.required === true) ||
          ((obj(p.schema, 'schema').allOf as Obj[] | undefined) ?? []).some((part) =>
            (part.required as string[] | undefined)?.includes('signature'),
          ),
      );
      expect(signature, path).toBe(true);
      expect(String(op.description)).toMatch(/§[0-9]/);
    }
  });

  it('x-rules name catalog rules, without repeats, and together cover the whole catalog', () => {
    const covered = new Set<string>();
    for (const [path, method] of OPERATIONS) {
      const list = operation(path, method)['x-rules'] as string[];
      expect(Array.isArray(list), path).toBe(true);
      expect(new Set(list).size, `${path}: repeated rule`).toBe(list.length);
      expect(
        list.filter((id) => !catalogIds.has(id)),
        path,
      ).toEqual([]);
      for (const id of list) covered.add(id);
    }
    expect([...catalogIds].filter((id) => !covered.has(id))).toEqual([]);
  });

  it('version-specific rules sit on their own endpoint only (§4.2, §9)', () => {
    const rulesOf = (path: string): string[] => operation(path, 'post')['x-rules'] as string[];
    expect(rulesOf('/api/v1/spot/order')).toContain('ORDER-QUANTITY-REQUIRED-V1');
    expect(rulesOf('/api/v1/spot/order')).not.toContain('ORDER-MARKET-SIZE-V11');
    expect(rulesOf('/api/v1.1/spot/order')).toContain('ORDER-MARKET-SIZE-V11');
    expect(rulesOf('/api/v1.1/spot/order')).not.toContain('ORDER-QUANTITY-REQUIRED-V1');
    expect(rulesOf('/api/v1/spot/batchOrders').filter((id) => id.startsWith('BATCH-')).length).toBeGreaterThan(5);
    expect(rulesOf('/api/v1/spot/order').filter((id) => id.startsWith('BATCH-'))).toEqual([]);
  });
});

/** The request an example labelled reference shows the answer to (`x-reference-request`): an endpoint and its orders. */
interface ReferenceRequest {
  endpoint: 'batch' | 'v1' | 'v1.1';
  orders: Obj[];
}

/** Values the reference generates per request: compared as digit strings (D-WIRE-NUMBERS), not by value. */
const GENERATED = new Set(['orderId', 'transactTime']);

/**
 * Where an example and an answer differ: keys (the shape), JSON types, and values but for the
 * generated ones (empty: the same).
 */
function differences(example: unknown, answer: unknown, at: string): string[] {
  const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if (kind(example) !== kind(answer))
    return [
      `${at}: ${kind(example)} ${JSON.stringify(example)} in the example, ${kind(answer)} ${JSON.stringify(answer)} answered`,
    ];
  if (Array.isArray(example) && Array.isArray(answer)) {
    if (example.length !== answer.length)
      return [`${at}: ${example.length} items in the example, ${answer.length} answered`];
    return example.flatMap((x, i) => differences(x, answer[i], `${at}[${i}]`));
  }
  if (isObj(example) && isObj(answer)) {
    const keys = [...new Set([...Object.keys(example), ...Object.keys(answer)])];
    return keys.flatMap((k) =>
      !(k in example)
        ? [`${at}.${k}: answered, not in the example`]
        : !(k in answer)
          ? [`${at}.${k}: in the example, not answered`]
          : differences(example[k], answer[k], `${at}.${k}`),
    );
  }
  const field = at.split('.').at(-1) ?? '';
  if (GENERATED.has(field))
    return /^\d+$/.test(String(answer)) && /^\d+$/.test(String(example)) ? [] : [`${at}: not a digit string`];
  return example === answer
    ? []
    : [`${at}: ${JSON.stringify(example)} in the example, ${JSON.stringify(answer)} answered`];
}

describe('spec/openapi.yaml examples labelled reference, against the reference server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  /** Every response example whose summary says it is the reference's answer, with its operation and status. */
  function labelled(): Array<{ where: string; status: number; example: Obj }> {
    const out: Array<{ where: string; status: number; example: Obj }> = [];
    const seen = new Set<Obj>();
    for (const [path, method] of OPERATIONS)
      for (const [status, r] of Object.entries(obj(operation(path, method).responses, 'responses'))) {
        const json = obj(obj(obj(r, status).content, 'content')['application/json'], 'json');
        for (const [name, ex] of Object.entries(isObj(json.examples) ? json.examples : {})) {
          const example = obj(ex, name);
          // a response shared by both single-order endpoints is one example (its client id is used once)
          if (seen.has(example)) continue;
          seen.add(example);
          if (/\(reference\b/.test(String(example.summary ?? '')))
            out.push({ where: `${path} ${status} ${name}`, status: Number(status), example });
        }
      }
    return out;
  }

  it('the reference answers the request each shows with the same fields, types and values (generated ids and times aside)', async () => {
    const all = labelled();
    expect(all.map((x) => x.where).length).toBeGreaterThanOrEqual(4);
    for (const { where, status, example } of all) {
      const req = example['x-reference-request'] as ReferenceRequest | undefined;
      expect(req, `${where}: x-reference-request (the request it answers)`).toBeDefined();
      if (req === undefined) continue;
      const auth = { apiKey: DEMO_API_KEY, secret: DEMO_SECRET, timestamp: Date.now(), recvWindow: undefined };
      const built =
        req.endpoint === 'batch'
          ? batchOrdersRequest(req.orders, auth)
          : orderRequest(req.orders[0] as unknown as NewOrderV1, { version: req.endpoint, placement: 'query' }, auth);
      const answer = await sendRaw(server.url, built.request);
      expect(answer.status, where).toBe(status);
      expect(differences(example.value, answer.json, where)).toEqual([]);
    }
  });

  it('the comparison sees a drifted example: an empty msg, a LONG as a JSON number, a field too many', () => {
    const answer = { code: 0, result: [{ code: 0, msg: 'OK', order: { accountId: '1000000001', orderId: '17' } }] };
    expect(differences(structuredClone(answer), answer, 'x')).toEqual([]);
    expect(differences({ ...answer, result: [{ ...answer.result[0], msg: '' }] }, answer, 'x')).toHaveLength(1);
    const numeric = { code: 0, result: [{ code: 0, msg: 'OK', order: { accountId: 1000000001, orderId: '17' } }] };
    expect(differences(numeric, answer, 'x')).toHaveLength(1);
    expect(differences({ ...answer, extra: 1 }, answer, 'x')).toEqual(['x.extra: in the example, not answered']);
  });
});
