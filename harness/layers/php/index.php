<?php
/*
 * Spot trading venue written the way a PHP team writes it: one front controller under Apache
 * httpd (mod_php), orders in SQLite through PDO. Written from the API's seed document only.
 *
 *   POST /api/v1/spot/batchOrders   JSON array body, timestamp/recvWindow/signature in the query
 *   POST /api/v1/spot/order         signed parameters in the query, the form body, or both
 *   POST /api/v1.1/spot/order       the same, with `amount` and the v1.1 MARKET rule
 *
 * The environment (Apache PassEnv, see httpd.conf.tpl) gives SPOTCHECK_DB (the SQLite file),
 * SPOTCHECK_KEY / SPOTCHECK_SECRET (the one API key) and SPOTCHECK_FAULT: empty for the clean
 * venue, or the name of ONE fault of FAULTS below. The Apache-level faults are <IfDefine> blocks
 * of httpd.conf.tpl, switched on by `-D FAULT_<name>` on the apache2 command line.
 *
 * `php index.php --init <db>` creates the store (run once by the launcher before httpd starts).
 */

declare(strict_types=1);

const MAX_BATCH = 20;
const MAX_CLIENT_ID = 255;
const DEFAULT_RECV_WINDOW = 5000;
const MAX_RECV_WINDOW = 60000;
const LONG_MAX = '9223372036854775807';
const ACCOUNT_ID = 81_000_001;
const ORDER_ID_BASE = 7_000_000_000;

/** The faults of this file, each one bug; the seed sentence each breaks is quoted in harness/layers/faults.ts. */
const FAULTS = [
    'multipart_unsigned',   // body decoder: multipart/form-data read into $_POST, php://input empty, signature covers the query only
    'request_merge',        // parameter parser: signature checked over the part holding it, parameters read from $_REQUEST
    'loose_in_array',       // type coercion: in_array without strict, so JSON true passes as any enum value
    'intval_long',          // type coercion: LONGs read with is_numeric + (int): fractions, exponents, signs, blanks
    'empty_client_id',      // type coercion: empty($id) treats the client id "0" as omitted
    'strlen_client_id',     // validator: strlen counts bytes, not characters
    'like_client_id',       // store: duplicate check with LIKE (case-insensitive, _ and % wildcards)
    'no_transaction_batch', // store: batch placed order by order, mixed symbol found mid-loop, no transaction
    'inf_empty_body',       // validator + serializer: is_numeric accepts INF, json_encode fails, empty 200 body
];

final class ApiError extends Exception
{
    public function __construct(public readonly int $status, public readonly int $apiCode, string $msg)
    {
        parent::__construct($msg);
    }
}

function fault(string $name): bool
{
    static $active = null;
    $active ??= (string) getenv('SPOTCHECK_FAULT');
    return $active === $name;
}

function nowMs(): int
{
    return (int) floor(microtime(true) * 1000);
}

function respond(int $status, array $payload): never
{
    http_response_code($status);
    header('Content-Type: application/json');
    // the inf_empty_body fault: json_encode returns false on INF, and echo false prints nothing
    echo fault('inf_empty_body') ? json_encode($payload) : json_encode($payload, JSON_THROW_ON_ERROR);
    exit;
}

function openDb(string $path): PDO
{
    $db = new PDO('sqlite:' . $path, null, null, [
        PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
        PDO::ATTR_TIMEOUT => 10, // busy timeout: several prefork children write at once
    ]);
    return $db;
}

function initDb(string $path): void
{
    $db = openDb($path);
    $db->exec('PRAGMA journal_mode=WAL');
    $db->exec('CREATE TABLE IF NOT EXISTS orders (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        client_order_id TEXT UNIQUE,
        symbol TEXT NOT NULL,
        side TEXT NOT NULL,
        type TEXT NOT NULL,
        price TEXT,
        orig_qty TEXT,
        req_amount TEXT,
        time_in_force TEXT NOT NULL,
        stp_mode TEXT NOT NULL,
        status TEXT NOT NULL,
        executed_qty TEXT NOT NULL,
        transact_time INTEGER NOT NULL
    )');
}

// ------------------------------------------------------------------ request reading

/** The `name=value` pairs of a query string or form body, empty pairs skipped, names and values percent-decoded. */
function parsePairs(string $raw): array
{
    $pairs = [];
    foreach (explode('&', $raw) as $part) {
        if ($part === '') {
            continue;
        }
        $eq = strpos($part, '=');
        $rawName = $eq === false ? $part : substr($part, 0, $eq);
        $value = $eq === false ? '' : substr($part, $eq + 1);
        $pairs[] = [$rawName, urldecode($rawName), urldecode($value)];
    }
    return $pairs;
}

/** The raw string without its `signature` pairs (recognised by the name as sent); empty pairs stay. */
function withoutSignature(string $raw): string
{
    if ($raw === '') {
        return '';
    }
    $kept = array_filter(explode('&', $raw), function (string $part): bool {
        $eq = strpos($part, '=');
        return ($eq === false ? $part : substr($part, 0, $eq)) !== 'signature';
    });
    return implode('&', $kept);
}

function mediaType(): string
{
    $ct = $_SERVER['CONTENT_TYPE'] ?? '';
    return strtolower(trim(explode(';', $ct)[0]));
}

/**
 * The signed parameters of a request: [params, signature, totalParams]. Every name at most once
 * across query and body (the signature included).
 */
function readSigned(string $query, string $body, bool $bodyIsForm): array
{
    if (fault('request_merge')) {
        // "the signature is where it is": verify the part holding it, read the merged $_REQUEST
        $inQuery = isset($_GET['signature']);
        $signature = $_REQUEST['signature'] ?? null;
        $params = $_REQUEST;
        unset($params['signature']);
        $total = $inQuery ? withoutSignature($query) : withoutSignature($body);
        return [array_map(fn($v) => is_string($v) ? $v : '', $params), is_string($signature) ? $signature : null, $total];
    }
    if (fault('multipart_unsigned') && mediaType() === 'multipart/form-data') {
        // PHP has parsed the multipart body into $_POST; php://input is empty for it
        $params = [];
        $signature = null;
        $sigCount = 0;
        foreach (parsePairs($query) as [$rawName, $name, $value]) {
            if ($rawName === 'signature') {
                $signature = $value;
                $sigCount++;
                continue;
            }
            if (array_key_exists($name, $params)) {
                throw new ApiError(400, -1101, "Duplicate parameter $name");
            }
            $params[$name] = $value;
        }
        foreach ($_POST as $name => $value) {
            if ($name === 'signature') {
                $signature = is_string($value) ? $value : null;
                $sigCount++;
                continue;
            }
            if (array_key_exists($name, $params)) {
                throw new ApiError(400, -1101, "Duplicate parameter $name");
            }
            $params[$name] = is_string($value) ? $value : '';
        }
        if ($sigCount > 1) {
            throw new ApiError(400, -1101, 'Duplicate parameter signature');
        }
        return [$params, $signature, withoutSignature($query) . file_get_contents('php://input')];
    }

    $params = [];
    $signature = null;
    $sigCount = 0;
    $parts = [parsePairs($query)];
    if ($bodyIsForm) {
        $parts[] = parsePairs($body);
    }
    foreach ($parts as $pairs) {
        foreach ($pairs as [$rawName, $name, $value]) {
            if ($rawName === 'signature') {
                $signature = $value;
                $sigCount++;
                continue;
            }
            if (array_key_exists($name, $params)) {
                throw new ApiError(400, -1101, "Duplicate parameter $name");
            }
            $params[$name] = $value;
        }
    }
    if ($sigCount > 1) {
        throw new ApiError(400, -1101, 'Duplicate parameter signature');
    }
    return [$params, $signature, withoutSignature($query) . ($bodyIsForm ? withoutSignature($body) : $body)];
}

function checkApiKey(): void
{
    $key = $_SERVER['HTTP_X_SVC_APIKEY'] ?? null;
    if ($key === null || trim($key) === '') {
        throw new ApiError(401, -2014, 'API-key format invalid.');
    }
    if (!hash_equals((string) getenv('SPOTCHECK_KEY'), trim($key))) {
        throw new ApiError(401, -2015, 'Invalid API-key.');
    }
}

function checkSignature(?string $signature, string $total): void
{
    if ($signature === null) {
        throw new ApiError(400, -1102, "Mandatory parameter 'signature' was not sent.");
    }
    $expected = hash_hmac('sha256', $total, (string) getenv('SPOTCHECK_SECRET'));
    // §5.3: written as hexadecimal, not case sensitive
    if (!preg_match('/\A[0-9a-fA-F]{64}\z/', $signature) || !hash_equals($expected, strtolower($signature))) {
        throw new ApiError(401, -1022, 'Signature for this request is not valid.');
    }
}

/** A LONG parameter: plain decimal digits within 64 bits. */
function readLong(string $name, string $v): int
{
    if (fault('intval_long')) {
        if (!is_numeric($v)) {
            throw new ApiError(400, -1130, "Invalid $name.");
        }
        return (int) $v;
    }
    if (!preg_match('/\A(0|[1-9][0-9]{0,18})\z/', $v) || (strlen($v) === 19 && strcmp($v, LONG_MAX) > 0)) {
        throw new ApiError(400, -1130, "Invalid $name.");
    }
    return (int) $v;
}

function checkTime(array $params): void
{
    if (!isset($params['timestamp'])) {
        throw new ApiError(400, -1102, "Mandatory parameter 'timestamp' was not sent.");
    }
    $ts = readLong('timestamp', $params['timestamp']);
    $window = DEFAULT_RECV_WINDOW;
    if (isset($params['recvWindow'])) {
        $window = readLong('recvWindow', $params['recvWindow']);
        if ($window > MAX_RECV_WINDOW) {
            throw new ApiError(400, -1130, 'recvWindow must be at most 60000.');
        }
    }
    $server = nowMs();
    // §5.4: processed when timestamp < serverTime + 1000 and serverTime - timestamp <= recvWindow
    if (!($ts < $server + 1000 && $server - $ts <= $window)) {
        throw new ApiError(400, -1021, 'Timestamp for this request is outside of the recvWindow.');
    }
}

// ------------------------------------------------------------------ validation

/** A float as a plain decimal string (the shortest that reads back as the same double). */
function floatText(float $f): string
{
    $s = var_export($f, true);
    if (!preg_match('/\A(\d+)(?:\.(\d+))?E([+-]\d+)\z/', $s, $m)) {
        return $s;
    }
    $digits = $m[1] . ($m[2] ?? '');
    $point = strlen($m[1]) + (int) $m[3];
    if ($point >= strlen($digits)) {
        $text = $digits . str_repeat('0', $point - strlen($digits));
    } elseif ($point <= 0) {
        $text = '0.' . str_repeat('0', -$point) . $digits;
    } else {
        $text = substr($digits, 0, $point) . '.' . substr($digits, $point);
    }
    if (str_contains($text, '.')) {
        $text = rtrim(rtrim($text, '0'), '.');
    }
    $text = ltrim($text, '0');
    return $text === '' || $text[0] === '.' ? '0' . $text : $text;
}

/** A DECIMAL field: a JSON number or a string of digits with an optional fraction, above zero; its text. */
function readDecimal(string $name, mixed $v): string|float
{
    if (fault('inf_empty_body')) {
        if (!is_numeric($v) || $v <= 0) {
            throw new ApiError(400, -1130, "Invalid $name.");
        }
        return is_int($v) ? (string) $v : $v; // kept as decoded: a string as sent, a float as a float (INF too)
    }
    if (is_int($v)) {
        if ($v <= 0) {
            throw new ApiError(400, -1130, "Invalid $name.");
        }
        return (string) $v;
    }
    if (is_float($v)) {
        if (!is_finite($v) || $v <= 0) {
            throw new ApiError(400, -1130, "Invalid $name.");
        }
        return floatText($v);
    }
    if (!is_string($v) || !preg_match('/\A[0-9]+(\.[0-9]+)?\z/', $v) || !preg_match('/[1-9]/', $v)) {
        throw new ApiError(400, -1130, "Invalid $name.");
    }
    return $v;
}

function readEnum(string $name, mixed $v, array $allowed): string
{
    if (fault('loose_in_array')) {
        if (!in_array($v, $allowed)) {
            throw new ApiError(400, -1130, "Invalid $name.");
        }
        return is_string($v) ? $v : (string) $v;
    }
    if (!is_string($v) || !in_array($v, $allowed, true)) {
        throw new ApiError(400, -1130, "Invalid $name.");
    }
    return $v;
}

function readClientId(mixed $v): ?string
{
    if (fault('empty_client_id') && empty($v)) {
        return null; // "not sent": a generated id is used
    }
    if (!is_string($v) || $v === '') {
        throw new ApiError(400, -1130, 'Invalid newClientOrderId.');
    }
    if (fault('strlen_client_id')) {
        if (strlen($v) > MAX_CLIENT_ID) {
            throw new ApiError(400, -1130, 'newClientOrderId is longer than 255 characters.');
        }
        return $v;
    }
    $chars = @iconv_strlen($v, 'UTF-8');
    if ($chars === false || $chars > MAX_CLIENT_ID) {
        throw new ApiError(400, -1130, 'newClientOrderId is longer than 255 characters.');
    }
    return $v;
}

/** One order's fields (strings from a form, any JSON type from a batch) validated for an endpoint version. */
function validateOrder(array $o, string $version): array
{
    $has = fn(string $k): bool => array_key_exists($k, $o) && $o[$k] !== null;
    foreach (['symbol', 'side', 'type'] as $k) {
        if (!$has($k)) {
            throw new ApiError(400, -1102, "Mandatory parameter '$k' was not sent.");
        }
    }
    if (!is_string($o['symbol']) || $o['symbol'] === '') {
        throw new ApiError(400, -1130, 'Invalid symbol.');
    }
    $side = readEnum('side', $o['side'], ['BUY', 'SELL']);
    $type = readEnum('type', $o['type'], ['LIMIT', 'MARKET', 'LIMIT_MAKER']);
    $market = fault('loose_in_array') ? $o['type'] == 'MARKET' : $type === 'MARKET';

    $quantity = $has('quantity') ? readDecimal('quantity', $o['quantity']) : null;
    $price = $has('price') ? readDecimal('price', $o['price']) : null;
    $amount = null;
    if ($has('amount')) {
        if ($version === 'v1' || !$market) {
            throw new ApiError(400, -1130, 'amount is for v1.1 MARKET orders only.');
        }
        $amount = readDecimal('amount', $o['amount']);
    }
    if ($version === 'v1' || !$market) {
        if ($quantity === null) {
            throw new ApiError(400, -1102, "Mandatory parameter 'quantity' was not sent.");
        }
    } elseif ($quantity === null && $amount === null) {
        throw new ApiError(400, -1102, 'A MARKET order needs quantity or amount.');
    }
    if (!$market && $price === null) {
        throw new ApiError(400, -1102, "Mandatory parameter 'price' was not sent.");
    }
    $clientId = array_key_exists('newClientOrderId', $o) && ($o['newClientOrderId'] !== null || fault('empty_client_id'))
        ? readClientId($o['newClientOrderId'])
        : null;
    $tif = $has('timeInForce') ? readEnum('timeInForce', $o['timeInForce'], ['GTC', 'IOC', 'FOK']) : ($market ? 'IOC' : 'GTC');
    $stp = $has('stpMode') ? readEnum('stpMode', $o['stpMode'], ['EXPIRE_TAKER', 'EXPIRE_MAKER']) : 'EXPIRE_TAKER';
    return [
        'symbol' => $o['symbol'],
        'side' => $side,
        'type' => $type,
        'market' => $market,
        'quantity' => $quantity,
        'price' => $price,
        'amount' => $amount,
        'clientOrderId' => $clientId,
        'timeInForce' => $tif,
        'stpMode' => $stp,
    ];
}

// ------------------------------------------------------------------ store

function place(PDO $db, array $o): array
{
    if (fault('like_client_id') && $o['clientOrderId'] !== null) {
        $st = $db->prepare('SELECT COUNT(*) FROM orders WHERE client_order_id LIKE ?');
        $st->execute([$o['clientOrderId']]);
        if ((int) $st->fetchColumn() > 0) {
            throw new ApiError(400, -1141, 'Duplicate newClientOrderId.');
        }
    }
    $now = nowMs();
    $qty = $o['quantity'] ?? '0';
    $status = $o['market'] ? 'FILLED' : 'NEW';
    $executed = $o['market'] ? $qty : '0';
    try {
        $st = $db->prepare('INSERT INTO orders (client_order_id, symbol, side, type, price, orig_qty, req_amount,
            time_in_force, stp_mode, status, executed_qty, transact_time) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)');
        $st->execute([$o['clientOrderId'], $o['symbol'], $o['side'], $o['type'], $o['price'], $o['quantity'],
            $o['amount'], $o['timeInForce'], $o['stpMode'], $status, $executed, $now]);
    } catch (PDOException $e) {
        if (str_contains($e->getMessage(), 'UNIQUE')) {
            throw new ApiError(400, -1141, 'Duplicate newClientOrderId.');
        }
        throw $e;
    }
    $orderId = ORDER_ID_BASE + (int) $db->lastInsertId();
    $clientId = $o['clientOrderId'];
    if ($clientId === null) {
        $clientId = 'php-' . $orderId;
        $db->prepare('UPDATE orders SET client_order_id = ? WHERE id = ?')->execute([$clientId, $orderId - ORDER_ID_BASE]);
    }
    return [
        'accountId' => ACCOUNT_ID,
        'symbol' => $o['symbol'],
        'symbolName' => $o['symbol'],
        'clientOrderId' => $clientId,
        'orderId' => $orderId,
        'transactTime' => $now,
        'price' => $o['price'] ?? '0',
        'origQty' => $qty,
        'executedQty' => $executed,
        'status' => $status,
        'timeInForce' => $o['timeInForce'],
        'type' => $o['type'],
        'side' => $o['side'],
        'reqAmount' => $o['amount'] ?? '0',
    ];
}

// ------------------------------------------------------------------ endpoints

function batchOrders(PDO $db): never
{
    if (mediaType() !== 'application/json') {
        throw new ApiError(415, -1000, 'Content-Type must be application/json.');
    }
    checkApiKey();
    $query = $_SERVER['QUERY_STRING'] ?? '';
    $body = file_get_contents('php://input');
    [$params, $signature, $total] = readSigned($query, $body, false);
    checkSignature($signature, $total);
    checkTime($params);

    // objects decoded as stdClass: a JSON object is never mistaken for a list; integers past
    // PHP_INT_MAX kept as their digits
    $orders = json_decode($body, false, 17, JSON_BIGINT_AS_STRING); // at most 16 levels of arrays and objects
    if (json_last_error() !== JSON_ERROR_NONE || !is_array($orders)) {
        throw new ApiError(400, -1130, 'The body must be a JSON array of orders.');
    }
    if (count($orders) === 0) {
        throw new ApiError(400, -1130, 'The batch is empty.');
    }
    if (count($orders) > MAX_BATCH) {
        throw new ApiError(400, -1193, 'At most 20 orders per batch.');
    }
    $objects = array_map(fn($o) => $o instanceof stdClass ? get_object_vars($o) : null, $orders);
    if (!fault('no_transaction_batch')) {
        $symbols = [];
        foreach ($objects as $o) {
            if ($o !== null && isset($o['symbol']) && is_string($o['symbol'])) {
                $symbols[$o['symbol']] = true;
            }
        }
        if (count($symbols) > 1) {
            throw new ApiError(400, -1194, 'All orders of a batch must have the same symbol.');
        }
    }

    $result = [];
    $first = null;
    foreach ($objects as $o) {
        $stp = 'EXPIRE_TAKER';
        try {
            if ($o === null) {
                throw new ApiError(400, -1130, 'Each order must be a JSON object.');
            }
            if (fault('no_transaction_batch') && isset($o['symbol']) && is_string($o['symbol'])) {
                $first ??= $o['symbol'];
                if ($o['symbol'] !== $first) {
                    throw new ApiError(400, -1194, 'All orders of a batch must have the same symbol.');
                }
            }
            $v = validateOrder($o, 'v1');
            $stp = $v['stpMode'];
            $result[] = ['code' => 0, 'msg' => 'OK', 'order' => place($db, $v), 'stpMode' => $stp, 'concentration' => ''];
        } catch (ApiError $e) {
            if ($e->apiCode === -1194) {
                throw $e; // the whole call is refused (the orders before it stay placed)
            }
            $result[] = ['code' => $e->apiCode, 'msg' => $e->getMessage(), 'stpMode' => $stp, 'concentration' => ''];
        }
    }
    respond(200, ['code' => 0, 'result' => $result]);
}

function singleOrder(PDO $db, string $version): never
{
    $body = file_get_contents('php://input');
    $type = mediaType();
    // PHP parses a multipart body into $_POST and leaves php://input empty: its type decides, not $body
    $multipart = $type === 'multipart/form-data';
    if (($body !== '' || $multipart) && $type !== 'application/x-www-form-urlencoded' && !(fault('multipart_unsigned') && $multipart)) {
        throw new ApiError(415, -1000, 'Content-Type must be application/x-www-form-urlencoded.');
    }
    checkApiKey();
    [$params, $signature, $total] = readSigned($_SERVER['QUERY_STRING'] ?? '', $body, $body !== '');
    checkSignature($signature, $total);
    checkTime($params);
    $fields = [];
    foreach (['symbol', 'side', 'type', 'quantity', 'amount', 'price', 'newClientOrderId', 'timeInForce', 'stpMode'] as $k) {
        if (array_key_exists($k, $params)) {
            $fields[$k] = $params[$k];
        }
    }
    $order = place($db, validateOrder($fields, $version));
    respond(200, ['code' => 0] + $order + ['stpMode' => $fields['stpMode'] ?? 'EXPIRE_TAKER']);
}

// ------------------------------------------------------------------ front controller

if (PHP_SAPI === 'cli') {
    if (($argv[1] ?? '') === '--init' && isset($argv[2])) {
        initDb($argv[2]);
        exit(0);
    }
    fwrite(STDERR, "usage: php index.php --init <sqlite file>\n");
    exit(2);
}

try {
    $path = strtok($_SERVER['REQUEST_URI'] ?? '/', '?');
    $routes = [
        '/api/v1/spot/batchOrders' => 'batch',
        '/api/v1/spot/order' => 'v1',
        '/api/v1.1/spot/order' => 'v1.1',
    ];
    $route = $routes[$path] ?? null;
    if ($route === null) {
        throw new ApiError(404, -1000, 'Not found.');
    }
    if ($_SERVER['REQUEST_METHOD'] !== 'POST') {
        header('Allow: POST');
        throw new ApiError(405, -1000, 'Method not allowed.');
    }
    $db = openDb((string) getenv('SPOTCHECK_DB'));
    if ($route === 'batch') {
        batchOrders($db);
    }
    singleOrder($db, $route);
} catch (ApiError $e) {
    respond($e->status, ['code' => $e->apiCode, 'msg' => $e->getMessage()]);
} catch (Throwable $e) {
    error_log('venue: ' . $e);
    respond(500, ['code' => -1000, 'msg' => 'Internal error.']);
}
