/**
 * Discovery's order of sending: the fingerprint probes go beside the controls on the first
 * offered route, and again on another route only when that one is the first accepted.
 */
import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/response.js';
import { discover } from './discovery.js';
import { createRequestFactory, type Built } from './requests.js';
import { resolveDescription } from '../target/description.js';
import type { SendResult } from './transport.js';

const profile = resolveDescription({});
const NOW = Date.now();
const factory = createRequestFactory({
  apiKey: 'k',
  secret: 's',
  serverNow: () => NOW,
  apiKeyHeader: profile.apiKeyHeader,
  paths: { batch: profile.endpoints.batch.path, v1: profile.endpoints.v1.path, 'v1.1': profile.endpoints['v1.1'].path },
  batchSignature: profile.batchSignature,
});
let n = 0;
const order = () => ({
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  quantity: '1',
  price: '1',
  newClientOrderId: `c${n++}`,
});

/** A target whose batch endpoint answers 404 (when `batchMissing`) and that refuses any request whose signature was edited. */
function target(batchMissing: boolean) {
  const sent: Array<{ path: string; signed: boolean }> = [];
  const send = async (b: Built): Promise<SendResult> => {
    const r = b.request;
    const key = Object.entries(r.headers).find(([h]) => h.toLowerCase() === profile.apiKeyHeader.toLowerCase())?.[1];
    const valid =
      b.facts.signatureEdit === undefined &&
      key === 'k' &&
      `${r.query}&${r.body}`.includes('signature=') &&
      b.facts.timestamp !== undefined &&
      Number(b.facts.timestamp) > NOW - 60_000;
    sent.push({ path: r.path, signed: valid });
    const observation: Observation =
      batchMissing && r.path === profile.endpoints.batch.path
        ? { verdict: 'rejected', status: 404, text: 'not found' }
        : valid
          ? {
              verdict: 'accepted',
              status: 200,
              json: r.path === profile.endpoints.batch.path ? { code: 0, result: [{ code: 0 }] } : { code: 0 },
            }
          : { verdict: 'rejected', status: 401, code: -1022, json: { code: -1022 } };
    return { observation, exchange: { request: r } as SendResult['exchange'] };
  };
  return { sent, send };
}

describe('discover', () => {
  it('sends the fingerprints once, beside the controls, when the first offered route accepts its control', async () => {
    const t = target(false);
    const d = await discover({ send: t.send, requests: factory, profile, batchOrder: order, limitParams: order });
    expect(d.controls.map((c) => c.state)).toEqual(Array(7).fill('accepted'));
    expect(d.requests).toBe(7 + 6);
    expect(t.sent.length).toBe(13);
  });

  it('sends them again on the first accepted route when the first offered one refuses its control', async () => {
    const t = target(true);
    const d = await discover({ send: t.send, requests: factory, profile, batchOrder: order, limitParams: order });
    expect(d.controls[0]?.state).not.toBe('accepted');
    // 7 controls (the batch one answered 404, so no follow-up), 6 probes on the batch route, 6 on v1/query
    expect(d.requests).toBe(7 + 6 + 6);
    const probesOnV1 = t.sent.filter((s) => s.path === profile.endpoints.v1.path && !s.signed).length;
    expect(probesOnV1).toBeGreaterThanOrEqual(3);
    expect(d.fingerprints.signature?.observed).toMatch(/401/);
  });
});
