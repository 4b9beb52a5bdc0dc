package com.telemed.e2e.fuzz;

import com.telemed.e2e.fuzz.Call.Body;
import com.telemed.e2e.fuzz.Call.Credential;
import com.telemed.e2e.fuzz.Call.Headers;
import com.telemed.e2e.fuzz.Call.PathId;
import com.telemed.e2e.fuzz.Call.QueryPart;
import com.telemed.e2e.fuzz.Endpoint.Kind;
import com.telemed.e2e.fuzz.Endpoint.Param;
import com.telemed.e2e.fuzz.Json.Arr;
import com.telemed.e2e.fuzz.Json.Bool;
import com.telemed.e2e.fuzz.Json.Num;
import com.telemed.e2e.fuzz.Json.Obj;
import com.telemed.e2e.fuzz.Json.Raw;
import com.telemed.e2e.fuzz.Json.Str;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;

/**
 * The generators of bad input, all jqwik combinators so that a failing call shrinks: towards the
 * endpoint's own method, fixture ids, fewer query parameters, the usual headers, fewer body
 * mutations and simpler odd values (each list of samples starts with its simplest).
 * Shrinking keeps only what still fails, so a shrunk call names the one bad part.
 */
public final class BadInputs {

    private BadInputs() {
    }

    /**
     * What an upload's body counts as for its endpoint's weight: as many places as a member's
     * (a file name, a part type, the parts, the boundary, the framing and the size each have many
     * ways to be wrong).
     */
    static final int UPLOAD_PLACES = 24;

    /**
     * A call to any endpoint of the table: one that serves nothing yet has weight 1, one that does
     * 3 plus a third of the places in its largest body (a large body has more to get wrong; an
     * upload counts {@link #UPLOAD_PLACES}).
     */
    public static Arbitrary<Call> calls() {
        List<Tuple2<Integer, Arbitrary<Call>>> choices = new ArrayList<>();
        for (Endpoint endpoint : Endpoints.ALL) {
            choices.add(Tuple.of(weight(endpoint), callsTo(endpoint)));
        }
        return Arbitraries.frequencyOf(choices);
    }

    static int weight(Endpoint endpoint) {
        int places = endpoint.multipart() ? UPLOAD_PLACES
                : endpoint.bodies().stream().mapToInt(body -> Json.paths(body).size()).max().orElse(0);
        return endpoint.served() ? 3 + places / 3 : 1;
    }

    /**
     * Most calls are bad in one respect (the body, the query, the headers, a path id or the method)
     * and valid in every other (the query of those is the endpoint's required parameters), so that
     * the bad part gets past the checks before it to the code it is aimed at; some are bad in every
     * respect at once.
     */
    static Arbitrary<Call> callsTo(Endpoint endpoint) {
        boolean takesBody = endpoint.takesBody();
        boolean hasIds = !endpoint.pathSlots().isEmpty();
        Arbitrary<String> method = Arbitraries.just(endpoint.method());
        Arbitrary<List<PathId>> ids = Arbitraries.just(
                Collections.nCopies(endpoint.pathSlots().size(), new PathId(PathId.Kind.FIXTURE, null)));
        Arbitrary<List<QueryPart>> query = Arbitraries.just(endpoint.query().stream().filter(Param::required)
                .map(p -> new QueryPart(p.name(), p.valid(), QueryPart.Form.PAIR)).toList());
        Arbitrary<Headers> headers = Arbitraries.just(
                new Headers(Call.DEFAULT, new Credential(Credential.Kind.RIGHT, null), null, null, null, Call.DEFAULT, false, List.of()));
        Arbitrary<Body> body = endpoint.multipart() ? Arbitraries.of(Multipart.BASELINES).map(Body.class::cast)
                : takesBody ? Arbitraries.of(endpoint.bodies()).map(Call.JsonBody::new)
                : Arbitraries.just(new Call.NoBody());
        List<Tuple2<Integer, Arbitrary<Call>>> focus = new ArrayList<>();
        focus.add(Tuple.of(takesBody ? 6 : 1, call(endpoint, method, ids, query, headers, body(endpoint))));
        focus.add(Tuple.of(3, call(endpoint, method, ids, query(endpoint), headers, body)));
        focus.add(Tuple.of(3, call(endpoint, method, ids, query, headers(), body)));
        if (hasIds) {
            focus.add(Tuple.of(2, call(endpoint, method, pathIds(endpoint), query, headers, body)));
        }
        focus.add(Tuple.of(1, call(endpoint, otherMethod(endpoint), ids, query, headers, body)));
        focus.add(Tuple.of(3, call(endpoint, method(endpoint), pathIds(endpoint), query(endpoint), headers(), body(endpoint))));
        return Arbitraries.frequencyOf(focus);
    }

    private static Arbitrary<Call> call(Endpoint endpoint, Arbitrary<String> method, Arbitrary<List<PathId>> ids,
                                        Arbitrary<List<QueryPart>> query, Arbitrary<Headers> headers, Arbitrary<Body> body) {
        return Combinators.combine(method, ids, query, headers, body)
                .as((m, i, q, h, b) -> new Call(endpoint, m, i, q, h, b));
    }

    // ---- method and path -------------------------------------------------------------------------

    private static final List<String> METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");

    private static Arbitrary<String> method(Endpoint endpoint) {
        return Arbitraries.frequencyOf(
                Tuple.of(19, Arbitraries.just(endpoint.method())),
                Tuple.of(1, Arbitraries.of(METHODS)));
    }

    private static Arbitrary<String> otherMethod(Endpoint endpoint) {
        return Arbitraries.of(METHODS.stream().filter(method -> !method.equals(endpoint.method())).toList());
    }

    /*
     * Request targets that are not URIs (malformed percent escapes "%ZZ", a lone "%", a space) and
     * fragments: the gateway checks the target itself (edge.RequestTarget) and answers 400 JSON.
     */
    private static final List<String> ODD_SEGMENTS = List.of(
            "not-a-uuid", "", "0", "-1", "00000000-0000-0000-0000-000000000000", "%00", "%E2%80%AE",
            "%F0%9F%92%8A", "%ED%A0%80", "%C0%AF", "\u00ff", "\u00e9", "..", "%2e%2e", "%2F", "a%2Fb", ";x=1", "%20",
            "+", "*", "null", "x".repeat(129), "x".repeat(5_000), "%ZZ", "%", "a%2", "#frag", "%E2%80");

    private static final List<String> ODD_SUFFIXES = List.of("x", "%00", "/", "%20", "%ED%A0%80", "/..", ";a=b", "%0A", "%",
            "%G0", "#", "?#x");

    private static Arbitrary<List<PathId>> pathIds(Endpoint endpoint) {
        Arbitrary<PathId> id = Arbitraries.frequencyOf(
                Tuple.of(14, Arbitraries.just(new PathId(PathId.Kind.FIXTURE, null))),
                Tuple.of(2, Arbitraries.just(new PathId(PathId.Kind.UNKNOWN, null))),
                Tuple.of(1, Arbitraries.just(new PathId(PathId.Kind.UPPER_CASE, null))),
                Tuple.of(2, Arbitraries.of(ODD_SEGMENTS).map(odd -> new PathId(PathId.Kind.REPLACED, odd))),
                Tuple.of(1, Arbitraries.of(ODD_SUFFIXES).map(odd -> new PathId(PathId.Kind.APPENDED, odd))));
        return id.list().ofSize(endpoint.pathSlots().size());
    }

    // ---- query strings ---------------------------------------------------------------------------

    private static final List<String> ODD_QUERY_VALUES = List.of(
            "", "%00", "a%00b", "%ED%A0%80", "%ED%B0%80", "%E2%80%AE", "%F0%9F%98%80", "%C0%AF", "%FF", "+",
            "%2B", "%20", "null", "%22%27%3C", "%25", "\u00e9", "x".repeat(300), "x".repeat(5_000), "%ZZ", "%", "%F",
            "a#b", "%C3", "%80");
    private static final List<String> ODD_QUERY_NUMBERS = List.of(
            "0", "-1", "-0", "1.5", "1e3", "1e400", "1e-400", "2147483648", "-2147483649", "9223372036854775808",
            "99999999999999999999999999", "1" + "0".repeat(400), "NaN", "Infinity", "0x10", "%201", "1%20", "abc",
            "101", "100", "1_000", "%D9%A3");
    private static final List<String> ODD_QUERY_DATES = List.of(
            "300000-01-01", "%2B300000-01-01T00:00:00Z", "%2B999999999-12-31T23:59:59Z", "-999999999-01-01T00:00:00Z",
            "2026-02-30", "2026-13-01", "0000-01-01", "2026-01-01T25:00:00Z", "2026-01-01T00:00:00%2B25:00",
            "2026-01-01T00:00:00", "9999-12-31T23:59:59.999999999Z", "2026-1-1", "%2B10000-01-01", "+999999999-12-31T23:59:59Z");
    private static final List<String> ODD_QUERY_ENUMS = List.of("PENDING", "pending%20", "Pending", "x", "pending,approved",
            "%00pending");
    private static final List<String> ODD_QUERY_IDS = List.of("not-a-uuid", "00000000-0000-0000-0000-000000000000",
            Fixture.UNKNOWN, "%27");
    private static final List<String> ODD_QUERY_NAMES = List.of("foo", "", "%00", "page[]", "Page", "limit%00",
            "x".repeat(300), "__proto__", "partnerId", "%ED%A0%80", "%Z", "%FF");
    private static final List<String> ODD_QUERY_PIECES = List.of("", "=", "&", "==", "%00", "a=b=c", ";", "[]=1",
            "x".repeat(3_000));

    private static Arbitrary<List<QueryPart>> query(Endpoint endpoint) {
        List<Tuple2<Integer, Arbitrary<QueryPart>>> parts = new ArrayList<>();
        List<Param> params = endpoint.query();
        if (!params.isEmpty()) {
            Arbitrary<Param> param = Arbitraries.of(params);
            parts.add(Tuple.of(6, param.map(p -> new QueryPart(p.name(), p.valid(), QueryPart.Form.PAIR))));
            parts.add(Tuple.of(6, param.flatMap(p -> oddQueryValue(p.kind())
                    .map(value -> new QueryPart(p.name(), value, QueryPart.Form.PAIR)))));
            parts.add(Tuple.of(1, param.map(p -> new QueryPart(p.name(), "", QueryPart.Form.NAME_ONLY))));
        }
        parts.add(Tuple.of(2, Combinators.combine(Arbitraries.of(ODD_QUERY_NAMES), Arbitraries.of(ODD_QUERY_VALUES))
                .as((name, value) -> new QueryPart(name, value, QueryPart.Form.PAIR))));
        parts.add(Tuple.of(1, Arbitraries.of(ODD_QUERY_PIECES).map(piece -> new QueryPart("", piece, QueryPart.Form.VALUE_ONLY))));
        Arbitrary<List<QueryPart>> some = Arbitraries.frequencyOf(parts).list().ofMinSize(1).ofMaxSize(params.isEmpty() ? 2 : 5);
        return Arbitraries.frequencyOf(
                Tuple.of(params.isEmpty() ? 8 : 1, Arbitraries.just(List.of())),
                Tuple.of(params.isEmpty() ? 1 : 4, some));
    }

    private static Arbitrary<String> oddQueryValue(Kind kind) {
        List<String> specific = switch (kind) {
            case NUMBER -> ODD_QUERY_NUMBERS;
            case DATE -> ODD_QUERY_DATES;
            case ENUM -> ODD_QUERY_ENUMS;
            case ID -> ODD_QUERY_IDS;
            case TEXT -> List.of("%25%25", "%5C", "%27%20OR%201%3D1--", "%F0%9F%92%8A".repeat(1_000), "a%2Cb");
        };
        return Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.of(specific)), Tuple.of(2, Arbitraries.of(ODD_QUERY_VALUES)));
    }

    // ---- headers ---------------------------------------------------------------------------------

    private static final List<String> ODD_CONTENT_TYPES = List.of(
            "text/plain", "application/json; charset=utf-8", "application/json; charset=latin1", "application/json; charset=utf-16",
            "application/json; charset=bogus", "application/x-www-form-urlencoded", "multipart/form-data",
            "multipart/form-data; boundary=x", "application/xml", "APPLICATION/JSON", "application/json-patch+json",
            "application/vnd.api+json", "*/*", "", "application/json, text/plain", "application", "text/json",
            "application/json;", "application/jsonx", "application/json; charset=\"utf-8\"; x=\u00e9");
    private static final List<String> ODD_CREDENTIALS = List.of(
            "apx_00000000000000000000000000000000", "", " ", "pk_00000000000000000000000000000000", "ops_x",
            "k".repeat(10_000), "apx_\u00e9", "%00", "Bearer x", "apx_" + "0".repeat(31) + "\u00ff");
    private static final List<String> ODD_IDEMPOTENCY_KEYS = List.of(
            "", " ", "k".repeat(128), "k".repeat(2_000), "k".repeat(2_700), "k".repeat(3_000), "k".repeat(10_000),
            "k".repeat(25_000), "\u00e9", "\u00ff\u00fe", "%00", "a\tb");

    private static Arbitrary<Headers> headers() {
        Arbitrary<String> contentType = Arbitraries.frequencyOf(
                Tuple.of(16, Arbitraries.just(Call.DEFAULT)),
                Tuple.of(1, Arbitraries.just((String) null)),
                Tuple.of(3, Arbitraries.of(ODD_CONTENT_TYPES)));
        Arbitrary<Credential> credential = Arbitraries.frequencyOf(
                Tuple.of(30, Arbitraries.just(new Credential(Credential.Kind.RIGHT, null))),
                Tuple.of(1, Arbitraries.just(new Credential(Credential.Kind.MISSING, null))),
                Tuple.of(1, Arbitraries.of(ODD_CREDENTIALS).map(odd -> new Credential(Credential.Kind.REPLACED, odd))),
                Tuple.of(1, Arbitraries.just(new Credential(Credential.Kind.OTHER_SURFACE, null))));
        Arbitrary<String> idempotencyKey = Arbitraries.frequencyOf(
                Tuple.of(14, Arbitraries.just((String) null)),
                Tuple.of(2, Arbitraries.just(Slot.FRESH.label())),
                Tuple.of(3, Arbitraries.of(ODD_IDEMPOTENCY_KEYS)));
        Arbitrary<String> accept = Arbitraries.frequencyOf(
                Tuple.of(17, Arbitraries.just((String) null)),
                Tuple.of(3, Arbitraries.of("text/html", "application/xml", "text/plain", "*/*", "application/json;q=0", "",
                        "garbage", "application/json, text/html;q=0.9", "image/png")));
        Arbitrary<String> requestId = Arbitraries.frequencyOf(
                Tuple.of(17, Arbitraries.just((String) null)),
                Tuple.of(3, Arbitraries.of("x".repeat(129), "a b", "\u00e9", "../x", "", "%00", "x".repeat(10_000), "ok-id-1")));
        Arbitrary<String> origin = Arbitraries.frequencyOf(
                Tuple.of(12, Arbitraries.just(Call.DEFAULT)),
                Tuple.of(1, Arbitraries.just((String) null)),
                Tuple.of(2, Arbitraries.of("https://evil.example", "null", "http://localhost:3000", "https://fuzz.example.evil",
                        "HTTPS://FUZZ.EXAMPLE", "https://fuzz.example/", "x".repeat(3_000))));
        Arbitrary<Boolean> chunked = Arbitraries.frequency(Tuple.of(9, false), Tuple.of(1, true));
        Arbitrary<List<Call.Forwarding>> forwarding = Arbitraries.frequencyOf(
                Tuple.of(16, Arbitraries.just(List.<Call.Forwarding>of())),
                Tuple.of(4, Arbitraries.of(FORWARDING).list().ofMinSize(1).ofMaxSize(4)));
        return Combinators.combine(contentType, credential, idempotencyKey, accept, requestId, origin, chunked, forwarding)
                .as(Headers::new);
    }

    /**
     * The host the {@link #FORWARDING} headers name: no answer may carry it (in e2e no proxy is
     * trusted, so a link or an address the platform writes never comes from them).
     */
    static final String FORWARDED_HOST = "proxy.evil.example";

    /**
     * A proxy's headers, as a client sends them to pass for another address, scheme or host: the
     * gateway believes them only from a trusted proxy (GATEWAY_TRUSTED_PROXIES), which e2e has none of.
     */
    private static final List<Call.Forwarding> FORWARDING = List.of(
            new Call.Forwarding("X-Forwarded-For", "203.0.113.7"),
            new Call.Forwarding("X-Forwarded-For", "203.0.113.7, 198.51.100.2, 127.0.0.1"),
            new Call.Forwarding("X-Forwarded-For", "::1"),
            new Call.Forwarding("X-Forwarded-For", "[2001:db8::1]:443"),
            new Call.Forwarding("X-Forwarded-For", "unknown"),
            new Call.Forwarding("X-Forwarded-For", "not an address"),
            new Call.Forwarding("X-Forwarded-For", ""),
            new Call.Forwarding("X-Forwarded-For", "999.999.999.999"),
            new Call.Forwarding("X-Forwarded-For", "1.2.3.4".repeat(1_000)),
            new Call.Forwarding("X-Forwarded-For", "\u00e9\u00ff"),
            new Call.Forwarding("Forwarded", "for=203.0.113.7;proto=https;host=" + FORWARDED_HOST),
            new Call.Forwarding("Forwarded", "for=\"[2001:db8::1]:4711\";by=_hidden"),
            new Call.Forwarding("Forwarded", "for=_secret, for=unknown"),
            new Call.Forwarding("Forwarded", ";;;=,="),
            new Call.Forwarding("Forwarded", "for=\"unterminated"),
            new Call.Forwarding("Forwarded", "host=" + FORWARDED_HOST + ":99999;proto=gopher"),
            new Call.Forwarding("X-Forwarded-Proto", "https"),
            new Call.Forwarding("X-Forwarded-Proto", "gopher"),
            new Call.Forwarding("X-Forwarded-Proto", "https, http"),
            new Call.Forwarding("X-Forwarded-Proto", ""),
            new Call.Forwarding("X-Forwarded-Host", FORWARDED_HOST),
            new Call.Forwarding("X-Forwarded-Host", FORWARDED_HOST + ":8443"),
            new Call.Forwarding("X-Forwarded-Host", FORWARDED_HOST + ", 127.0.0.1"),
            new Call.Forwarding("X-Forwarded-Host", "a b"),
            new Call.Forwarding("X-Forwarded-Host", "[::1"),
            new Call.Forwarding("X-Forwarded-Port", "99999"),
            new Call.Forwarding("X-Forwarded-Port", "x"),
            new Call.Forwarding("X-Forwarded-Prefix", "/ops"),
            new Call.Forwarding("X-Forwarded-Server", FORWARDED_HOST),
            new Call.Forwarding("X-Real-IP", "203.0.113.7"));

    // ---- bodies ----------------------------------------------------------------------------------

    private static final Json NO_BODY_TEMPLATE = Json.template("{\"unexpected\": true}");

    private static final List<String> NOT_JSON = List.of(
            "", " ", "{", "[", "}", "nul", "NaN", "{'a':1}", "{\"a\":}", "{\"a\" 1}", "<xml/>", "a=1&b=2", "\u0000",
            "\"just a string\"", "[1,]", "{\"a\":1,}", "//comment\n{}", "{}{}", "\ufeff{}", "\u0000{}", "{\"a\":\"\\x\"}",
            "{\"a\":\"\u0001\"}", "{\"a\":01}", "{\"a\":+1}", "{\"a\":.5}", "{\"a\":1.}", "{\"a\":NaN}", "{\"a\":Infinity}",
            "{\"a\":-}", "{\"a\":\"\\ud800\"}", "{\"__proto__\":{\"admin\":true}}", "\"\\u0000\"", "[" .repeat(3_000));

    private static final List<byte[]> ODD_BYTES = List.of(
            new byte[] {(byte) 0xff}, new byte[] {(byte) 0xc0, (byte) 0xaf}, new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
            new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf}, new byte[] {(byte) 0xfe, (byte) 0xff}, new byte[] {0},
            new byte[] {(byte) 0xc3}, new byte[] {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, new byte[] {(byte) 0x80},
            new byte[] {(byte) 0xe2, (byte) 0x82});

    private static final List<String> TRAILING = List.of(" {}", "{}", "]", "}", " x", " null", "\n1", ",", " \"\"", "\u0000",
            " ".repeat(120_000), "\n".repeat(2_000_000), " \r\n\t ");

    private static Arbitrary<Body> body(Endpoint endpoint) {
        if (endpoint.multipart()) {
            return uploadBody();
        }
        boolean takesBody = !endpoint.bodies().isEmpty();
        Arbitrary<Json> template = takesBody ? Arbitraries.of(endpoint.bodies()) : Arbitraries.just(NO_BODY_TEMPLATE);
        boolean named = endpoint.bodies().stream().anyMatch(BadInputs::holdsName);
        // Mostly one mutation: a body with a single bad value gets past the rest of the validation to the code
        // (and the database) behind it; several at once check that every issue is reported.
        Arbitrary<List<Mutation>> mutations = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(List.of())),
                Tuple.of(9, mutation(named).list().ofMinSize(1).ofMaxSize(4).withSizeDistribution(RandomDistribution.biased())));
        Arbitrary<Body> mutated = template.flatMap(t -> mutations.map(chosen -> new Call.JsonBody(Mutation.applyAll(t, chosen))));
        Arbitrary<Body> text = Arbitraries.of(NOT_JSON).map(Call.TextBody::new);
        Arbitrary<Body> truncated = Combinators.combine(template, Arbitraries.integers().between(1, 999)).as(Call.Truncated::new);
        Arbitrary<Body> deep = Combinators.combine(Arbitraries.of(10, 100, 1_000, 1_001, 5_000, 10_000, 40_000), Arbitraries.of(false, true))
                .as((depth, objects) -> new Call.JsonBody(new Json.Deep(depth, objects, new Num("1"))));
        Arbitrary<Body> wrongTopLevel = template.flatMap(t -> Arbitraries.of(
                new Arr(List.of()), new Str("x"), new Num("1"), new Json.Null(), new Bool(true), new Arr(List.of(t)))
                .map(Call.JsonBody::new));
        Arbitrary<Body> spliced = Combinators.combine(template, Arbitraries.integers().between(0, 1_000), Arbitraries.of(ODD_BYTES))
                .as(Call.Spliced::new);
        Arbitrary<Body> oversized = Combinators.combine(template, Arbitraries.of(102_401, 110_000, 200_000, 1_100_000))
                .as(Call.Oversized::new);
        Arbitrary<Body> trailing = Combinators.combine(template, Arbitraries.of(TRAILING)).as(Call.Trailing::new);
        return Arbitraries.frequencyOf(
                Tuple.of(takesBody ? 16 : 1, mutated),
                Tuple.of(1, trailing),
                Tuple.of(takesBody ? 1 : 20, Arbitraries.just(new Call.NoBody())),
                Tuple.of(1, text),
                Tuple.of(1, truncated),
                Tuple.of(1, deep),
                Tuple.of(1, wrongTopLevel),
                Tuple.of(1, spliced),
                Tuple.of(1, oversized));
    }

    // ---- uploads ---------------------------------------------------------------------------------

    /*
     * File names: folders and traversal, what PostgreSQL cannot store, control characters and line
     * breaks (raw, which ends the part's header, and escaped as browsers do), U+2028, quotes, bytes
     * that are not UTF-8 (overlong "/" and "../" among them), names that are all dots, overlong ones.
     */
    private static final List<Multipart.FileName> ODD_FILE_NAMES = List.of(
            raw("../x"), raw("../../etc/passwd"), raw("..\\..\\windows\\win.ini"), raw("/etc/passwd"),
            raw("C:\\Users\\ada\\scan.pdf"), raw(".."), raw("."), raw("..."), raw(".htaccess"), raw("a/"), raw("%2e%2e%2fx"),
            raw("x.pdf\u0000.png"), raw("\u0007bell.pdf"), raw("tab\there.pdf"), raw("new\nline.pdf"), raw("cr\rhere.pdf"),
            raw("a\r\nContent-Type: text/html\r\n\r\n<b>x</b>.pdf"), raw("\u2028sep.pdf"), raw("para\u2029.pdf"),
            raw("\u0085nel.pdf"), raw("\u001b[31mred.pdf"), raw("\u202egpj.exe"), raw("quote\"d.pdf"), raw("back\\slash.pdf"),
            raw("semi;colon=1.pdf"), raw("\ud83d\ude00.pdf"), raw("\ud800.pdf"), raw(""), raw(" "), raw("CON"), raw("%00.pdf"),
            raw("r\u00e9sum\u00e9.pdf"), raw("<script>alert(1)</script>.pdf"), raw("${jndi:ldap://x}.pdf"),
            raw("'; DROP TABLE attachments;--.pdf"), raw("x".repeat(255) + ".pdf"), raw("x".repeat(1_000)),
            raw("\u00e9".repeat(2_000)), raw("x".repeat(5_000)), raw("x".repeat(20_000)),
            escaped("new\nline.pdf"), escaped("quote\"d.pdf"), escaped("a\r\nX-Injected: 1.pdf"), escaped("\u2028.pdf"),
            latin1("caf\u00e9.pdf"), latin1("\u00ff\u00fe.pdf"), latin1("\u00c0\u00af.pdf"), latin1("\u00ed\u00a0\u0080.pdf"),
            latin1("\u00c0\u00ae\u00c0\u00ae\u00c0\u00afx"), latin1("\u00e2\u0080\u00a8.pdf"),
            new Multipart.FileName("note.pdf", Multipart.FileName.Form.UNQUOTED),
            new Multipart.FileName("a b;c.pdf", Multipart.FileName.Form.UNQUOTED),
            new Multipart.FileName("", Multipart.FileName.Form.UNQUOTED),
            new Multipart.FileName("r\u00e9sum\u00e9.pdf", Multipart.FileName.Form.EXTENDED),
            new Multipart.FileName("../x", Multipart.FileName.Form.EXTENDED),
            new Multipart.FileName("a\u0000b\nc\u2028.pdf", Multipart.FileName.Form.EXTENDED));

    /** Part types: off the allow-list, the list's own in odd spellings and with parameters, none at all, and the rest of the list. */
    private static final List<String> ODD_PART_TYPES = List.of(
            "application/octet-stream", "", "application/x-msdownload", "text/html", "image/svg+xml", "application/javascript",
            "application/json", "multipart/form-data; boundary=x", "*/*", "image/*", "TEXT/PLAIN", " application/pdf ",
            "application/PDF", "application/pdf; name=\"x.pdf\"", "image/png; x=\u00e9", "application/pdf, text/html",
            "image/jpeg;", "image/" + "x".repeat(5_000), "text/plain\u0000", "image/jpeg", "image/gif", "image/webp",
            "application/msword", "application/vnd.openxmlformats-officedocument.wordprocessingml.document");

    private static final List<String> ODD_PART_NAMES = List.of("files", "FILE", "File", "", "file ", " file", "file[]",
            "file\u0000", "fil\u00e9", "x".repeat(5_000));

    private static final List<String> ODD_BOUNDARIES = List.of("a", "x".repeat(70), "x".repeat(71), "x".repeat(5_000),
            "with space", "----WebKitFormBoundaryAbC123", "\u00e9t\u00e9", "b\"q", "--", "x;y", "=?");

    /**
     * Past the gateway's upload limit. Not a length the HTTP codec cannot read ({@code 1e9}, {@code -1},
     * past a long): the codec answers those with a bare 400 before the gateway sees the call, as it
     * does a request line that is not HTTP (gateway README, edge limits).
     */
    private static final List<String> DECLARED_LENGTHS = List.of("11534337", "104857600", "9223372036854775807");

    /** A part's header beyond its disposition and type: transfer encodings the parser decodes, and lines that are no headers. */
    private static final List<String> ODD_PART_HEADERS = List.of("Content-Transfer-Encoding: base64",
            "Content-Transfer-Encoding: quoted-printable", "Content-Transfer-Encoding: x-unknown", "Content-Transfer-Encoding: 8bit",
            "Content-Disposition: attachment; filename=\"other.pdf\"", "X-Odd: \u00ff\u0000", "no colon here", ": no name",
            "Content-Type: text/html");

    /** Small and chunk-edge sizes of the file; the ones past 10 MB are {@link #LARGE_SIZES}. */
    private static final List<Integer> ODD_SIZES = List.of(0, 1, 8_192, 1_048_576, 1_048_577, 102_401);

    /**
     * The largest file accepted, one byte more (refused by messaging-service itself: the gateway
     * lets 11 MB through), and a body past the gateway's own limit. Megabytes each, so rare: a
     * handful of calls in a run ({@link #uploadChange}).
     */
    private static final List<Integer> LARGE_SIZES = List.of(Multipart.FILE_LIMIT, Multipart.FILE_LIMIT + 1,
            Multipart.GATEWAY_LIMIT + 1);

    private static Multipart.FileName raw(String text) {
        return new Multipart.FileName(text, Multipart.FileName.Form.RAW);
    }

    private static Multipart.FileName escaped(String text) {
        return new Multipart.FileName(text, Multipart.FileName.Form.ESCAPED);
    }

    private static Multipart.FileName latin1(String text) {
        return new Multipart.FileName(text, Multipart.FileName.Form.LATIN1);
    }

    /**
     * An upload's body: mostly a valid one with one change (sometimes none, sometimes up to
     * three), else what a JSON endpoint gets (no body, text, JSON).
     */
    private static Arbitrary<Body> uploadBody() {
        Arbitrary<List<UnaryOperator<Multipart>>> changes = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(List.<UnaryOperator<Multipart>>of())),
                Tuple.of(12, uploadChange().list().ofMinSize(1).ofMaxSize(3).withSizeDistribution(RandomDistribution.biased())));
        Arbitrary<Body> upload = Combinators.combine(Arbitraries.of(Multipart.BASELINES), changes).as((base, chosen) -> {
            Multipart body = base;
            for (UnaryOperator<Multipart> change : chosen) {
                body = change.apply(body);
            }
            return (Body) body;
        });
        return Arbitraries.frequencyOf(
                Tuple.of(20, upload),
                Tuple.of(1, Arbitraries.just(new Call.NoBody())),
                Tuple.of(1, Arbitraries.of(NOT_JSON).map(Call.TextBody::new)),
                Tuple.of(1, Arbitraries.just(new Call.JsonBody(Json.template("{\"file\": \"note.pdf\"}")))));
    }

    /** One change to a valid upload: its file's name, type or size, its parts, its boundary, its framing, its length. */
    private static Arbitrary<UnaryOperator<Multipart>> uploadChange() {
        Arbitrary<UnaryOperator<Multipart>> fileName = Arbitraries.of(ODD_FILE_NAMES)
                .map(name -> body -> body.withFile(part -> part.withFileName(name)));
        Arbitrary<UnaryOperator<Multipart>> type = Arbitraries.frequencyOf(
                        Tuple.of(1, Arbitraries.just((String) null)), Tuple.of(8, Arbitraries.of(ODD_PART_TYPES)))
                .map(odd -> body -> body.withFile(part -> part.withContentType(odd)));
        Arbitrary<UnaryOperator<Multipart>> size = Arbitraries.of(ODD_SIZES)
                .map(bytes -> body -> body.withFile(part -> part.withContent(new Multipart.Content(bytes, part.content().head()))));
        Arbitrary<UnaryOperator<Multipart>> large = Arbitraries.of(LARGE_SIZES)
                .map(bytes -> body -> body.withFile(part -> part.withContent(new Multipart.Content(bytes, part.content().head()))));
        Arbitrary<UnaryOperator<Multipart>> holdsBoundary = Arbitraries.of("{boundary}", "x{boundary}--",
                        "{boundary}\r\nContent-Disposition: form-data; name=\"file\"")
                .map(head -> body -> body.withFile(part -> part.withContent(new Multipart.Content(64, head))));
        Arbitrary<UnaryOperator<Multipart>> parts = Arbitraries.oneOf(
                // No part named file at all: 400 No file uploaded.
                Arbitraries.just(body -> body.withParts(List.of(field("note", 5)))),
                Arbitraries.just(body -> body.withParts(List.of())),
                Arbitraries.of(ODD_PART_NAMES).map(name -> body -> body.withFile(part -> part.withName(name))),
                Arbitraries.just(body -> body.withFile(part -> part.withName(null))),
                // A field named file, not a file.
                Arbitraries.just(body -> body.withFile(part -> part.withFileName(null))),
                Arbitraries.of(5, 3_000, 70_000).map(length -> body -> withExtra(body, field("note", length), false)),
                Arbitraries.of(5, 3_000).map(length -> body -> withExtra(body, field("note", length), true)),
                Arbitraries.just(body -> withExtra(body, field(null, 5), false)),
                Arbitraries.just(body -> withExtra(body, body.files().isEmpty() ? field("file", 5) : body.files().get(0), true)),
                Arbitraries.just(body -> withExtra(body, new Multipart.Part("file", Multipart.FileName.quoted("evil.html"), "text/html",
                        new Multipart.Content(20, "<script>1</script>")), true)),
                Arbitraries.just(body -> withExtra(body, new Multipart.Part("other", Multipart.FileName.quoted("b.pdf"), "application/pdf",
                        new Multipart.Content(13, "%PDF-1.4\n")), false)),
                Arbitraries.of(300, 2_000).map(count -> body -> {
                    List<Multipart.Part> many = new ArrayList<>(Collections.nCopies(count, field("f", 1)));
                    many.addAll(body.parts());
                    return body.withParts(many);
                }));
        Arbitrary<UnaryOperator<Multipart>> boundary = Arbitraries.oneOf(
                Arbitraries.of(ODD_BOUNDARIES).map(odd -> body -> body.withBoundary(odd, Multipart.Param.SAME)),
                Arbitraries.of(Multipart.Param.values()).map(param -> body -> body.withBoundary(body.boundary(), param)));
        Arbitrary<UnaryOperator<Multipart>> framing = Combinators.combine(Arbitraries.of(Multipart.Framing.values()),
                        Arbitraries.integers().between(1, 999))
                .as((odd, cut) -> body -> body.withFraming(odd, cut));
        Arbitrary<UnaryOperator<Multipart>> declared = Arbitraries.of(DECLARED_LENGTHS).map(length -> body -> body.withDeclaredLength(length));
        Arbitrary<UnaryOperator<Multipart>> header = Combinators.combine(Arbitraries.of(ODD_PART_HEADERS),
                        Arbitraries.of("Zm9v", "=ZZ", "a=\r\nb", "%PDF", "=4", "===="))
                .as((line, content) -> body -> body.withFile(part -> part.withHeader(line)
                        .withContent(new Multipart.Content(content.length(), content))));
        return Arbitraries.frequencyOf(
                Tuple.of(60, fileName),
                Tuple.of(30, type),
                Tuple.of(30, parts),
                Tuple.of(15, size),
                Tuple.of(1, large),
                Tuple.of(5, holdsBoundary),
                Tuple.of(20, boundary),
                Tuple.of(20, framing),
                Tuple.of(8, header),
                Tuple.of(5, declared));
    }

    /** A plain form field of {@code length} bytes ({@code name} null: a part with no name). */
    private static Multipart.Part field(String name, int length) {
        return new Multipart.Part(name, null, null, new Multipart.Content(length, "hello"));
    }

    private static Multipart withExtra(Multipart body, Multipart.Part extra, boolean after) {
        List<Multipart.Part> parts = new ArrayList<>(body.parts());
        parts.add(after ? parts.size() : 0, extra);
        return body.withParts(parts);
    }

    /**
     * One change to a valid body. {@code at} picks the place: below 750 a leaf (a string, number,
     * boolean or null, where the values the storage cannot hold go), else any place, each modulo
     * the places there are. {@code EVERY_NUMBER} and {@code EVERY_DATE} put their odd value in every
     * number or date of the body at once (the one a column cannot hold is then always among them).
     */
    record Mutation(int at, MutationKind kind, Json wild, Str oddString, Json oddNumber, Str oddDate, String name, Str lineBreaking) {

        private static final Pattern DATE_LIKE = Pattern.compile("^\\d{4}-\\d{2}-\\d{2}.*");

        static Json applyAll(Json template, List<Mutation> mutations) {
            Json body = template;
            for (Mutation mutation : mutations) {
                body = mutation.apply(body);
            }
            return body;
        }

        Json apply(Json body) {
            List<List<Object>> paths = Json.paths(body);
            List<List<Object>> leaves = paths.stream()
                    .filter(candidate -> !(Json.at(body, candidate) instanceof Obj || Json.at(body, candidate) instanceof Arr))
                    .toList();
            List<Object> path = at < 750 && !leaves.isEmpty() ? leaves.get(at % leaves.size()) : paths.get(at % paths.size());
            Json node = Json.at(body, path);
            switch (kind) {
                case EVERY_NUMBER:
                    return every(body, paths, old -> old instanceof Num, oddNumber);
                case EVERY_DATE:
                    return every(body, paths, old -> old instanceof Str str && DATE_LIKE.matcher(str.value()).matches(), oddDate);
                case NAME: {
                    List<List<Object>> names = leaves.stream().filter(BadInputs::isName).toList();
                    return names.isEmpty() ? body : Json.edit(body, names.get(at % names.size()), old -> lineBreaking);
                }
                case SAME_TYPE:
                    return Json.edit(body, path, old -> sameType(old));
                case REPLACE:
                    return Json.edit(body, path, old -> wild);
                case REMOVE:
                    return path.isEmpty() ? body : Json.edit(body, path, old -> null);
                case ADD: {
                    List<Object> object = node instanceof Obj ? path : parentObject(body, path);
                    return object == null ? body : Json.edit(body, object, old -> withField((Obj) old, name, wild));
                }
                case DUPLICATE: {
                    if (path.isEmpty() || !(path.get(path.size() - 1) instanceof String key)) {
                        return body;
                    }
                    List<Object> parent = path.subList(0, path.size() - 1);
                    return Json.edit(body, parent, old -> withField((Obj) old, key, wild));
                }
                case STRINGIFY:
                    return Json.edit(body, path, BadInputs.Mutation::stringify);
                case WRAP:
                    return Json.edit(body, path, old -> new Arr(List.of(old)));
                default:
                    throw new IllegalStateException(kind.name());
            }
        }

        private static Json every(Json body, List<List<Object>> paths, java.util.function.Predicate<Json> which, Json value) {
            Json edited = body;
            for (List<Object> place : paths) {
                if (which.test(Json.at(body, place))) {
                    edited = Json.edit(edited, place, old -> value);
                }
            }
            return edited;
        }

        private Json sameType(Json old) {
            if (old instanceof Num) {
                return oddNumber;
            }
            if (old instanceof Str str && DATE_LIKE.matcher(str.value()).matches()) {
                return oddDate;
            }
            if (old instanceof Str || old instanceof Json.Ref) {
                return oddString;
            }
            return wild;
        }

        private static Json stringify(Json old) {
            if (old instanceof Num num) {
                return new Str(num.token());
            }
            if (old instanceof Bool bool) {
                return new Str(String.valueOf(bool.value()));
            }
            if (old instanceof Str) {
                return new Num("0");
            }
            return new Str(Json.describe(old));
        }

        private static List<Object> parentObject(Json body, List<Object> path) {
            for (int end = path.size() - 1; end >= 0; end--) {
                List<Object> candidate = path.subList(0, end);
                if (Json.at(body, candidate) instanceof Obj) {
                    return candidate;
                }
            }
            return null;
        }

        private static Json withField(Obj object, String name, Json value) {
            List<Map.Entry<String, Json>> fields = new ArrayList<>(object.fields());
            fields.add(Map.entry(name, value));
            return new Obj(fields);
        }
    }

    /**
     * {@code NAME} puts a line-breaking string ({@link #LINE_BREAKING}) into one of the body's name
     * fields (a string under a key of {@link #NAME_KEYS}): the other kinds reach those fields as
     * often as any other leaf, and with a control character far more rarely.
     */
    enum MutationKind { SAME_TYPE, REPLACE, REMOVE, ADD, DUPLICATE, STRINGIFY, WRAP, EVERY_NUMBER, EVERY_DATE, NAME }

    /** {@code named}: the body has name fields, and {@code NAME} is drawn. */
    static Arbitrary<Mutation> mutation(boolean named) {
        Arbitrary<MutationKind> kind = Arbitraries.frequency(
                Tuple.of(6, MutationKind.SAME_TYPE), Tuple.of(3, MutationKind.REPLACE), Tuple.of(2, MutationKind.REMOVE),
                Tuple.of(2, MutationKind.ADD), Tuple.of(1, MutationKind.DUPLICATE), Tuple.of(1, MutationKind.STRINGIFY),
                Tuple.of(1, MutationKind.WRAP), Tuple.of(3, MutationKind.EVERY_NUMBER), Tuple.of(2, MutationKind.EVERY_DATE),
                Tuple.of(named ? 2 : 0, MutationKind.NAME));
        return Combinators.combine(Arbitraries.integers().between(0, 999), kind, oddValue(), oddString().map(Str::new),
                        oddNumber(), oddDate().map(Str::new), fieldName(), Arbitraries.of(LINE_BREAKING).map(Str::new))
                .as(Mutation::new);
    }

    /** The keys of the name fields ({@code firstName} and {@code lastName} of a member or a contact, a prescriber's {@code name}). */
    static final Set<String> NAME_KEYS = Set.of("firstName", "lastName", "name");

    /**
     * Names a mail header or a page line must not carry: every kind of control character (C0,
     * DEL, C1) and the line and paragraph separators, alone or in a name, with a header after
     * a line break.
     */
    static final List<String> LINE_BREAKING = List.of(
            "Ann\nLee", "Ann\r\nBcc: x@evil.example", "\u2028", "Ann\u2029Lee", "Ann\u0085", "\u007f", "Ann\tLee",
            "\u001b[31mAnn", "Ann\u000bLee", "\u009bAnn", "\r", "Ann\u0000", "\u0001", "Ann\u000c");

    private static boolean holdsName(Json body) {
        return Json.paths(body).stream().anyMatch(BadInputs::isName);
    }

    private static boolean isName(List<Object> path) {
        return !path.isEmpty() && path.get(path.size() - 1) instanceof String key && NAME_KEYS.contains(key);
    }

    // ---- odd values ------------------------------------------------------------------------------

    /** Any odd JSON value: a wrong type, an odd string, number or date, deep nesting, a token JSON does not allow. */
    static Arbitrary<Json> oddValue() {
        Arbitrary<Json> wrongType = Arbitraries.of(
                new Num("0"), new Json.Null(), new Bool(true), new Str(""), new Arr(List.of()), new Obj(List.of()),
                new Num("-1"), new Num("1.5"), new Bool(false), new Str("x"),
                new Arr(List.of(new Num("1"), new Str("a"))), new Obj(List.of(Map.entry("a", new Num("1")))));
        Arbitrary<Json> deep = Combinators.combine(Arbitraries.of(2, 100, 1_001, 10_000), Arbitraries.of(false, true))
                .as((depth, objects) -> new Json.Deep(depth, objects, new Num("1")));
        Arbitrary<Json> raw = Arbitraries.of("NaN", "Infinity", "-Infinity", "01", "+1", ".5", "1.", "0x10", "undefined",
                "'single'", "\"\u0001\"", "\"\\x\"", "\"\\u12\"").map(Raw::new);
        return Arbitraries.frequencyOf(
                Tuple.of(3, wrongType),
                Tuple.of(5, oddString().map(Str::new)),
                Tuple.of(3, oddNumber()),
                Tuple.of(2, oddDate().map(Str::new)),
                Tuple.of(1, deep),
                Tuple.of(1, raw));
    }

    private static final List<String> ODD_STRINGS = List.of(
            "", " ", "\u0000", "a\u0000b", "\ud800", "\udc00", "a\ud800b", "\udbff\udfff", "\ud83d\ude00", "\u202eevil",
            "\u200b", "\ufeff", "\uffff", "\ufffe", "\u2028", "e\u0301", "Z" + "\u0336".repeat(100), "\u0645\u0631\u062d\u0628\u0627",
            "\u65e5\u672c\u8a9e", "\t\n\r", "\u0007", "\\", "\"", "</script><script>alert(1)</script>", "' OR '1'='1",
            "${jndi:ldap://x}", "%s%n%x", "../../etc/passwd", "null", "true", "0", "NaN", "\u00a0", "\u01c5", "\u0130",
            "\u00df", "\ufb03", "\u216b");
    private static final char[] ODD_CHARS = {
        'a', ' ', '\u0000', '\ud800', '\udc00', '\u202e', '\u0301', '\ufeff', '\uffff', '\u00e9', '"', '\\', '%', '\n',
        '\u2028', '\ud83d', '\ude00', '\u0130'};
    private static final List<String> LONG_UNITS = List.of("a", "\u00e9", "\ud83d\ude00", "e\u0301", "\u0000", "\ud800", "\u0130");
    private static final List<Integer> LONG_LENGTHS = List.of(129, 201, 256, 1_000, 5_001, 10_000, 50_000, 70_000, 110_000);

    /** Strings PostgreSQL cannot store, Unicode that changes with case or direction, markup, overlong ones. */
    static Arbitrary<String> oddString() {
        Arbitrary<String> samples = Arbitraries.of(ODD_STRINGS);
        Arbitrary<String> mixed = Arbitraries.strings().withChars(ODD_CHARS).ofMinLength(1).ofMaxLength(8);
        Arbitrary<String> overlong = Combinators.combine(Arbitraries.of(LONG_UNITS), Arbitraries.of(LONG_LENGTHS))
                .as((unit, length) -> unit.repeat(Math.max(1, length / unit.length())));
        Arbitrary<String> anything = Arbitraries.strings().all().ofMaxLength(20);
        return Arbitraries.frequencyOf(Tuple.of(4, samples), Tuple.of(3, mixed), Tuple.of(2, overlong), Tuple.of(1, anything));
    }

    /** Past what an int, a long, a double or a PostgreSQL numeric holds (131,072 digits before the point, 16,383 after). */
    private static final List<String> STORAGE_BREAKING_NUMBERS = List.of(
            "2147483648", "1e200000", "-1e200000", "1e-20000", "-2147483649", "9223372036854775808", "1e309",
            "1" + "0".repeat(400), "0." + "0".repeat(400) + "1", "1e-400");
    private static final List<String> ODD_NUMBERS = List.of(
            "0", "-0", "-1", "1.5", "-1.5", "0.5", "1e2", "1E+2", "-1e309", "4.9e-324", "2147483647", "-2147483648",
            "4294967296", "9223372036854775807", "-9223372036854775809", "18446744073709551616", "1" + "0".repeat(1_500),
            "123456789012345678901234567890.123456789", "1e1000", "30.0", "1e0", "0e0", "-0.0", "100000000000000000000e-20");

    /** Huge, negative, fractional, exponent and int-overflowing numbers; tokens JSON does not allow. */
    static Arbitrary<Json> oddNumber() {
        BigInteger bound = BigInteger.TWO.pow(70);
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of(STORAGE_BREAKING_NUMBERS).map(Num::new)),
                Tuple.of(3, Arbitraries.of(ODD_NUMBERS).map(Num::new)),
                Tuple.of(2, Arbitraries.bigIntegers().between(bound.negate(), bound).map(n -> new Num(n.toString()))),
                Tuple.of(1, Arbitraries.doubles().map(d -> new Num(Double.toString(d)))),
                Tuple.of(1, Arbitraries.of("NaN", "Infinity", "-Infinity", "01", "+1", ".5", "1.", "0x10", "1_000", "- 1",
                        "1e", "--1").map(Raw::new)));
    }

    /** Dates that parse but no column holds, dates that do not exist, offsets out of range. */
    static Arbitrary<String> oddDate() {
        // Past what PostgreSQL's timestamptz holds (4713 BC to 294276 AD), in the forms Java parses.
        Arbitrary<String> storageBreaking = Arbitraries.of("+300000-01-01T00:00:00Z", "+999999999-12-31T23:59:59Z",
                "-999999999-01-01T00:00:00Z", "-5000-01-01T00:00:00Z", "+300000-01-01");
        return Arbitraries.frequencyOf(Tuple.of(1, storageBreaking), Tuple.of(2, oddDates()));
    }

    private static Arbitrary<String> oddDates() {
        return Arbitraries.of(
                "2026-01-01", "300000-01-01T00:00:00Z", "+10000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
                "0000-01-01T00:00:00Z", "-0001-01-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z",
                "2026-01-01T24:00:00Z", "2026-01-01T00:00:00+18:00", "2026-01-01T00:00:00+25:00", "2026-01-01T00:00:00",
                "1970-01-01T00:00:00Z", "2099-01-01T00:00:00.123456789+14:00", "300000-01-01",
                "0000-00-00", "2026-02-29", "1900-02-29", "99999-12-31", "2026-1-1", "20260101",
                "2026-01-01T00:00:00.0000000000000001Z", "");
    }

    private static Arbitrary<String> fieldName() {
        return Arbitraries.of("extra", "", "__proto__", "constructor", "id", "partnerId", "status", "createdAt", "memberId",
                "\u0000", "\ud800", "a".repeat(1_000), "email", "items", "$where", "nested.key", "drugId", "k".repeat(60_000));
    }
}
