/**
 * A loopback TCP proxy that delays every chunk, in both directions, to stand in for a
 * network with round trips of `minRttMs`..`maxRttMs` (not published). Each
 * chunk waits half a round trip drawn per chunk, never overtaking the chunk before it.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** Options of {@link startLatencyProxy}. */
export interface LatencyProxyOptions {
  /** Port of the server behind, on 127.0.0.1. */
  targetPort: number;
  /** Shortest round trip added, ms. */
  minRttMs: number;
  /** Longest round trip added, ms. */
  maxRttMs: number;
  /** Random source in [0, 1) (default Math.random). */
  random?: () => number;
}

/** A started proxy. */
export interface LatencyProxy {
  url: string;
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/** Forward `from` to `to`, each chunk after half a round trip, in order. */
function delayed(from: Socket, to: Socket, o: LatencyProxyOptions, random: () => number): void {
  let last = 0;
  from.on('data', (chunk: Buffer) => {
    const oneWay = (o.minRttMs + random() * (o.maxRttMs - o.minRttMs)) / 2;
    const at = Math.max(Date.now() + oneWay, last);
    last = at;
    setTimeout(() => {
      if (!to.destroyed) to.write(chunk);
    }, at - Date.now());
  });
  from.on('end', () => {
    setTimeout(() => to.end(), Math.max(0, last - Date.now()));
  });
}

/** Start the proxy on an ephemeral loopback port. */
export function startLatencyProxy(o: LatencyProxyOptions): Promise<LatencyProxy> {
  const random = o.random ?? Math.random;
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
    accepted++;
    const upstream = connect({ port: o.targetPort, host: '127.0.0.1', allowHalfOpen: true });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.setNoDelay(true);
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
      s.on('close', () => {
        sockets.delete(s);
        // a side that is gone takes the other with it once its delayed bytes are out
        setTimeout(() => (s === client ? upstream : client).destroy(), o.maxRttMs);
      });
    }
    delayed(client, upstream, o, random);
    delayed(upstream, client, o, random);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        connections: () => accepted,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
