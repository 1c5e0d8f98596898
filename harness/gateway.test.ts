/**
 * Verdicts against a stranger's gateway (harness/gateway.ts): each fault measured on a
 * third-party server gets the verdict the design notes ask for ("How a verdict is earned").
 */
import { describe, expect, it } from 'vitest';
import { runAgreeing } from './agreeing-run.js';
import { resolveDescription } from '../conformance/target/description.js';
import type { RunReport } from '../conformance/judgement/types.js';
import { startGateway, type GatewayFaults } from './gateway.js';

async function run(
  faults: GatewayFaults,
  only: string[],
  opts: { runs?: number; timeoutMs?: number; minShortenedWaitMs?: number; concurrency?: number } = {},
): Promise<RunReport> {
  const gw = await startGateway(faults);
  const profile = resolveDescription({});
  try {
    return await runAgreeing({
      target: {
        baseUrl: gw.url,
        apiKey: gw.apiKey,
        secret: gw.secret,
        symbol: profile.symbol,
        otherSymbol: profile.otherSymbol,
        profile,
      },
      profile: 'core',
      seed: 5,
      runs: opts.runs ?? 8,
      rate: 0,
      timeoutMs: opts.timeoutMs ?? 5000,
      ...(opts.minShortenedWaitMs === undefined ? {} : { minShortenedWaitMs: opts.minShortenedWaitMs }),
      only,
      maxOrders: Infinity,
      concurrency: opts.concurrency ?? 2,
    });
  } finally {
    await gw.close();
  }
}

const byId = (r: RunReport, id: string) => r.checks.find((c) => c.id === id);
const failed = (r: RunReport) =>
  r.checks
    .filter((c) => c.status === 'fail')
    .map((c) => c.id)
    .sort();

describe.concurrent('verdicts against a stranger’s gateway', { timeout: 120_000 }, () => {
  // the longest (it waits out unanswered requests): first, so it is not the file's tail. The full
  // wait stays 5 s (shortening needs the slowest answer under a quarter of it, a margin a loaded
  // machine keeps); the shortened one may go down to 250 ms, and four checks wait side by side.
  it('requests never answered: no answer is never a failure of the rule (shrinking included), the wait shortens, the probes are named', async () => {
    const r = await run({ hangOnPercentEscape: true }, ['ORDER-SIDE-ENUM', 'ORDER-TYPE-ENUM', 'ROBUST-NO-HANG'], {
      runs: 16,
      timeoutMs: 5000,
      minShortenedWaitMs: 250,
      concurrency: 4,
    });
    for (const id of ['ORDER-SIDE-ENUM', 'ORDER-TYPE-ENUM']) expect(byId(r, id)?.status, id).not.toBe('fail');
    expect(byId(r, 'ROBUST-NO-HANG')?.status).toBe('fail');
    expect(r.unanswered?.count).toBeGreaterThan(3);
    expect(r.unanswered?.shortenedToMs).toBeLessThan(5000);
    expect(r.unanswered?.probes.some((p) => p.startsWith('ORDER-'))).toBe(true);
  });

  it('clean: the signature-first probe and the placements pass (the control of the faults below)', async () => {
    const r = await run({}, [
      'SIG-EXCLUDES-SIGNATURE',
      'SIG-PLACEMENT',
      'ORDER-V11-ENDPOINT',
      'BATCH-ACCEPT-UP-TO-MAX',
    ]);
    expect(failed(r)).toEqual([]);
    expect(r.summary.inconclusive).toBe(0);
  });

  it('a signature over only the first 600 bytes of the body: a long correct batch refused as badly signed fails BATCH-ACCEPT-UP-TO-MAX', async () => {
    const r = await run({ signedBodyLimit: 600 }, ['BATCH-ACCEPT-UP-TO-MAX']);
    expect(byId(r, 'BATCH-ACCEPT-UP-TO-MAX')?.status).toBe('fail');
    expect(byId(r, 'BATCH-ACCEPT-UP-TO-MAX')?.actual).toMatch(
      /valid, correctly signed request was refused: HTTP 400 .*-1022/,
    );
  });

  it('v1.1 ignoring form-body parameters fails ORDER-V11-ENDPOINT and the body and split placements, on those routes', async () => {
    const r = await run({ v11QueryOnly: true }, ['ORDER-V11-ENDPOINT', 'SIG-PLACEMENT-BODY', 'SIG-PLACEMENT-SPLIT']);
    expect(failed(r)).toEqual(['ORDER-V11-ENDPOINT', 'SIG-PLACEMENT-BODY.v1.1', 'SIG-PLACEMENT-SPLIT.v1.1']);
    expect(byId(r, 'ORDER-V11-ENDPOINT')?.cells?.map((c) => [c.route, c.verdict])).toEqual([
      ['v1.1/query', 'pass'],
      ['v1.1/body', 'fail'],
      ['v1.1/split', 'fail'],
    ]);
    expect(byId(r, 'SIG-PLACEMENT-BODY.v1')?.status).toBe('pass');
  });

  it('a gateway removing "&signature=..." by text replacement fails SIG-EXCLUDES-SIGNATURE (SHOULD) and leaves no MUST check undecided: no refusal probe carries the signature first (a second difference from an accepted request)', async () => {
    const r = await run({ signatureAfterAmpersandOnly: true }, [], { runs: 5 });
    expect(byId(r, 'SIG-EXCLUDES-SIGNATURE')?.status).toBe('fail');
    expect(byId(r, 'SIG-EXCLUDES-SIGNATURE')?.level).toBe('SHOULD');
    expect(r.summary.incompleteMust).toEqual([]);
    expect(r.checks.filter((c) => c.status === 'fail' && c.level === 'MUST').map((c) => c.id)).toEqual([]);
  });

  it('"signature not sent" (-1102) to a signature-first request fails SIG-EXCLUDES-SIGNATURE: a missing-parameter answer never shows a signature accepted', async () => {
    const r = await run({ signatureLastOnly: true }, ['SIG-EXCLUDES-SIGNATURE']);
    const c = byId(r, 'SIG-EXCLUDES-SIGNATURE');
    expect(c?.status).toBe('fail');
    expect(c?.actual).toMatch(/'signature' was not sent/);
    expect(r.discovery?.fingerprints.missing).toContain('HTTP 400 code -1102');
  });

  it('a position refusal (-2022) every valid order meets mid-run, both sides and any size: learnt, never taken for the account without a control showing it (design notes, "A refusal is recognised by a control, not its code"); the enum checks are not passed by it', async () => {
    const r = await run({ positionLimitAfter: 12 }, [
      'SIG-PLACEMENT',
      'TIME-RECVWINDOW-HONOURED.width',
      'ORDER-SIDE-ENUM',
      'ORDER-TYPE-ENUM',
    ]);
    // valid orders of both sides and a thousandth of the size are refused alike: nothing shows the
    // account refused them, so a valid request meeting the refusal is a refused valid request
    expect(r.discovery?.learned?.some((l) => /-2022.*not shown to be the account's/.test(l.refusal))).toBe(true);
    expect(byId(r, 'TIME-RECVWINDOW-HONOURED.width')?.status).not.toBe('pass');
    // a negative probe meeting it proves nothing: undecided, never passed
    for (const id of ['ORDER-SIDE-ENUM', 'ORDER-TYPE-ENUM']) {
      expect(byId(r, id)?.status, id).toBe('inconclusive');
      expect(byId(r, id)?.reason, id).toMatch(/refused like valid orders are in this run \(HTTP 400 code -2022\)/);
    }
  });

  it('no batch endpoint: one failure, and every single-order cell judged', async () => {
    const r = await run({ noBatch: true }, [
      'AUTH-APIKEY-REQUIRED',
      'SIG-REQUIRED',
      'TIME-TIMESTAMP-REQUIRED',
      'ORDER-SIDE-ENUM',
      'BATCH-ACCEPT-UP-TO-MAX',
    ]);
    expect(failed(r)).toEqual(['BATCH-ACCEPT-UP-TO-MAX']);
    for (const id of ['AUTH-APIKEY-REQUIRED', 'SIG-REQUIRED', 'TIME-TIMESTAMP-REQUIRED', 'ORDER-SIDE-ENUM']) {
      const c = byId(r, id);
      expect(c?.status, id).toBe('pass');
      expect(
        c?.cells?.filter((x) => x.route !== 'batch/json').every((x) => x.verdict === 'pass'),
        id,
      ).toBe(true);
      expect(c?.cells?.find((x) => x.route === 'batch/json')?.verdict, id).toBe('not-offered');
    }
  });

  it('a lead-only time fault (3 s ahead accepted) fails TIME-WINDOW-LEAD only: the window width is judged on its past side', async () => {
    const r = await run({ leadMs: 3000 }, ['TIME']);
    expect(failed(r)).toEqual(['TIME-WINDOW-LEAD']);
    expect(byId(r, 'TIME-RECVWINDOW-HONOURED.width')?.observed).toMatch(
      /past edge honours recvWindow 3000.*lead edge is \d+ ms off/,
    );
  });

  it('the same lead-only fault behind a 1.5 s cold start: slow discovery round trips do not widen the width tolerance past the 2 s error', async () => {
    const r = await run({ leadMs: 3000, coldStartMs: 1500 }, ['TIME-RECVWINDOW-HONOURED.width']);
    expect(r.checks.map((c) => [c.id, c.status])).toEqual([['TIME-RECVWINDOW-HONOURED.width', 'pass']]);
    expect(byId(r, 'TIME-RECVWINDOW-HONOURED.width')?.observed).toMatch(
      /past edge honours recvWindow 3000.*lead edge is \d+ ms off/,
    );
  });
});
