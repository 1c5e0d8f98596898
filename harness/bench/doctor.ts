/**
 * Benchmark of the signature doctor: time of the candidate search for one rejected
 * request (worst case: no candidate matches, every single mistake and pair is tried)
 * against one plain verify of the same request (§5.3).
 */
import { candidates, diagnose } from '../../src/core/doctor/diagnose.js';
import { sign, verify } from '../../src/signing/hmac.js';
import { compare, formatRate, table, type CompareOptions, type Throughput } from './measure.js';

const SECRET = 'bench-doctor-secret';
const QUERY = 'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&timestamp=1700000000000';
const BODY = 'quantity=0.0105&price=43250.5&recvWindow=5000&newClientOrderId=a%20b';

export interface DoctorFigures {
  diagnose: Throughput;
  verify: Throughput;
  /** How many verifies one diagnosis costs (median over median). */
  ratio: number;
  /** Candidate strings tried for the request (single mistakes and pairs). */
  candidates: number;
  /** Of which pairs of mistakes. */
  pairs: number;
}

export function measureDoctor(opts: CompareOptions): DoctorFigures {
  const bad = sign('another-secret', QUERY + BODY);
  const req = { query: QUERY, body: BODY, bodyKind: 'form' as const, signature: bad };
  if (diagnose(req, SECRET, sign)?.code !== 'UNKNOWN') throw new Error('the benchmark request should be diagnosed UNKNOWN');
  const [d, v] = compare(
    [
      { name: 'diagnose (rejected, UNKNOWN)', run: () => diagnose(req, SECRET, sign) },
      { name: 'verify (baseline)', run: () => verify(SECRET, QUERY + BODY, bad) },
    ],
    opts,
  ) as [Throughput, Throughput];
  const all = candidates(req);
  return { diagnose: d, verify: v, ratio: v.median / d.median, candidates: all.length, pairs: all.filter(([, , also]) => also !== undefined).length };
}

export function runDoctor(out: (s: string) => void, opts: CompareOptions): void {
  const r = measureDoctor(opts);
  out(
    `\n## doctor: candidate search per rejected request (median of ${opts.rounds} rounds)\n\n` +
      table([
        ['variant', 'ops/s', 'µs/op'],
        [r.diagnose.name, formatRate(r.diagnose.median), (1e6 / r.diagnose.median).toFixed(2)],
        [r.verify.name, formatRate(r.verify.median), (1e6 / r.verify.median).toFixed(2)],
      ]) +
      `\n\none diagnosis costs ${r.ratio.toFixed(1)} plain verifies; ${r.candidates} candidate strings (${r.pairs} of them pairs of mistakes)\n`,
  );
}
