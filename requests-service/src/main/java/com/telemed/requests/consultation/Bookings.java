package com.telemed.requests.consultation;

import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.UUID;

/**
 * Booking links: an unguessable token, valid for the configured time; the URL ends with the token.
 * The token is a bearer credential: it is handed out once, in the link returned when it is issued,
 * and stored only as its SHA-256 ({@link #hash}), by which it is looked up.
 */
@ApplicationScoped
public class Bookings {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final BookingConfig config;

    public Bookings(BookingConfig config) {
        this.config = config;
    }

    public record Link(String bookingUrl, Instant bookingExpiresAt) {
    }

    /** Issues a new link for the request (and item, when the consultation is about one item). */
    public Link issue(String partnerId, UUID requestId, UUID itemId, UUID prescriberId, Instant at) {
        byte[] secret = new byte[24];
        RANDOM.nextBytes(secret);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        Consultation consultation = new Consultation();
        consultation.id = UUID.randomUUID();
        consultation.partnerId = partnerId;
        consultation.requestId = requestId;
        consultation.itemId = itemId;
        consultation.prescriberId = prescriberId;
        consultation.tokenHash = hash(token);
        consultation.expiresAt = at.plus(config.validity());
        consultation.createdAt = at;
        consultation.persist();
        // Present: production refuses to start without it, the development profiles default it.
        String base = config.baseUrl().orElseThrow(() -> new IllegalStateException("BOOKING_BASE_URL is not set"))
                .replaceAll("/+$", "");
        return new Link(base + "/book/" + token, consultation.expiresAt);
    }

    /** The consultation a booking token was issued for, expired or not; none for an unknown token. */
    public Optional<Consultation> byToken(String token) {
        if (token == null || token.isEmpty()) {
            return Optional.empty();
        }
        return Consultation.<Consultation>find("tokenHash", hash(token)).firstResultOptional();
    }

    /**
     * SHA-256 of the token's UTF-8 bytes in lowercase hex: what V8__booking_token_hash.sql computes for
     * the rows it converted ({@code encode(sha256(convert_to(token, 'UTF8')), 'hex')}).
     */
    static String hash(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is unavailable", e);
        }
    }
}
