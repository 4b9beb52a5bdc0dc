package com.telemed.messaging.conversation;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Where a page of the console's list of threads ends, and as of when the list is read. The list's order
 * is {@code (unread, lastMessageAt, id)} descending (threads with patient messages the prescriber has
 * not read first, then the latest message first, the id breaking ties), each thread placed as it stood
 * at {@code asOf}, the moment the first page was read ({@link Conversation#console}); the next page is
 * the threads strictly after the last one shown, so no thread comes twice or is skipped however the
 * threads change between pages, and no state is kept between calls. On the wire ({@code nextCursor},
 * {@code after}) it is opaque: base64url, without padding, of
 * {@code <asOf ISO-8601>|<1|0>|<lastMessageAt ISO-8601>|<id>}.
 */
public record ConversationCursor(Instant asOf, boolean unread, Instant lastMessageAt, UUID id) {

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
    /** A cursor this class wrote is about 120 characters; anything much longer is not one. */
    private static final int MAX_LENGTH = 300;
    /** Instants as {@link Instant#toString()} writes them for years 0000 to 9999, all PostgreSQL's {@code timestamptz} holds here. */
    private static final Pattern INSTANT = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T[0-9:.]+Z");

    public String encode() {
        return ENCODER.encodeToString((asOf + "|" + (unread ? "1" : "0") + "|" + lastMessageAt + "|" + id)
                .getBytes(StandardCharsets.UTF_8));
    }

    /** The cursor {@code text} encodes; empty for anything {@link #encode()} cannot have written. */
    public static Optional<ConversationCursor> decode(String text) {
        if (text == null || text.isEmpty() || text.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        try {
            String[] parts = new String(DECODER.decode(text), StandardCharsets.UTF_8).split("\\|", -1);
            if (parts.length != 4 || !(parts[1].equals("1") || parts[1].equals("0"))
                    || !INSTANT.matcher(parts[0]).matches() || !INSTANT.matcher(parts[2]).matches()) {
                return Optional.empty();
            }
            Instant asOf = Instant.parse(parts[0]);
            Instant at = Instant.parse(parts[2]);
            UUID id = UUID.fromString(parts[3]);
            // UUID.fromString accepts short groups ("1-2-3-4-5"): only the canonical form is ours.
            return id.toString().equals(parts[3])
                    ? Optional.of(new ConversationCursor(asOf, parts[1].equals("1"), at, id)) : Optional.empty();
        } catch (IllegalArgumentException | DateTimeParseException notOurs) {
            return Optional.empty();
        }
    }
}
