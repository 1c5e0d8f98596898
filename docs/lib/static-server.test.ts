import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic, type StaticServer } from './static-server.js';

let root: string;
let server: StaticServer;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'static-'));
  mkdirSync(join(root, 'site', 'documents'), { recursive: true });
  writeFileSync(join(root, 'site', 'index.html'), '<p>home</p>');
  writeFileSync(join(root, 'site', 'documents', 'a b.html'), '<p>a</p>');
  writeFileSync(join(root, 'secret.txt'), 'outside');
  server = await serveStatic(join(root, 'site'));
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

async function get(path: string, method: 'GET' | 'POST' = 'GET') {
  const res = await request(new URL(path, server.url), { method });
  return { status: res.statusCode, type: res.headers['content-type'], text: await res.body.text() };
}

describe('serveStatic', () => {
  it('listens on loopback and serves index.html for the root with an HTML type', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(await get('/')).toEqual({ status: 200, type: 'text/html; charset=utf-8', text: '<p>home</p>' });
  });

  it('decodes percent-encoded paths and ignores the query', async () => {
    expect((await get('/documents/a%20b.html?x=1')).text).toBe('<p>a</p>');
  });

  it('answers 404 for a missing file and for a path climbing out of the folder, 405 for POST', async () => {
    expect((await get('/nope.html')).status).toBe(404);
    expect((await get('/..%2Fsecret.txt')).status).toBe(404);
    expect((await get('/documents/%2E%2E/%2E%2E/secret.txt')).status).toBe(404);
    expect((await get('/%E0%A4%A')).status).toBe(404);
    expect((await get('/', 'POST')).status).toBe(405);
  });
});
