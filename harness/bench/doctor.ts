/**
 * Benchmark of the signature doctor: time of the candidate search for one rejected
 * request in the worst case (no candidate matches, so every single mistake and pair is
 * tried, and the API key as HMAC key) against one plain verify of the same request, the
 * baseline, side by side in the same rounds (§5.3). The budget is 1 ms per rejected request.
 */
import { candidates, diagnose, type DoctorRequest } from '../../src/core/doctor/diagnose.js';
import { sign, verify } from '../../src/signing/hmac.js';
import { compare, formatRate, median, table, type CompareOptions, type Throughput } from './measure.js';

/**
 * CPU time of one operation, µs (process.cpuUsage: user + system): what a rejected request
 * costs the server, whatever else the machine runs. Median of `rounds` samples of at
 * least `sampleMs` of CPU each, `a` and `b` taking turns.
 */
export function cpuMicros(a: () => unknown, b: () => unknown, opts: CompareOptions): [number, number] {
  const one = (f: () => unknown): number => {
    const c0 = process.cpuUsage();
    let n = 0;
    let used = 0;
    do {
      for (let k = 0; k < 8; k++) f();
      n += 8;
      const c = process.cpuUsage(c0);
      used = c.user + c.system;
    } while (used < opts.sampleMs * 1000);
    return used / n;
  };
  one(a);
  one(b);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let r = 0; r < opts.rounds; r++) {
    if (r % 2 === 0) {
      xs.push(one(a));
      ys.push(one(b));
    } else {
      ys.push(one(b));
      xs.push(one(a));
    }
  }
  return [median(xs), median(ys)];
}

const SECRET = 'bench-doctor-secret';
/** Worst-case cost per rejected request, µs (the doctor runs on every signature rejection of `serve --explain`). */
export const DOCTOR_BUDGET_US = 1000;

const ORDER_Q = 'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&timestamp=1700000000000';
/** Every encoding candidate applies: `%20`, upper-case escapes, a `'`, a `%`. */
const ORDER_B = 'quantity=0.0105&price=43250.5&recvWindow=5000&newClientOrderId=a%20b%2C%27c%C3%A9';
const BATCH_Q = 'recvWindow=5000&timestamp=1700000000000';
/** 20 orders (the most a batch holds, §4.1), non-ASCII client ids: every JSON candidate applies, on the longest text. */
const BATCH_B = JSON.stringify(
  Array.from({ length: 20 }, (_, i) => ({
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'LIMIT',
    quantity: '0.0105',
    price: '43250.5',
    timeInForce: 'GTC',
    newClientOrderId: `ordre-${i}-café`,
  })),
);

/** A body at the server's size limit (64 KiB, D-BODY-LIMIT): the search budget, not the candidate list, bounds it. */
const LARGE_B = JSON.stringify(
  Array.from({ length: 560 }, (_, i) => ({
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'LIMIT',
    quantity: '0.0105',
    price: '43250.5',
    newClientOrderId: `ordre-${i}-café`,
  })),
);

/** The worst cases: signed with another secret, so nothing matches and the whole search runs. */
export const DOCTOR_CASES: ReadonlyArray<{ name: string; req: DoctorRequest; signed: string }> = [
  {
    name: 'split form (query + body), path and API key given',
    req: {
      query: ORDER_Q,
      body: ORDER_B,
      bodyKind: 'form',
      method: 'POST',
      path: '/api/v1/spot/order',
      apiKey: 'bench-api-key',
      signature: sign('another-secret', ORDER_Q + ORDER_B),
    },
    signed: ORDER_Q + ORDER_B,
  },
  {
    name: 'batch of 20 orders (JSON body), path and API key given',
    req: {
      query: BATCH_Q,
      body: BATCH_B,
      bodyKind: 'json',
      method: 'POST',
      path: '/api/v1/spot/batchOrders',
      apiKey: 'bench-api-key',
      signature: sign('another-secret', BATCH_Q + BATCH_B),
    },
    signed: BATCH_Q + BATCH_B,
  },
  {
    name: `JSON body of ${Math.round(LARGE_B.length / 1024)} KiB (the body limit), path and API key given`,
    req: {
      query: BATCH_Q,
      body: LARGE_B,
      bodyKind: 'json',
      method: 'POST',
      path: '/api/v1/spot/batchOrders',
      apiKey: 'bench-api-key',
      signature: sign('another-secret', BATCH_Q + LARGE_B),
    },
    signed: BATCH_Q + LARGE_B,
  },
];

export interface DoctorCaseFigures {
  name: string;
  diagnose: Throughput;
  verify: Throughput;
  /** How many verifies one diagnosis costs (median over median). */
  ratio: number;
  /** Median time of one diagnosis, µs (wall clock). */
  microseconds: number;
  /** Median CPU time of one diagnosis and of one verify, µs: the figures judged against the budget. */
  cpuDiagnose: number;
  cpuVerify: number;
  /** Candidate strings tried for the request (single mistakes and pairs). */
  candidates: number;
  /** Of which pairs of mistakes. */
  pairs: number;
}

export type DoctorFigures = DoctorCaseFigures[];

export function measureDoctor(opts: CompareOptions): DoctorFigures {
  return DOCTOR_CASES.map(({ name, req, signed }) => {
    if (diagnose(req, SECRET, sign)?.code !== 'UNKNOWN')
      throw new Error(`the benchmark request "${name}" should be diagnosed UNKNOWN`);
    const bad = req.signature ?? '';
    const [d, v] = compare(
      [
        { name: 'diagnose (rejected, UNKNOWN)', run: () => diagnose(req, SECRET, sign) },
        { name: 'verify (baseline)', run: () => verify(SECRET, signed, bad) },
      ],
      opts,
    ) as [Throughput, Throughput];
    const [cpuDiagnose, cpuVerify] = cpuMicros(
      () => diagnose(req, SECRET, sign),
      () => verify(SECRET, signed, bad),
      opts,
    );
    const all = candidates(req);
    return {
      name,
      diagnose: d,
      verify: v,
      ratio: v.median / d.median,
      microseconds: 1e6 / d.median,
      cpuDiagnose,
      cpuVerify,
      candidates: all.length,
      pairs: all.filter(([, , also]) => also !== undefined).length,
    };
  });
}

/** The doctor section of `npm run bench`: measured, then printed. */
export function runDoctor(out: (s: string) => void, opts: CompareOptions): void {
  printDoctor(out, measureDoctor(opts), opts);
}

/** The doctor section's table and lines from measured figures. */
export function printDoctor(out: (s: string) => void, rows: DoctorFigures, opts: Pick<CompareOptions, 'rounds'>): void {
  out(
    `\n## doctor: candidate search per rejected request, worst case (median of ${opts.rounds} rounds; budget ${DOCTOR_BUDGET_US} µs)\n\n` +
      table([
        ['request', 'variant', 'ops/s', 'µs/op (wall)', 'µs/op (CPU)'],
        ...rows.flatMap((r) => [
          [r.name, r.diagnose.name, formatRate(r.diagnose.median), r.microseconds.toFixed(1), r.cpuDiagnose.toFixed(1)],
          ['', r.verify.name, formatRate(r.verify.median), (1e6 / r.verify.median).toFixed(2), r.cpuVerify.toFixed(2)],
        ]),
      ]) +
      '\n\n' +
      rows
        .map(
          (r) =>
            `${r.name}: one diagnosis costs ${r.ratio.toFixed(1)} plain verifies; ${r.candidates} candidate strings (${r.pairs} of them pairs of mistakes); ` +
            `${r.cpuDiagnose.toFixed(1)} µs of CPU (${r.microseconds.toFixed(1)} µs wall), ${r.cpuDiagnose <= DOCTOR_BUDGET_US ? 'within' : 'OVER'} the ${DOCTOR_BUDGET_US} µs budget`,
        )
        .join('\n') +
      '\n',
  );
}
