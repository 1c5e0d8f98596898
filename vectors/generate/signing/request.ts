/**
 * Building one signing vector (§5.3): the key pairs, the request spec, every
 * intermediate value filled in and cross-checked against a plain `node:crypto` HMAC,
 * and the small tampering helpers the sections share.
 */
import { createHmac } from 'node:crypto';
import { ENDPOINTS } from '../../../src/core/wire.js';
import { sign } from '../../../src/signing/hmac.js';
import { signingSteps, type BodyKind } from '../../../src/core/signing/total-params.js';
import type { Params } from '../../../src/core/signing/build.js';
import type { SigningVector } from '../../types.js';
import type { Draft } from '../common.js';
import { TS } from '../fixtures.js';

/** HMAC-SHA256 by `node:crypto` directly, independent of src/signing. */
export const plainHmac = (secret: string, s: string): string =>
  createHmac('sha256', secret).update(s, 'utf8').digest('hex');

export const BINANCE = {
  apiKey: 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A',
  secret: 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j',
  source:
    'Binance spot REST API docs (github.com/binance/binance-spot-api-docs, rest-api.md), SIGNED endpoint examples for POST /api/v3/order',
};
export const HASHKEY = {
  apiKey: 'tAQfOrPIZAhym0qHISRt8EFvxPemdBm5j5WMlkm3Ke9aFp0EGWC2CGM8GHV4kCYW',
  secret: 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76',
  source: 'HashKey spot API docs, Authentication page (hashkeyglobal-apidoc.readme.io/reference/authentication-1)',
};

/** Our own key pair (64-character secret, the usual length). */
export const OWN = {
  apiKey: 'sck-golden-apikey-0001-Zm9yIHRlc3RzIG9ubHksIG5ldmVyIGEgcmVhbCBrZXk',
  secret: 'gQ7vN2kX9pL4wR8tY1uE6iO3aS5dF0hJ2kL7zX4cV9bN1mQ8wE3rT6yU0iO5pA2s',
};
export const OTHER_SECRET = 'Zx8cV1bN4mQ7wE0rT3yU6iO9pA2sD5fG8hJ1kL4zX7cV0bN3mQ6wE9rT2yU5iO8';
export const LONG_SECRET = `${OWN.secret}-longer-than-the-64-byte-sha256-block-so-hmac-hashes-the-key-first`;

export interface RequestSpec {
  comment: string;
  flags: string[];
  result: SigningVector['result'];
  source?: string;
  secret: string;
  apiKey?: string;
  path: string;
  query: string;
  body: string;
  bodyKind: BodyKind;
  presentedSignature: string;
  /** A published signature, written verbatim (checked, never recomputed). */
  publishedSignature?: string;
}

/** Fill in every intermediate value of a request as sent; cross-check the signer. */
export function signingVector(r: RequestSpec): Draft<SigningVector> {
  const steps = signingSteps(r.query, r.body, r.bodyKind);
  const computed = sign(r.secret, steps.totalParams);
  if (computed !== plainHmac(r.secret, steps.totalParams))
    throw new Error(`signer disagrees with node:crypto: ${r.comment}`);
  if (r.publishedSignature !== undefined && r.publishedSignature !== computed) {
    throw new Error(`published signature does not verify: ${r.comment}`);
  }
  return {
    comment: r.comment,
    flags: r.flags,
    result: r.result,
    ...(r.source === undefined ? {} : { source: r.source }),
    secret: r.secret,
    ...(r.apiKey === undefined ? {} : { apiKey: r.apiKey }),
    method: 'POST',
    path: r.path,
    query: r.query,
    body: r.body,
    bodyKind: r.bodyKind,
    queryWithoutSignature: steps.queryWithoutSignature,
    signedBody: steps.body,
    totalParams: steps.totalParams,
    signature: r.publishedSignature ?? computed,
    presentedSignature: r.presentedSignature,
  };
}

/** The vectors of one section, in order, and the function adding a request to them. */
export function collector(): { out: Array<Draft<SigningVector>>; add: (r: RequestSpec) => void } {
  const out: Array<Draft<SigningVector>> = [];
  return { out, add: (r) => out.push(signingVector(r)) };
}

export const withSig = (raw: string, sig: string): string =>
  raw === '' ? `signature=${sig}` : `${raw}&signature=${sig}`;

/** Flip the lowest bit of the hex digit at `i`. */
export function flipBit(sig: string, i: number): string {
  const d = (parseInt(sig[i] ?? '0', 16) ^ 1).toString(16);
  return sig.slice(0, i) + d + sig.slice(i + 1);
}

export function mixedCase(sig: string): string {
  return [...sig].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c)).join('');
}

export const ORDER_PATH_V1 = ENDPOINTS.v1.path;
export const ORDER_PATH_V11 = ENDPOINTS['v1.1'].path;
export const BATCH_PATH = ENDPOINTS.batch.path;

export function singleOrderParams(extra: Params = [], ts = TS): Params {
  return [
    ['symbol', 'BTCUSDT'],
    ['side', 'BUY'],
    ['type', 'LIMIT'],
    ['timeInForce', 'GTC'],
    ['quantity', '0.0105'],
    ['price', '43250.5'],
    ...extra,
    ['recvWindow', '5000'],
    ['timestamp', String(ts)],
  ];
}

export const batchQuery = (ts = TS): Params => [
  ['timestamp', String(ts)],
  ['recvWindow', '5000'],
];
