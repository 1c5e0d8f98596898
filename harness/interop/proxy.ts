/**
 * The thin wrapper between a real client library and the reference server: a loopback
 * HTTP server that renames the client's API-key header to the seed's (§5.2) and maps the
 * client's order paths to the seed's (§4), forwarding query string and body byte for byte
 * (so the signature is checked over exactly what the client sent, §5.3). The time and
 * exchange-information calls some libraries make first are answered here, minimally; no
 * request ever leaves the loopback interface.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_KEY_HEADER } from '../../src/core/wire.js';

/** How one client library addresses the API: its header name and its paths for the seed's endpoints. */
export interface ClientWire {
  /** The API-key header the library sends, e.g. `X-MBX-APIKEY`. */
  apiKeyHeader: string;
  /** Client path to seed path, e.g. `/api/v3/order` to `/api/v1/spot/order`. */
  paths: Readonly<Record<string, string>>;
}

/** One request forwarded to the reference server and its answer. */
export interface Exchange {
  method: string;
  /** Path the client used. */
  clientPath: string;
  /** Seed path it was forwarded to. */
  path: string;
  query: string;
  body: string;
  status: number;
  /** The parsed answer (`{code, msg, diagnosis?}` for a refusal). */
  json: unknown;
}

export interface Proxy {
  url: string;
  /** Every forwarded request, in order. */
  exchanges: Exchange[];
  /** Requests to a path neither forwarded nor answered here (a client calling something unexpected). */
  unknown: string[];
  close(): Promise<void>;
}

/** Minimal answers for the calls libraries make before trading: server time, ping, exchange information. */
function stub(path: string): unknown {
  if (/\/time$/i.test(path)) return { serverTime: Date.now() };
  if (/\/ping$/i.test(path)) return {};
  if (/exchangeInfo$/i.test(path))
    return { timezone: 'UTC', serverTime: Date.now(), rateLimits: [], exchangeFilters: [], symbols: [] };
  return undefined;
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function forward(
  target: URL,
  method: string,
  pathAndQuery: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const r = request(
      {
        host: target.hostname,
        port: target.port,
        method,
        path: pathAndQuery,
        headers: { ...headers, 'content-length': String(body.length) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    r.end(body);
  });
}

function answer(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Start the wrapper in front of the reference server at `targetUrl` (loopback only). */
export async function startProxy(targetUrl: string, wire: ClientWire): Promise<Proxy> {
  const target = new URL(targetUrl);
  if (!['127.0.0.1', '[::1]', 'localhost'].includes(target.hostname))
    throw new Error(`the interop target must be on loopback, got ${target.hostname}`);
  const exchanges: Exchange[] = [];
  const unknown: string[] = [];
  const headerName = wire.apiKeyHeader.toLowerCase();
  const server = createServer((req, res) => {
    void (async () => {
      const raw = req.url ?? '/';
      const q = raw.indexOf('?');
      const clientPath = q === -1 ? raw : raw.slice(0, q);
      const query = q === -1 ? '' : raw.slice(q + 1);
      const body = await readAll(req);
      const path = wire.paths[clientPath];
      if (path === undefined) {
        const s = stub(clientPath);
        if (s === undefined) unknown.push(`${req.method ?? ''} ${clientPath}`);
        return answer(
          res,
          s === undefined ? 404 : 200,
          JSON.stringify(s ?? { code: -1000, msg: 'not served by the interop harness' }),
        );
      }
      const headers: Record<string, string> = {};
      const key = req.headers[headerName];
      if (typeof key === 'string') headers[API_KEY_HEADER] = key;
      const ct = req.headers['content-type'];
      if (typeof ct === 'string') headers['content-type'] = ct;
      const method = req.method ?? 'GET';
      const reply = await forward(target, method, query === '' ? path : `${path}?${query}`, headers, body);
      let json: unknown;
      try {
        json = JSON.parse(reply.text);
      } catch {
        json = reply.text;
      }
      exchanges.push({ method, clientPath, path, query, body: body.toString('utf8'), status: reply.status, json });
      answer(res, reply.status, reply.text);
    })().catch(() => answer(res, 502, JSON.stringify({ code: -1000, msg: 'interop harness: forwarding failed' })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    unknown,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
