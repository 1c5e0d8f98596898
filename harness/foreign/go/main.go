// Command govenue is a spot-trading venue written from the seed alone, by a Go team, with the
// standard library only. It runs behind nginx (nginx.conf.template beside it).
//
//	govenue PORT        (0 = any free port; the port chosen is the first line of stdout)
//
// Credentials come from VENUE_API_KEY / VENUE_SECRET (defaults below). Every choice this venue
// makes where the seed is silent is listed in harness/foreign/README.md ("Go venue").
//
// In short: refusals answer HTTP 4xx with {"code": <the venue's own positive code>, "msg"};
// a batch places its valid orders and reports each bad one in its entry; parameters are read
// with net/url (an empty value is Go's zero value: omitted; the body's value of a name before
// the query's, the first of each); decimals are plain digits on the deployment's tick and lot
// grids, echoed with 8 decimals; a single order answers the bare order object.
package main

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

const (
	pathV1      = "/api/v1/spot/order"
	pathV11     = "/api/v1.1/spot/order"
	pathBatch   = "/api/v1/spot/batchOrders"
	pathOpenAPI = "/openapi/v1/order" // the other prefix of one signing example (§4.2): served as v1
	accountID   = 7700123
	maxBatch    = 20
	maxBody     = 64 << 10
	maxClientID = 255 // UTF-16 code units (the id column is shared with a Java back office)
	maxWindow   = 10000
	defWindow   = 5000
	scale       = 8 // decimals are held in units of 10^-8
	keepOrders  = 100000
)

// The venue's own codes: HTTP status * 100 + a number.
const (
	cBadRequest      = 40000
	cParamMissing    = 40001
	cParamInvalid    = 40002
	cTimestamp       = 40003
	cRecvWindow      = 40004
	cOutsideWindow   = 40005
	cSymbolUnknown   = 40006
	cOffGrid         = 40007
	cNoSuchOrder     = 40008
	cBatchEmpty      = 40010
	cBatchTooLarge   = 40011
	cBatchSymbols    = 40012
	cBatchBody       = 40013
	cKeyMissing      = 40101
	cKeyUnknown      = 40102
	cSignatureMiss   = 40103
	cSignatureBad    = 40104
	cNotFound        = 40400
	cMethod          = 40500
	cTooLarge        = 41300
	cUnsupportedType = 41500
)

var (
	apiKey = envOr("VENUE_API_KEY", "go-venue-key-8d21e7")
	secret = envOr("VENUE_SECRET", "go-venue-secret-3fa90c6b")

	symbols = map[string]bool{"BTCUSDT": true, "ETHUSDT": true, "ETHBTC": true, "SOLUSDT": true}
	plain   = regexp.MustCompile(`^([0-9]+)(?:\.([0-9]+))?$`)
	longMax = new(big.Int).SetUint64(1<<63 - 1)

	// The deployment's filters (declared in the target description): min, max, step, in 10^-8 units.
	grids = map[string][3]int64{
		"price":    {1_000_000, 100_000_000_000_000, 1_000_000},     // 0.01 .. 1,000,000 step 0.01
		"quantity": {10_000, 10_000_000_000_000, 10_000},            // 0.0001 .. 100,000 step 0.0001
		"amount":   {100_000_000, 1_000_000_000_000_000, 1_000_000}, // 1 .. 10,000,000 step 0.01
	}
)

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// refusal is an answer refusing a request or one order.
type refusal struct {
	status int
	code   int
	msg    string
}

func (r *refusal) Error() string { return r.msg }

func refuse(status, code int, format string, a ...any) *refusal {
	return &refusal{status, code, fmt.Sprintf(format, a...)}
}

// ---- orders ---------------------------------------------------------------------------

type order struct {
	AccountID     int64  `json:"accountId"`
	Symbol        string `json:"symbol"`
	SymbolName    string `json:"symbolName"`
	ClientOrderID string `json:"clientOrderId"`
	OrderID       int64  `json:"orderId"`
	TransactTime  int64  `json:"transactTime"`
	Price         string `json:"price"`
	OrigQty       string `json:"origQty"`
	ExecutedQty   string `json:"executedQty"`
	Status        string `json:"status"`
	TimeInForce   string `json:"timeInForce"`
	Type          string `json:"type"`
	Side          string `json:"side"`
	ReqAmount     string `json:"reqAmount"`
	stpMode       string
}

type book struct {
	mu     sync.Mutex
	lastID int64
	orders []*order
	// the newest order of each client id (ids may repeat)
	byClientID map[string]*order
}

var epoch = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()

func (b *book) place(o *order, clientID string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now().UnixMilli()
	id := (now - epoch) * 1000
	if id <= b.lastID {
		id = b.lastID + 1
	}
	b.lastID = id
	o.OrderID = id
	o.TransactTime = now
	o.ClientOrderID = clientID
	if clientID == "" {
		o.ClientOrderID = "auto-" + strconv.FormatInt(id, 10)
	}
	if len(b.orders) >= keepOrders {
		old := b.orders[0]
		if b.byClientID[old.ClientOrderID] == old {
			delete(b.byClientID, old.ClientOrderID)
		}
		b.orders = b.orders[1:]
	}
	b.orders = append(b.orders, o)
	b.byClientID[o.ClientOrderID] = o
}

func (b *book) find(clientID string) (order, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	o, ok := b.byClientID[clientID]
	if !ok {
		return order{}, false
	}
	return *o, true
}

var orders = &book{byClientID: map[string]*order{}}

// fields is one order's parameters: text values of a form, or the members of a JSON object.
type fields interface {
	// text returns the field's text ("" when absent, empty or null) or a refusal when it is of another JSON type.
	text(name string, numberAsText bool) (string, *refusal)
	// decimal returns a decimal's text: a string's content or a number's digits.
	decimal(name string) (string, *refusal)
}

type formFields map[string]string

func (f formFields) text(name string, _ bool) (string, *refusal) { return f[name], nil }
func (f formFields) decimal(name string) (string, *refusal)      { return f[name], nil }

type jsonFields map[string]json.RawMessage

func (f jsonFields) raw(name string) (json.RawMessage, bool) {
	v, ok := f[name]
	if !ok || string(v) == "null" {
		return nil, false
	}
	return v, true
}

func (f jsonFields) text(name string, numberAsText bool) (string, *refusal) {
	v, ok := f.raw(name)
	if !ok {
		return "", nil
	}
	if v[0] == '"' {
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return "", refuse(400, cParamInvalid, "%s is not a valid string", name)
		}
		// encoding/json turns a lone surrogate escape into U+FFFD: refuse it rather than store another text
		if strings.ContainsRune(s, utf8.RuneError) && !bytes.ContainsRune(v, utf8.RuneError) &&
			!bytes.Contains(bytes.ToLower(v), []byte(`\ufffd`)) {
			return "", refuse(400, cParamInvalid, "%s is not valid Unicode", name)
		}
		return s, nil
	}
	if numberAsText && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) {
		return string(v), nil
	}
	return "", refuse(400, cParamInvalid, "%s must be a string", name)
}

func (f jsonFields) decimal(name string) (string, *refusal) {
	v, ok := f.raw(name)
	if !ok {
		return "", nil
	}
	if v[0] == '"' {
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return "", refuse(400, cParamInvalid, "%s must be a decimal", name)
		}
		if s == "" {
			return "", refuse(400, cParamInvalid, "%s must be a decimal", name)
		}
		return s, nil
	}
	if v[0] == '-' || (v[0] >= '0' && v[0] <= '9') {
		return string(v), nil
	}
	return "", refuse(400, cParamInvalid, "%s must be a decimal", name)
}

// decimalValue checks a decimal's text against its grid and returns it with 8 decimals.
func decimalValue(name, s string) (string, *refusal) {
	m := plain.FindStringSubmatch(s)
	if m == nil {
		return "", refuse(400, cParamInvalid, "%s must be plain decimal digits", name)
	}
	if len(m[2]) > scale {
		return "", refuse(400, cOffGrid, "%s has more than %d decimal places", name, scale)
	}
	intPart, ok := new(big.Int).SetString(m[1], 10)
	if !ok || intPart.Cmp(longMax) > 0 {
		return "", refuse(400, cParamInvalid, "%s is out of range", name)
	}
	frac := m[2] + strings.Repeat("0", scale-len(m[2]))
	units, _ := new(big.Int).SetString(m[1]+frac, 10)
	g := grids[name]
	if units.Sign() <= 0 {
		return "", refuse(400, cParamInvalid, "%s must be above zero", name)
	}
	if !units.IsInt64() || units.Int64() < g[0] || units.Int64() > g[1] || (units.Int64()-g[0])%g[2] != 0 {
		return "", refuse(400, cOffGrid, "%s is off the %s filter (min %s, max %s, step %s)", name, name,
			units8(g[0]), units8(g[1]), units8(g[2]))
	}
	return units8(units.Int64()), nil
}

func units8(u int64) string {
	return fmt.Sprintf("%d.%08d", u/100_000_000, u%100_000_000)
}

// validate reads one order (version "v1" or "v1.1").
func validate(f fields, version string) (*order, string, *refusal) {
	get := func(name string) (string, *refusal) { return f.text(name, false) }
	symbol, r := get("symbol")
	if r != nil {
		return nil, "", r
	}
	if symbol == "" {
		return nil, "", refuse(400, cParamMissing, "symbol is required")
	}
	if !symbols[symbol] {
		return nil, "", refuse(400, cSymbolUnknown, "unknown symbol %q", symbol)
	}
	side, r := get("side")
	if r != nil {
		return nil, "", r
	}
	if side == "" {
		return nil, "", refuse(400, cParamMissing, "side is required")
	}
	if side != "BUY" && side != "SELL" {
		return nil, "", refuse(400, cParamInvalid, "side must be BUY or SELL")
	}
	typ, r := get("type")
	if r != nil {
		return nil, "", r
	}
	if typ == "" {
		return nil, "", refuse(400, cParamMissing, "type is required")
	}
	if typ != "LIMIT" && typ != "MARKET" && typ != "LIMIT_MAKER" {
		return nil, "", refuse(400, cParamInvalid, "type must be LIMIT, MARKET or LIMIT_MAKER")
	}
	market := typ == "MARKET"
	o := &order{AccountID: accountID, Symbol: symbol, SymbolName: symbol, Side: side, Type: typ}

	dec := func(name string, needed bool) (string, *refusal) {
		s, r := f.decimal(name)
		if r != nil {
			return "", r
		}
		if s == "" {
			if needed {
				return "", refuse(400, cParamMissing, "%s is required", name)
			}
			return "", nil
		}
		return decimalValue(name, s)
	}
	// quantity: always (v1.1 market orders need quantity and amount, §2.1's two sentences)
	if o.OrigQty, r = dec("quantity", true); r != nil {
		return nil, "", r
	}
	o.Price, o.ReqAmount = units8(0), units8(0)
	if !market {
		if o.Price, r = dec("price", true); r != nil {
			return nil, "", r
		}
	}
	if market && version == "v1.1" {
		if o.ReqAmount, r = dec("amount", true); r != nil {
			return nil, "", r
		}
	}
	tif, r := get("timeInForce")
	if r != nil && !market {
		return nil, "", r
	}
	switch {
	case market:
		o.TimeInForce = "IOC" // a market order is IOC whatever is sent
	case tif == "" || tif == "GTC":
		o.TimeInForce = "GTC"
	case tif == "IOC" && typ == "LIMIT":
		o.TimeInForce = "IOC"
	default:
		return nil, "", refuse(400, cParamInvalid, "timeInForce %q is not offered for %s", tif, typ)
	}
	stp, r := get("stpMode")
	if r != nil {
		return nil, "", r
	}
	switch stp {
	case "":
		o.stpMode = "EXPIRE_TAKER"
	case "EXPIRE_TAKER", "EXPIRE_MAKER":
		o.stpMode = stp
	default:
		return nil, "", refuse(400, cParamInvalid, "stpMode must be EXPIRE_TAKER or EXPIRE_MAKER")
	}
	clientID, r := f.text("newClientOrderId", true)
	if r != nil {
		return nil, "", r
	}
	if len(utf16.Encode([]rune(clientID))) > maxClientID {
		return nil, "", refuse(400, cParamInvalid, "newClientOrderId is longer than %d characters", maxClientID)
	}
	if market {
		o.Status, o.ExecutedQty = "FILLED", o.OrigQty
	} else {
		o.Status, o.ExecutedQty = "NEW", units8(0)
	}
	return o, clientID, nil
}

// ---- signing ----------------------------------------------------------------------------

// withoutSignature returns the string as sent minus its signature pairs, and their decoded values.
func withoutSignature(raw string) (string, []string) {
	if raw == "" {
		return "", nil
	}
	var kept, sigs []string
	for _, pair := range strings.Split(raw, "&") {
		name, value, _ := strings.Cut(pair, "=")
		if n, err := url.QueryUnescape(name); err == nil && n == "signature" {
			v, err := url.QueryUnescape(value)
			if err != nil {
				v = value
			}
			sigs = append(sigs, v)
			continue
		}
		kept = append(kept, pair)
	}
	return strings.Join(kept, "&"), sigs
}

func signatureValid(sig string, signed []byte) bool {
	got, err := hex.DecodeString(sig)
	if err != nil || len(got) != sha256.Size {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(signed)
	return hmac.Equal(got, mac.Sum(nil))
}

// ---- JSON -------------------------------------------------------------------------------

// noDuplicateKeys walks a JSON text and refuses an object naming a key twice.
func noDuplicateKeys(body []byte) error {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var walk func() error
	walk = func() error {
		t, err := d.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'):
			seen := map[string]bool{}
			for d.More() {
				k, err := d.Token()
				if err != nil {
					return err
				}
				key, _ := k.(string)
				if seen[key] {
					return fmt.Errorf("key %q appears twice", key)
				}
				seen[key] = true
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = d.Token()
			return err
		case json.Delim('['):
			for d.More() {
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = d.Token()
			return err
		}
		return nil
	}
	return walk()
}

// ---- HTTP -------------------------------------------------------------------------------

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = 400, []byte(`{"code":40000,"msg":"bad request"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func writeRefusal(w http.ResponseWriter, r *refusal) {
	writeJSON(w, r.status, map[string]any{"code": r.code, "msg": r.msg})
}

type singleAnswer struct {
	*order
	StpMode string `json:"stpMode"`
}

type entry struct {
	Code    int    `json:"code"`
	Msg     string `json:"msg"`
	StpMode string `json:"stpMode,omitempty"`
	Order   *order `json:"order,omitempty"`
}

func handler(w http.ResponseWriter, req *http.Request) {
	defer func() {
		if p := recover(); p != nil {
			log.Printf("panic: %v", p)
			writeRefusal(w, refuse(400, cBadRequest, "bad request"))
		}
	}()
	var version string
	switch req.URL.Path {
	case pathV1, pathOpenAPI:
		version = "v1"
	case pathV11:
		version = "v1.1"
	case pathBatch:
		version = "batch"
	default:
		writeRefusal(w, refuse(404, cNotFound, "no such endpoint"))
		return
	}
	if req.Method == http.MethodGet && version == "v1" && req.URL.Path == pathV1 {
		version = "lookup"
	} else if req.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		writeRefusal(w, refuse(405, cMethod, "only POST"))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, maxBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			writeRefusal(w, refuse(413, cTooLarge, "body larger than %d bytes", maxBody))
		} else {
			writeRefusal(w, refuse(400, cBadRequest, "body not received"))
		}
		return
	}
	if r := serve(w, req, version, body); r != nil {
		writeRefusal(w, r)
	}
}

func serve(w http.ResponseWriter, req *http.Request, version string, body []byte) *refusal {
	media, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type"))
	if version == "lookup" && len(body) > 0 {
		return refuse(400, cBadRequest, "a query has no body")
	}
	if version == "batch" && media != "application/json" {
		return refuse(415, cUnsupportedType, "the batch body must be application/json")
	}
	if (version == "v1" || version == "v1.1") && len(body) > 0 && media != "application/x-www-form-urlencoded" {
		return refuse(415, cUnsupportedType, "the order body must be application/x-www-form-urlencoded")
	}
	key := req.Header.Get("X-SVC-APIKEY")
	if key == "" {
		return refuse(401, cKeyMissing, "X-SVC-APIKEY header missing")
	}
	if !hmac.Equal([]byte(key), []byte(apiKey)) {
		return refuse(401, cKeyUnknown, "unknown API key")
	}

	rawQuery := req.URL.RawQuery
	query, err := url.ParseQuery(rawQuery)
	if err != nil {
		return refuse(400, cBadRequest, "malformed query string: %v", err)
	}
	form := url.Values{}
	signedQuery, sigs := withoutSignature(rawQuery)
	var signed []byte
	if version == "batch" {
		signed = append([]byte(signedQuery), body...)
	} else {
		if form, err = url.ParseQuery(string(body)); err != nil {
			return refuse(400, cBadRequest, "malformed form body: %v", err)
		}
		signedBody, bodySigs := withoutSignature(string(body))
		sigs = append(bodySigs, sigs...) // the body's values come first, as in http.Request.Form
		signed = []byte(signedQuery + signedBody)
	}
	// parameters as http.Request.Form holds them: the body's values of a name, then the query's; Get takes the first
	params := formFields{}
	for _, src := range []url.Values{form, query} {
		for k, vs := range src {
			if _, seen := params[k]; !seen && len(vs) > 0 {
				params[k] = vs[0]
			}
		}
	}
	for k, v := range params {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return refuse(400, cParamInvalid, "parameters must be UTF-8")
		}
	}
	if len(sigs) == 0 || sigs[0] == "" {
		return refuse(401, cSignatureMiss, "signature is required")
	}
	if !signatureValid(sigs[0], signed) {
		return refuse(401, cSignatureBad, "signature does not match")
	}

	if params["timestamp"] == "" {
		return refuse(400, cParamMissing, "timestamp is required")
	}
	ts, err := strconv.ParseInt(params["timestamp"], 10, 64)
	if err != nil {
		return refuse(400, cTimestamp, "timestamp must be a 64-bit integer")
	}
	window := int64(defWindow)
	if params["recvWindow"] != "" {
		window, err = strconv.ParseInt(params["recvWindow"], 10, 64)
		if err != nil || window < 1 || window > maxWindow {
			return refuse(400, cRecvWindow, "recvWindow must be an integer from 1 to %d", maxWindow)
		}
	}
	now := time.Now().UnixMilli()
	if ts >= now+1000 || ts < now-window {
		return refuse(400, cOutsideWindow, "timestamp %d outside the window (server time %d)", ts, now)
	}

	switch version {
	case "lookup":
		id := params["origClientOrderId"]
		if id == "" {
			return refuse(400, cParamMissing, "origClientOrderId is required")
		}
		o, ok := orders.find(id)
		if !ok {
			return refuse(400, cNoSuchOrder, "order does not exist")
		}
		writeJSON(w, 200, singleAnswer{&o, o.stpMode})
		return nil
	case "v1", "v1.1":
		o, clientID, r := validate(params, version)
		if r != nil {
			return r
		}
		orders.place(o, clientID)
		writeJSON(w, 200, singleAnswer{o, o.stpMode})
		return nil
	}
	return serveBatch(w, body)
}

func serveBatch(w http.ResponseWriter, body []byte) *refusal {
	if !utf8.Valid(body) {
		return refuse(400, cBatchBody, "the body is not UTF-8")
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '[' {
		return refuse(400, cBatchBody, "the body must be a JSON array")
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(body, &elems); err != nil {
		return refuse(400, cBatchBody, "the body is not a JSON array: %v", err)
	}
	if err := noDuplicateKeys(body); err != nil {
		return refuse(400, cBatchBody, "the body is not accepted: %v", err)
	}
	if len(elems) == 0 {
		return refuse(400, cBatchEmpty, "the batch holds no order")
	}
	if len(elems) > maxBatch {
		return refuse(400, cBatchTooLarge, "at most %d orders in one batch", maxBatch)
	}
	objects := make([]jsonFields, len(elems))
	seen := map[string]bool{}
	for i, e := range elems {
		var obj map[string]json.RawMessage
		if json.Unmarshal(e, &obj) == nil && obj != nil {
			objects[i] = obj
			if s, r := objects[i].text("symbol", false); r == nil && s != "" {
				seen[s] = true
			}
		}
	}
	if len(seen) > 1 {
		return refuse(400, cBatchSymbols, "all orders of a batch must have the same symbol")
	}
	result := make([]entry, len(elems))
	for i, obj := range objects {
		if obj == nil {
			result[i] = entry{Code: cParamInvalid, Msg: "the order is not a JSON object"}
			continue
		}
		o, clientID, r := validate(obj, "v1")
		if r != nil {
			result[i] = entry{Code: r.code, Msg: r.msg}
			continue
		}
		orders.place(o, clientID)
		result[i] = entry{Code: 0, Msg: "", StpMode: o.stpMode, Order: o}
	}
	writeJSON(w, 200, map[string]any{"code": 0, "msg": "", "result": result})
	return nil
}

func main() {
	port := "0"
	if len(os.Args) > 1 {
		port = os.Args[1]
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", port))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr().(*net.TCPAddr).Port)
	srv := &http.Server{
		Handler:           http.HandlerFunc(handler),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       20 * time.Second,
		WriteTimeout:      20 * time.Second,
		IdleTimeout:       90 * time.Second,
		MaxHeaderBytes:    32 << 10,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	if err := srv.Serve(ln); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
