/**
 * Doctor vectors: requests a client signed with one known mistake, or two combined (§5.3),
 * with the code (and `also`) the signature doctor must name; plus correctly signed
 * requests it must leave alone.
 */
import { sign } from '../../src/signing/hmac.js';
import { ENDPOINTS } from '../../src/core/wire.js';
import type { DoctorVector, DoctorVectorFile } from '../types.js';
import { vectorFile, type Draft } from './common.js';

const SECRET = 'doctor-vector-secret-NOT-A-REAL-KEY-0001';
const API_KEY = 'doctor-vector-api-key-NOT-A-REAL-KEY-0001';
const ORDER_PATH = ENDPOINTS.v1.path;
const BATCH_PATH = ENDPOINTS.batch.path;
/** The query string of a batch request (§4.1: time parameters in the query). */
const QB = 'recvWindow=5000&timestamp=1700000000000';
/** A batch body as a JavaScript or Java client sends it: compact, keys in insertion order. */
const BATCH =
  '[{"symbol":"BTC-USDT","side":"BUY","type":"LIMIT","quantity":"0.5","price":"30000.10","newClientOrderId":"café-1"}]';
/** Python's `json.dumps(orders)` with its defaults: `", "` and `": "`, non-ASCII escaped (`ensure_ascii`). */
const BATCH_PY =
  '[{"symbol": "BTC-USDT", "side": "BUY", "type": "LIMIT", "quantity": "0.5", "price": "30000.10", "newClientOrderId": "caf\\u00e9-1"}]';
/** The same orders with their keys sorted, compact (Go's `json.Marshal` of a map). */
const BATCH_SORTED =
  '[{"newClientOrderId":"café-1","price":"30000.10","quantity":"0.5","side":"BUY","symbol":"BTC-USDT","type":"LIMIT"}]';
/** Python's `json.dumps(orders, sort_keys=True)`: sorted and spaced. */
const BATCH_PY_SORTED =
  '[{"newClientOrderId": "caf\\u00e9-1", "price": "30000.10", "quantity": "0.5", "side": "BUY", "symbol": "BTC-USDT", "type": "LIMIT"}]';
const PY_JSON = 'https://docs.python.org/3/library/json.html#json.dumps';
const B64 = (hex: string): string => Buffer.from(hex, 'hex').toString('base64');
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
  /** The HMAC key the client used (default: the secret). */
  hmacKey?: string;
  /** How the client wrote the HMAC (default hex). */
  signatureForm?: 'hex' | 'base64';
  /** Where the fact about a real client comes from. */
  source?: string;
}

const CASES: Case[] = [
  {
    comment: 'correct split request',
    code: 'OK',
    flags: ['Correct'],
    query: Q,
    body: B,
    bodyKind: 'form',
    clientSigned: Q + B,
  },
  {
    comment: 'correct query-only request',
    code: 'OK',
    flags: ['Correct'],
    query: Q,
    body: '',
    bodyKind: 'none',
    clientSigned: Q,
  },
  {
    comment: 'correct JSON body request',
    code: 'OK',
    flags: ['Correct'],
    query: Q,
    body: '{"a":1}',
    bodyKind: 'json',
    clientSigned: `${Q}{"a":1}`,
  },
  {
    comment: 'only the query signed',
    code: 'BODY_NOT_SIGNED',
    flags: ['Join'],
    query: Q,
    body: B,
    bodyKind: 'form',
    clientSigned: Q,
  },
  {
    comment: 'only the body signed',
    code: 'QUERY_NOT_SIGNED',
    flags: ['Join'],
    query: Q,
    body: B,
    bodyKind: 'form',
    clientSigned: B,
  },
  {
    comment: '& inserted between query and body',
    code: 'SEPARATOR_INSERTED',
    flags: ['Join'],
    query: Q,
    body: B,
    bodyKind: 'form',
    clientSigned: `${Q}&${B}`,
  },
  {
    comment: 'empty signature pair signed',
    code: 'SIGNATURE_PARAM_SIGNED',
    flags: ['SignaturePair'],
    query: Q,
    body: '',
    bodyKind: 'none',
    clientSigned: `${Q}&signature=`,
    sigInQuery: true,
  },
  {
    comment: 'query parameters sorted by name',
    code: 'PARAMS_REORDERED',
    flags: ['Order'],
    query: Q,
    body: '',
    bodyKind: 'none',
    clientSigned: 'side=BUY&symbol=BTC-USDT&timestamp=1700000000000&type=LIMIT',
  },
  {
    comment: 'body signed before the query string',
    code: 'PARAMS_REORDERED',
    flags: ['Order'],
    query: Q,
    body: B,
    bodyKind: 'form',
    clientSigned: B + Q,
  },
  {
    comment: 'value signed before percent-encoding',
    code: 'SIGNED_BEFORE_ENCODING',
    flags: ['Encoding'],
    query: `${Q}&newClientOrderId=a%20b`,
    body: '',
    bodyKind: 'none',
    clientSigned: `${Q}&newClientOrderId=a b`,
  },
  {
    comment: "'!' left unescaped in the signed string",
    code: 'ENCODING_MISMATCH',
    flags: ['Encoding'],
    query: `${Q}&newClientOrderId=a%20b%21`,
    body: '',
    bodyKind: 'none',
    clientSigned: `${Q}&newClientOrderId=a%20b!`,
  },
  {
    comment: 'JSON body re-serialised before signing',
    code: 'JSON_RESERIALISED',
    flags: ['Json'],
    query: Q,
    body: '{ "a": 1 }',
    bodyKind: 'json',
    clientSigned: `${Q}{"a":1}`,
  },
  {
    comment: 'another timestamp signed than sent (given as a hint)',
    code: 'OTHER_TIMESTAMP',
    flags: ['Timestamp'],
    query: Q,
    body: '',
    bodyKind: 'none',
    clientSigned: Q.replace('1700000000000', '1699999999000'),
    otherTimestamps: ['1699999999000'],
  },
  {
    comment: 'the clock read twice: signed 3 ms before the timestamp sent (no hint needed)',
    code: 'OTHER_TIMESTAMP',
    flags: ['Timestamp'],
    query: Q,
    body: B,
    bodyKind: 'form',
    clientSigned: Q.replace('1700000000000', '1699999999997') + B,
  },
  {
    comment: 'the timestamp signed in seconds, sent in milliseconds (no hint needed)',
    code: 'OTHER_TIMESTAMP',
    flags: ['Timestamp'],
    query: Q,
    body: '',
    bodyKind: 'none',
    clientSigned: Q.replace('1700000000000', '1700000000'),
  },
  {
    comment: 'another timestamp a second away signed, no hint given: not detectable',
    code: 'UNKNOWN',
    flags: ['Timestamp'],
    query: Q,
    body: '',
    bodyKind: 'none',
    clientSigned: Q.replace('1700000000000', '1699999999000'),
  },
  {
    comment: 'signed with another secret',
    code: 'UNKNOWN',
    flags: ['WrongSecret'],
    query: Q,
    body: B,
    bodyKind: 'form',
    clientSigned: 'other',
  },
  {
    comment: 'query and body each sorted, then joined with &',
    code: 'PARAMS_REORDERED',
    also: ['SEPARATOR_INSERTED'],
    flags: ['Pair', 'Order', 'Join'],
    query: Q,
    body: B,
    bodyKind: 'form',
    clientSigned: `${SORTED_Q}&${SORTED_B}`,
  },
  {
    comment: 'empty signature pair signed, body left out',
    code: 'SIGNATURE_PARAM_SIGNED',
    also: ['BODY_NOT_SIGNED'],
    flags: ['Pair', 'SignaturePair', 'Join'],
    query: Q,
    body: B,
    bodyKind: 'form',
    clientSigned: `${Q}&signature=`,
    sigInQuery: true,
  },
  {
    comment: 'values signed before percent-encoding, & inserted before the body',
    code: 'SIGNED_BEFORE_ENCODING',
    also: ['SEPARATOR_INSERTED'],
    flags: ['Pair', 'Encoding', 'Join'],
    query: `${Q}&newClientOrderId=a%20b`,
    body: B,
    bodyKind: 'form',
    clientSigned: `${Q}&newClientOrderId=a b&${B}`,
  },
  {
    comment: 'JSON body re-serialised, & inserted before it',
    code: 'JSON_RESERIALISED',
    also: ['SEPARATOR_INSERTED'],
    flags: ['Pair', 'Json', 'Join'],
    query: Q,
    body: '{ "a": 1 }',
    bodyKind: 'json',
    clientSigned: `${Q}&{"a":1}`,
  },
  {
    comment: 'another timestamp signed (given as a hint), parameters sorted',
    code: 'OTHER_TIMESTAMP',
    also: ['PARAMS_REORDERED'],
    flags: ['Pair', 'Timestamp', 'Order'],
    query: Q,
    body: '',
    bodyKind: 'none',
    clientSigned: OTHER_TS(SORTED_Q),
    otherTimestamps: ['1699999999000'],
  },
  {
    comment: 'another timestamp signed (given as a hint), body left out',
    code: 'OTHER_TIMESTAMP',
    also: ['BODY_NOT_SIGNED'],
    flags: ['Pair', 'Timestamp', 'Join'],
    query: Q,
    body: B,
    bodyKind: 'form',
    clientSigned: OTHER_TS(Q),
    otherTimestamps: ['1699999999000'],
  },
  {
    comment: 'three mistakes (another timestamp, sorted, & inserted): not detectable',
    code: 'UNKNOWN',
    flags: ['ThreeMistakes', 'Timestamp', 'Order', 'Join'],
    query: Q,
    body: B,
    bodyKind: 'form',
    clientSigned: `${OTHER_TS(SORTED_Q)}&${SORTED_B}`,
    otherTimestamps: ['1699999999000'],
  },
  // Mistakes real clients make (§5.3); each names what a client sent and what it signed.
  {
    comment: "JSON body signed as Python's json.dumps default text (', ' and ': ', non-ASCII escaped), sent compact",
    code: 'JSON_SIGNED_WITH_SPACES',
    flags: ['Json', 'RealClient'],
    query: QB,
    body: BATCH,
    bodyKind: 'json',
    clientSigned: QB + BATCH_PY,
    source: PY_JSON,
  },
  {
    comment: 'JSON body signed with its keys sorted (a Go map), sent in insertion order',
    code: 'JSON_KEYS_SORTED',
    flags: ['Json', 'RealClient'],
    query: QB,
    body: BATCH,
    bodyKind: 'json',
    clientSigned: QB + BATCH_SORTED,
    source: 'https://pkg.go.dev/encoding/json#Marshal',
  },
  {
    comment: "JSON body signed as Python's json.dumps(..., sort_keys=True), sent compact in insertion order",
    code: 'JSON_SIGNED_WITH_SPACES',
    also: ['JSON_KEYS_SORTED'],
    flags: ['Pair', 'Json', 'RealClient'],
    query: QB,
    body: BATCH,
    bodyKind: 'json',
    clientSigned: QB + BATCH_PY_SORTED,
    source: PY_JSON,
  },
  {
    comment: 'JSON body signed before the query string (body + query), sent after it',
    code: 'PARAMS_REORDERED',
    flags: ['Order', 'Json', 'RealClient'],
    query: QB,
    body: BATCH,
    bodyKind: 'json',
    clientSigned: BATCH + QB,
  },
  {
    comment: 'form body spaces signed as + (urlencode), sent as %20',
    code: 'SPACE_SIGNED_AS_PLUS',
    flags: ['Encoding', 'RealClient'],
    query: '',
    body: `${B}&timestamp=1700000000000&newClientOrderId=my%20order%201`,
    bodyKind: 'form',
    clientSigned: `${B}&timestamp=1700000000000&newClientOrderId=my+order+1`,
    source: 'https://docs.python.org/3/library/urllib.parse.html#urllib.parse.urlencode',
  },
  {
    comment: 'lower-case percent-escapes signed (%2c), upper-case sent (%2C)',
    code: 'LOWERCASE_ESCAPES_SIGNED',
    flags: ['Encoding', 'RealClient'],
    query: `${Q}&newClientOrderId=a%2Cb%C3%A9`,
    body: '',
    bodyKind: 'none',
    clientSigned: `${Q}&newClientOrderId=a%2cb%c3%a9`,
  },
  {
    comment: 'query signed percent-encoded twice (%2520), sent encoded once (%20)',
    code: 'SIGNED_DOUBLE_ENCODED',
    flags: ['Encoding'],
    query: `${Q}&newClientOrderId=a%20b%2Cc`,
    body: '',
    bodyKind: 'none',
    clientSigned: `${Q}&newClientOrderId=a%2520b%252Cc`,
  },
  {
    comment: '& put before the body when the query string is empty',
    code: 'SEPARATOR_INSERTED',
    flags: ['Join'],
    query: '',
    body: `${B}&timestamp=1700000000000`,
    bodyKind: 'form',
    clientSigned: `&${B}&timestamp=1700000000000`,
  },
  {
    comment: 'the right HMAC written in base64 instead of hex',
    code: 'SIGNATURE_BASE64',
    flags: ['SignatureForm'],
    query: Q,
    body: B,
    bodyKind: 'form',
    clientSigned: Q + B,
    signatureForm: 'base64',
  },
  {
    comment: 'HMAC written in base64, & inserted between query and body',
    code: 'SIGNATURE_BASE64',
    also: ['SEPARATOR_INSERTED'],
    flags: ['Pair', 'SignatureForm', 'Join'],
    query: Q,
    body: B,
    bodyKind: 'form',
    clientSigned: `${Q}&${B}`,
    signatureForm: 'base64',
  },
  {
    comment: 'the API key used as the HMAC key',
    code: 'API_KEY_AS_SECRET',
    flags: ['Key'],
    query: Q,
    body: B,
    bodyKind: 'form',
    clientSigned: Q + B,
    hmacKey: API_KEY,
  },
  {
    comment: 'the path and ? signed in front of the parameters (the request target)',
    code: 'PATH_SIGNED',
    flags: ['Path'],
    query: Q,
    body: '',
    bodyKind: 'none',
    clientSigned: `${ORDER_PATH}?${Q}`,
  },
  {
    comment: 'method and path signed in front of the form body',
    code: 'PATH_SIGNED',
    flags: ['Path'],
    query: '',
    body: `${B}&timestamp=1700000000000`,
    bodyKind: 'form',
    clientSigned: `POST${ORDER_PATH}${B}&timestamp=1700000000000`,
  },
  {
    comment:
      "a client id whose only special character is ': signed as is, re-encoded to %27 by the HTTP stack after signing",
    code: 'ENCODING_MISMATCH',
    flags: ['Encoding', 'RealClient'],
    query: `${Q}&newClientOrderId=it%27s`,
    body: '',
    bodyKind: 'none',
    clientSigned: `${Q}&newClientOrderId=it's`,
  },
  {
    comment: 'a query double-encoded on the wire (%2520): the client signed it encoded once',
    code: 'ENCODING_MISMATCH',
    flags: ['Encoding'],
    query: `${Q}&newClientOrderId=a%2520b`,
    body: '',
    bodyKind: 'none',
    clientSigned: `${Q}&newClientOrderId=a%20b`,
  },
  {
    comment: 'the signed text followed by a newline (printed with echo, not printf %s)',
    code: 'TRAILING_NEWLINE_SIGNED',
    flags: ['Join'],
    query: Q,
    body: B,
    bodyKind: 'form',
    clientSigned: `${Q}${B}\n`,
  },
  {
    comment: 'a space left unencoded in the signed text: no valid encoding, so signed before encoding',
    code: 'SIGNED_BEFORE_ENCODING',
    flags: ['Encoding'],
    query: `${Q}&newClientOrderId=it%27s%20ok`,
    body: '',
    bodyKind: 'none',
    clientSigned: `${Q}&newClientOrderId=it's ok`,
  },
];

const HEADER = [
  'Golden vectors for the signature doctor: each request was signed with none, one or two known client mistakes (seed §5.3); code names the mistake (the first of two, also the second), OK for a correct signature.',
  'Each vector is a request as sent (API key header, method, path, query, body, signature; a signature not in the query or body travels as its own pair) and the secret of its key.',
  'The secret and API key are test values. A timestamp the client signed but never sent is only detectable when given in otherTimestamps.',
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
  RealClient: 'A mistake seen in real client code (the source, when given, documents the behaviour behind it).',
  SignatureForm: 'The right HMAC written in another form than hexadecimal (§5.3 item 2).',
  Key: 'The HMAC keyed with another key than the secret key (§5.3 item 2).',
  Path: 'Text other venues sign (the path, or method and path) put in front of totalParams (§5.3 item 4).',
  Pair: 'Two mistakes combined: code names the first, also the second (§5.3).',
  ThreeMistakes: 'Three mistakes combined: beyond the bounded search (single mistakes and pairs), so UNKNOWN.',
};

/** The content of `vectors/doctor.json`. */
export function build(): DoctorVectorFile {
  const drafts = CASES.map((c): Draft<PairVector> => {
    const hex = sign(c.hmacKey ?? SECRET, c.clientSigned);
    const signature = c.signatureForm === 'base64' ? B64(hex) : hex;
    return {
      comment: c.comment,
      flags: c.flags,
      result: c.code === 'OK' ? 'valid' : 'invalid',
      ...(c.source !== undefined ? { source: c.source } : {}),
      secret: SECRET,
      apiKey: API_KEY,
      method: 'POST',
      path: c.bodyKind === 'json' ? BATCH_PATH : ORDER_PATH,
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
