/**
 * Signing benchmark: `sign` (src/signing, §5.3) against a naive
 * `createHmac('sha256', secretString)` baseline in the same run, on a typical
 * single-order string and on a 20-order batch (query + JSON body), plus the
 * validation of a 20-order batch (§4.1) against the JSON.parse it needs anyway.
 */
import { createHmac } from 'node:crypto';
import { sign } from '../../src/signing/hmac.js';
import { validateBatch } from '../../src/core/validation/batch.js';
import { compare, formatRate, table, type CompareOptions, type Throughput } from './measure.js';

const SECRET = 'gQ7vN2kX9pL4wR8tY1uE6iO3aS5dF0hJ2kL7zX4cV9bN1mQ8wE3rT6yU0iO5pA2s';
const TS = 1_767_225_600_000;
const VARIANTS = 256;

/** A 20-order batch body as a client sends it (decimals as strings). */
export function batchBody(n = 20): string {
  return JSON.stringify(
    Array.from({ length: n }, (_, i) => ({
      symbol: 'BTCUSDT',
      side: i % 2 === 0 ? 'BUY' : 'SELL',
      type: i % 5 === 4 ? 'LIMIT_MAKER' : 'LIMIT',
      quantity: (0.001 * (i + 1)).toFixed(3),
      price: (42000 + i * 12.5).toFixed(2),
      newClientOrderId: `bench-${String(i + 1).padStart(2, '0')}`,
      ...(i % 5 === 4 ? {} : { timeInForce: 'GTC' }),
    })),
  );
}

/** `VARIANTS` distinct totalParams strings (timestamps differ), so nothing can be cached per input. */
function payloads(make: (ts: number) => string): string[] {
  return Array.from({ length: VARIANTS }, (_, i) => make(TS + i));
}

const naive = (secret: string, s: string): string => createHmac('sha256', secret).update(s).digest('hex');

/** Figures of one payload: the signer, the baseline and their ratio. */
export interface SigningFigures {
  payload: string;
  bytes: number;
  signer: Throughput;
  baseline: Throughput;
  /** signer median / baseline median. */
  ratio: number;
}

/** Figures of batch validation. */
export interface ValidationFigures {
  parse: Throughput;
  validate: Throughput;
  parseAndValidate: Throughput;
}

/** Run the signing and validation measurements. */
export function measureSigning(opts: CompareOptions): { signing: SigningFigures[]; validation: ValidationFigures } {
  const body = batchBody();
  const cases: Array<{ payload: string; inputs: string[] }> = [
    {
      payload: 'single order (query)',
      inputs: payloads(
        (ts) =>
          `symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.0105&price=43250.5&recvWindow=5000&timestamp=${ts}`,
      ),
    },
    { payload: '20-order batch (query + JSON)', inputs: payloads((ts) => `timestamp=${ts}&recvWindow=5000${body}`) },
  ];
  const signing = cases.map(({ payload, inputs }) => {
    const first = inputs[0] ?? '';
    if (sign(SECRET, first) !== naive(SECRET, first)) throw new Error('sign and the baseline disagree');
    const [signer, baseline] = compare(
      [
        { name: 'sign', run: (i) => sign(SECRET, inputs[i % VARIANTS] as string) },
        { name: 'naive createHmac', run: (i) => naive(SECRET, inputs[i % VARIANTS] as string) },
      ],
      opts,
    ) as [Throughput, Throughput];
    return { payload, bytes: Buffer.byteLength(first), signer, baseline, ratio: signer.median / baseline.median };
  });

  const parsed = JSON.parse(body) as unknown;
  if (validateBatch(parsed).length !== 0) throw new Error('the benchmark batch should be valid');
  const [parse, validate, parseAndValidate] = compare(
    [
      { name: 'JSON.parse', run: () => JSON.parse(body) },
      { name: 'validateBatch', run: () => validateBatch(parsed) },
      { name: 'JSON.parse + validateBatch', run: () => validateBatch(JSON.parse(body)) },
    ],
    opts,
  ) as [Throughput, Throughput, Throughput];
  return { signing, validation: { parse, validate, parseAndValidate } };
}

/** Printable report of {@link measureSigning}. */
export function formatSigning(r: ReturnType<typeof measureSigning>, opts: CompareOptions): string {
  const head = `medians of ${opts.rounds} alternating rounds of >= ${opts.sampleMs} ms each`;
  const sig = table([
    ['payload', 'bytes', 'sign (ops/s)', 'naive (ops/s)', 'ratio'],
    ...r.signing.map((f) => [
      f.payload,
      String(f.bytes),
      formatRate(f.signer.median),
      formatRate(f.baseline.median),
      `${f.ratio.toFixed(2)}x`,
    ]),
  ]);
  const v = r.validation;
  const val = table([
    ['operation', 'batches/s', 'vs JSON.parse'],
    ...[v.parse, v.validate, v.parseAndValidate].map((t) => [
      t.name,
      formatRate(t.median),
      `${(t.median / v.parse.median).toFixed(2)}x`,
    ]),
  ]);
  return [
    `HMAC-SHA256 signing: sign (padded keys prepared once per secret, two one-shot SHA-256 calls) vs createHmac('sha256', secretString) — ${head}`,
    sig,
    '',
    `Validation of a 20-order batch (§4.1) — ${head}`,
    val,
    '',
  ].join('\n');
}

/** The `signing` benchmark section. */
export function runSigning(out: (s: string) => void, opts: CompareOptions): void {
  out(formatSigning(measureSigning(opts), opts));
}
