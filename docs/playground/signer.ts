/**
 * The signing playground's computation, run in the browser: an adapter over the pure
 * core (src/core/): its signing steps (§5.3 items 4 and 5), its one case-insensitive
 * compare (§5.3 item 3) and its Web Crypto HMAC primitive. Nothing leaves the page.
 */
import { signatureMatches } from '../../src/core/signing/hmac.js';
import { signatureValues } from '../../src/core/signing/query.js';
import { guessBodyKind, signingSteps, type BodyKind, type SigningSteps } from '../../src/core/signing/total-params.js';
import { webCryptoHmac } from '../../src/core/signing/webcrypto.js';
import type { SigningVector } from '../../vectors/types.js';

/** How the page reads the body: `auto` guesses as `spotcheck sign` does (JSON when it starts with `[` or `{`). */
export type BodyKindChoice = BodyKind | 'auto';

/** What the integrator typed. */
export interface PlaygroundInput {
  /** Raw query string, with or without a leading `?`. */
  query: string;
  /** Raw body text. */
  body: string;
  /** The secret key (HMAC key). */
  secret: string;
  /** How to read the body. */
  bodyKind: BodyKindChoice;
}

/** Every intermediate value, the signature, and what the request itself presents. */
export interface PlaygroundResult extends SigningSteps {
  /** The body kind used. */
  bodyKind: BodyKind;
  /** Lower-case hex HMAC-SHA256 of `totalParams` (§5.3 item 2). */
  signature: string;
  /** The `signature` values found in the pasted query and form body (as sent). */
  presented: string[];
  /** Whether a presented signature equals the computed one, ignoring case (SIG-CASE-INSENSITIVE, §5.3 item 3); undefined when none is presented. */
  presentedMatches: boolean | undefined;
}

/** The body kind to use for `body` under `choice`. */
export function resolveBodyKind(body: string, choice: BodyKindChoice): BodyKind {
  return choice === 'auto' ? guessBodyKind(body) : choice;
}

/** Lower-case hex HMAC-SHA256 of `message` keyed with `secret`, both as UTF-8, by Web Crypto (SIG-HMAC-SHA256-HEX, §5.3 item 2): the core's adapter. */
export const hmacSha256Hex: (secret: string, message: string, subtle?: SubtleCrypto) => Promise<string> = webCryptoHmac;

/**
 * Compute every step of the signature of a pasted request (§5.3): the signature pair
 * left out (SIG-EXCLUDES-SIGNATURE, item 5), query and body joined with nothing between
 * (SIG-TOTALPARAMS-NO-SEPARATOR, item 4), both by the kit's `signingSteps`.
 */
export async function computeSignature(input: PlaygroundInput, subtle?: SubtleCrypto): Promise<PlaygroundResult> {
  const query = input.query.startsWith('?') ? input.query.slice(1) : input.query;
  const bodyKind = resolveBodyKind(input.body, input.bodyKind);
  const steps = signingSteps(query, input.body, bodyKind);
  const signature = await hmacSha256Hex(input.secret, steps.totalParams, subtle);
  const presented = [...signatureValues(query), ...(bodyKind === 'form' ? signatureValues(input.body) : [])];
  return {
    ...steps,
    bodyKind,
    signature,
    presented,
    presentedMatches: presented.length === 0 ? undefined : presented.some((p) => signatureMatches(signature, p)),
  };
}

/** One golden vector the page did not reproduce, with the first step that differs. */
export interface VectorMismatch {
  /** The vector's `tcId`. */
  tcId: number;
  /** The vector's one-line comment. */
  comment: string;
  /** First differing step: a field of the vector, or `result` for a wrong valid/invalid verdict. */
  step: 'queryWithoutSignature' | 'signedBody' | 'totalParams' | 'signature' | 'result';
  /** What the vector says. */
  expected: string;
  /** What the page computed. */
  actual: string;
}

/** Outcome of running the golden signing vectors through the page's signer. */
export interface GoldenCheck {
  /** Number of vectors. */
  total: number;
  /** Number reproduced: every step equal and the valid/invalid verdict right. */
  passed: number;
  /** The others. */
  mismatches: VectorMismatch[];
}

/**
 * Run one golden vector: recompute each step from the request as sent, then judge the
 * presented signature (valid or acceptable iff it equals the correct one, ignoring
 * case: SIG-CASE-INSENSITIVE, §5.3 item 3).
 */
export async function checkVector(v: SigningVector, subtle?: SubtleCrypto): Promise<VectorMismatch | undefined> {
  const r = await computeSignature({ query: v.query, body: v.body, secret: v.secret, bodyKind: v.bodyKind }, subtle);
  const steps: Array<[VectorMismatch['step'], string, string]> = [
    ['queryWithoutSignature', v.queryWithoutSignature, r.queryWithoutSignature],
    ['signedBody', v.signedBody, r.body],
    ['totalParams', v.totalParams, r.totalParams],
    ['signature', v.signature, r.signature],
  ];
  for (const [step, expected, actual] of steps) {
    if (expected !== actual) return { tcId: v.tcId, comment: v.comment, step, expected, actual };
  }
  const verdict = signatureMatches(r.signature, v.presentedSignature) ? 'valid' : 'invalid';
  const expected = v.result === 'invalid' ? 'invalid' : 'valid';
  return verdict === expected
    ? undefined
    : { tcId: v.tcId, comment: v.comment, step: 'result', expected: v.result, actual: verdict };
}

/** Run every golden vector through the page's signer. */
export async function checkGoldenVectors(
  vectors: readonly SigningVector[],
  subtle?: SubtleCrypto,
): Promise<GoldenCheck> {
  const mismatches: VectorMismatch[] = [];
  for (const v of vectors) {
    const m = await checkVector(v, subtle);
    if (m !== undefined) mismatches.push(m);
  }
  return { total: vectors.length, passed: vectors.length - mismatches.length, mismatches };
}
