import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Spot trading venue written the way a Java team writes it with the JDK alone: com.sun.net.httpserver,
 * a hand-rolled JSON reader and writer, orders in a ConcurrentHashMap. Deployed behind haproxy
 * (haproxy.cfg). Written from the API's seed document only.
 *
 * <pre>
 *   java -cp classes Venue --port P --key K --secret S [--fault NAME]
 * </pre>
 *
 * Without --fault it is the clean venue; with it, ONE fault of FAULTS below is on (the haproxy faults
 * live in haproxy.cfg, switched by the SPOTCHECK_FAULT environment variable). Prints "listening" once
 * the socket is bound.
 */
public final class Venue {
  static final int MAX_BATCH = 20;
  static final int MAX_CLIENT_ID = 255;
  static final long DEFAULT_RECV_WINDOW = 5000;
  static final long MAX_RECV_WINDOW = 60000;
  static final int MAX_BODY = 64 * 1024;
  static final int MAX_DEPTH = 16;
  static final String ACCOUNT_ID = "92000001";

  /** The faults of this file, each one bug; the seed sentence each breaks is quoted in harness/layers/faults.ts. */
  static final Set<String> FAULTS = Set.of(
      "decoded_query", // HTTP parser: URI.getQuery() (decoded) used for the signed string and the parameters
      "platform_charset_body", // body decoder: new String(bytes) in the platform charset (LANG=C: US-ASCII)
      "json_trailing", // JSON reader: returns after the first value, trailing text ignored
      "case_insensitive_params", // parameter parser: a TreeMap with CASE_INSENSITIVE_ORDER
      "bigdecimal_long", // type coercion: LONGs read as new BigDecimal(s).longValue()
      "uppercase_enum", // type coercion: enums upper-cased (Locale.ROOT) before the check
      "abs_window", // validator: Math.abs(now - timestamp) <= recvWindow
      "batch_off_by_one", // validator: size() >= MAX_BATCH refused
      "strip_zeros", // serializer: BigDecimal.stripTrailingZeros().toString() writes 1E+1
      "hashmap_results"); // serializer: results gathered in a HashMap keyed by client id

  static String fault = "";
  static String apiKey;
  static byte[] secret;
  static final AtomicLong NEXT_ORDER_ID = new AtomicLong(System.currentTimeMillis() * 1000);
  static final ConcurrentHashMap<String, Long> CLIENT_IDS = new ConcurrentHashMap<>();

  static boolean fault(String name) {
    return fault.equals(name);
  }

  static final class ApiError extends RuntimeException {
    final int status;
    final int code;

    ApiError(int status, int code, String msg) {
      super(msg, null, false, false);
      this.status = status;
      this.code = code;
    }
  }

  public static void main(String[] args) throws IOException {
    int port = 0;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--port" -> port = Integer.parseInt(args[i + 1]);
        case "--key" -> apiKey = args[i + 1];
        case "--secret" -> secret = args[i + 1].getBytes(StandardCharsets.UTF_8);
        case "--fault" -> fault = args[i + 1];
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (!fault.isEmpty() && !FAULTS.contains(fault)) throw new IllegalArgumentException("unknown fault " + fault);
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 256);
    server.createContext("/", Venue::handle);
    server.setExecutor(Executors.newFixedThreadPool(16));
    server.start();
    System.out.println("listening " + server.getAddress().getPort());
    System.out.flush();
  }

  // ---------------------------------------------------------------- front

  static void handle(HttpExchange ex) throws IOException {
    try {
      String path = ex.getRequestURI().getRawPath();
      String route = switch (path) {
        case "/api/v1/spot/batchOrders" -> "batch";
        case "/api/v1/spot/order" -> "v1";
        case "/api/v1.1/spot/order" -> "v1.1";
        default -> null;
      };
      if (route == null) throw new ApiError(404, -1000, "Not found.");
      if (!"POST".equals(ex.getRequestMethod())) {
        ex.getResponseHeaders().set("Allow", "POST");
        throw new ApiError(405, -1000, "Method not allowed.");
      }
      byte[] body = readBody(ex);
      Map<String, Object> answer = route.equals("batch") ? batchOrders(ex, body) : singleOrder(ex, body, route);
      send(ex, 200, answer);
    } catch (ApiError e) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("code", e.code);
      m.put("msg", e.getMessage());
      send(ex, e.status, m);
    } catch (RuntimeException | StackOverflowError e) {
      e.printStackTrace();
      send(ex, 500, Map.of("code", -1000, "msg", "Internal error."));
    }
  }

  static byte[] readBody(HttpExchange ex) throws IOException {
    InputStream in = ex.getRequestBody();
    byte[] body = in.readNBytes(MAX_BODY + 1);
    if (body.length > MAX_BODY) {
      long drained = 0;
      byte[] sink = new byte[16384];
      for (int n; drained < (8 << 20) && (n = in.read(sink)) > 0; ) drained += n;
      ex.getResponseHeaders().set("Connection", "close");
      throw new ApiError(413, -1000, "Request body too large.");
    }
    return body;
  }

  static void send(HttpExchange ex, int status, Map<String, Object> payload) throws IOException {
    byte[] bytes = Json.write(payload).getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  static String mediaType(HttpExchange ex) {
    String ct = ex.getRequestHeaders().getFirst("Content-Type");
    return ct == null ? "" : ct.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
  }

  /** The body as text: strict UTF-8 (a body that is not UTF-8 is refused). */
  static String bodyText(byte[] body) {
    if (fault("platform_charset_body")) return new String(body);
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(body))
          .toString();
    } catch (CharacterCodingException e) {
      throw new ApiError(400, -1130, "The body is not UTF-8.");
    }
  }

  // ---------------------------------------------------------------- signed parameters

  /** What a request signs: the parameters (signature aside), the signature, and totalParams. */
  record Signed(Map<String, String> params, String signature, String total) {}

  static String rawName(String pair) {
    int eq = pair.indexOf('=');
    return eq < 0 ? pair : pair.substring(0, eq);
  }

  /** The query or form body without its signature pairs (recognised by the name as sent); empty pairs stay. */
  static String withoutSignature(String raw) {
    if (raw.isEmpty()) return raw;
    List<String> kept = new ArrayList<>();
    for (String pair : raw.split("&", -1)) if (!rawName(pair).equals("signature")) kept.add(pair);
    return String.join("&", kept);
  }

  /** Percent-decoding as URLDecoder does ('+' is a blank), strict about the UTF-8 it yields. */
  static String decode(String s) {
    if (fault("decoded_query")) return s; // URI.getQuery() has decoded it already
    byte[] out = new byte[s.length() * 3];
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '+') {
        out[n++] = ' ';
      } else if (c == '%') {
        if (i + 2 >= s.length() || hex(s.charAt(i + 1)) < 0 || hex(s.charAt(i + 2)) < 0)
          throw new ApiError(400, -1130, "Malformed percent-escape.");
        out[n++] = (byte) (hex(s.charAt(i + 1)) * 16 + hex(s.charAt(i + 2)));
        i += 2;
      } else {
        byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
          b = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
          i++;
        }
        System.arraycopy(b, 0, out, n, b.length);
        n += b.length;
      }
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(out, 0, n))
          .toString();
    } catch (CharacterCodingException e) {
      throw new ApiError(400, -1130, "A parameter is not UTF-8.");
    }
  }

  /** An ASCII hexadecimal digit's value, or -1 (Character.digit would take any script's digits). */
  static int hex(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
  }

  static Signed readSigned(String query, String body, boolean bodyIsForm) {
    Map<String, String> params =
        fault("case_insensitive_params") ? new TreeMap<>(String.CASE_INSENSITIVE_ORDER) : new LinkedHashMap<>();
    String signature = null;
    int signatures = 0;
    List<String> parts = new ArrayList<>();
    parts.add(query);
    if (bodyIsForm) parts.add(body);
    for (String part : parts) {
      if (part.isEmpty()) continue;
      for (String pair : part.split("&")) {
        if (pair.isEmpty()) continue;
        int eq = pair.indexOf('=');
        String rawName = eq < 0 ? pair : pair.substring(0, eq);
        String value = decode(eq < 0 ? "" : pair.substring(eq + 1));
        if (rawName.equals("signature")) {
          signature = value;
          signatures++;
          continue;
        }
        String name = decode(rawName);
        if (params.containsKey(name)) throw new ApiError(400, -1101, "Duplicate parameter " + name + ".");
        params.put(name, value);
      }
    }
    if (signatures > 1) throw new ApiError(400, -1101, "Duplicate parameter signature.");
    String total = withoutSignature(query) + (bodyIsForm ? withoutSignature(body) : body);
    return new Signed(params, signature, total);
  }

  static void checkApiKey(HttpExchange ex) {
    List<String> values = ex.getRequestHeaders().get("X-SVC-APIKEY");
    if (values == null || values.size() != 1 || values.get(0).isBlank())
      throw new ApiError(401, -2014, "API-key format invalid.");
    if (!apiKey.equals(values.get(0).strip())) throw new ApiError(401, -2015, "Invalid API-key.");
  }

  static final Pattern HEX64 = Pattern.compile("[0-9a-fA-F]{64}");

  static void checkSignature(Signed s) {
    if (s.signature() == null) throw new ApiError(400, -1102, "Mandatory parameter 'signature' was not sent.");
    String expected;
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      expected = HexFormat.of().formatHex(mac.doFinal(s.total().getBytes(StandardCharsets.UTF_8)));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
    // §5.3: hexadecimal, not case sensitive
    if (!HEX64.matcher(s.signature()).matches() || !expected.equalsIgnoreCase(s.signature()))
      throw new ApiError(401, -1022, "Signature for this request is not valid.");
  }

  static final Pattern LONG_TEXT = Pattern.compile("0|[1-9][0-9]{0,18}");

  static long readLong(String name, String v) {
    try {
      if (fault("bigdecimal_long")) return new BigDecimal(v.trim()).longValue();
      if (!LONG_TEXT.matcher(v).matches()) throw new NumberFormatException(v);
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new ApiError(400, -1130, "Invalid " + name + ".");
    }
  }

  static void checkTime(Map<String, String> params) {
    String ts = params.get("timestamp");
    if (ts == null) throw new ApiError(400, -1102, "Mandatory parameter 'timestamp' was not sent.");
    long timestamp = readLong("timestamp", ts);
    long window = DEFAULT_RECV_WINDOW;
    String rw = params.get("recvWindow");
    if (rw != null) {
      window = readLong("recvWindow", rw);
      if (window > MAX_RECV_WINDOW) throw new ApiError(400, -1130, "recvWindow must be at most 60000.");
    }
    long now = System.currentTimeMillis();
    boolean inWindow = fault("abs_window")
        ? Math.abs(now - timestamp) <= window
        // §5.4: timestamp < serverTime + 1000 and serverTime - timestamp <= recvWindow
        : timestamp < now + 1000 && now - timestamp <= window;
    if (!inWindow) throw new ApiError(400, -1021, "Timestamp for this request is outside of the recvWindow.");
  }

  // ---------------------------------------------------------------- validation

  record Order(
      String symbol,
      String side,
      String type,
      String quantity,
      String price,
      String amount,
      String clientOrderId,
      String timeInForce,
      String stpMode) {
    boolean market() {
      return type.equals("MARKET");
    }
  }

  static final Pattern DECIMAL_TEXT = Pattern.compile("[0-9]+(\\.[0-9]+)?");

  static String decimalText(String name, Object v) {
    String text;
    if (v instanceof String s) {
      if (!DECIMAL_TEXT.matcher(s).matches() || new BigDecimal(s).signum() <= 0)
        throw new ApiError(400, -1130, "Invalid " + name + ".");
      text = s;
    } else if (v instanceof Json.Num n) {
      BigDecimal d = n.value();
      if (d.signum() <= 0 || d.precision() - d.scale() > 100 || d.scale() > 100)
        throw new ApiError(400, -1130, "Invalid " + name + ".");
      text = n.text().matches("[0-9]+(\\.[0-9]+)?") ? n.text() : d.toPlainString();
    } else {
      throw new ApiError(400, -1130, "Invalid " + name + ".");
    }
    return fault("strip_zeros") ? new BigDecimal(text).stripTrailingZeros().toString() : text;
  }

  static String enumValue(String name, Object v, String... allowed) {
    if (!(v instanceof String s)) throw new ApiError(400, -1130, "Invalid " + name + ".");
    if (fault("uppercase_enum")) s = s.toUpperCase(Locale.ROOT);
    for (String a : allowed) if (a.equals(s)) return a;
    throw new ApiError(400, -1130, "Invalid " + name + ".");
  }

  static Order validate(Map<String, Object> o, String version) {
    for (String k : new String[] {"symbol", "side", "type"})
      if (o.get(k) == null) throw new ApiError(400, -1102, "Mandatory parameter '" + k + "' was not sent.");
    if (!(o.get("symbol") instanceof String symbol) || symbol.isEmpty())
      throw new ApiError(400, -1130, "Invalid symbol.");
    String side = enumValue("side", o.get("side"), "BUY", "SELL");
    String type = enumValue("type", o.get("type"), "LIMIT", "MARKET", "LIMIT_MAKER");
    boolean market = type.equals("MARKET");
    String quantity = o.get("quantity") == null ? null : decimalText("quantity", o.get("quantity"));
    String price = o.get("price") == null ? null : decimalText("price", o.get("price"));
    String amount = null;
    if (o.get("amount") != null) {
      if (version.equals("v1") || !market)
        throw new ApiError(400, -1130, "amount is for v1.1 MARKET orders only.");
      amount = decimalText("amount", o.get("amount"));
    }
    if (version.equals("v1") || !market) {
      if (quantity == null) throw new ApiError(400, -1102, "Mandatory parameter 'quantity' was not sent.");
    } else if (quantity == null && amount == null) {
      throw new ApiError(400, -1102, "A MARKET order needs quantity or amount.");
    }
    if (!market && price == null) throw new ApiError(400, -1102, "Mandatory parameter 'price' was not sent.");
    String clientId = null;
    if (o.get("newClientOrderId") != null) {
      if (!(o.get("newClientOrderId") instanceof String id) || id.isEmpty())
        throw new ApiError(400, -1130, "Invalid newClientOrderId.");
      if (id.codePointCount(0, id.length()) > MAX_CLIENT_ID)
        throw new ApiError(400, -1130, "newClientOrderId is longer than 255 characters.");
      clientId = id;
    }
    String tif = o.get("timeInForce") == null
        ? (market ? "IOC" : "GTC")
        : enumValue("timeInForce", o.get("timeInForce"), "GTC", "IOC", "FOK");
    String stp = o.get("stpMode") == null
        ? "EXPIRE_TAKER"
        : enumValue("stpMode", o.get("stpMode"), "EXPIRE_TAKER", "EXPIRE_MAKER");
    return new Order(symbol, side, type, quantity, price, amount, clientId, tif, stp);
  }

  // ---------------------------------------------------------------- store

  static Map<String, Object> place(Order o) {
    long orderId = NEXT_ORDER_ID.incrementAndGet();
    String clientId = o.clientOrderId() == null ? "java-" + orderId : o.clientOrderId();
    if (CLIENT_IDS.putIfAbsent(clientId, orderId) != null)
      throw new ApiError(400, -1141, "Duplicate newClientOrderId.");
    String qty = o.quantity() == null ? "0" : o.quantity();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("accountId", ACCOUNT_ID);
    m.put("symbol", o.symbol());
    m.put("symbolName", o.symbol());
    m.put("clientOrderId", clientId);
    m.put("orderId", Long.toString(orderId));
    m.put("transactTime", Long.toString(System.currentTimeMillis()));
    m.put("price", o.price() == null ? "0" : o.price());
    m.put("origQty", qty);
    m.put("executedQty", o.market() ? qty : "0");
    m.put("status", o.market() ? "FILLED" : "NEW");
    m.put("timeInForce", o.timeInForce());
    m.put("type", o.type());
    m.put("side", o.side());
    m.put("reqAmount", o.amount() == null ? "0" : o.amount());
    return m;
  }

  // ---------------------------------------------------------------- endpoints

  static String query(HttpExchange ex) {
    String q = fault("decoded_query") ? ex.getRequestURI().getQuery() : ex.getRequestURI().getRawQuery();
    return q == null ? "" : q;
  }

  static Map<String, Object> batchOrders(HttpExchange ex, byte[] body) {
    if (!mediaType(ex).equals("application/json"))
      throw new ApiError(415, -1000, "Content-Type must be application/json.");
    checkApiKey(ex);
    String text = bodyText(body);
    Signed s = readSigned(query(ex), text, false);
    checkSignature(s);
    checkTime(s.params());

    Object parsed;
    try {
      parsed = Json.parse(text);
    } catch (Json.Bad e) {
      throw new ApiError(400, -1130, "The body must be a JSON array of orders: " + e.getMessage());
    }
    if (!(parsed instanceof List<?> orders)) throw new ApiError(400, -1130, "The body must be a JSON array of orders.");
    if (orders.isEmpty()) throw new ApiError(400, -1130, "The batch is empty.");
    if (fault("batch_off_by_one") ? orders.size() >= MAX_BATCH : orders.size() > MAX_BATCH)
      throw new ApiError(400, -1193, "At most 20 orders per batch.");
    Set<String> symbols = new LinkedHashSet<>();
    for (Object o : orders)
      if (o instanceof Map<?, ?> m && m.get("symbol") instanceof String sym) symbols.add(sym);
    if (symbols.size() > 1) throw new ApiError(400, -1194, "All orders of a batch must have the same symbol.");

    List<Map<String, Object>> result = new ArrayList<>();
    Map<String, Map<String, Object>> byClientId = new HashMap<>();
    for (int i = 0; i < orders.size(); i++) {
      Object item = orders.get(i);
      Map<String, Object> entry = new LinkedHashMap<>();
      String stp = "EXPIRE_TAKER";
      String key = "#" + i;
      try {
        if (!(item instanceof Map<?, ?>)) throw new ApiError(400, -1130, "Each order must be a JSON object.");
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = (Map<String, Object>) item;
        if (fields.get("newClientOrderId") instanceof String id) key = id;
        Order o = validate(fields, "v1");
        stp = o.stpMode();
        Map<String, Object> placed = place(o);
        key = (String) placed.get("clientOrderId");
        entry.put("code", 0);
        entry.put("msg", "OK");
        entry.put("order", placed);
      } catch (ApiError e) {
        entry.put("code", e.code);
        entry.put("msg", e.getMessage());
      }
      entry.put("stpMode", stp);
      entry.put("concentration", "");
      result.add(entry);
      byClientId.put(key, entry);
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("code", 0);
    answer.put("result", fault("hashmap_results") ? new ArrayList<>(byClientId.values()) : result);
    return answer;
  }

  static final List<String> ORDER_FIELDS =
      List.of("symbol", "side", "type", "quantity", "amount", "price", "newClientOrderId", "timeInForce", "stpMode");

  static Map<String, Object> singleOrder(HttpExchange ex, byte[] body, String version) {
    String type = mediaType(ex);
    if (body.length > 0 && !type.equals("application/x-www-form-urlencoded"))
      throw new ApiError(415, -1000, "Content-Type must be application/x-www-form-urlencoded.");
    checkApiKey(ex);
    Signed s = readSigned(query(ex), bodyText(body), body.length > 0);
    checkSignature(s);
    checkTime(s.params());
    Map<String, Object> fields = new HashMap<>();
    for (String k : ORDER_FIELDS) if (s.params().containsKey(k)) fields.put(k, s.params().get(k));
    Order o = validate(fields, version);
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("code", 0);
    answer.putAll(place(o));
    answer.put("stpMode", o.stpMode());
    return answer;
  }

  // ---------------------------------------------------------------- JSON

  /** RFC 8259 reader and writer, JDK only. */
  static final class Json {
    /** A JSON number: its text and its exact value. */
    record Num(String text, BigDecimal value) {}

    static final class Bad extends Exception {
      Bad(String msg) {
        super(msg, null, false, false);
      }
    }

    private final String s;
    private int i;

    private Json(String s) {
      this.s = s;
    }

    static Object parse(String text) throws Bad {
      Json p = new Json(text);
      p.ws();
      Object v = p.value(0);
      p.ws();
      if (!fault("json_trailing") && p.i != text.length()) throw new Bad("trailing text at " + p.i);
      return v;
    }

    private void ws() {
      while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t' || s.charAt(i) == '\n' || s.charAt(i) == '\r'))
        i++;
    }

    private Bad bad(String what) {
      return new Bad(what + " at " + i);
    }

    private Object value(int depth) throws Bad {
      if (i >= s.length()) throw bad("unexpected end");
      char c = s.charAt(i);
      switch (c) {
        case '{':
          return object(depth + 1);
        case '[':
          return array(depth + 1);
        case '"':
          return string();
        case 't':
          return literal("true", Boolean.TRUE);
        case 'f':
          return literal("false", Boolean.FALSE);
        case 'n':
          literal("null", null);
          return null;
        default:
          if (c == '-' || (c >= '0' && c <= '9')) return number();
          throw bad("unexpected character");
      }
    }

    private Object literal(String word, Object v) throws Bad {
      if (!s.startsWith(word, i)) throw bad("bad literal");
      i += word.length();
      return v;
    }

    private Map<String, Object> object(int depth) throws Bad {
      if (depth > MAX_DEPTH) throw bad("nested too deeply");
      Map<String, Object> m = new LinkedHashMap<>();
      i++;
      ws();
      if (i < s.length() && s.charAt(i) == '}') {
        i++;
        return m;
      }
      while (true) {
        ws();
        if (i >= s.length() || s.charAt(i) != '"') throw bad("expected a key");
        String k = string();
        ws();
        if (i >= s.length() || s.charAt(i) != ':') throw bad("expected ':'");
        i++;
        ws();
        m.put(k, value(depth)); // a key sent twice: the last value wins
        ws();
        if (i < s.length() && s.charAt(i) == ',') {
          i++;
          continue;
        }
        if (i < s.length() && s.charAt(i) == '}') {
          i++;
          return m;
        }
        throw bad("expected ',' or '}'");
      }
    }

    private List<Object> array(int depth) throws Bad {
      if (depth > MAX_DEPTH) throw bad("nested too deeply");
      List<Object> l = new ArrayList<>();
      i++;
      ws();
      if (i < s.length() && s.charAt(i) == ']') {
        i++;
        return l;
      }
      while (true) {
        ws();
        l.add(value(depth));
        ws();
        if (i < s.length() && s.charAt(i) == ',') {
          i++;
          continue;
        }
        if (i < s.length() && s.charAt(i) == ']') {
          i++;
          return l;
        }
        throw bad("expected ',' or ']'");
      }
    }

    private String string() throws Bad {
      StringBuilder b = new StringBuilder();
      i++;
      while (true) {
        if (i >= s.length()) throw bad("unterminated string");
        char c = s.charAt(i++);
        if (c == '"') return b.toString();
        if (c < 0x20) throw bad("control character in a string");
        if (c != '\\') {
          b.append(c);
          continue;
        }
        if (i >= s.length()) throw bad("unterminated escape");
        char e = s.charAt(i++);
        switch (e) {
          case '"', '\\', '/' -> b.append(e);
          case 'b' -> b.append('\b');
          case 'f' -> b.append('\f');
          case 'n' -> b.append('\n');
          case 'r' -> b.append('\r');
          case 't' -> b.append('\t');
          case 'u' -> {
            if (i + 4 > s.length()) throw bad("short \\u escape");
            int cp = 0;
            for (int k = 0; k < 4; k++) {
              int d = hex(s.charAt(i + k));
              if (d < 0) throw bad("bad \\u escape");
              cp = cp * 16 + d;
            }
            i += 4;
            b.append((char) cp);
          }
          default -> throw bad("bad escape");
        }
      }
    }

    private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

    private Object number() throws Bad {
      int start = i;
      while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
      String text = s.substring(start, i);
      if (!NUMBER.matcher(text).matches()) throw bad("bad number");
      try {
        return new Num(text, new BigDecimal(text));
      } catch (NumberFormatException | ArithmeticException e) {
        throw bad("number out of range");
      }
    }

    static String write(Object v) {
      StringBuilder b = new StringBuilder();
      write(b, v);
      return b.toString();
    }

    private static void write(StringBuilder b, Object v) {
      if (v == null) {
        b.append("null");
      } else if (v instanceof String str) {
        b.append('"');
        for (int k = 0; k < str.length(); k++) {
          char c = str.charAt(k);
          if (c == '"' || c == '\\') b.append('\\').append(c);
          else if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
          else b.append(c);
        }
        b.append('"');
      } else if (v instanceof Map<?, ?> m) {
        b.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : m.entrySet()) {
          if (!first) b.append(',');
          first = false;
          write(b, String.valueOf(e.getKey()));
          b.append(':');
          write(b, e.getValue());
        }
        b.append('}');
      } else if (v instanceof List<?> l) {
        b.append('[');
        for (int k = 0; k < l.size(); k++) {
          if (k > 0) b.append(',');
          write(b, l.get(k));
        }
        b.append(']');
      } else {
        b.append(v); // Integer, Long, Boolean
      }
    }
  }
}
