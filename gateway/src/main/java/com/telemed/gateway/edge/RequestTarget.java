package com.telemed.gateway.edge;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The edge's reading of a request target, before anything routes it. Quarkus's own check (a
 * {@code java.net.URI} parse that answers an empty 400 before any handler runs) is turned off in
 * {@link GatewayMain}, so that this one answers with the platform's JSON error instead:
 * <ul>
 *   <li>a target that is not a URI (a malformed percent escape, a space, a control character), that
 *       carries a fragment (not part of an HTTP request target), or that holds a byte outside
 *       printable ASCII (RFC 9112: a target is ASCII, anything else percent-encoded; a raw byte was
 *       re-encoded after the forward was signed, and the service refused it 401):
 *       {@code 400 {"error":"Bad Request"}};</li>
 *   <li>a query parameter whose name or value percent-encodes bytes that are not UTF-8 (the only
 *       way an unpaired surrogate such as {@code %ED%A0%80} reaches a query): the contract's issue
 *       array, one {@code Invalid character} issue per such parameter, its path the parameter's
 *       name, as {@code decisions.md} rules for a string that cannot be stored.</li>
 * </ul>
 */
final class RequestTarget {

    sealed interface Verdict permits Accepted, NotAUri, InvalidParameters {
    }

    record Accepted() implements Verdict {
    }

    record NotAUri() implements Verdict {
    }

    /** Names (decoded where they can be, else as sent) of the parameters that do not decode. */
    record InvalidParameters(List<String> names) implements Verdict {
    }

    private static final Accepted ACCEPTED = new Accepted();

    private RequestTarget() {
    }

    static Verdict check(String target) {
        if (target == null || target.isEmpty() || target.indexOf('#') >= 0 || !printableAscii(target)) {
            return new NotAUri();
        }
        try {
            new URI(target);
        } catch (URISyntaxException e) {
            return new NotAUri();
        }
        int question = target.indexOf('?');
        if (question < 0 || question == target.length() - 1) {
            return ACCEPTED;
        }
        Set<String> invalid = new LinkedHashSet<>();
        for (String pair : target.substring(question + 1).split("&")) {
            int equals = pair.indexOf('=');
            String rawName = equals < 0 ? pair : pair.substring(0, equals);
            String name = decode(rawName);
            boolean valueDecodes = equals < 0 || decode(pair.substring(equals + 1)) != null;
            if (name == null || !valueDecodes) {
                invalid.add(name == null ? rawName : name);
            }
        }
        return invalid.isEmpty() ? ACCEPTED : new InvalidParameters(new ArrayList<>(invalid));
    }

    private static boolean printableAscii(String target) {
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c <= 0x20 || c >= 0x7F) {
                return false;
            }
        }
        return true;
    }

    /**
     * Form-decodes ({@code +} is a space) strictly: null when the escapes spell bytes that are not
     * UTF-8. The escapes themselves are well formed here, {@code java.net.URI} checked them.
     */
    static String decode(String raw) {
        if (raw.indexOf('%') < 0) {
            return raw.replace('+', ' ');
        }
        ByteBuffer bytes = ByteBuffer.allocate(raw.length() * 4);
        for (int i = 0; i < raw.length(); ) {
            int c = raw.codePointAt(i);
            if (c == '%' && i + 2 < raw.length()) {
                bytes.put((byte) Integer.parseInt(raw, i + 1, i + 3, 16));
                i += 3;
                continue;
            }
            bytes.put(c == '+' ? new byte[] {' '} : Character.toString(c).getBytes(StandardCharsets.UTF_8));
            i += Character.charCount(c);
        }
        bytes.flip();
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(bytes)
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
