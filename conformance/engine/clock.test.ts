import { describe, expect, it } from 'vitest';
import { isSpotcheckError } from '../../src/core/errors.js';
import { measureClock } from './clock.js';
import type { Sender } from './transport.js';

describe('measureClock with a time path', () => {
  it('a wrong --time-path names what came back in whole words, never a word cut short', async () => {
    const text = `<html><body>${'The requested resource could not be found on this gateway. '.repeat(4)}</body></html>`;
    const send: Sender = async (request) => {
      const now = Date.now();
      return {
        observation: { verdict: 'refused', status: 404 } as never,
        exchange: { request } as never,
        response: { status: 404, headers: {}, text, json: undefined, elapsedMs: 1, sentAt: now, receivedAt: now },
      };
    };
    let message = '';
    try {
      await measureClock({
        send,
        timePath: '/nope',
        probe: { method: 'GET', path: '/', query: '', body: '', headers: {} },
      });
    } catch (err) {
      expect(isSpotcheckError(err, 'ERR_USAGE')).toBe(true);
      message = (err as Error).message;
    }
    const got = /got HTTP 404 (.*?)\. Give the path/.exec(message)?.[1] ?? '';
    expect(got).toMatch(/…$/);
    expect(got.length).toBeLessThanOrEqual(120);
    // every word shown is a whole word of the answer
    const shown = got.slice(0, -1).split(' ');
    expect(text.split(' ').slice(0, shown.length)).toEqual(shown);
  });
});
