/**
 * Shapes of the golden vector files (`vectors/*.json`). Each file also names its JSON
 * Schema (`vectors/schema/*.schema.json`); the loader checks the file against it.
 */

/**
 * Outcome of a vector: `valid` and `invalid` as the words say; `acceptable` is valid
 * but carries a flag worth noting (for example an upper-case signature).
 */
export type VectorResult = 'valid' | 'invalid' | 'acceptable';

/** Fields every vector has. */
export interface VectorBase {
  /** Unique within its file. */
  tcId: number;
  /** What the vector shows, in one line. */
  comment: string;
  /** Flag names, each explained in the file's `notes`. */
  flags: string[];
  /** Expected outcome. */
  result: VectorResult;
  /** The public document the values come from, when they do. */
  source?: string;
}

/** A vector file: header lines, flag notes and the vectors. */
export interface VectorFile<T extends VectorBase> {
  /** Relative path of the JSON Schema of this file. */
  $schema: string;
  /** What the file is and how to use it. */
  header: string[];
  /** Number of vectors in `tests`. */
  numberOfTests: number;
  /** Flag name to explanation. */
  notes: Record<string, string>;
  /** The vectors. */
  tests: T[];
}

/** How a request body is encoded (mirrors `BodyKind` of src/signing). */
export type VectorBodyKind = 'none' | 'form' | 'json';

/**
 * One signed request as sent, with its secret and each intermediate value of §5.3.
 * The request is valid iff `presentedSignature` verifies against `totalParams`.
 */
export interface SigningVector extends VectorBase {
  /** The secret key (HMAC key, case-sensitive). */
  secret: string;
  /** The API key sent in `X-SVC-APIKEY` (not part of the signature). */
  apiKey?: string;
  /** HTTP method. */
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Request path (not part of the signature). */
  path: string;
  /** Raw query string as sent, without `?`, with the signature pair when it travels there. */
  query: string;
  /** Raw body as sent (`''` when there is none). */
  body: string;
  /** How the body is encoded. */
  bodyKind: VectorBodyKind;
  /** `query` minus its `signature` pair. */
  queryWithoutSignature: string;
  /** The body as it enters totalParams (a form body minus its `signature` pair; JSON as is). */
  signedBody: string;
  /** `queryWithoutSignature` immediately followed by `signedBody`. */
  totalParams: string;
  /** The correct signature: lower-case hex HMAC-SHA256 of `totalParams`. */
  signature: string;
  /** The signature value the request carries. */
  presentedSignature: string;
}

/** One time-window case of §5.4: valid iff `timestamp < serverTime + 1000` and `serverTime - timestamp <= recvWindow`. */
export interface TimeWindowVector extends VectorBase {
  result: 'valid' | 'invalid';
  /** Server time, epoch ms. */
  serverTime: number;
  /** Request timestamp, epoch ms. */
  timestamp: number;
  /** recvWindow in ms; absent means the default 5000. */
  recvWindow?: number;
  /** Why an invalid case is rejected. */
  reason?: 'too-old' | 'too-far-ahead';
  /** Rule ID of the rejection. */
  ruleId?: 'TIME-WINDOW-PAST' | 'TIME-WINDOW-LEAD';
}

/** A single-order case: the parameter object of `/api/v1/spot/order` or `/api/v1.1/spot/order`. */
export interface OrderCaseVector extends VectorBase {
  kind: 'order';
  result: 'valid' | 'invalid';
  /** Which parameter set applies. */
  version: 'v1' | 'v1.1';
  /** The order parameters (JSON values as a client would send them). */
  input: unknown;
  /** Exact set of rule IDs the validator reports (empty for a valid order). */
  expectedRuleIds: string[];
}

/** A batch case: the JSON body of `/api/v1/spot/batchOrders`. */
export interface BatchCaseVector extends VectorBase {
  kind: 'batch';
  result: 'valid' | 'invalid';
  /** The parsed JSON body. */
  input: unknown;
  /** Exact set of rule IDs the validator reports (empty for a valid batch). */
  expectedRuleIds: string[];
}

/** An order or batch validation vector. */
export type OrderVector = OrderCaseVector | BatchCaseVector;

/** `vectors/signing.json`. */
export type SigningVectorFile = VectorFile<SigningVector>;
/** `vectors/time-window.json`. */
export type TimeWindowVectorFile = VectorFile<TimeWindowVector>;
/** `vectors/orders.json`. */
export type OrderVectorFile = VectorFile<OrderVector>;

/** A request signed with at most two known client mistakes and the doctor code naming it (§5.3). */
export interface DoctorVector extends VectorBase {
  secret: string;
  /** The API key sent in the API key header (§5.2); the doctor tries it as the HMAC key. */
  apiKey: string;
  /** HTTP method and path the request was sent to. */
  method: 'POST';
  path: string;
  query: string;
  body: string;
  bodyKind: VectorBodyKind;
  signature: string;
  otherTimestamps?: string[];
  /** The doctor's code, `OK` for a correct signature. */
  code: string;
  /** A second mistake made together with the first (§5.3: pairs). */
  also?: string[];
}

export type DoctorVectorFile = VectorFile<DoctorVector>;
