/**
 * A TLS front on loopback in front of an HTTP/1.1 server (the reference server), as venues
 * sit behind one: it speaks HTTP/2 and HTTP/1.1 (ALPN, node:http2 `allowHTTP1`), or HTTP/1.1
 * only, and proxies each request: header names arrive lower-cased, an HTTP/2 body in DATA
 * frames, and the front forwards them as an HTTP/1.1 request. A self-signed certificate for
 * 127.0.0.1 / localhost is made with openssl.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';

/** A self-signed certificate (EC P-256) for 127.0.0.1 and localhost, valid two days: the files' paths. */
export function selfSignedCertificate(): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'spotcheck-front-'));
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-days',
      '2',
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

/** Connection-specific headers (RFC 9113 §8.2.2), never forwarded either way. */
const HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'http2-settings',
  'host',
]);

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !k.startsWith(':') && !HOP.has(k)) out[k] = v;
  return out;
}

export interface TlsFront {
  url: string;
  /** Connections accepted per ALPN protocol (`h2`, `http/1.1`). */
  connections: Record<string, number>;
  close(): Promise<void>;
}

/** Start a front on 127.0.0.1 proxying to `upstream` (http://host:port); `http2: false` offers HTTP/1.1 only. */
export async function startTlsFront(opts: {
  upstream: string;
  cert: string;
  key: string;
  http2?: boolean;
}): Promise<TlsFront> {
  const up = new URL(opts.upstream);
  const handler = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse): void => {
    const out = request(
      {
        host: up.hostname,
        port: up.port,
        method: req.method,
        path: req.url,
        headers: { ...forwardable(req.headers), host: up.host },
      },
      (answer) => {
        (res as ServerResponse).writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
        answer.pipe(res as ServerResponse);
      },
    );
    out.on('error', () => {
      if (!res.headersSent) (res as ServerResponse).writeHead(502);
      res.end();
    });
    (req as IncomingMessage).pipe(out);
  };
  const tls = { cert: readFileSync(opts.cert), key: readFileSync(opts.key) };
  const server =
    opts.http2 === false ? createHttpsServer(tls, handler) : createSecureServer({ ...tls, allowHTTP1: true }, handler);
  const connections: Record<string, number> = {};
  server.on('secureConnection', (socket: TLSSocket) => {
    const p = socket.alpnProtocol || 'http/1.1';
    connections[p] = (connections[p] ?? 0) + 1;
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections,
    close: () =>
      new Promise<void>((r) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => r());
        // HTTP/2 sessions close with the server; HTTP/1.1 keep-alive sockets were ended above
      }),
  };
}
