import { describe, expect, it } from 'vitest';
import { buildRequest } from '../../src/core/request.js';
import { sign } from '../../src/signing/hmac.js';
import { ENDPOINT_NAMES, ENDPOINTS, SEED_WIRE, wireWith } from '../../src/core/wire.js';
import type { RecordedRequest } from './rules.js';
import { SCENARIO_HEADER, SCENARIOS, scenarioList, selectedScenario } from './scenarios.js';
import { GradeSession } from './session.js';

const KEY = 'sc-key';
const SECRET = 'sc-secret-1234';

function recorded(seq: number, id: string, at = Date.now()): RecordedRequest {
  const b = buildRequest(sign, {
    endpoint: 'v1',
    params: [
      ['symbol', 'BTCUSDT'],
      ['side', 'BUY'],
      ['type', 'LIMIT'],
      ['quantity', '1'],
      ['price', '100'],
      ['newClientOrderId', id],
      ['timestamp', String(at + seq)],
    ],
    secret: SECRET,
    apiKey: KEY,
  });
  return {
    seq,
    receivedAt: at,
    method: 'POST',
    path: b.request.path,
    query: b.request.query,
    body: '',
    headers: { 'x-svc-apikey': KEY },
  };
}

describe('scenario selection (header or client id prefix)', () => {
  it('selects by the header first, then by a client id prefix; names an unknown one', () => {
    expect(selectedScenario({ [SCENARIO_HEADER.toLowerCase()]: 'time-refusal' }, ['x']).scenario?.name).toBe(
      'time-refusal',
    );
    expect(selectedScenario({}, ['plain', 'rate-limit-429.order-7']).scenario?.name).toBe('rate-limit-429');
    expect(selectedScenario({}, ['rate-limit-429-no-dot']).scenario).toBeUndefined();
    expect(selectedScenario({ [SCENARIO_HEADER.toLowerCase()]: 'no-such' }, [])).toEqual({ unknown: 'no-such' });
  });

  it('lists every scenario with what to send, what the server does and what is expected', () => {
    const text = scenarioList();
    for (const s of SCENARIOS) for (const part of [s.name, s.send(SEED_WIRE), s.expect]) expect(text).toContain(part);
  });

  it("names the paths of the wire served: a target description's prefix, never the seed's paths", () => {
    const wire = wireWith('X-Other-Key', {
      batch: `/gateway${ENDPOINTS.batch.path}`,
      v1: `/gateway${ENDPOINTS.v1.path}`,
      'v1.1': `/gateway${ENDPOINTS['v1.1'].path}`,
    });
    const text = scenarioList(wire);
    for (const s of SCENARIOS) expect(text).toContain(s.send(wire));
    for (const n of ENDPOINT_NAMES) expect(text).toContain(`/gateway${ENDPOINTS[n].path}`);
    expect(text.replaceAll('/gateway/api/', '')).not.toContain('/api/');
    // the seed's by default
    expect(scenarioList()).toContain(`to ${ENDPOINTS.batch.path}`);
  });

  it('plays the cue once per order: a 429 with Retry-After, then follow-ups forwarded', () => {
    const now = 1_700_000_000_000;
    const s = new GradeSession({ apiKey: KEY, secret: SECRET, now: () => now });
    const first = s.receive(recorded(1, 'rate-limit-429.a', now));
    expect(first.plan).toMatchObject({ kind: 'answer', status: 429, headers: { 'retry-after': '1' } });
    expect(first.graded.scenario).toEqual({ name: 'rate-limit-429', role: 'cue' });
    s.answered(1, { status: 429, code: -1003, by: 'scenario', placed: [] });
    // sent 999 ms after the 429 was answered, on the session's (fixed) clock
    const again = s.receive(recorded(2, 'rate-limit-429.a', now + 999));
    expect(again.plan).toEqual({ kind: 'forward' });
    expect(again.graded.scenario).toEqual({ name: 'rate-limit-429', role: 'follow-up' });
    // sent at once: the Retry-After had not passed
    expect(again.graded.results.find((r) => r.rule === 'CLIENT-BACKOFF')?.kept).toBe(false);
    // another order of the same scenario is a new run
    expect(s.receive(recorded(3, 'rate-limit-429.b', now)).plan).toMatchObject({ kind: 'answer', status: 429 });
    expect(s.episodes.map((e) => [e.cueSeq, e.followUps])).toEqual([
      [1, [2]],
      [3, []],
    ]);
  });

  it('jumps the server clock 10 s ahead on clock-jump, for good', () => {
    let now = 1_700_000_000_000;
    const s = new GradeSession({ apiKey: KEY, secret: SECRET, now: () => now });
    expect(s.clock()).toBe(now);
    expect(s.receive(recorded(1, 'clock-jump.a', now)).plan).toMatchObject({ kind: 'answer', status: 400 });
    now += 5;
    expect(s.clock()).toBe(now + 10_000);
  });
});
