/**
 * Wire fuzzer for the reference server (not published): raw TCP connections
 * carrying pipelined requests, well framed with odd content (duplicate and huge headers,
 * invalid UTF-8, chunked bodies, deep JSON, signed batches), each connection possibly
 * ending in one framing-breaking case (malformed request line, Content-Length mismatch,
 * chunked abuse, smuggling headers, oversize), some sent slowly in pieces. It judges
 * ROBUST-NO-5XX (§7): no 5xx, no hang, and no lost reply (every well-framed request
 * before the breaking one answered), and that orders placed equal orders answered.
 */
import { connect } from 'node:net';
import { batchOrdersRequest } from '../../src/client/requests.js';
import { API_KEY_HEADER, ENDPOINTS } from '../../src/core/wire.js';
import type { Credential } from '../../src/server/policy.js';

/** A seeded PRNG (mulberry32): the same seed gives the same cases. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
function pick<T>(r: Rand, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)] as T;
}

/** One case: raw bytes (latin1: one char per byte) and whether HTTP framing survives it. */
export interface FuzzCase {
  kind: string;
  bytes: string;
  /** False for a case that may break the connection's framing (sent last on its connection). */
  framed: boolean;
}

const PATHS = [
  ENDPOINTS.batch.path,
  ENDPOINTS.v1.path,
  ENDPOINTS['v1.1'].path,
  '/',
  '/nothing',
  '/api/v1/spot/order/../order',
  '/%00%ff',
  '/api/v1/spot/batchOrders/',
];
/** No HEAD: its answer has a Content-Length but no body, which a byte-stream reader cannot tell apart. */
const METHODS = ['POST', 'POST', 'POST', 'GET', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'];

function bytesOf(r: Rand, n: number, lo = 0x20, hi = 0xff): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(int(r, lo, hi));
  return s;
}

/** Text that is not valid UTF-8 (lone continuation bytes, truncated sequences, overlongs). */
function badUtf8(r: Rand): string {
  return pick(r, ['\x80', '\xc3', '\xe2\x82', '\xf0\x9f\x98', '\xc0\xaf', '\xed\xa0\x80', '\xff\xfe']).repeat(
    int(r, 1, 4),
  );
}

/** Percent-encode every byte: invalid UTF-8 reaches the server's decoder through a target HTTP accepts. */
function encodeLatin1(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += `%${s.charCodeAt(i).toString(16).padStart(2, '0')}`;
  return out;
}

function randomBody(r: Rand): string {
  switch (int(r, 0, 7)) {
    case 0:
      return '';
    case 1:
      return `${'['.repeat(int(r, 1, 3000))}${']'.repeat(int(r, 0, 3000))}`;
    case 2:
      return `[{"symbol":${pick(r, ['{}', '[]', 'null', '1e999', '{"toString":1}', `"BTC${badUtf8(r)}"`, '123456789012345678901234567890'])},"side":"BUY","type":"MARKET","quantity":"1"}]`;
    case 3:
      return `symbol=BTC${badUtf8(r)}&side=BUY&type=MARKET&quantity=1&timestamp=${int(r, 0, 2e12)}&signature=${bytesOf(r, int(r, 0, 70), 0x30, 0x7a)}`;
    case 4:
      return bytesOf(r, int(r, 1, 2000));
    case 5:
      return JSON.stringify(
        Array.from({ length: int(r, 0, 30) }, () => ({
          symbol: 'BTCUSDT',
          side: 'SELL',
          type: 'LIMIT',
          quantity: String(r()),
          price: '1',
        })),
      );
    case 6:
      return '{"a":'.repeat(int(r, 1, 200));
    default:
      return `${'%'.repeat(int(r, 1, 50))}=${'&'.repeat(int(r, 0, 50))}`;
  }
}

/** Headers: plausible ones with odd values, duplicates, invalid UTF-8, large values (at most about 12 KiB: under the 16 KiB limit with the request line). */
function randomHeaders(r: Rand): string[] {
  const out: string[] = ['Host: fuzz'];
  const n = int(r, 0, 6);
  for (let i = 0; i < n; i++) {
    switch (int(r, 0, 5)) {
      case 0:
        out.push(`${API_KEY_HEADER}: ${pick(r, ['', 'spotcheck-demo-key', bytesOf(r, int(r, 1, 40), 0x21, 0x7e)])}`);
        break;
      case 1:
        out.push(
          `Content-Type: ${pick(r, ['application/json', 'application/x-www-form-urlencoded', 'text/plain', 'application/json; charset=utf-8', 'APPLICATION/JSON', ''])}`,
        );
        break;
      case 2:
        out.push(`X-Fuzz: ${bytesOf(r, int(r, 0, 1500), 0x80, 0xff)}`);
        break;
      case 3:
        out.push(`X-Dup: a`, `X-Dup: b`, `${API_KEY_HEADER}: a`, `${API_KEY_HEADER}: b`);
        break;
      case 4:
        out.push(`X-Big-${i}: ${'v'.repeat(int(r, 500, 2000))}`);
        break;
      default:
        out.push(`Accept: ${bytesOf(r, int(r, 0, 30), 0x20, 0x7e)}`);
    }
  }
  return out;
}

function request(
  method: string,
  target: string,
  headers: readonly string[],
  body: string,
  chunked: ((b: string) => string) | undefined,
): string {
  const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${body.length}`;
  return `${method} ${target} HTTP/1.1\r\n${[...headers, framing].join('\r\n')}\r\n\r\n${chunked ? chunked(body) : body}`;
}

/** Chunked encoding of `body` in random chunk sizes, sometimes with chunk extensions and a trailer. */
function chunkedOf(r: Rand): (b: string) => string {
  return (b) => {
    let out = '';
    for (let i = 0; i < b.length; ) {
      const n = Math.min(b.length - i, int(r, 1, 700));
      out += `${n.toString(16)}${r() < 0.2 ? ';ext=1' : ''}\r\n${b.slice(i, i + n)}\r\n`;
      i += n;
    }
    return `${out}0\r\n${r() < 0.2 ? 'X-Trailer: t\r\n' : ''}\r\n`;
  };
}

/** A well-framed request with odd content: the connection must answer it and stay usable. */
export function framedCase(r: Rand, signed: () => string): FuzzCase {
  if (r() < 0.15) return { kind: 'signed-batch', bytes: signed(), framed: true };
  const method = pick(r, METHODS);
  const path = pick(r, PATHS);
  const query =
    r() < 0.7
      ? `?${pick(r, ['timestamp=1&signature=00', `a=${encodeLatin1(badUtf8(r))}`, `x=${'y'.repeat(int(r, 0, 2000))}`, 'a=1&a=2', '%zz', ''])}`
      : '';
  const body = method === 'GET' ? '' : randomBody(r);
  const chunked = body !== '' && r() < 0.25 ? chunkedOf(r) : undefined;
  return {
    kind: `${method}${chunked ? '-chunked' : ''}`,
    bytes: request(method, `${path}${query}`, randomHeaders(r), body, chunked),
    framed: true,
  };
}

/** A case that may break framing or end the connection: sent last on its connection. */
export function breakingCase(r: Rand): FuzzCase {
  const p = ENDPOINTS.batch.path;
  const cases: Array<[string, () => string]> = [
    [
      'bad-request-line',
      () =>
        pick(r, [
          'GET\r\n\r\n',
          'POST / HTTP/9.9\r\n\r\n',
          `${bytesOf(r, int(r, 1, 200), 0, 0xff)}\r\n\r\n`,
          ' / HTTP/1.1\r\n\r\n',
          'POST  /x  HTTP/1.1\r\nHost: x\r\n\r\n',
        ]),
    ],
    ['cl-longer-than-body', () => `POST ${p} HTTP/1.1\r\nHost: x\r\nContent-Length: ${int(r, 10, 5000)}\r\n\r\n[1]`],
    [
      'cl-shorter-than-body',
      () =>
        `POST ${p} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 3\r\n\r\n[1]]]GARBAGE\r\n\r\n`,
    ],
    ['cl-twice-different', () => `POST ${p} HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n[1]]`],
    [
      'cl-invalid',
      () =>
        `POST ${p} HTTP/1.1\r\nHost: x\r\nContent-Length: ${pick(r, ['-1', '1e3', '0x10', 'abc', '99999999999999999999'])}\r\n\r\n[]`,
    ],
    [
      'cl-and-te',
      () => `POST ${p} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    ],
    [
      'chunk-size-bad',
      () =>
        `POST ${p} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${pick(r, ['zz', '-1', 'ffffffffffffffff', `1;${'e'.repeat(5000)}`, ''])}\r\nabc\r\n0\r\n\r\n`,
    ],
    [
      'chunk-missing-crlf',
      () => `POST ${p} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcdef\r\n0\r\n\r\n`,
    ],
    [
      'te-unknown',
      () =>
        `POST ${p} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: ${pick(r, ['gzip', 'chunked, gzip', 'identity', 'chunked\r\nTransfer-Encoding: chunked'])}\r\n\r\n0\r\n\r\n`,
    ],
    ['header-overflow', () => `POST ${p} HTTP/1.1\r\nHost: x\r\nX-Huge: ${'h'.repeat(int(r, 17_000, 40_000))}\r\n\r\n`],
    [
      'header-malformed',
      () =>
        `POST ${p} HTTP/1.1\r\n${pick(r, ['NoColon\r\n', ' Leading: space\r\n', 'Bad Name: v\r\n', 'X: a\nY: b\n', `X-Ctl: a\x00b\r\n`])}\r\n`,
    ],
    [
      'body-over-limit',
      () =>
        `POST ${p} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${70_000}\r\n\r\n${'x'.repeat(70_000)}`,
    ],
    ['connection-close', () => `POST ${p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n\r\n[]`],
    [
      'expect-other',
      () =>
        `POST ${p} HTTP/1.1\r\nHost: x\r\nExpect: ${pick(r, ['100-continue', 'teapot'])}\r\nContent-Length: 2\r\n\r\n[]`,
    ],
    ['raw-bytes-in-target', () => `POST ${p}?a=${badUtf8(r)} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n[]`],
    ['http10', () => `POST ${p} HTTP/1.0\r\nContent-Length: 2\r\n\r\n[]`],
    ['connect', () => `CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: x\r\n\r\n`],
  ];
  const [kind, make] = pick(r, cases);
  return { kind, bytes: make(), framed: false };
}

/** What one connection saw. */
interface ConnectionResult {
  statuses: number[];
  ordersAnswered: number;
  hung: boolean;
  data: string;
}

/** Split a byte stream of HTTP/1.1 responses (the server always sends Content-Length) into statuses and bodies. */
export function parseResponses(data: string): Array<{ status: number; body: string }> {
  const out: Array<{ status: number; body: string }> = [];
  let i = 0;
  while (i < data.length) {
    const end = data.indexOf('\r\n\r\n', i);
    if (end === -1) break;
    const head = data.slice(i, end);
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? NaN);
    const len = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    out.push({ status, body: data.slice(end + 4, end + 4 + len) });
    i = end + 4 + len;
  }
  return out;
}

function runConnection(port: number, payload: string, pieces: number, timeoutMs: number): Promise<ConnectionResult> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      socket.destroy();
    }, timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const data = Buffer.concat(chunks).toString('latin1');
      const responses = parseResponses(data).filter((x) => !(x.status >= 100 && x.status < 200));
      const ordersAnswered = responses.reduce(
        (n, x) => n + (x.status === 200 ? (x.body.match(/"order":\{/g)?.length ?? 0) : 0),
        0,
      );
      resolve({ statuses: responses.map((x) => x.status), ordersAnswered, hung, data });
    });
    socket.on('connect', () => {
      const buf = Buffer.from(payload, 'latin1');
      if (pieces <= 1) {
        socket.end(buf);
        return;
      }
      // a slow sender: the bytes in pieces, a macrotask apart
      const size = Math.ceil(buf.length / pieces);
      let at = 0;
      const next = (): void => {
        if (socket.destroyed) return;
        const part = buf.subarray(at, at + size);
        at += size;
        if (at >= buf.length) socket.end(part);
        else {
          socket.write(part);
          setTimeout(next, 1);
        }
      };
      next();
    });
  });
}

/** Options of {@link runFuzz}. */
export interface FuzzOptions {
  port: number;
  seed: number;
  /** Connections in all. */
  connections: number;
  /** Well-framed requests pipelined per connection (the last may be followed by one breaking case). */
  perConnection: number;
  /** Connections open at once. */
  concurrency: number;
  /** The key signed batches are signed with. */
  credential: Credential;
  /** Server time for signed batches. */
  now: () => number;
  /** Per-connection time limit before it counts as hung, ms (default 10000). */
  timeoutMs?: number;
  /** Replay: send only this connection of the seed's plan. */
  only?: number;
  /** Called with each connection's bytes and what came back (debugging a replay). */
  onConnection?: (sent: string, received: string) => void;
}

/** Totals of a fuzz run, and the first few faults found. */
export interface FuzzStats {
  seed: number;
  requests: number;
  connections: number;
  /** Answers by HTTP status. */
  statuses: Record<string, number>;
  /** Cases by kind. */
  kinds: Record<string, number>;
  /** Well-framed requests that got no answer. */
  lost: number;
  /** Connections the server neither answered nor closed in time. */
  hung: number;
  /** Orders shown as placed in the answers. */
  ordersAnswered: number;
  /** Faults, each with the seed and connection index to replay it. */
  faults: string[];
}

/** Run the fuzzer; resolves with totals (it never throws for a server fault: faults are listed). */
export async function runFuzz(o: FuzzOptions): Promise<FuzzStats> {
  const r = prng(o.seed);
  let clientSeq = 0;
  const signed = (): string => {
    const orders = Array.from({ length: int(r, 1, 3) }, () => ({
      symbol: 'BTCUSDT',
      side: 'BUY' as const,
      type: 'LIMIT' as const,
      quantity: '1',
      price: '10',
      newClientOrderId: `fz-${o.seed}-${++clientSeq}`,
    }));
    const req = batchOrdersRequest(orders, {
      apiKey: o.credential.apiKey,
      secret: o.credential.secret,
      timestamp: o.now(),
    }).request;
    return request(
      req.method,
      `${req.path}?${req.query}`,
      ['Host: fuzz', ...Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`)],
      req.body,
      undefined,
    );
  };
  const stats: FuzzStats = {
    seed: o.seed,
    requests: 0,
    connections: 0,
    statuses: {},
    kinds: {},
    lost: 0,
    hung: 0,
    ordersAnswered: 0,
    faults: [],
  };
  // Planned when its turn comes (synchronously, in index order: the same seed gives the same cases), so signed timestamps are fresh.
  const planOf = (
    index: number,
  ): { index: number; framed: FuzzCase[]; breaking: FuzzCase | undefined; pieces: number } => {
    const framed = Array.from({ length: int(r, 1, o.perConnection) }, () => framedCase(r, signed));
    const breaking = r() < 0.6 ? breakingCase(r) : undefined;
    const pieces = r() < 0.05 ? int(r, 2, 20) : 1;
    return { index, framed, breaking, pieces };
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < o.connections) {
      const plan = planOf(next++);
      if (o.only !== undefined && plan.index !== o.only) continue;
      const cases = plan.breaking ? [...plan.framed, plan.breaking] : plan.framed;
      for (const c of cases) stats.kinds[c.kind] = (stats.kinds[c.kind] ?? 0) + 1;
      stats.requests += cases.length;
      stats.connections++;
      const payload = cases.map((c) => c.bytes).join('');
      const res = await runConnection(o.port, payload, plan.pieces, o.timeoutMs ?? 10_000);
      o.onConnection?.(payload, res.data);
      for (const s of res.statuses) stats.statuses[s] = (stats.statuses[s] ?? 0) + 1;
      stats.ordersAnswered += res.ordersAnswered;
      const where = `seed ${o.seed} connection ${plan.index} (${cases.map((c) => c.kind).join(',')})`;
      if (res.hung) {
        stats.hung++;
        stats.faults.push(`hung: ${where}`);
      }
      const fivexx = res.statuses.filter((s) => !(s < 500));
      if (fivexx.length > 0) stats.faults.push(`status ${fivexx.join(',')}: ${where}`);
      // A well-framed request is answered unless an earlier one ended the connection (413, Connection: close).
      const lost = Math.max(0, plan.framed.length - res.statuses.length);
      if (lost > 0) {
        stats.lost += lost;
        stats.faults.push(
          `${lost} of ${plan.framed.length} well-framed requests unanswered (got ${res.statuses.join(',') || 'nothing'}): ${where}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  return stats;
}
