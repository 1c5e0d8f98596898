/**
 * Doctor vectors: requests a client signed with one known mistake, or two combined (§5.3),
 * with the code (and `also`) the signature doctor must name; plus correctly signed
 * requests it must leave alone.
 */
import { sign } from '../../src/signing/hmac.js';
import type { DoctorVector, DoctorVectorFile } from '../types.js';
import { vectorFile, type Draft } from './common.js';

const SECRET = 'doctor-vector-secret-NOT-A-REAL-KEY-0001';
const Q = 'symbol=BTC-USDT&side=BUY&type=LIMIT&timestamp=1700000000000';
const B = 'quantity=0.5&price=30000.10&recvWindow=5000';
const SORTED_Q = 'side=BUY&symbol=BTC-USDT&timestamp=1700000000000&type=LIMIT';
const SORTED_B = 'price=30000.10&quantity=0.5&recvWindow=5000';
const OTHER_TS = (s: string): string => s.replace('1700000000000', '1699999999000');

/** A doctor vector (pairs carry `also`, §5.3). */
type PairVector = DoctorVector;

interface Case {
  comment: string;
  code: string;
  /** The second mistake, when the client made two. */
  also?: string[];
  flags: string[];
  query: string;
  body: string;
  bodyKind: 'form' | 'json' | 'none';
  /** What the client signed; the signature is its HMAC. */
  clientSigned: string;
  otherTimestamps?: string[];
  /** The signature pair is sent at the end of the query string. */
  sigInQuery?: boolean;
}

const CASES: Case[] = [
  { comment: 'correct split request', code: 'OK', flags: ['Correct'], query: Q, body: B, bodyKind: 'form', clientSigned: Q + B },
  { comment: 'correct query-only request', code: 'OK', flags: ['Correct'], query: Q, body: '', bodyKind: 'none', clientSigned: Q },
  { comment: 'correct JSON body request', code: 'OK', flags: ['Correct'], query: Q, body: '{"a":1}', bodyKind: 'json', clientSigned: `${Q}{"a":1}` },
  { comment: 'only the query signed', code: 'BODY_NOT_SIGNED', flags: ['Join'], query: Q, body: B, bodyKind: 'form', clientSigned: Q },
  { comment: 'only the body signed', code: 'QUERY_NOT_SIGNED', flags: ['Join'], query: Q, body: B, bodyKind: 'form', clientSigned: B },
  { comment: '& inserted between query and body', code: 'SEPARATOR_INSERTED', flags: ['Join'], query: Q, body: B, bodyKind: 'form', clientSigned: `${Q}&${B}` },
  { comment: 'empty signature pair signed', code: 'SIGNATURE_PARAM_SIGNED', flags: ['SignaturePair'], query: Q, body: '', bodyKind: 'none', clientSigned: `${Q}&signature=`, sigInQuery: true },
  { comment: 'query parameters sorted by name', code: 'PARAMS_REORDERED', flags: ['Order'], query: Q, body: '', bodyKind: 'none', clientSigned: 'side=BUY&symbol=BTC-USDT&timestamp=1700000000000&type=LIMIT' },
  { comment: 'body signed before the query string', code: 'PARAMS_REORDERED', flags: ['Order'], query: Q, body: B, bodyKind: 'form', clientSigned: B + Q },
  { comment: 'value signed before percent-encoding', code: 'SIGNED_BEFORE_ENCODING', flags: ['Encoding'], query: `${Q}&newClientOrderId=a%20b`, body: '', bodyKind: 'none', clientSigned: `${Q}&newClientOrderId=a b` },
  { comment: "'!' left unescaped in the signed string", code: 'ENCODING_MISMATCH', flags: ['Encoding'], query: `${Q}&newClientOrderId=a%20b%21`, body: '', bodyKind: 'none', clientSigned: `${Q}&newClientOrderId=a%20b!` },
  { comment: 'JSON body re-serialised before signing', code: 'JSON_RESERIALISED', flags: ['Json'], query: Q, body: '{ "a": 1 }', bodyKind: 'json', clientSigned: `${Q}{"a":1}` },
  { comment: 'another timestamp signed than sent (given as a hint)', code: 'OTHER_TIMESTAMP', flags: ['Timestamp'], query: Q, body: '', bodyKind: 'none', clientSigned: Q.replace('1700000000000', '1699999999000'), otherTimestamps: ['1699999999000'] },
  { comment: 'the clock read twice: signed 3 ms before the timestamp sent (no hint needed)', code: 'OTHER_TIMESTAMP', flags: ['Timestamp'], query: Q, body: B, bodyKind: 'form', clientSigned: Q.replace('1700000000000', '1699999999997') + B },
  { comment: 'the timestamp signed in seconds, sent in milliseconds (no hint needed)', code: 'OTHER_TIMESTAMP', flags: ['Timestamp'], query: Q, body: '', bodyKind: 'none', clientSigned: Q.replace('1700000000000', '1700000000') },
  { comment: 'another timestamp a second away signed, no hint given: not detectable', code: 'UNKNOWN', flags: ['Timestamp'], query: Q, body: '', bodyKind: 'none', clientSigned: Q.replace('1700000000000', '1699999999000') },
  { comment: 'signed with another secret', code: 'UNKNOWN', flags: ['WrongSecret'], query: Q, body: B, bodyKind: 'form', clientSigned: 'other' },
  { comment: 'query and body each sorted, then joined with &', code: 'PARAMS_REORDERED', also: ['SEPARATOR_INSERTED'], flags: ['Pair', 'Order', 'Join'], query: Q, body: B, bodyKind: 'form', clientSigned: `${SORTED_Q}&${SORTED_B}` },
  { comment: 'empty signature pair signed, body left out', code: 'SIGNATURE_PARAM_SIGNED', also: ['BODY_NOT_SIGNED'], flags: ['Pair', 'SignaturePair', 'Join'], query: Q, body: B, bodyKind: 'form', clientSigned: `${Q}&signature=`, sigInQuery: true },
  { comment: 'values signed before percent-encoding, & inserted before the body', code: 'SIGNED_BEFORE_ENCODING', also: ['SEPARATOR_INSERTED'], flags: ['Pair', 'Encoding', 'Join'], query: `${Q}&newClientOrderId=a%20b`, body: B, bodyKind: 'form', clientSigned: `${Q}&newClientOrderId=a b&${B}` },
  { comment: 'JSON body re-serialised, & inserted before it', code: 'JSON_RESERIALISED', also: ['SEPARATOR_INSERTED'], flags: ['Pair', 'Json', 'Join'], query: Q, body: '{ "a": 1 }', bodyKind: 'json', clientSigned: `${Q}&{"a":1}` },
  { comment: 'another timestamp signed (given as a hint), parameters sorted', code: 'OTHER_TIMESTAMP', also: ['PARAMS_REORDERED'], flags: ['Pair', 'Timestamp', 'Order'], query: Q, body: '', bodyKind: 'none', clientSigned: OTHER_TS(SORTED_Q), otherTimestamps: ['1699999999000'] },
  { comment: 'another timestamp signed (given as a hint), body left out', code: 'OTHER_TIMESTAMP', also: ['BODY_NOT_SIGNED'], flags: ['Pair', 'Timestamp', 'Join'], query: Q, body: B, bodyKind: 'form', clientSigned: OTHER_TS(Q), otherTimestamps: ['1699999999000'] },
  { comment: 'three mistakes (another timestamp, sorted, & inserted): not detectable', code: 'UNKNOWN', flags: ['ThreeMistakes', 'Timestamp', 'Order', 'Join'], query: Q, body: B, bodyKind: 'form', clientSigned: `${OTHER_TS(SORTED_Q)}&${SORTED_B}`, otherTimestamps: ['1699999999000'] },
];

const HEADER = [
  'Golden vectors for the signature doctor: each request was signed with none, one or two known client mistakes (seed §5.3); code names the mistake (the first of two, also the second), OK for a correct signature.',
  'The secret is a test value. A timestamp the client signed but never sent is only detectable when given in otherTimestamps.',
  'Generated by vectors/generate/doctor.ts; checked against vectors/schema/doctor.schema.json by vectors/load.ts.',
];

const NOTES: Record<string, string> = {
  Correct: 'Correctly signed: the doctor must not diagnose it.',
  Join: 'A mistake in joining query string and body into totalParams (§5.3 item 4).',
  SignaturePair: 'The signature pair was not removed before signing (§5.3 item 5).',
  Order: 'The parameters were signed in another order than sent.',
  Encoding: 'The signed bytes are encoded differently from the bytes sent.',
  Json: 'The JSON body was signed in another serialisation than sent.',
  Timestamp: 'Another timestamp value was signed than sent.',
  WrongSecret: 'Signed with another secret: no transformation can explain it.',
  Pair: 'Two mistakes combined: code names the first, also the second (§5.3).',
  ThreeMistakes: 'Three mistakes combined: beyond the bounded search (single mistakes and pairs), so UNKNOWN.',
};

/** The content of `vectors/doctor.json`. */
export function build(): DoctorVectorFile {
  const drafts = CASES.map((c): Draft<PairVector> => {
    const signature = sign(SECRET, c.clientSigned);
    return {
      comment: c.comment,
      flags: c.flags,
      result: c.code === 'OK' ? 'valid' : 'invalid',
      secret: SECRET,
      query: c.sigInQuery === true ? `${c.query}&signature=${signature}` : c.query,
      body: c.body,
      bodyKind: c.bodyKind,
      signature,
      ...(c.otherTimestamps !== undefined ? { otherTimestamps: c.otherTimestamps } : {}),
      code: c.code,
      ...(c.also !== undefined ? { also: c.also } : {}),
    };
  });
  return vectorFile<PairVector>('doctor', HEADER, NOTES, drafts);
}
