import { describe, expect, it } from 'vitest';
import { checkTimeWindow, DEFAULT_RECV_WINDOW } from '../src/core/time.js';
import { loadTimeWindowVectors } from './load.js';

const file = loadTimeWindowVectors();

describe('time-window vectors (§5.4)', () => {
  it('declare as many vectors as they hold', () => {
    expect(file.tests.length).toBe(file.numberOfTests);
  });

  it.each(file.tests.map((v) => [v.tcId, v.comment, v] as const))('tcId %i: %s', (_id, _comment, v) => {
    const verdict = checkTimeWindow({ serverTime: v.serverTime, timestamp: v.timestamp, recvWindow: v.recvWindow });
    expect(verdict.accepted).toBe(v.result === 'valid');
    expect(verdict.recvWindow).toBe(v.recvWindow ?? DEFAULT_RECV_WINDOW);
    expect(verdict.age).toBe(v.serverTime - v.timestamp);
    if (!verdict.accepted) {
      expect(verdict.reason).toBe(v.reason);
      expect(verdict.ruleId).toBe(v.ruleId);
    }
  });

  it('cover every boundary the brief lists', () => {
    const has = (p: (v: (typeof file.tests)[number]) => boolean): boolean => file.tests.some(p);
    const age = (v: (typeof file.tests)[number]): number => v.serverTime - v.timestamp;
    expect(has((v) => v.recvWindow === undefined && age(v) === 5000 && v.result === 'valid')).toBe(true);
    expect(has((v) => v.recvWindow === undefined && age(v) === 5001 && v.result === 'invalid')).toBe(true);
    expect(has((v) => age(v) === -999 && v.result === 'valid')).toBe(true);
    expect(has((v) => age(v) === -1000 && v.reason === 'too-far-ahead')).toBe(true);
    expect(has((v) => v.recvWindow === 0 && age(v) === 0 && v.result === 'valid')).toBe(true);
    expect(has((v) => v.recvWindow === 0 && age(v) === 1 && v.result === 'invalid')).toBe(true);
    expect(has((v) => v.recvWindow === 60000 && age(v) === 60000 && v.result === 'valid')).toBe(true);
    expect(has((v) => v.recvWindow === 60000 && age(v) === 60001 && v.result === 'invalid')).toBe(true);
  });
});
