import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { kitPath } from '../paths.js';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SpotClient } from '../client/spot-client.js';
import { API_KEY_HEADER } from '../core/wire.js';
import { sendRaw } from '../client/http.js';
import { sign } from '../signing/hmac.js';
import { ApiError, isSpotcheckError } from '../core/errors.js';
import { DEMO_API_KEY, DEMO_READONLY_API_KEY, DEMO_SECRET } from '../server/credentials.js';
import type { Io } from './args.js';
import { main } from './main.js';
import { serveCommand, waitForParentExit, waitForSignal } from './serve.js';

/** An Io that records output and resolves `ready` with the URL once the listening line is printed. */
function recordingIo(env: NodeJS.ProcessEnv = {}): { io: Io; out: string[]; err: string[]; ready: Promise<string> } {
  const out: string[] = [];
  const err: string[] = [];
  let announce: (url: string) => void = () => undefined;
  const ready = new Promise<string>((r) => (announce = r));
  const io: Io = {
    out: (s) => {
      out.push(s);
      const m = /listening on (http:\/\/\S+)/.exec(s);
      if (m?.[1] !== undefined) announce(m[1]);
    },
    err: (s) => err.push(s),
    env,
  };
  return { io, out, err, ready };
}

/** A stop trigger for `serveCommand`. */
function manualStop(): { stop: () => Promise<string>; fire: (name: string) => void } {
  let fire: (name: string) => void = () => undefined;
  const p = new Promise<string>((r) => (fire = r));
  return { stop: () => p, fire };
}

const ORDER = { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' } as const;

async function refusedWith(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a refusal');
}

describe('spotcheck serve', () => {
  it('with no credentials: prints the URL and the documented demo keys, answers signed requests at once, stops cleanly', async () => {
    const { io, out, ready } = recordingIo();
    const { stop, fire } = manualStop();
    const done = serveCommand([], io, stop);
    const url = await ready;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const text = out.join('');
    expect(text).toContain(`api key: ${DEMO_API_KEY} (TRADE, USER_DATA), secret ${DEMO_SECRET}`);
    expect(text).toContain(`api key: ${DEMO_READONLY_API_KEY} (USER_DATA)`);
    const res = await new SpotClient({ baseUrl: url, apiKey: DEMO_API_KEY, secret: DEMO_SECRET }).order(ORDER);
    expect(res.code).toBe(0);
    fire('SIGTERM');
    expect(await done).toBe(0);
    const gone = await refusedWith(
      new SpotClient({ baseUrl: url, apiKey: DEMO_API_KEY, secret: DEMO_SECRET }).order(ORDER),
    );
    expect(isSpotcheckError(gone, 'ERR_NETWORK')).toBe(true);
  });

  it('with --api-key/--secret: accepts that key only and never prints the secret', async () => {
    const secret = 'user-secret-do-not-print';
    const { io, out, err, ready } = recordingIo();
    const { stop, fire } = manualStop();
    const done = serveCommand(['--api-key', 'user-key', '--secret', secret, '--port', '0'], io, stop);
    const url = await ready;
    expect((await new SpotClient({ baseUrl: url, apiKey: 'user-key', secret }).order(ORDER)).code).toBe(0);
    const demo = await refusedWith(
      new SpotClient({ baseUrl: url, apiKey: DEMO_API_KEY, secret: DEMO_SECRET }).order(ORDER),
    );
    expect(demo).toBeInstanceOf(ApiError);
    expect(demo).toMatchObject({ apiCode: -2015 });
    fire('SIGINT');
    expect(await done).toBe(0);
    expect(out.join('')).toContain('api key: user-key');
    expect(out.join('') + err.join('')).not.toContain(secret);
  });

  it('reads SPOTCHECK_API_KEY and SPOTCHECK_SECRET', async () => {
    const { io, out, ready } = recordingIo({ SPOTCHECK_API_KEY: 'env-key', SPOTCHECK_SECRET: 'env-secret' });
    const { stop, fire } = manualStop();
    const done = serveCommand([], io, stop);
    const url = await ready;
    expect((await new SpotClient({ baseUrl: url, apiKey: 'env-key', secret: 'env-secret' }).order(ORDER)).code).toBe(0);
    fire('SIGTERM');
    await done;
    expect(out.join('')).not.toContain('env-secret');
    expect(out.join('')).toContain(
      'credentials: SPOTCHECK_API_KEY and SPOTCHECK_SECRET from the environment, not the demo keys',
    );
  });

  it('--explain: a signature rejection carries a diagnosis and one JSON log line on stderr, never the secret', async () => {
    const secret = 'explain-secret-do-not-print';
    const { io, out, err, ready } = recordingIo();
    const { stop, fire } = manualStop();
    const done = serveCommand(['--api-key', 'k', '--secret', secret, '--explain'], io, stop);
    const url = await ready;
    const q = `symbol=BTCUSDT&side=BUY&type=MARKET&quantity=1&timestamp=${Date.now()}`;
    const res = await sendRaw(url, {
      method: 'POST',
      path: '/api/v1/spot/order',
      query: `${q}&signature=${sign(secret, `${q}&signature=`)}`,
      body: '',
      headers: { [API_KEY_HEADER]: 'k' },
    });
    fire('SIGINT');
    await done;
    expect(res.status).toBe(401);
    expect((res.json as { diagnosis?: { code?: string } }).diagnosis?.code).toBe('SIGNATURE_PARAM_SIGNED');
    const line = err
      .join('')
      .split('\n')
      .find((l) => l.startsWith('{'));
    expect(JSON.parse(line ?? '{}')).toMatchObject({
      event: 'signature-rejected',
      diagnosis: { code: 'SIGNATURE_PARAM_SIGNED', serverSigned: q },
    });
    expect(out.join('')).toContain('explain: signature rejections carry a diagnosis');
    expect(out.join('') + err.join('') + res.text).not.toContain(secret);
  });

  it('usage errors: a key without a secret, a bad port, an unknown flag (exit 2 through main)', async () => {
    for (const argv of [
      ['--api-key', 'k'],
      ['--port', '70000'],
      ['--port', 'x'],
      ['--nope'],
      ['--max-connections', '0'],
      ['--max-connections', 'many'],
    ]) {
      const { io, err } = recordingIo();
      expect(await main(['serve', ...argv], io)).toBe(2);
      expect(err.join('')).toMatch(/serve:/);
    }
  });

  it('a port in use is ERR_SERVER_START (exit 2), not a crash', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    try {
      const port = String((blocker.address() as AddressInfo).port);
      const { io, err } = recordingIo();
      expect(await main(['serve', '--port', port], io)).toBe(2);
      expect(err.join('')).toMatch(/could not listen/);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('--help prints the usage through main', async () => {
    const { io, out } = recordingIo();
    expect(await main(['serve', '--help'], io)).toBe(0);
    expect(out.join('')).toMatch(/^Usage: spotcheck serve/);
  });
});

describe('waitForSignal', () => {
  it('resolves with the first signal and removes its listeners', async () => {
    const target = new EventEmitter();
    const p = waitForSignal(['SIGINT', 'SIGTERM'], target);
    expect(target.listenerCount('SIGINT')).toBe(1);
    target.emit('SIGTERM');
    expect(await p).toBe('SIGTERM');
    expect(target.listenerCount('SIGINT') + target.listenerCount('SIGTERM')).toBe(0);
  });

  it('ends with its parent: a changed parent id (re-parented orphan) or a closed IPC channel', async () => {
    const proc = Object.assign(new EventEmitter(), { ppid: 4242, channel: undefined });
    const w = waitForParentExit(10, proc);
    let ended: string | undefined;
    void w.done.then((why) => (ended = why));
    await new Promise((r) => setTimeout(r, 50));
    expect(ended).toBeUndefined();
    proc.ppid = 1;
    expect(await w.done).toBe('parent process ended');
    const ipc = Object.assign(new EventEmitter(), { ppid: 4242, channel: {} });
    const v = waitForParentExit(10_000, ipc);
    ipc.emit('disconnect');
    expect(await v.done).toMatch(/IPC channel closed/);
    v.cancel();
  });

  it('`serve` started by a wrapper (as npx does) exits when the wrapper is killed by its pid', async () => {
    const bin = kitPath('dist', 'conformance', 'cli', 'bin.js');
    if (!existsSync(bin)) throw new Error('dist/ is missing: run `npm run build` (npm ci does it) before the tests');
    // the wrapper starts serve and prints its pid, then waits; SIGKILL leaves it no chance to pass anything on
    const wrapperCode = `const c = require('node:child_process').spawn(process.execPath, [${JSON.stringify(bin)}, 'serve'], { stdio: ['ignore', 'pipe', 'ignore'] });
c.stdout.on('data', (d) => { if (String(d).includes('listening on')) console.log(c.pid); });
setInterval(() => {}, 1000);`;
    const wrapper = spawn(process.execPath, ['-e', wrapperCode], { stdio: ['ignore', 'pipe', 'ignore'] });
    const pid = await new Promise<number>((resolve, reject) => {
      wrapper.stdout.on('data', (d: Buffer) => resolve(Number(String(d).trim())));
      wrapper.on('exit', () => reject(new Error('the wrapper ended early')));
    });
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive()).toBe(true);
    wrapper.kill('SIGKILL');
    let ms = 0;
    while (alive() && ms < 10_000) {
      await new Promise((r) => setTimeout(r, 100));
      ms += 100;
    }
    if (alive()) process.kill(pid, 'SIGKILL');
    expect(ms, 'serve outlived its parent').toBeLessThan(10_000);
  }, 30_000);
});
