package com.telemed.common.audit;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;

/**
 * Where a page of audit entries ends: the last entry's {@code (at, id)}. The next page is the entries
 * strictly older in the order {@code (at desc, id desc)}, so a page is exact without any state kept
 * between calls, across every service's table. On the wire (the gateway's {@code nextCursor} and
 * {@code after}) it is opaque: base64url, without padding, of {@code <at ISO-8601>|<id>}.
 */
public record AuditCursor(Instant at, UUID id) {

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
    /** A cursor this class wrote is about 60 characters; anything much longer is not one. */
    private static final int MAX_LENGTH = 200;

    public static AuditCursor of(AuditEntry entry) {
        return new AuditCursor(entry.at(), entry.id());
    }

    public String encode() {
        return ENCODER.encodeToString((at + "|" + id).getBytes(StandardCharsets.UTF_8));
    }

    /** The cursor {@code text} encodes; empty for anything {@link #encode()} cannot have written. */
    public static Optional<AuditCursor> decode(String text) {
        if (text == null || text.isEmpty() || text.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        try {
            String decoded = new String(DECODER.decode(text), StandardCharsets.UTF_8);
            int bar = decoded.indexOf('|');
            if (bar < 0) {
                return Optional.empty();
            }
            Instant at = Instant.parse(decoded.substring(0, bar));
            String id = decoded.substring(bar + 1);
            UUID uuid = UUID.fromString(id);
            // UUID.fromString accepts short groups ("1-2-3-4-5"): only the canonical form is ours.
            return uuid.toString().equals(id) ? Optional.of(new AuditCursor(at, uuid)) : Optional.empty();
        } catch (IllegalArgumentException | DateTimeParseException notOurs) {
            return Optional.empty();
        }
    }
}
