/**
 * A loopback TCP proxy that cuts every stream into new pieces (one byte each, or random
 * sizes) and delays each piece, in both directions, never reordering: the server behind
 * sees every segmenting and timing a real network may produce for the same bytes.
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** How pieces are cut: `byte` one byte each, `random` 1..maxPiece bytes each. */
export type Split = 'byte' | 'random';

/** Options of {@link startResegmentProxy}. */
export interface ResegmentOptions {
  /** Port of the server behind, on 127.0.0.1. */
  targetPort: number;
  split: Split;
  /** Largest random piece, bytes (default 64). */
  maxPiece?: number;
  /** Delay added to each piece, ms, drawn in [0, maxDelayMs] (default 3; 0: the next turn of the event loop). */
  maxDelayMs?: number;
  /** Random source in [0, 1) (seeded in tests). */
  random: () => number;
}

/** A started proxy. */
export interface ResegmentProxy {
  port: number;
  /** Pieces forwarded so far (both directions). */
  pieces(): number;
  close(): Promise<void>;
}

/** A small seeded random source (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cut a chunk into pieces per `split`. */
export function cut(chunk: Buffer, split: Split, maxPiece: number, random: () => number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < chunk.length; ) {
    const n = split === 'byte' ? 1 : 1 + Math.floor(random() * maxPiece);
    out.push(chunk.subarray(i, i + n));
    i += n;
  }
  return out;
}

function forward(from: Socket, to: Socket, o: ResegmentOptions, count: () => void): void {
  const queue: Array<Buffer | null> = [];
  let busy = false;
  const maxDelay = o.maxDelayMs ?? 3;
  const next = (): void => {
    const piece = queue.shift();
    if (piece === undefined) {
      busy = false;
      return;
    }
    busy = true;
    const send = (): void => {
      if (!to.destroyed) {
        if (piece === null) to.end();
        else {
          count();
          to.write(piece);
        }
      }
      next();
    };
    // no delay drawn: the next turn of the loop (one byte at a time stays quick), else a timer
    const delay = Math.floor(o.random() * (maxDelay + 1));
    if (delay === 0) setImmediate(send);
    else setTimeout(send, delay);
  };
  from.on('data', (chunk: Buffer) => {
    queue.push(...cut(chunk, o.split, o.maxPiece ?? 64, o.random));
    if (!busy) next();
  });
  from.on('end', () => {
    queue.push(null);
    if (!busy) next();
  });
}

/** Start the proxy on an ephemeral loopback port. */
export function startResegmentProxy(o: ResegmentOptions): Promise<ResegmentProxy> {
  const sockets = new Set<Socket>();
  let pieces = 0;
  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
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
        setTimeout(() => (s === client ? upstream : client).destroy(), 200);
      });
    }
    forward(client, upstream, o, () => pieces++);
    forward(upstream, client, o, () => pieces++);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        pieces: () => pieces,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
