/**
 * One answer and a prompt close after a 413 (D-BODY-LIMIT), and the cap on
 * open connections (D-CONNECTION-CAP), over raw TCP.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './server.js';

let server: RunningServer | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await server?.close();
  server = undefined;
});

/** A raw connection collecting everything the server sends, with when it closed. */
function raw(port: number): Promise<{ socket: Socket; data: () => string; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    const closed = new Promise<number>((r) => socket.once('close', () => r(Date.now())));
    socket.once('connect', () => resolve({ socket, data: () => Buffer.concat(chunks).toString('latin1'), closed }));
    socket.once('error', reject);
  });
}

const HEAD = (extra: string): string =>
  `POST /api/v1/spot/batchOrders?timestamp=1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-SVC-APIKEY: k\r\n${extra}\r\n`;

/** Keep writing body bytes until the socket closes; returns a stopper. */
function flood(socket: Socket, chunk: string): () => void {
  const t = setInterval(() => {
    if (!socket.destroyed && socket.writable) socket.write(chunk);
  }, 5);
  return () => clearInterval(t);
}

describe('D-BODY-LIMIT: after a 413 the connection ends promptly, with exactly one answer', () => {
  for (const [name, head, chunk] of [
    ['declared 100 MB', HEAD('Content-Length: 100000000\r\n'), 'x'.repeat(16 * 1024)],
    ['chunked, endless', HEAD('Transfer-Encoding: chunked\r\n'), `4000\r\n${'x'.repeat(0x4000)}\r\n`],
  ] as const) {
    it(`${name}: one 413 {code -1000}, then the server closes while the client still sends`, async () => {
      server = await startServer({ requestTimeoutMs: 10_000 });
      const c = await raw(server.port);
      c.socket.write(head);
      const t0 = Date.now();
      const stop = flood(c.socket, chunk);
      const closedAt = await Promise.race([c.closed, new Promise<number>((r) => setTimeout(() => r(-1), 4000))]);
      stop();
      expect(closedAt, 'connection still open 4 s after the 413').toBeGreaterThan(0);
      expect(closedAt - t0).toBeLessThan(3000);
      const text = c.data();
      expect(text.match(/HTTP\/1\.1 /g)?.length, text.slice(0, 300)).toBe(1);
      expect(text).toMatch(/^HTTP\/1\.1 413 /);
      expect(text.toLowerCase()).toContain('connection: close');
      expect(text).toContain('"code":-1000');
    });
  }
});

describe('D-CONNECTION-CAP', () => {
  it('beyond the cap a request gets 503 {code, msg} with Retry-After and its connection closes; below it again, service resumes', async () => {
    server = await startServer({ maxConnections: 3 });
    const held = await Promise.all([raw(server.port), raw(server.port), raw(server.port)]);
    const extra = await raw(server.port);
    extra.socket.write('POST /nothing HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
    await extra.closed;
    const text = extra.data();
    expect(text).toMatch(/^HTTP\/1\.1 503 /);
    expect(text.toLowerCase()).toContain('retry-after: 1');
    expect(text).toContain('"code":-1000');
    expect(text).toContain('D-CONNECTION-CAP');

    held[0]?.socket.destroy();
    await held[0]?.closed;
    const again = await raw(server.port);
    again.socket.write('POST /nothing HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    await again.closed;
    expect(again.data()).toMatch(/^HTTP\/1\.1 404 /);
  });

  it('an idle connection beyond the cap is not kept', async () => {
    server = await startServer({ maxConnections: 1 });
    await raw(server.port);
    const idle = await raw(server.port);
    const t0 = Date.now();
    const at = await idle.closed;
    expect(at - t0).toBeLessThan(4000);
    expect(idle.data()).toBe('');
  });
});
