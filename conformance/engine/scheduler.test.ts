/**
 * The run's schedule and progress (conformance/engine/scheduler.ts): the queue place each check's
 * requests take, and the progress events the console reads.
 */
import { describe, expect, it } from 'vitest';
import { createProgress, schedule } from './scheduler.js';
import type { CheckDefinition } from '../judgement/types.js';
import type { Place } from './transport.js';

const check = (id: string, over: Partial<CheckDefinition> = {}): CheckDefinition => ({
  id,
  ruleId: 'ORDER-SIDE-ENUM',
  title: id,
  run: () => Promise.resolve({ status: 'pass' }),
  ...over,
});

describe('schedule', () => {
  it('gives timed checks the first place, the others a later one of their own flow, runLast ones after all', async () => {
    const list = [check('a'), check('t', { timed: true }), check('b'), check('z', { runLast: true })];
    const seen: Array<[string, Place]> = [];
    await schedule(
      list,
      2,
      async (i, place) => void seen.push([list[i]?.id ?? '?', place]),
      () => false,
    );
    expect(Object.fromEntries(seen)).toEqual({
      a: { priority: 2, flow: 0 },
      t: { priority: 0, flow: 1 },
      b: { priority: 2, flow: 2 },
      z: { priority: 2, flow: 3 },
    });
    expect(seen.at(-1)?.[0]).toBe('z');
  });

  it('one at a time: selection order, every request first in the queue, nothing after a halt', async () => {
    const list = [check('a'), check('t', { timed: true }), check('b')];
    const seen: string[] = [];
    await schedule(
      list,
      1,
      async (i, place) => void seen.push(`${list[i]?.id}:${place.priority}`),
      () => seen.length === 2,
    );
    expect(seen).toEqual(['a:0', 't:0']);
  });
});

describe('createProgress', () => {
  it('names the checks under way, counts the ended and the skipped ones, and ends without a current check', () => {
    const events: unknown[] = [];
    let requests = 0;
    const p = createProgress(
      3,
      () => requests,
      (e) => events.push(e),
    );
    p.start('A');
    p.start('B');
    requests = 5;
    p.update();
    p.end('A');
    p.abandon('B');
    p.skip();
    p.final();
    expect(events).toEqual([
      { done: 0, total: 3, requests: 0, current: 'A' },
      { done: 0, total: 3, requests: 0, current: 'A, B' },
      { done: 0, total: 3, requests: 5, current: 'A, B' },
      { done: 1, total: 3, requests: 5, current: 'B' },
      { done: 2, total: 3, requests: 5 },
    ]);
    expect(p.done()).toBe(2);
  });
});
