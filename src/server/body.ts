/**
 * Reading a request body under a size limit (decision D-BODY-LIMIT).
 */
import type { IncomingMessage } from 'node:http';

/** Largest body accepted, bytes (D-BODY-LIMIT: 64 KiB). */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

/** The body as text, or why there is none. */
export type BodyResult = { kind: 'ok'; text: string } | { kind: 'too-large' } | { kind: 'aborted' };

/**
 * Read the whole body as UTF-8 text. Past `limit` bytes (declared or received) it
 * resolves `too-large` at once and keeps discarding what still arrives, so the
 * connection stays usable; a client that goes away resolves `aborted`.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      resolve({ kind: 'too-large' });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (r: BodyResult): void => {
      if (settled) return;
      settled = true;
      resolve(r);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        settle({ kind: 'too-large' });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () =>
      settle({
        kind: 'ok',
        text: chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8'),
      }),
    );
    req.on('error', () => settle({ kind: 'aborted' }));
    req.on('close', () => settle({ kind: 'aborted' }));
  });
}
