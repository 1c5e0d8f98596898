import { describe, expect, it } from 'vitest';
import { windowSides } from './time.js';

describe('windowSides: which edge of a measured window is off (§5.4 item 3)', () => {
  const clock = { offsetMs: 10, uncertaintyMs: 40 };
  const cases: Array<[string, { lead: number; past: number }, 'right' | 'off', 'right' | 'off']> = [
    ['both edges where the clock puts them', { lead: 1005, past: -2992 }, 'right', 'right'],
    ['a lead 3 s wide, the past side exact', { lead: 2992, past: -2989 }, 'right', 'off'],
    ['a past side 2 s too long, the lead exact', { lead: 1010, past: -4990 }, 'off', 'right'],
  ];
  for (const [name, found, past, lead] of cases) {
    it(name, () => {
      const s = windowSides(clock, found, 3000, 300);
      expect([s?.past, s?.lead]).toEqual([past, lead]);
    });
  }
  it('without a clock estimate the side is not known', () => {
    expect(windowSides({}, { lead: 2992, past: -2989 }, 3000, 300)).toBeUndefined();
  });
});
