import { describe, expect, it } from 'vitest';
import { burnersWanted, startBurn } from './cpu-burn.js';

describe('CPU burners for the load option (load does not change a verdict)', () => {
  it('reads SPOTCHECK_CPU_BURN as a small count, anything else as none', () => {
    expect(burnersWanted({ SPOTCHECK_CPU_BURN: '2' })).toBe(2);
    for (const v of [undefined, '', '0', '-1', '2.5', 'x', '99'])
      expect(burnersWanted({ SPOTCHECK_CPU_BURN: v })).toBe(0);
  });

  it('burns CPU in a child process until stopped', async () => {
    const before = process.cpuUsage();
    const stop = startBurn(1, 5000);
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, 300));
    stop();
    // the burner is another process: this one stayed idle while it spun
    expect(process.cpuUsage(before).user / 1000).toBeLessThan((Date.now() - t0) * 0.9);
  });
});
