/**
 * A stranger's gateway: an API front written apart from the reference server, the way a
 * venue puts an authentication gateway before its matching engine. It parses requests,
 * checks the key, the signature and the time window with its own code (node:crypto, its
 * own parameter reading, Binance-style answers: HTTP 400 -1022 for a bad signature,
 * -1102 for a missing parameter, -1021 outside the window), then hands the order to the
 * reference server as its engine, re-signed with the engine's key. Each option is one
 * fault measured on a real third-party server (verdicts self-test). Test harness only:
 * never part of the package.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { request } from 'undici';
import { DEMO_API_KEY, DEMO_SECRET } from '../src/server/credentials.js';
import { startServer } from '../src/server/server.js';

export interface GatewayFaults {
  /** Sign over the query and only the first N bytes of the body: a long enough correct request is refused as badly signed. */
  signedBodyLimit?: number;
  /** v1.1 orders are read from the query string only: parameters in a form body never reach the engine. */
  v11QueryOnly?: boolean;
  /** The signature is looked for only as the last pair: one sent first is "not sent" (-1102). */
  signatureLastOnly?: boolean;
  /** The signature pair removed from the signed text by replacing "&signature=..." (a fault): one standing first in its part stays in, and the signature never matches. */
  signatureAfterAmpersandOnly?: boolean;
  /** After this many placed orders every authentic order is refused for the account's position (-2022), before any field is read. */
  positionLimitAfter?: number;
  /** No batch endpoint (404). */
  noBatch?: boolean;
  /** How far ahead of the gateway's clock a timestamp is accepted, ms (the seed: under 1000). */
  leadMs?: number;
  /** Never answer a request whose query or form body carries a percent-escape (its decoder loops). */
  hangOnPercentEscape?: boolean;
  /** The first order forwarded on each path waits this long, ms (the engine connection is opened lazily). */
  coldStartMs?: number;
}

export interface RunningGateway {
  url: string;
  apiKey: string;
  secret: string;
  /** Orders the engine placed through the gateway. */
  placed(): number;
  /** Requests left unanswered (hangOnPercentEscape). */
  hung(): number;
  close(): Promise<void>;
}

const GATEWAY_KEY = 'gw-7f3a-key';
const GATEWAY_SECRET = 'gw-7f3a-secret-for-selftest';
const PATHS: Record<string, 'batch' | 'v1' | 'v1.1'> = {
  '/api/v1/spot/batchOrders': 'batch',
  '/api/v1/spot/order': 'v1',
  '/api/v1.1/spot/order': 'v1.1',
};

function reply(res: ServerResponse, status: number, code: number, msg: string): void {
  const text = JSON.stringify({ code, msg });
  res.writeHead(status, {
    'content-type': 'application/json;charset=UTF-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function hmac(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('hex');
}

/** `a=1&b=2` into its raw pairs (no decoding), empty pieces dropped. */
function pairs(part: string): string[] {
  return part.split('&').filter((p) => p !== '');
}

function nameOf(pair: string): string {
  const i = pair.indexOf('=');
  return i === -1 ? pair : pair.slice(0, i);
}

function valueOf(list: readonly string[], name: string): string | undefined {
  const p = list.find((x) => nameOf(x) === name);
  return p === undefined ? undefined : decodeURIComponent(p.slice(name.length + 1).replace(/\+/g, ' '));
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Start the engine (the reference server) and the gateway before it, both on loopback. */
export async function startGateway(faults: GatewayFaults = {}): Promise<RunningGateway> {
  const engine = await startServer({ port: 0 });
  let placed = 0;
  let hung = 0;
  const warm = new Set<string>();
  const sockets = new Set<Socket>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await body(req);
    const [path = '', query = ''] = (req.url ?? '').split(/\?(.*)/s, 2);
    const kind = PATHS[path];
    if (kind === undefined || (kind === 'batch' && faults.noBatch === true) || req.method !== 'POST')
      return reply(res, 404, -1, 'Not found.');
    const form = kind !== 'batch';
    if (faults.hangOnPercentEscape === true && (query.includes('%') || (form && raw.includes('%')))) {
      hung++;
      return; // never answered
    }
    const key = req.headers['x-svc-apikey'];
    if (typeof key !== 'string' || key === '') return reply(res, 401, -2014, 'API-key format invalid.');
    if (key !== GATEWAY_KEY) return reply(res, 401, -2015, 'Invalid API-key, IP, or permissions for action.');
    const q = pairs(query);
    const b = form ? pairs(raw) : [];
    // Where the signature stands: the first `signature` pair of the query, else of the form body (or only the very last pair).
    let where: 'query' | 'body' | undefined;
    if (faults.signatureLastOnly === true) {
      if (q.length > 0 && nameOf(q[q.length - 1] as string) === 'signature') where = 'query';
      else if (b.length > 0 && nameOf(b[b.length - 1] as string) === 'signature') where = 'body';
    } else if (q.some((p) => nameOf(p) === 'signature')) where = 'query';
    else if (b.some((p) => nameOf(p) === 'signature')) where = 'body';
    const signature = where === undefined ? undefined : valueOf(where === 'query' ? q : b, 'signature');
    if (signature === undefined || signature === '')
      return reply(res, 400, -1102, "Mandatory parameter 'signature' was not sent, was empty/null, or malformed.");
    const unsigned = (list: readonly string[]) => list.filter((p) => nameOf(p) !== 'signature').join('&');
    // text replacement of "&signature=<value>": a pair with no "&" before it is left in what is signed
    if (
      faults.signatureAfterAmpersandOnly === true &&
      nameOf(((where === 'query' ? q : b)[0] ?? '') as string) === 'signature'
    )
      return reply(res, 400, -1022, 'Signature for this request is not valid.');
    const signedBody = form ? unsigned(b) : raw;
    const covered = faults.signedBodyLimit === undefined ? signedBody : signedBody.slice(0, faults.signedBodyLimit);
    if (hmac(GATEWAY_SECRET, unsigned(q) + covered) !== signature.toLowerCase())
      return reply(res, 400, -1022, 'Signature for this request is not valid.');
    const all = [...q, ...b];
    const ts = valueOf(all, 'timestamp');
    if (ts === undefined)
      return reply(res, 400, -1102, "Mandatory parameter 'timestamp' was not sent, was empty/null, or malformed.");
    if (!/^[0-9]{1,20}$/.test(ts))
      return reply(
        res,
        400,
        -1100,
        "Illegal characters found in parameter 'timestamp'; legal range is '^[0-9]{1,20}$'.",
      );
    const rw = valueOf(all, 'recvWindow');
    if (rw !== undefined && !/^[0-9]{1,20}$/.test(rw))
      return reply(
        res,
        400,
        -1100,
        "Illegal characters found in parameter 'recvWindow'; legal range is '^[0-9]{1,20}$'.",
      );
    const window = rw === undefined ? 5000 : Number(rw);
    if (window > 60000) return reply(res, 400, -1131, 'recvWindow must be less than 60000');
    const now = Date.now();
    if (Number(ts) >= now + (faults.leadMs ?? 1000) || now - Number(ts) > window)
      return reply(res, 400, -1021, 'Timestamp for this request is outside of the recvWindow.');
    if (faults.positionLimitAfter !== undefined && placed >= faults.positionLimitAfter)
      return reply(res, 400, -2022, 'ReduceOnly Order is rejected.');
    // To the engine: the same order, a fresh timestamp (the gateway owns the time check), signed with the engine's key.
    const drop = (list: readonly string[]) =>
      list.filter((p) => !['signature', 'timestamp', 'recvWindow'].includes(nameOf(p)));
    if (faults.coldStartMs !== undefined && !warm.has(kind)) {
      warm.add(kind);
      await new Promise((r) => setTimeout(r, faults.coldStartMs));
    }
    const engineQuery = [...drop(q), `timestamp=${Date.now()}`].join('&');
    const engineBody = !form ? raw : kind === 'v1.1' && faults.v11QueryOnly === true ? '' : drop(b).join('&');
    const headers: Record<string, string> = { 'x-svc-apikey': DEMO_API_KEY };
    const type = req.headers['content-type'];
    if (typeof type === 'string' && engineBody !== '') headers['content-type'] = type;
    const answer = await request(
      `${engine.url}${path}?${engineQuery}&signature=${hmac(DEMO_SECRET, engineQuery + engineBody)}`,
      { method: 'POST', headers, body: engineBody },
    );
    const text = await answer.body.text();
    try {
      const json = JSON.parse(text) as { code?: unknown; result?: Array<{ code?: unknown }> };
      if (answer.statusCode === 200 && (json.code === undefined || json.code === 0))
        placed += Array.isArray(json.result) ? json.result.filter((e) => e?.code === 0).length : 1;
    } catch {
      // not JSON: nothing placed
    }
    res.writeHead(answer.statusCode, {
      'content-type': 'application/json;charset=UTF-8',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) reply(res, 400, -1000, 'An unknown error occurred while processing the request.');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey: GATEWAY_KEY,
    secret: GATEWAY_SECRET,
    placed: () => placed,
    hung: () => hung,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
      await engine.close();
    },
  };
}
