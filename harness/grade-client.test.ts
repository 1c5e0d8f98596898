/**
 * `spotcheck grade` against a client written the way an outside team writes one
 * (harness/grade-client.ts), over real loopback HTTP: the clean client keeps every rule
 * (exit 0), each switched-on mistake is named on its rule (exit 1), and the scenarios show
 * a careful client retrying re-signed, backing off and re-reading the clock, and a
 * replaying client replaying.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startGrade, type RunningGrade } from '../conformance/grade/front.js';
import { buildGradeReport, gradeExitCode, type GradeReport } from '../conformance/grade/report.js';
import type { ClientRuleId } from '../conformance/grade/rules.js';
import { OutsideClient, routine, type Mistake } from './grade-client.js';

const API_KEY = 'outside-team-key';
const SECRET = 'outside-team-secret-5f3a';

const running: RunningGrade[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((g) => g.close()));
});

async function grade(
  mistakes: readonly Mistake[],
  drive: (c: OutsideClient) => Promise<unknown>,
): Promise<{ report: GradeReport; client: OutsideClient }> {
  const g = await startGrade({ apiKey: API_KEY, secret: SECRET, holdMs: 60_000 });
  running.push(g);
  const client = new OutsideClient({ baseUrl: g.url, apiKey: API_KEY, secret: SECRET, mistakes });
  await drive(client);
  await g.close();
  const report = buildGradeReport(
    g.session,
    { version: 'test', url: g.url, upstream: 'embedded', ungraded: g.ungraded() },
    SECRET,
    API_KEY,
  );
  expect(JSON.stringify(report)).not.toContain(SECRET);
  return { report, client };
}

const brokenRules = (r: GradeReport): ClientRuleId[] => r.rules.filter((x) => x.status === 'broken').map((x) => x.id);
const warnedRules = (r: GradeReport): ClientRuleId[] => r.rules.filter((x) => x.status === 'warned').map((x) => x.id);

describe('grade: an outside team’s client over loopback HTTP', () => {
  it('passes the clean client: every exercised rule kept, exit 0', async () => {
    const { report } = await grade([], routine);
    expect(brokenRules(report)).toEqual([]);
    expect(report.summary.requests).toBe(4);
    expect(report.requests.every((q) => q.answer?.status === 200 && q.answer.code === 0)).toBe(true);
    expect(report.rules.find((r) => r.id === 'CLIENT-SIGNATURE')).toMatchObject({ status: 'kept', exercised: 4 });
    expect(gradeExitCode(report)).toBe(0);
  });

  const cases: Array<[Mistake, ClientRuleId, string?]> = [
    ['unsigned-body', 'CLIENT-SIGNATURE', 'BODY_NOT_SIGNED'],
    ['signed-before-encoding', 'CLIENT-SIGNATURE', 'SIGNED_BEFORE_ENCODING'],
    ['json-dumps-spaces', 'CLIENT-SIGNATURE', 'JSON_SIGNED_WITH_SPACES'],
    ['stale-timestamp', 'CLIENT-TIMESTAMP'],
    ['batch-21', 'CLIENT-BATCH-SIZE'],
    ['mixed-symbols', 'CLIENT-BATCH-ONE-SYMBOL'],
    ['no-api-key', 'CLIENT-APIKEY-HEADER'],
    ['swapped-key-secret', 'CLIENT-SIGNATURE', 'API_KEY_AS_SECRET'],
    ['swapped-key-secret', 'CLIENT-APIKEY-HEADER'],
  ];
  it.each(cases)('names %s on %s', async (mistake, rule, diagnosis) => {
    const { report } = await grade([mistake], routine);
    expect(brokenRules(report)).toContain(rule);
    expect(gradeExitCode(report)).toBe(1);
    const hit = report.requests.find((q) => q.broken.some((f) => f.rule === rule));
    expect(hit?.correctedCurl).toContain('openssl dgst -sha256 -hmac "$SPOTCHECK_SECRET"');
    if (diagnosis !== undefined) expect(hit?.broken.find((f) => f.rule === rule)?.diagnosis?.code).toBe(diagnosis);
  });

  // what breaks no MUST of the seed is a warning, never BROKEN: a recommendation (§5.4 item 2) or an open point
  const warnings: Array<[Mistake, ClientRuleId, string]> = [
    ['wrong-content-type', 'CLIENT-CONTENT-TYPE', 'D-CONTENT-TYPE: a single order body of another media type'],
    ['recv-window-60000', 'CLIENT-RECVWINDOW', '§5.4 item 2: "A value of 5000 or less is recommended."'],
    ['exponent-decimal', 'CLIENT-DECIMAL-FORM', 'D-DECIMALS: a decimal in exponent notation'],
    ['reused-client-id', 'CLIENT-ID-UNIQUE', 'D-DUPLICATE-CLIENT-ID: the seed does not say an id names one order'],
  ];
  it.each(warnings)('warns of %s on %s, exit 0 (%s)', async (mistake, rule) => {
    const { report } = await grade([mistake], routine);
    expect(brokenRules(report)).toEqual([]);
    expect(warnedRules(report)).toContain(rule);
    expect(report.verdict).toBe('kept');
    expect(gradeExitCode(report)).toBe(0);
    const hit = report.requests.find((q) => q.broken.some((f) => f.rule === rule));
    expect(hit?.broken.find((f) => f.rule === rule)?.warning).toBe(true);
  });

  it('warns of a replayed retry on CLIENT-RETRY-RESIGNED (no seed sentence forbids it), exit 0', async () => {
    const { report } = await grade(['replayed-retry'], (c) =>
      c.placeOrder('v1', c.limit(), { scenario: 'server-error-5xx' }),
    );
    expect(brokenRules(report)).toEqual([]);
    expect(warnedRules(report)).toEqual(['CLIENT-RETRY-RESIGNED']);
    expect(report.scenarios.find((s) => s.name === 'server-error-5xx')?.runs[0]).toMatchObject({
      retried: true,
      replayed: true,
      verdict: 'warned',
    });
  });
});

describe('grade scenarios: the server plays its side on cue', () => {
  async function scenarios(c: OutsideClient): Promise<void> {
    await c.placeOrder('v1', c.limit(), { scenario: 'limit-order' });
    await c.placeOrder(
      'v1',
      { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.01', newClientOrderId: c.nextId() },
      { scenario: 'market-v1' },
    );
    await c.placeOrder(
      'v1.1',
      { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', amount: '50', newClientOrderId: c.nextId() },
      { scenario: 'market-amount-v1.1' },
    );
    await c.placeBatch(c.batch(20), { scenario: 'batch-20' });
    await c.placeBatch(c.batch(3, 'f'), { scenario: 'batch-failing-entry' });
    await c.placeOrder('v1', c.limit(), { scenario: 'rate-limit-429' });
    await c.placeOrder('v1', c.limit(), { scenario: 'server-error-5xx' });
    await c.placeOrder('v1', c.limit(), { scenario: 'time-refusal' });
    await c.placeOrder('v1', c.limit(), { scenario: 'clock-jump' });
    // the server holds the answer 60 s: a client timeout of 2 s is past it, and long enough for the request to arrive whatever the load
    await c.placeOrder('v1', c.limit(), { scenario: 'slow-answer', timeoutMs: 2000 });
  }

  it('a careful client retries re-signed, backs off, re-reads the clock and resends only the failed entry', async () => {
    const { report } = await grade([], scenarios);
    const run = (name: string) => report.scenarios.find((s) => s.name === name)?.runs[0];
    expect(report.scenarios.every((s) => s.ran)).toBe(true);
    for (const s of report.scenarios) expect(s.runs[0]?.verdict, `${s.name}: ${s.runs[0]?.behaviour}`).toBe('kept');
    expect(run('rate-limit-429')).toMatchObject({ retried: true, resigned: true, backedOff: true, accepted: true });
    expect(run('rate-limit-429')?.waitedMs).toBeGreaterThanOrEqual(1000);
    expect(run('server-error-5xx')).toMatchObject({ retried: true, resigned: true, replayed: false, accepted: true });
    expect(run('time-refusal')).toMatchObject({ retried: true, resigned: true, accepted: true });
    expect(run('clock-jump')).toMatchObject({ retried: true, resigned: true, accepted: true });
    expect(run('slow-answer')).toMatchObject({ clientClosed: true, retried: true, resigned: true, accepted: true });
    expect(run('batch-failing-entry')).toMatchObject({ retried: true, accepted: true, verdict: 'kept' });
    expect(brokenRules(report)).toEqual([]);
    expect(gradeExitCode(report)).toBe(0);
  });

  it('a replaying client replays: the same bytes after the 5xx and the time refusal', async () => {
    const { report } = await grade(['replayed-retry'], async (c) => {
      await c.placeOrder('v1', c.limit(), { scenario: 'time-refusal' });
      await c.placeOrder('v1', c.limit(), { scenario: 'server-error-5xx' });
    });
    for (const name of ['time-refusal', 'server-error-5xx'])
      expect(report.scenarios.find((s) => s.name === name)?.runs[0]).toMatchObject({
        replayed: true,
        verdict: 'warned',
      });
    expect(gradeExitCode(report)).toBe(0);
  });

  it('a client that ignores Retry-After is warned on CLIENT-BACKOFF (RFC 9110, not the seed)', async () => {
    const { report } = await grade(['ignores-retry-after'], (c) =>
      c.placeOrder('v1', c.limit(), { scenario: 'rate-limit-429' }),
    );
    expect(report.scenarios.find((s) => s.name === 'rate-limit-429')?.runs[0]).toMatchObject({
      retried: true,
      resigned: true,
      backedOff: false,
      verdict: 'warned',
    });
    expect(brokenRules(report)).toEqual([]);
    expect(warnedRules(report)).toEqual(['CLIENT-BACKOFF']);
  });

  it('a client that resends the whole batch after one failed entry sends placed orders again', async () => {
    const { report } = await grade(['resend-whole-batch'], (c) =>
      c.placeBatch(c.batch(3, 'f'), { scenario: 'batch-failing-entry' }),
    );
    expect(report.scenarios.find((s) => s.name === 'batch-failing-entry')?.runs[0]?.verdict).toBe('warned');
    expect(warnedRules(report)).toContain('CLIENT-ID-UNIQUE');
  });
});
