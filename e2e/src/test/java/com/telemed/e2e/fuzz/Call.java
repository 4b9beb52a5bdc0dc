package com.telemed.e2e.fuzz;

import com.telemed.e2e.fuzz.Endpoint.Surface;
import com.telemed.testkit.http.RawHttp;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * One generated call: an endpoint, then everything about it that may be bad. Ids, credentials and
 * fresh values stay symbolic until {@link #request} writes the call against the fixture of the
 * moment, so a shrunk call reads the same whichever resources it meets.
 */
public record Call(Endpoint endpoint, String method, List<PathId> ids, List<QueryPart> query, Headers headers, Body body) {

    /** Stands for "the usual value" in {@link Headers}. */
    static final String DEFAULT = "<default>";

    /** What fills one id of the path. */
    public record PathId(Kind kind, String odd) {
        public enum Kind { FIXTURE, UNKNOWN, UPPER_CASE, REPLACED, APPENDED }

        String render(String fixtureId) {
            return switch (kind) {
                case FIXTURE -> fixtureId;
                case UNKNOWN -> Fixture.UNKNOWN;
                case UPPER_CASE -> fixtureId.toUpperCase(Locale.ROOT);
                case REPLACED -> odd;
                case APPENDED -> fixtureId + odd;
            };
        }

        String describe(Slot slot) {
            return switch (kind) {
                case FIXTURE -> "{" + slot.label() + "}";
                case UNKNOWN -> "{unknown}";
                case UPPER_CASE -> "{" + slot.label() + ".upper}";
                case REPLACED -> Text.abbreviateRaw(odd);
                case APPENDED -> "{" + slot.label() + "}" + Text.abbreviateRaw(odd);
            };
        }
    }

    /** One piece of the query string, written as is (already percent-encoded, or deliberately not). */
    public record QueryPart(String name, Object value, Form form) {
        public enum Form { PAIR, NAME_ONLY, VALUE_ONLY }

        String render(Function<Slot, String> ids) {
            String text = value instanceof Slot slot ? ids.apply(slot) : (String) value;
            return switch (form) {
                case PAIR -> name + "=" + text;
                case NAME_ONLY -> name;
                case VALUE_ONLY -> text;
            };
        }

        String describe() {
            String text = value instanceof Slot slot ? "{" + slot.label() + "}" : Text.abbreviateRaw((String) value);
            return switch (form) {
                case PAIR -> Text.abbreviateRaw(name) + "=" + text;
                case NAME_ONLY -> Text.abbreviateRaw(name);
                case VALUE_ONLY -> text;
            };
        }
    }

    /** The credential of the endpoint's surface: right, missing, wrong in some way, or another surface's. */
    public record Credential(Kind kind, String odd) {
        public enum Kind { RIGHT, MISSING, REPLACED, OTHER_SURFACE }
    }

    /**
     * Header choices: {@code contentType} {@link #DEFAULT} is the body's own ({@link Body#contentType})
     * when a body is sent, null sends none; {@code origin} (embed) {@link #DEFAULT} is the allowed one;
     * {@code idempotencyKey} and the rest: null sends none. {@code chunked} sends the body chunked.
     * {@code forwarding}: the headers a proxy sets ({@code X-Forwarded-For}, {@code Forwarded}, ...),
     * sent by a client the platform trusts as no proxy, so that they change nothing.
     */
    public record Headers(String contentType, Credential credential, String idempotencyKey, String accept, String requestId,
                          String origin, boolean chunked, List<Forwarding> forwarding) {
    }

    /** A proxy's header, as a client that is none sends it. */
    public record Forwarding(String name, String value) {
    }

    /** A request body, written against the fixture. */
    public interface Body {
        /** The bytes, or null for no body at all. */
        byte[] render(Function<Slot, String> ids);

        String describe();

        /** The {@code Content-Type} a client would send with it. */
        default String contentType() {
            return "application/json";
        }

        /**
         * A {@code Content-Length} to declare instead of sending the bytes ({@link #render} is then
         * null): the call carries that header and no body, and asks for the connection's close.
         */
        default Optional<String> declared() {
            return Optional.empty();
        }
    }

    /** The request as it goes on the wire. */
    RawHttp.Request request(Fixture fixture) {
        Function<Slot, String> ids = fixture::id;
        StringBuilder target = new StringBuilder();
        int slot = 0;
        for (Object part : endpoint.path()) {
            if (part instanceof Slot s) {
                target.append(this.ids.get(slot++).render(fixture.id(s)));
            } else {
                target.append(part);
            }
        }
        if (!query.isEmpty()) {
            target.append('?');
            for (int i = 0; i < query.size(); i++) {
                if (i > 0) {
                    target.append('&');
                }
                target.append(query.get(i).render(ids));
            }
        }
        byte[] bytes = body.render(ids);
        Optional<String> declared = body.declared();
        List<RawHttp.Header> sent = new ArrayList<>();
        credentialHeaders(fixture, sent);
        if (headers.contentType() != null) {
            String type = DEFAULT.equals(headers.contentType())
                    ? (bytes == null && declared.isEmpty() ? null : body.contentType()) : headers.contentType();
            if (type != null) {
                sent.add(new RawHttp.Header("Content-Type", type));
            }
        }
        if (headers.idempotencyKey() != null) {
            sent.add(new RawHttp.Header("Idempotency-Key",
                    Slot.FRESH.label().equals(headers.idempotencyKey()) ? fixture.id(Slot.FRESH) : headers.idempotencyKey()));
        }
        if (headers.accept() != null) {
            sent.add(new RawHttp.Header("Accept", headers.accept()));
        }
        if (headers.requestId() != null) {
            sent.add(new RawHttp.Header("X-Request-Id", headers.requestId()));
        }
        headers.forwarding().forEach(header -> sent.add(new RawHttp.Header(header.name(), header.value())));
        if (declared.isPresent()) {
            // The body is not sent: the connection ends with this call's answer, whatever the server makes of it.
            sent.add(new RawHttp.Header("Content-Length", declared.get()));
            sent.add(new RawHttp.Header("Connection", "close"));
        }
        return new RawHttp.Request(method, target.toString(), sent, bytes, headers.chunked() && bytes != null);
    }

    private void credentialHeaders(Fixture fixture, List<RawHttp.Header> sent) {
        Surface surface = endpoint.surface();
        String name = switch (surface) {
            case PARTNER -> "x-api-key";
            case EMBED -> "x-service-publishable-key";
            case OPS -> "x-ops-key";
        };
        String right = switch (surface) {
            case PARTNER -> fixture.apiKey();
            case EMBED -> fixture.publishableKey();
            case OPS -> fixture.opsKey();
        };
        Credential credential = headers.credential();
        switch (credential.kind()) {
            case RIGHT -> sent.add(new RawHttp.Header(name, right));
            case MISSING -> {
            }
            case REPLACED -> sent.add(new RawHttp.Header(name, credential.odd()));
            case OTHER_SURFACE -> {
                if (surface == Surface.OPS) {
                    sent.add(new RawHttp.Header("x-api-key", fixture.apiKey()));
                } else {
                    sent.add(new RawHttp.Header("x-ops-key", fixture.opsKey()));
                }
            }
        }
        if (surface == Surface.EMBED && headers.origin() != null) {
            sent.add(new RawHttp.Header("Origin", DEFAULT.equals(headers.origin()) ? Fixture.ORIGIN : headers.origin()));
        }
    }

    /** Whether the gateway lets this call through to its service (the right credential, and an allowed origin on embed). */
    boolean authenticated() {
        return headers.credential().kind() == Credential.Kind.RIGHT
                && (endpoint.surface() != Surface.EMBED || DEFAULT.equals(headers.origin()));
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(method).append(' ');
        int slot = 0;
        for (Object part : endpoint.path()) {
            text.append(part instanceof Slot s ? ids.get(slot++).describe(s) : part);
        }
        if (!query.isEmpty()) {
            text.append('?');
            for (int i = 0; i < query.size(); i++) {
                text.append(i > 0 ? "&" : "").append(query.get(i).describe());
            }
        }
        if (!method.equals(endpoint.method())) {
            text.append(" (endpoint ").append(endpoint.method()).append(')');
        }
        List<String> notes = new ArrayList<>();
        if (headers.credential().kind() != Credential.Kind.RIGHT) {
            notes.add("credential " + headers.credential().kind()
                    + (headers.credential().odd() == null ? "" : " " + Text.abbreviate(headers.credential().odd())));
        }
        if (!DEFAULT.equals(headers.contentType())) {
            notes.add("Content-Type " + Text.abbreviate(headers.contentType()));
        }
        if (endpoint.surface() == Surface.EMBED && !DEFAULT.equals(headers.origin())) {
            notes.add("Origin " + Text.abbreviate(headers.origin()));
        }
        addIfSet(notes, "Idempotency-Key", headers.idempotencyKey());
        addIfSet(notes, "Accept", headers.accept());
        addIfSet(notes, "X-Request-Id", headers.requestId());
        headers.forwarding().forEach(header -> addIfSet(notes, header.name(), header.value()));
        if (headers.chunked()) {
            notes.add("chunked");
        }
        if (!notes.isEmpty()) {
            text.append(" [").append(String.join(", ", notes)).append(']');
        }
        return text.append(" body: ").append(body.describe()).toString();
    }

    private static void addIfSet(List<String> notes, String name, String value) {
        if (value != null) {
            notes.add(name + " " + Text.abbreviate(value));
        }
    }

    // ---- bodies --------------------------------------------------------------------------------

    /** No body, no length. */
    record NoBody() implements Body {
        @Override
        public byte[] render(Function<Slot, String> ids) {
            return null;
        }

        @Override
        public String describe() {
            return "none";
        }
    }

    record JsonBody(Json json) implements Body {
        @Override
        public byte[] render(Function<Slot, String> ids) {
            return Json.write(json, ids);
        }

        @Override
        public String describe() {
            return Json.describe(json);
        }
    }

    /** Text that is not JSON (or an empty body, for ""). */
    record TextBody(String text) implements Body {
        @Override
        public byte[] render(Function<Slot, String> ids) {
            return text.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String describe() {
            return "text " + Text.abbreviate(text);
        }
    }

    /** A valid JSON text cut after {@code permille} of its bytes. */
    record Truncated(Json json, int permille) implements Body {
        @Override
        public byte[] render(Function<Slot, String> ids) {
            byte[] whole = Json.write(json, ids);
            return Arrays.copyOf(whole, Math.min(whole.length - 1, whole.length * permille / 1000));
        }

        @Override
        public String describe() {
            return "first " + permille + "/1000 of " + Json.describe(json);
        }
    }

    /** Bytes (invalid UTF-8, a BOM) spliced into a JSON text after {@code permille} of it. */
    record Spliced(Json json, int permille, byte[] bytes) implements Body {
        @Override
        public byte[] render(Function<Slot, String> ids) {
            byte[] whole = Json.write(json, ids);
            int at = whole.length * permille / 1000;
            byte[] out = new byte[whole.length + bytes.length];
            System.arraycopy(whole, 0, out, 0, at);
            System.arraycopy(bytes, 0, out, at, bytes.length);
            System.arraycopy(whole, at, out, at + bytes.length, whole.length - at);
            return out;
        }

        @Override
        public String describe() {
            StringBuilder hex = new StringBuilder();
            for (byte b : bytes) {
                hex.append(String.format("%02x", b & 0xff));
            }
            return "bytes 0x" + hex + " at " + permille + "/1000 of " + Json.describe(json);
        }
    }

    /**
     * A valid JSON value followed by {@code trailing}: more JSON, garbage, or whitespace padding past
     * the body limit. Only whitespace within the limit may be accepted; a service acts on a body only
     * once it has read all of it.
     */
    record Trailing(Json json, String trailing) implements Body {
        @Override
        public byte[] render(Function<Slot, String> ids) {
            byte[] whole = Json.write(json, ids);
            byte[] more = trailing.getBytes(StandardCharsets.UTF_8);
            byte[] out = Arrays.copyOf(whole, whole.length + more.length);
            System.arraycopy(more, 0, out, whole.length, more.length);
            return out;
        }

        @Override
        public String describe() {
            return Json.describe(json) + " then " + Text.abbreviate(trailing);
        }
    }

    /** A valid JSON object padded with an unknown string field to exactly {@code size} bytes (or more, when it is larger). */
    record Oversized(Json json, int size) implements Body {
        @Override
        public byte[] render(Function<Slot, String> ids) {
            byte[] whole = Json.write(json, ids);
            String text = new String(whole, StandardCharsets.UTF_8);
            boolean object = text.endsWith("}") && text.length() > 2;
            String open = object ? text.substring(0, text.length() - 1) + ",\"padding\":\"" : "[" + text + ",\"";
            String close = object ? "\"}" : "\"]";
            int padding = Math.max(0, size - open.getBytes(StandardCharsets.UTF_8).length - close.length());
            return (open + "x".repeat(padding) + close).getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String describe() {
            return size + " bytes: " + Json.describe(json) + " padded";
        }
    }
}
