/**
 * The other readings of the seed, built and run (design notes, "Every MUST traced, every reading
 * run"): a front on loopback that makes the reference server read the seed another way, one
 * reading per open point of spec/decisions.md (harness/readings/readings.ts). A reading may
 * rewrite a request before the reference reads it (re-signed with the caller's secret when the
 * caller's signature was valid, so the signature rules still hold on the bytes the caller sent),
 * answer a request itself, or rewrite the reference's answer. Test harness only.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { request } from 'undici';
import { API_KEY_HEADER } from '../../src/core/wire.js';
import { BATCH_ORDERS_PATH, ORDER_PATHS } from '../../src/client/requests.js';
import { DEMO_CREDENTIALS } from '../../src/server/credentials.js';
import { startServer, type RunningServer, type ServerOptions } from '../../src/server/server.js';
import { verify } from '../../src/signing/hmac.js';
import { signingSteps } from '../../src/core/signing/total-params.js';
import { decodeComponent, encodeComponent } from '../../src/core/signing/query.js';
import { resign } from '../variants.js';
import type { TargetDescription } from '../../conformance/target/description.js';
import { readJsonText, writeJsonText, type JsonNode } from './json-text.js';

/** The endpoints of §4. */
export type FrontEndpoint = 'batch' | 'v1' | 'v1.1';

/** A request as a reading sees it; a reading that changes `query`, `body` or `headers` says so by returning true. */
export interface FrontRequest {
  method: string;
  path: string;
  endpoint?: FrontEndpoint;
  query: string;
  body: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The API-key header line carried blanks around its value as sent (HTTP/1.1 drops them, D-HEADER-OWS). */
  keyBlanks?: boolean;
}

/** What the front knows of a request before the reference reads it. */
export interface FrontContext {
  /** A known key and a valid signature over the bytes as sent (§5.3): the reference would pass authentication. */
  signed: boolean;
  /** The front's clock, ms. */
  now: number;
}

/** An answer: the front's own, or the reference's as a reading rewrites it (`json` is written back when set). */
export interface FrontAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  json?: unknown;
  /** End the connection after this answer. */
  close?: boolean;
}

/** One other reading of an open point. */
export interface Reading {
  /** Stable name. */
  id: string;
  /** The open points (spec/decisions.md) it reads otherwise. */
  decisions: readonly string[];
  /** What the server does under this reading, in one line. */
  summary: string;
  /** Alternatives of one point: at most one reading of a group runs at once. */
  group?: string;
  /** Read the request before authentication (a server checking this first, D-CHECK-ORDER); otherwise only signed requests are read. */
  early?: boolean;
  /** Which signature pair counts when several are sent (a first-wins or last-wins parameter reader). */
  signaturePick?: 'first' | 'last';
  /** Rewrite the request (return true when changed) or answer it. */
  request?: (req: FrontRequest, ctx: FrontContext) => FrontAnswer | boolean | undefined;
  /** Rewrite an answer (the reference's or the front's own): change `json`, or `text` and `headers`; `req` is the request as the caller sent it. */
  answer?: (ans: FrontAnswer, req: FrontRequest) => void;
  /** Connection-level limits: the largest body read (413 and close beyond), open connections served (503 beyond). */
  bodyLimit?: number;
  maxConnections?: number;
  /** Options of the reference server behind the front. */
  server?: ServerOptions;
  /** What such a deployment declares in its target description. */
  description?: TargetDescription;
}

// ---------------------------------------------------------------- helpers readings use

/** A refusal as the reference writes it (D-ERROR-SHAPE), HTTP 400 unless told. */
export function refuse(code: number, msg: string, status = 400): FrontAnswer {
  const body = { code, msg };
  return { status, headers: { 'content-type': 'application/json' }, text: JSON.stringify(body), json: body };
}

/** A success answer. */
export function ok(body: unknown): FrontAnswer {
  return { status: 200, headers: { 'content-type': 'application/json' }, text: JSON.stringify(body), json: body };
}

/** One parameter of a single-order request, decoded, and where it travelled. */
export interface Param {
  name: string;
  value: string;
  part: 'query' | 'body';
  /** The pair had no `=`. */
  bare?: boolean;
}

/** The parameters of a single-order request in order (query, then body), the signature pairs included. */
export function paramsOf(req: FrontRequest): Param[] {
  const out: Param[] = [];
  for (const part of ['query', 'body'] as const)
    for (const p of req[part].split('&')) {
      if (p === '') continue;
      const eq = p.indexOf('=');
      out.push({
        name: decodeComponent(eq === -1 ? p : p.slice(0, eq)),
        value: eq === -1 ? '' : decodeComponent(p.slice(eq + 1)),
        part,
        ...(eq === -1 ? { bare: true } : {}),
      });
    }
  return out;
}

/** Write the parameters back (encoded as the kit's signer encodes them), each in its part. */
export function setParams(req: FrontRequest, params: readonly Param[]): void {
  for (const part of ['query', 'body'] as const)
    req[part] = params
      .filter((p) => p.part === part)
      .map((p) => `${encodeComponent(p.name)}=${encodeComponent(p.value)}`)
      .join('&');
}

/** The first value of each order field of a single-order request (signature left out). */
export function fieldsOf(req: FrontRequest): Map<string, string> {
  const m = new Map<string, string>();
  for (const p of paramsOf(req)) if (p.name !== 'signature' && !m.has(p.name)) m.set(p.name, p.value);
  return m;
}

/** The batch's elements (strict RFC 8259), undefined when the body is no JSON array. */
export function elementsOf(req: FrontRequest): JsonNode[] | undefined {
  const v = readJsonText(req.body);
  return v?.kind === 'array' ? v.items : undefined;
}

/** Write the batch's elements back as plain JSON. */
export function setElements(req: FrontRequest, items: readonly JsonNode[]): void {
  req.body = writeJsonText({ kind: 'array', items: [...items] });
}

/** A member of an object node (the last of its name, as JSON.parse reads it). */
export function member(o: JsonNode, name: string): JsonNode | undefined {
  if (o.kind !== 'object') return undefined;
  for (let i = o.members.length - 1; i >= 0; i--) if (o.members[i]?.[0] === name) return o.members[i]?.[1];
  return undefined;
}

/** The text of a string member. */
export function text(o: JsonNode, name: string): string | undefined {
  const v = member(o, name);
  return v?.kind === 'string' ? v.value : undefined;
}

/** An object without the members `drop` picks. */
export function without(o: JsonNode, drop: (name: string, v: JsonNode) => boolean): JsonNode {
  return o.kind === 'object' ? { kind: 'object', members: o.members.filter(([k, v]) => !drop(k, v)) } : o;
}

/**
 * Apply `edit` to each order of the request (a single order's fields, or each batch element's as
 * strings): `edit` returns the fields to drop and to set. True when anything changed.
 */
export function editOrders(
  req: FrontRequest,
  edit: (
    fields: ReadonlyMap<string, string>,
    endpoint: FrontEndpoint,
  ) => { drop?: string[]; set?: Record<string, string> },
): boolean {
  if (req.endpoint === undefined) return false;
  if (req.endpoint === 'batch') {
    const items = elementsOf(req);
    if (items === undefined) return false;
    let changed = false;
    const out = items.map((o) => {
      if (o.kind !== 'object') return o;
      const fields = new Map<string, string>();
      for (const [k, v] of o.members)
        if (v.kind === 'string') fields.set(k, v.value);
        else if (v.kind === 'number') fields.set(k, v.text);
      const { drop = [], set = {} } = edit(fields, 'batch');
      if (drop.length === 0 && Object.keys(set).length === 0) return o;
      changed = true;
      const members = o.members.filter(([k]) => !drop.includes(k) && !(k in set));
      for (const [k, v] of Object.entries(set)) members.push([k, { kind: 'string', value: v }]);
      return { kind: 'object' as const, members };
    });
    if (changed) setElements(req, out);
    return changed;
  }
  const params = paramsOf(req);
  const fields = new Map<string, string>();
  for (const p of params) if (p.name !== 'signature' && !fields.has(p.name)) fields.set(p.name, p.value);
  const { drop = [], set = {} } = edit(fields, req.endpoint);
  if (drop.length === 0 && Object.keys(set).length === 0) return false;
  const kept = params.filter((p) => !drop.includes(p.name) && !(p.name in set));
  const part = params.find((p) => p.name !== 'signature')?.part ?? 'query';
  for (const [k, v] of Object.entries(set)) kept.push({ name: k, value: v, part });
  setParams(req, kept);
  return true;
}

// ---------------------------------------------------------------- the front

/** A front started with its reference server behind it. */
export interface RunningFront {
  url: string;
  apiKey: string;
  secret: string;
  server: RunningServer;
  /** The target description such a deployment declares (the readings' descriptions merged). */
  description: TargetDescription;
  close(): Promise<void>;
}

function readAll(req: IncomingMessage, limit: number): Promise<{ body: Buffer; over: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) over = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve({ body: Buffer.concat(chunks), over }));
    req.on('error', reject);
  });
}

function endpointOf(path: string): FrontEndpoint | undefined {
  if (path === BATCH_ORDERS_PATH) return 'batch';
  if (path === ORDER_PATHS.v1) return 'v1';
  if (path === ORDER_PATHS['v1.1']) return 'v1.1';
  return undefined;
}

/** Whether several readings may run together: one of each group. */
export function compatible(readings: readonly Reading[]): boolean {
  const groups = readings.flatMap((r) => (r.group === undefined ? [] : [r.group]));
  return new Set(groups).size === groups.length;
}

/** Marks a JSON value an answer reading wants written as raw number text. */
export const rawNumber = (t: string): string => `\u0000num:${t}\u0000`;

function writeJson(v: unknown): string {
  return JSON.stringify(v).replace(/"\\u0000num:([^"\\]*)\\u0000"/g, '$1');
}

/** The key-header lines of a connection's bytes, in order: whether each carried blanks around its value. */
function tapKeyBlanks(socket: Socket, header: string): boolean[] {
  const seen: boolean[] = [];
  const line = new RegExp(`^${header}:(.*)$`, 'i');
  let carry = '';
  socket.on('data', (chunk: Buffer) => {
    const lines = (carry + chunk.toString('latin1')).split('\r\n');
    carry = lines.pop() ?? '';
    if (carry.length > 65536) carry = '';
    for (const l of lines) {
      const m = line.exec(l);
      // (one blank after the colon is the usual spelling; more, or one at the end, are the value's own)
      if (m !== null) seen.push(/^[ \t]{2}|[ \t]$/.test(m[1] ?? ''));
    }
  });
  return seen;
}

/** Start the reference server and a front reading the seed as `readings` say, both on loopback. */
export async function startFront(readings: readonly Reading[]): Promise<RunningFront> {
  if (!compatible(readings)) throw new Error(`readings of one group together: ${readings.map((r) => r.id).join(', ')}`);
  const serverOptions: ServerOptions = Object.assign({}, ...readings.map((r) => r.server ?? {}));
  const server = await startServer({ port: 0, ...serverOptions });
  const cred = (serverOptions.credentials ?? DEMO_CREDENTIALS)[0];
  if (cred === undefined) throw new Error('no credential');
  const bodyLimit = Math.min(4 * 1024 * 1024, ...readings.map((r) => r.bodyLimit ?? Infinity));
  const maxConnections = Math.min(...readings.map((r) => r.maxConnections ?? Infinity));
  const pick = readings.find((r) => r.signaturePick !== undefined)?.signaturePick ?? 'first';
  const blanksByConnection = new WeakMap<Socket, boolean[]>();

  /** Whether the reference would pass the request's key and signature (§5.2, §5.3). */
  const signedOk = (req: FrontRequest): boolean => {
    if (req.endpoint === undefined) return false;
    if (req.headers[API_KEY_HEADER.toLowerCase()] !== cred.apiKey) return false;
    const isBatch = req.endpoint === 'batch';
    const sigs = paramsOf({ ...req, body: isBatch ? '' : req.body }).filter((p) => p.name === 'signature');
    const sig = pick === 'first' ? sigs[0] : sigs.at(-1);
    if (sig === undefined) return false;
    const steps = signingSteps(req.query, req.body, isBatch ? 'json' : req.body === '' ? 'none' : 'form');
    return verify(cred.secret, steps.totalParams, sig.value);
  };

  const write = (res: ServerResponse, a: FrontAnswer): void => {
    if (res.headersSent || res.destroyed) return;
    const payload = a.json === undefined ? a.text : writeJson(a.json);
    const headers: Record<string, string | number> = { ...a.headers, 'content-length': Buffer.byteLength(payload) };
    if (a.close === true) headers.connection = 'close';
    res.writeHead(a.status, headers);
    res.end(payload);
  };

  const finish = (a: FrontAnswer, asSent: FrontRequest): FrontAnswer => {
    if (a.json === undefined && /json/.test(a.headers['content-type'] ?? '')) {
      try {
        a.json = JSON.parse(a.text) as unknown;
      } catch {
        // not JSON: left as text
      }
    }
    for (const r of readings) r.answer?.(a, asSent);
    return a;
  };

  let open = 0;
  const front: Server = createServer({ requestTimeout: 10_000, headersTimeout: 10_000 }, (inc, res) => {
    void (async () => {
      const { body, over } = await readAll(inc, bodyLimit);
      const [path = '', query = ''] = (inc.url ?? '').split(/\?(.*)/s, 2);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(inc.headers))
        if (v !== undefined && !['host', 'content-length', 'connection', 'transfer-encoding'].includes(k))
          headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const req: FrontRequest = { method: inc.method ?? 'GET', path, query, body: body.toString('utf8'), headers };
      const ep = endpointOf(path);
      if (ep !== undefined) req.endpoint = ep;
      if (headers[API_KEY_HEADER.toLowerCase()] !== undefined)
        req.keyBlanks = blanksByConnection.get(inc.socket)?.shift() === true;
      // the request as the caller sent it, for the answer readings (the request readings change `req`)
      const asSent: FrontRequest = { ...req, headers: { ...headers } };
      if (open > maxConnections)
        return write(res, finish({ ...refuse(-1000, 'too many connections', 503), close: true }, asSent));
      if (over) return write(res, finish({ ...refuse(-1000, 'body too large', 413), close: true }, asSent));
      let changed = false;
      const early = readings.filter((r) => r.early === true);
      const late = readings.filter((r) => r.early !== true);
      const now = Date.now();
      for (const r of early) {
        const out = r.request?.(req, { signed: signedOk(req), now });
        if (typeof out === 'object') return write(res, finish(out, asSent));
        if (out === true) changed = true;
      }
      const signed = signedOk(req);
      if (signed)
        for (const r of late) {
          const out = r.request?.(req, { signed, now });
          if (typeof out === 'object') return write(res, finish(out, asSent));
          if (out === true) changed = true;
        }
      let sent = { query: req.query, body: req.body, headers: req.headers };
      if (changed && signed && req.endpoint !== undefined) {
        const route = req.endpoint === 'batch' ? 'batch/json' : `${req.endpoint}/query`;
        const r = resign({ route, query: req.query, body: req.body, headers: req.headers }, cred.secret);
        sent = { query: r.query, body: r.body, headers: r.headers };
      }
      const up = await request(`${server.url}${req.path}${sent.query === '' ? '' : `?${sent.query}`}`, {
        method: req.method as 'POST',
        headers: sent.headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? null : sent.body,
      });
      const upHeaders: Record<string, string> = {};
      for (const name of ['content-type', 'allow', 'retry-after']) {
        const v = up.headers[name];
        if (typeof v === 'string') upHeaders[name] = v;
      }
      const a: FrontAnswer = { status: up.statusCode, headers: upHeaders, text: await up.body.text() };
      if (up.headers.connection === 'close') a.close = true;
      write(res, finish(a, asSent));
    })().catch(() => {
      if (!res.headersSent) write(res, refuse(-1000, 'front error', 502));
      else res.destroy();
    });
  });
  front.on('connection', (socket: Socket) => {
    open++;
    socket.once('close', () => open--);
    blanksByConnection.set(socket, tapKeyBlanks(socket, API_KEY_HEADER));
  });
  front.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const port = (front.address() as AddressInfo).port;
  const description: TargetDescription = Object.assign({}, ...readings.map((r) => r.description ?? {}));
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey: cred.apiKey,
    secret: cred.secret,
    server,
    description,
    close: async () => {
      await new Promise<void>((resolve) => {
        front.close(() => resolve());
        front.closeAllConnections();
      });
      await server.close();
    },
  };
}
