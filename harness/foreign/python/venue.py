#!/usr/bin/env python3
"""A spot-trading venue written from the seed alone, by a Python team, standard library only.

    python3 venue.py PORT        (0 = any free port; the port chosen is the first line of stdout)

Credentials come from VENUE_API_KEY / VENUE_SECRET (defaults below). Every choice this venue
makes where the seed is silent is listed in harness/foreign/README.md ("Python venue").

In short: every refusal answers HTTP 200 with a non-zero top-level `code` of the venue's own
(HTTP errors only for what never reaches the API: unknown path, wrong method, body too large,
broken HTTP); a batch is all-or-nothing; parameters are read as `urllib.parse.parse_qsl` reads
them (blank values dropped, the first value of a name wins); decimals are `decimal.Decimal`
(exponent notation accepted) and echoed normalised as JSON numbers.
"""

import hashlib
import hmac
import json
import os
import re
import socket
import sys
import threading
import time
import uuid
from decimal import Context, Decimal, InvalidOperation
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, unquote_plus

API_KEY = os.environ.get("VENUE_API_KEY", "py-venue-key-5c0f9a")
SECRET = os.environ.get("VENUE_SECRET", "py-venue-secret-b71e42d8")

ACCOUNT_ID = 1001
# Listed pairs: a symbol is matched whatever its letter case and echoed in upper case.
SYMBOLS = {"BTCUSDT": "BTC/USDT", "ETHUSDT": "ETH/USDT", "ETHBTC": "ETH/BTC", "SOLUSDT": "SOL/USDT"}
SIDES = ("BUY", "SELL")
TYPES = ("LIMIT", "MARKET", "LIMIT_MAKER")
STP_MODES = ("EXPIRE_TAKER", "EXPIRE_MAKER")
MAX_BATCH = 20
MAX_BODY = 48 * 1024  # the largest valid batch (20 orders, 255-character ids written as \u escapes) is about 36 KB
MAX_CLIENT_ID = 255
MAX_DIGITS = 40  # digits on each side of the decimal point
LONG_MAX = 2**63 - 1
MAX_FIELDS = 200
SOCKET_TIMEOUT = 8.0

PATH_V1 = b"/api/v1/spot/order"
PATH_V11 = b"/api/v1.1/spot/order"
PATH_BATCH = b"/api/v1/spot/batchOrders"
PATH_TIME = b"/api/v1/time"

# The venue's own error codes.
E_KEY_MISSING = 10001
E_KEY_UNKNOWN = 10002
E_SIGNATURE_MISSING = 10003
E_SIGNATURE_INVALID = 10004
E_TIMESTAMP = 10005
E_RECV_WINDOW = 10006
E_OUTSIDE_WINDOW = 10007
E_PARAM_MISSING = 20001
E_PARAM_INVALID = 20002
E_CLIENT_ID_TAKEN = 20003
E_SYMBOL_UNKNOWN = 20004
E_BODY = 30001
E_BATCH_SIZE = 30002
E_BATCH_SYMBOLS = 30003


class Refusal(Exception):
    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
        self.msg = msg


class RawNumber:
    """A JSON number kept as its text (never a float)."""

    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text


def _no_constant(name):
    raise ValueError("not JSON: " + name)


def _first_key_wins(pairs):
    out = {}
    for k, v in pairs:
        if k not in out:
            out[k] = v
    return out


def parse_json(body):
    """The body as JSON: a UTF-8 byte order mark is skipped; of a key sent twice the first value wins."""
    text = body.decode("utf-8-sig")
    return json.loads(
        text,
        parse_int=RawNumber,
        parse_float=RawNumber,
        parse_constant=_no_constant,
        object_pairs_hook=_first_key_wins,
    )


def dump(value):
    """JSON text; RawNumber written as its digits."""
    if isinstance(value, RawNumber):
        return value.text
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k) + ":" + dump(v) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(dump(v) for v in value) + "]"
    return json.dumps(value)


# --- values -------------------------------------------------------------------------------

# wide enough for every value accepted (40 + 40 digits): normalize() rounds to its context's precision
EXACT = Context(prec=200, Emax=10**7, Emin=-(10**7))
DECIMAL_TEXT = re.compile(r"[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]{1,6})?")
LONG_TEXT = re.compile(r"[0-9]{1,19}")


def parse_long(name, value):
    if not isinstance(value, str) or LONG_TEXT.fullmatch(value) is None or int(value) > LONG_MAX:
        raise Refusal(E_TIMESTAMP if name == "timestamp" else E_RECV_WINDOW, name + " must be a LONG of digits")
    return int(value)


def parse_decimal(name, value):
    """A positive DECIMAL sent as a string or a JSON number, exponent notation allowed; normalised."""
    text = value.text if isinstance(value, RawNumber) else value
    if not isinstance(text, str) or DECIMAL_TEXT.fullmatch(text) is None:
        raise Refusal(E_PARAM_INVALID, name + " must be a positive decimal")
    try:
        d = Decimal(text)
    except InvalidOperation:
        raise Refusal(E_PARAM_INVALID, name + " must be a positive decimal")
    if not d.is_finite() or d <= 0:
        raise Refusal(E_PARAM_INVALID, name + " must be above zero")
    d = d.normalize(EXACT)
    sign, digits, exp = d.as_tuple()
    int_digits = len(digits) + exp
    frac_digits = -exp if exp < 0 else 0
    if int_digits > MAX_DIGITS or frac_digits > MAX_DIGITS:
        raise Refusal(E_PARAM_INVALID, name + " has more than %d digits" % MAX_DIGITS)
    return "{:f}".format(d)


def text_field(fields, name):
    """A text field; blank, null and absent are all absent. Only JSON strings are text."""
    v = fields.get(name)
    if v is None or v == "":
        return None
    if not isinstance(v, str):
        raise Refusal(E_PARAM_INVALID, name + " must be a string")
    return v


def required(fields, name):
    v = text_field(fields, name)
    if v is None:
        raise Refusal(E_PARAM_MISSING, name + " is required")
    return v


def decimal_field(fields, name):
    v = fields.get(name)
    if v is None or v == "":
        return None
    return parse_decimal(name, v)


# --- orders -------------------------------------------------------------------------------


class Book:
    def __init__(self):
        self.lock = threading.Lock()
        self.next_id = 1
        self.client_ids = set()
        self.orders = []

    def place(self, orders):
        """Place all of these or none: a client id in use refuses them all."""
        with self.lock:
            seen = set()
            for i, o in enumerate(orders):
                cid = o.get("newClientOrderId")
                if cid is None:
                    continue
                if cid in self.client_ids or cid in seen:
                    where = "" if len(orders) == 1 else "order %d: " % i
                    raise Refusal(E_CLIENT_ID_TAKEN, where + "newClientOrderId already used")
                seen.add(cid)
            now = int(time.time() * 1000)
            placed = []
            for o in orders:
                order_id = self.next_id
                self.next_id += 1
                cid = o.get("newClientOrderId") or uuid.uuid4().hex
                self.client_ids.add(cid)
                echo = {
                    "orderId": order_id,
                    "clientOrderId": cid,
                    "symbol": o["symbol"],
                    "symbolName": SYMBOLS[o["symbol"]],
                    "side": o["side"],
                    "type": o["type"],
                    "timeInForce": o["timeInForce"],
                    "status": "NEW",
                    "executedQty": RawNumber("0"),
                    "transactTime": now,
                    "accountId": ACCOUNT_ID,
                }
                if o.get("price") is not None:
                    echo["price"] = RawNumber(o["price"])
                if o.get("quantity") is not None:
                    echo["origQty"] = RawNumber(o["quantity"])
                if o.get("amount") is not None:
                    echo["reqAmount"] = o["amount"]
                self.orders.append(echo)
                placed.append(echo)
            return placed


BOOK = Book()


def validate_order(fields, version):
    """One order of §2.1 (version 'v1' or 'v1.1'): the fields the venue keeps, or a Refusal."""
    symbol = required(fields, "symbol")
    symbol = symbol.upper() if symbol.isascii() else symbol
    if symbol not in SYMBOLS:
        raise Refusal(E_SYMBOL_UNKNOWN, "unknown symbol " + symbol)
    side = required(fields, "side")
    if side not in SIDES:
        raise Refusal(E_PARAM_INVALID, "side must be BUY or SELL")
    type_ = required(fields, "type")
    if type_ not in TYPES:
        raise Refusal(E_PARAM_INVALID, "type must be LIMIT, MARKET or LIMIT_MAKER")
    market = type_ == "MARKET"
    quantity = decimal_field(fields, "quantity")
    # price exists for limit orders only, amount for v1.1 market orders only: elsewhere ignored
    price = None if market else decimal_field(fields, "price")
    amount = decimal_field(fields, "amount") if (market and version == "v1.1") else None
    if version == "v1" or not market:
        if quantity is None:
            raise Refusal(E_PARAM_MISSING, "quantity is required")
    elif quantity is None and amount is None:
        raise Refusal(E_PARAM_MISSING, "quantity or amount is required for a MARKET order")
    if not market and price is None:
        raise Refusal(E_PARAM_MISSING, "price is required for " + type_)
    tif = text_field(fields, "timeInForce")
    expected = "IOC" if market else "GTC"
    if tif is not None and tif != expected:
        raise Refusal(E_PARAM_INVALID, "timeInForce of a %s order is %s" % (type_, expected))
    stp = text_field(fields, "stpMode")
    if stp is not None and stp not in STP_MODES:
        raise Refusal(E_PARAM_INVALID, "stpMode must be EXPIRE_TAKER or EXPIRE_MAKER")
    cid = text_field(fields, "newClientOrderId")
    if cid is not None and len(cid) > MAX_CLIENT_ID:
        raise Refusal(E_PARAM_INVALID, "newClientOrderId is longer than 255 characters")
    return {
        "symbol": symbol,
        "side": side,
        "type": type_,
        "quantity": quantity,
        "price": price,
        "amount": amount,
        "timeInForce": expected,
        "stpMode": stp or "EXPIRE_TAKER",
        "newClientOrderId": cid,
    }


# --- signing ------------------------------------------------------------------------------


def decoded(text):
    try:
        return unquote_plus(text, errors="strict")
    except UnicodeDecodeError:
        return None


def without_signature(raw):
    """The string as sent minus its signature pair(s) (a pair named `signature` once decoded), and their values."""
    kept, signatures = [], []
    for pair in raw.split("&"):
        name, eq, value = pair.partition("=")
        if decoded(name) == "signature":
            signatures.append(decoded(value) if eq else "")
        else:
            kept.append(pair)
    return "&".join(kept), signatures


def read_params(raw):
    try:
        return parse_qsl(raw, errors="strict", max_num_fields=MAX_FIELDS)
    except (UnicodeDecodeError, ValueError):
        raise Refusal(E_PARAM_INVALID, "malformed parameters")


# --- HTTP ---------------------------------------------------------------------------------


_UNREAD = object()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body leave in two writes
    server_version = "pyvenue/1.0"

    def version_string(self):
        return self.server_version
    timeout = SOCKET_TIMEOUT

    def log_message(self, format, *args):  # noqa: A002 - quiet
        pass

    def __getattr__(self, name):
        # every method other than POST (and GET on the time path) reaches here, never a 501
        if name.startswith("do_"):
            return self.not_allowed
        raise AttributeError(name)

    # -- answers

    def answer(self, status, payload, close=False):
        body = dump(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json;charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_error(self, code, message=None, explain=None):
        # http.server's own errors (bad request line, headers too large, HTTP/2 over cleartext): never a 5xx
        if code >= 500:
            code = 400
        if self.request_version == "HTTP/0.9":  # a request line http.server could not read: answer in HTTP/1.0
            self.request_version = "HTTP/1.0"
        self.close_connection = True
        try:
            self.answer(code, {"code": code * 100, "msg": message or "bad request"}, close=True)
        except OSError:
            pass

    def refuse(self, r):
        self.answer(200, {"code": r.code, "msg": r.msg})

    def not_allowed(self):
        if not self.drain():
            return
        if self.target_path() not in (PATH_V1, PATH_V11, PATH_BATCH, PATH_TIME):
            self.answer(404, {"code": 40400, "msg": "not found"})
            return
        self.send_response(405)
        body = dump({"code": 40500, "msg": "method not allowed"}).encode()
        self.send_header("Allow", "GET" if self.target_path() == PATH_TIME else "POST")
        self.send_header("Content-Type", "application/json;charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    # -- request

    def target(self):
        """Path and query of the request target, as bytes sent."""
        line = self.raw_requestline.rstrip(b"\r\n").split(b" ")
        target = line[1] if len(line) >= 2 else b"/"
        m = re.match(rb"^[A-Za-z][A-Za-z0-9+.-]*://[^/?]*", target)
        if m:
            target = target[m.end():] or b"/"
        path, _, query = target.partition(b"?")
        return path, query

    def target_path(self):
        return self.target()[0]

    def parse_request(self):
        self._body = _UNREAD
        return super().parse_request()

    def read_body(self):
        """The body as sent, or None when an answer was already sent (read once per request)."""
        if self._body is _UNREAD:
            self._body = self._read_body()
        return self._body

    def _read_body(self):
        te = self.headers.get_all("Transfer-Encoding") or []
        cl = self.headers.get_all("Content-Length") or []
        if te:
            if cl or [t.strip().lower() for t in ",".join(te).split(",")] != ["chunked"]:
                self.answer(400, {"code": 40000, "msg": "unsupported framing"}, close=True)
                return None
            return self.read_chunked()
        if not cl:
            return b""
        values = {v.strip() for v in cl}
        if len(values) != 1 or not next(iter(values)).isdigit() or not next(iter(values)).isascii():
            self.answer(400, {"code": 40000, "msg": "bad Content-Length"}, close=True)
            return None
        length = int(next(iter(values)))
        if length > MAX_BODY:
            self.answer(413, {"code": 41300, "msg": "body too large"}, close=True)
            return None
        try:
            body = self.rfile.read(length)
        except (socket.timeout, TimeoutError, OSError):
            self.answer_quietly(408, "request body not received in time")
            return None
        if len(body) < length:
            self.close_connection = True
            return None
        return body

    def read_chunked(self):
        body = b""
        try:
            while True:
                line = self.rfile.readline(1024)
                size_text = line.split(b";", 1)[0].strip()
                if not size_text or re.fullmatch(rb"[0-9A-Fa-f]{1,8}", size_text) is None:
                    self.answer(400, {"code": 40000, "msg": "bad chunk"}, close=True)
                    return None
                size = int(size_text, 16)
                if size == 0:
                    while True:  # trailers
                        t = self.rfile.readline(8192)
                        if t in (b"\r\n", b"\n", b""):
                            return body
                if len(body) + size > MAX_BODY:
                    self.answer(413, {"code": 41300, "msg": "body too large"}, close=True)
                    return None
                chunk = self.rfile.read(size)
                if len(chunk) < size:
                    self.close_connection = True
                    return None
                body += chunk
                self.rfile.readline(8)
        except (socket.timeout, TimeoutError, OSError):
            self.answer_quietly(408, "request body not received in time")
            return None

    def answer_quietly(self, status, msg):
        try:
            self.answer(status, {"code": status * 100, "msg": msg}, close=True)
        except OSError:
            self.close_connection = True

    def drain(self):
        """Read and drop the body; False when the connection is done (an answer may have been sent)."""
        if self.read_body() is None:
            self.close_connection = True
            return False
        return True

    def do_GET(self):
        path, _ = self.target()
        if not self.drain():
            return
        if path == PATH_TIME:
            self.answer(200, {"serverTime": int(time.time() * 1000)})
        elif path in (PATH_V1, PATH_V11, PATH_BATCH):
            self.not_allowed()
        else:
            self.answer(404, {"code": 40400, "msg": "not found"})

    def do_HEAD(self):
        self.do_GET()

    def do_POST(self):
        path, query = self.target()
        if path == PATH_TIME:
            self.not_allowed()
            return
        if path not in (PATH_V1, PATH_V11, PATH_BATCH):
            if self.drain():
                self.answer(404, {"code": 40400, "msg": "not found"})
            return
        body = self.read_body()
        if body is None:
            return
        try:
            self.handle_order(path, query, body)
        except Refusal as r:
            self.refuse(r)
        except (RecursionError, MemoryError):
            self.refuse(Refusal(E_BODY, "body too deeply nested"))
        except Exception:  # a bug of this venue: a 400 naming it, never a dropped connection
            import traceback

            traceback.print_exc()
            self.answer(400, {"code": 40000, "msg": "request not understood"}, close=True)

    # -- the API

    def handle_order(self, path, query_bytes, body):
        key = (self.headers.get("X-SVC-APIKEY") or "").strip()
        if not key:
            raise Refusal(E_KEY_MISSING, "X-SVC-APIKEY header missing")
        if not hmac.compare_digest(key.encode("utf-8", "surrogateescape"), API_KEY.encode()):
            raise Refusal(E_KEY_UNKNOWN, "unknown API key")
        try:
            query = query_bytes.decode("utf-8")
        except UnicodeDecodeError:
            raise Refusal(E_PARAM_INVALID, "query string is not UTF-8")
        batch = path == PATH_BATCH
        if batch:
            form = ""
        else:
            try:
                form = body.decode("utf-8")
            except UnicodeDecodeError:
                raise Refusal(E_PARAM_INVALID, "body is not UTF-8 form data")

        # §5.3: the query as sent minus its signature pair, then the body as sent minus its signature pair
        signed_query, sigs = without_signature(query)
        if batch:
            signed = signed_query.encode("utf-8") + body
        else:
            signed_form, body_sigs = without_signature(form)
            sigs += body_sigs
            signed = (signed_query + signed_form).encode("utf-8")
        sigs = [s for s in sigs if s]
        if not sigs:
            raise Refusal(E_SIGNATURE_MISSING, "signature is required")
        expected = hmac.new(SECRET.encode("utf-8"), signed, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(sigs[0].lower().encode("utf-8"), expected.encode()):
            raise Refusal(E_SIGNATURE_INVALID, "signature does not match")

        # parameters: query first, then the body; blank values dropped; the first value of a name wins
        params = {}
        for k, v in read_params(query) + ([] if batch else read_params(form)):
            params.setdefault(k, v)

        # §5.4
        if "timestamp" not in params:
            raise Refusal(E_TIMESTAMP, "timestamp is required")
        ts = parse_long("timestamp", params["timestamp"])
        window = 5000
        if "recvWindow" in params:
            window = parse_long("recvWindow", params["recvWindow"])
            if window < 1:
                raise Refusal(E_RECV_WINDOW, "recvWindow must be at least 1")
        now = int(time.time() * 1000)
        if not (ts < now + 1000 and now - ts <= window):
            raise Refusal(E_OUTSIDE_WINDOW, "timestamp outside the recvWindow (server time %d)" % now)

        if batch:
            self.handle_batch(body)
        else:
            order = validate_order(params, "v1" if path == PATH_V1 else "v1.1")
            placed = BOOK.place([order])[0]
            placed_view = dict(placed)
            placed_view["stpMode"] = order["stpMode"]
            self.answer(200, {"code": 0, "msg": "success", "data": placed_view})

    def handle_batch(self, body):
        try:
            orders = parse_json(body)
        except (ValueError, UnicodeDecodeError):
            raise Refusal(E_BODY, "body is not a JSON array")
        if not isinstance(orders, list):
            raise Refusal(E_BODY, "body is not a JSON array")
        if len(orders) > MAX_BATCH:
            raise Refusal(E_BATCH_SIZE, "at most 20 orders in one batch")
        valid = []
        for i, o in enumerate(orders):
            if not isinstance(o, dict):
                raise Refusal(E_BODY, "order %d is not a JSON object" % i)
            try:
                valid.append(validate_order(o, "v1"))
            except Refusal as r:
                raise Refusal(r.code, "order %d: %s" % (i, r.msg))
        if len({o["symbol"] for o in valid}) > 1:
            raise Refusal(E_BATCH_SYMBOLS, "all orders of a batch must have the same symbol")
        placed = BOOK.place(valid)
        self.answer(
            200,
            {
                "result": [{"code": 0, "msg": "success", "order": p} for p in placed],
                "stpMode": valid[0]["stpMode"] if valid else "EXPIRE_TAKER",
                "concentration": "",
                "code": 0,
                "msg": "success",
            },
        )


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def handle_error(self, request, client_address):
        pass  # a client that went away mid-answer


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = Server(("127.0.0.1", port), Handler)
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
