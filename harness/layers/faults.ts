/**
 * The faults of the layer venues (harness/layers/php, harness/layers/java): each ONE realistic bug
 * of one layer of that stack, the seed sentence it breaks, and what the kit (core profile) does
 * with it. `expected` is what was observed, not what was hoped: a `missed` entry is a fault the kit
 * does not catch today, a work item for the kit's authors.
 */
import type { VenueName } from './venues.js';

export type Layer =
  | 'front'
  | 'HTTP parser'
  | 'body decoder'
  | 'parameter parser'
  | 'type coercion'
  | 'validator'
  | 'store'
  | 'serializer';

export interface LayerFault {
  venue: VenueName;
  fault: string;
  layer: Layer;
  /** The bug, as it sits in the code or the configuration. */
  bug: string;
  /** The seed sentence the fault breaks (section and words of spec seed 000_c8ac0fbad6561c6c). */
  seed: string;
  expected: 'caught' | 'missed';
  /** The MUST check that fails (caught only). */
  caughtBy?: string;
  /** The checks whose requests the catching check judges, when it sends none of its own (a run-wide invariant). */
  sentBy?: readonly string[];
  /** What the table alone would not say about the outcome. */
  note?: string;
}

export const LAYER_FAULTS: readonly LayerFault[] = [
  // ------------------------------------------------------------ PHP 8, Apache httpd + mod_php, SQLite
  {
    venue: 'php',
    fault: 'small_body_limit',
    layer: 'front',
    bug: 'httpd.conf caps request bodies with `LimitRequestBody 2048` (a copied hardening snippet): a full batch gets 413',
    seed: '§4.1 Body: "JSON array of order objects, at most 20 elements, all for the same symbol."',
    expected: 'caught',
    caughtBy: 'BATCH-ACCEPT-UP-TO-MAX',
  },
  {
    venue: 'php',
    fault: 'waf_blacklist',
    layer: 'front',
    bug: 'mod_rewrite rule from a "5G blacklist": `RewriteCond %{QUERY_STRING} (<|>|\'|%0A|%0D|%27|%3C|%3E|%00) [NC]` → 403',
    seed: '§2.1 newClientOrderId: "Client-defined order id, up to 255 characters." (§4.2: signed parameters "in the query string, the body, or both")',
    expected: 'caught',
    caughtBy: 'SIG-QUERY-COVERED.domain-unusual',
    note: "the blacklist matches characters as sent raw in the query or form body: the probe meeting it is the query-syntax one sending an id with !$'()*,:@/? unescaped in a form body (syntax.raw-subdelims), filed under SIG-QUERY-COVERED; the percent-encoded newClientOrderId.markup passes through it. Missed before this round.",
  },
  {
    venue: 'php',
    fault: 'multipart_unsigned',
    layer: 'body decoder',
    bug: 'multipart/form-data accepted: PHP parses it into $_POST and leaves php://input empty, so totalParams is the query alone and the body fields are unsigned',
    seed: '§5.3 item 4: "`totalParams` is the query string directly followed by the request body" (§1: "so that parameters cannot be altered in transit")',
    expected: 'caught',
    caughtBy: 'SIG-BODY-COVERED.encodings',
  },
  {
    venue: 'php',
    fault: 'request_merge',
    layer: 'parameter parser',
    bug: 'the signature is checked over the part holding it (query or body) while the parameters come from $_REQUEST (query and body merged, body wins)',
    seed: '§5.3 item 4: "`totalParams` is the query string directly followed by the request body, with nothing inserted between them"',
    expected: 'caught',
    caughtBy: 'SIG-BODY-COVERED.split',
  },
  {
    venue: 'php',
    fault: 'loose_in_array',
    layer: 'type coercion',
    bug: 'enums checked with in_array() without strict: PHP 8 `true == "BUY"`, so a JSON true passes as side, type, timeInForce, stpMode',
    seed: '§2.1 side: "ENUM | yes | `BUY` or `SELL`."',
    expected: 'caught',
    caughtBy: 'ORDER-SIDE-ENUM.domain',
  },
  {
    venue: 'php',
    fault: 'intval_long',
    layer: 'type coercion',
    bug: 'timestamp and recvWindow read with is_numeric() + (int): fractions truncated, exponents, signs and blanks accepted, values past 2^63 clamped',
    seed: '§2.1 timestamp: "LONG | yes | Request time in milliseconds." §5.4 item 3: "otherwise it is rejected."',
    expected: 'caught',
    caughtBy: 'ORDER-RECVWINDOW-FORMAT.timestamp-fraction',
  },
  {
    venue: 'php',
    fault: 'empty_client_id',
    layer: 'type coercion',
    bug: '`if (empty($id))` generates an id: the client id "0" is taken as not sent ("" too, which is a reading of its own, D-EMPTY-OPTIONAL)',
    seed: '§2.2 order.clientOrderId: "Client-defined id, or the generated one if none was sent."',
    expected: 'caught',
    caughtBy: 'RESULT-CLIENT-ORDER-ID-ECHO.invariant',
    sentBy: ['ORDER-CLIENT-ID-LENGTH.domain-open'],
  },
  {
    venue: 'php',
    fault: 'strlen_client_id',
    layer: 'validator',
    bug: 'the client id length checked with strlen(), which counts UTF-8 bytes: 255 non-ASCII characters are refused',
    seed: '§8: "newClientOrderId length | up to 255 characters"',
    expected: 'caught',
    caughtBy: 'ORDER-CLIENT-ID-LENGTH.domain-unusual',
  },
  {
    venue: 'php',
    fault: 'like_client_id',
    layer: 'store',
    bug: 'duplicate client id looked up with `WHERE client_order_id LIKE ?`: case-insensitive and `_`/`%` wildcards, so fresh ids are refused as duplicates',
    seed: '§2.1 newClientOrderId: "Client-defined order id, up to 255 characters."',
    expected: 'caught',
    caughtBy: 'ORDER-CLIENT-ID-LENGTH.distinct',
  },
  {
    venue: 'php',
    fault: 'no_transaction_batch',
    layer: 'store',
    bug: 'the batch is placed order by order with no transaction; the symbol is compared with the first inside the loop, so a mixed batch is refused after its first orders were placed',
    seed: '§4.1 rule 2: "All orders in one request must have the same symbol; mixed symbols are unsupported."',
    expected: 'caught',
    caughtBy: 'BATCH-SINGLE-SYMBOL',
  },
  {
    venue: 'php',
    fault: 'inf_empty_body',
    layer: 'serializer',
    bug: 'decimals checked with is_numeric($v) && $v > 0 (a JSON 1e400 decodes to INF and passes); json_encode then returns false and `echo false` sends an empty 200 body',
    seed: '§4.1 Response: "JSON object of section 2.2."',
    expected: 'caught',
    caughtBy: 'ORDER-DECIMAL-FORMAT.overflow',
  },

  // ------------------------------------------------------------ Java 17, JDK HttpServer, behind haproxy
  {
    venue: 'java',
    fault: 'v11_alias',
    layer: 'front',
    bug: 'haproxy `http-request replace-path ^/api/v1\\.1/(.*) /api/v1/\\1` ("v1.1 is the same handler"): v1.1 orders get v1 rules',
    seed: '§9: "`v1.1` (path `/api/v1.1/spot/order`, adding the `amount` field and making quantity conditional for market orders)"',
    expected: 'caught',
    caughtBy: 'ORDER-V11-ENDPOINT',
  },
  {
    venue: 'java',
    fault: 'small_buffer',
    layer: 'front',
    bug: "haproxy `tune.bufsize 2048`: a request line and headers over about 1 KiB get haproxy's 400",
    seed: '§8: "newClientOrderId length | up to 255 characters" (§5.3: "all parameters in the query string" is a valid placement)',
    expected: 'caught',
    caughtBy: 'SIG-QUERY-COVERED.domain-unusual',
    note: 'caught outside the rule family it breaks (ORDER-CLIENT-ID-LENGTH): its domain probes rotate over routes with the seed, and at seed 7 the multi-byte 255-character ids go in bodies; the syntax.longest probe, filed under SIG-QUERY-COVERED, sends one in the query of every single-order endpoint',
  },
  {
    venue: 'java',
    fault: 'decoded_query',
    layer: 'HTTP parser',
    bug: 'URI.getQuery() (percent-decoded) instead of getRawQuery() for the signed string and the parameters',
    seed: '§5.3 item 4: "`totalParams` is the query string directly followed by the request body"',
    expected: 'caught',
    caughtBy: 'SIG-HMAC-SHA256-HEX.encoded',
  },
  {
    venue: 'java',
    fault: 'platform_charset_body',
    layer: 'body decoder',
    bug: 'the body read as `new String(bytes)`: the platform charset, US-ASCII under LANG=C, turns every non-ASCII byte into U+FFFD',
    seed: '§2.1 newClientOrderId: "Client-defined order id, up to 255 characters."',
    expected: 'caught',
    caughtBy: 'ORDER-CLIENT-ID-LENGTH.domain-unusual',
  },
  {
    venue: 'java',
    fault: 'json_trailing',
    layer: 'body decoder',
    bug: 'the hand-rolled JSON reader returns after the first value and ignores what follows it',
    seed: '§4.1 Body: "JSON array of order objects, at most 20 elements"',
    expected: 'caught',
    caughtBy: 'BATCH-JSON-BODY.domain',
  },
  {
    venue: 'java',
    fault: 'case_insensitive_params',
    layer: 'parameter parser',
    bug: 'parameters kept in `new TreeMap<>(String.CASE_INSENSITIVE_ORDER)`: `SIDE=BUY` is read as side',
    seed: '§2.1 side: "ENUM | yes | `BUY` or `SELL`." (a required field, named `side`)',
    expected: 'caught',
    caughtBy: 'ORDER-SIDE-ENUM.domain',
  },
  {
    venue: 'java',
    fault: 'bigdecimal_long',
    layer: 'type coercion',
    bug: 'timestamp and recvWindow read as `new BigDecimal(s.trim()).longValue()`: fractions, exponents and signs accepted, values past 2^63 wrapped',
    seed: '§2.1 timestamp: "LONG | yes | Request time in milliseconds." §5.4 item 3: "otherwise it is rejected."',
    expected: 'caught',
    caughtBy: 'ORDER-RECVWINDOW-FORMAT.timestamp-overflow',
  },
  {
    venue: 'java',
    fault: 'uppercase_enum',
    layer: 'type coercion',
    bug: 'enums upper-cased with toUpperCase(Locale.ROOT) before the check: "buy", "ſell", "lımıt" accepted',
    seed: '§2.1 side: "ENUM | yes | `BUY` or `SELL`."',
    expected: 'caught',
    caughtBy: 'ORDER-SIDE-ENUM.domain',
  },
  {
    venue: 'java',
    fault: 'abs_window',
    layer: 'validator',
    bug: 'the time check written `Math.abs(now - timestamp) <= recvWindow`: a timestamp up to recvWindow ahead is accepted',
    seed: '§5.4 item 4: "A timestamp ahead of the server time is accepted only within 1 second of the server time."',
    expected: 'caught',
    caughtBy: 'TIME-WINDOW-LEAD',
  },
  {
    venue: 'java',
    fault: 'batch_off_by_one',
    layer: 'validator',
    bug: '`orders.size() >= MAX_BATCH` refused: a batch of exactly 20 orders gets -1193',
    seed: '§8: "Orders per batch request | at most 20"',
    expected: 'caught',
    caughtBy: 'BATCH-ACCEPT-UP-TO-MAX',
  },
  {
    venue: 'java',
    fault: 'strip_zeros',
    layer: 'serializer',
    bug: 'decimals normalised with BigDecimal.stripTrailingZeros().toString(): 10 is written "1E+1"',
    seed: '§2.2 order.price: "DECIMAL | Price."',
    expected: 'caught',
    caughtBy: 'RESULT-ORDER-ECHO',
  },
  {
    venue: 'java',
    fault: 'hashmap_results',
    layer: 'serializer',
    bug: 'batch entries gathered in a HashMap keyed by client id and written from values(): hash order, and an id sent twice keeps one entry',
    seed: '§2.2 result: "One entry per submitted order (batch result)." §4.1 rule 4: "The result array reports a code and msg for each order"',
    expected: 'caught',
    caughtBy: 'RESULT-ORDER-MATCH',
  },
];
