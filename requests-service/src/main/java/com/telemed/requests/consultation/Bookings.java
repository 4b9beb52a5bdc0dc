package com.telemed.requests.consultation;

import com.telemed.requests.review.ReviewConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;

/** Booking links: an unguessable token, valid for the configured time; the URL ends with the token. */
@ApplicationScoped
public class Bookings {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final ReviewConfig config;

    public Bookings(ReviewConfig config) {
        this.config = config;
    }

    public record Link(String bookingUrl, Instant bookingExpiresAt) {
    }

    /** Issues a new link for the request (and item, when the consultation is about one item). */
    public Link issue(String partnerId, UUID requestId, UUID itemId, UUID prescriberId, Instant at) {
        byte[] secret = new byte[24];
        RANDOM.nextBytes(secret);
        Consultation consultation = new Consultation();
        consultation.id = UUID.randomUUID();
        consultation.partnerId = partnerId;
        consultation.requestId = requestId;
        consultation.itemId = itemId;
        consultation.prescriberId = prescriberId;
        consultation.token = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        consultation.expiresAt = at.plus(config.booking().validity());
        consultation.createdAt = at;
        consultation.persist();
        String base = config.booking().baseUrl().replaceAll("/+$", "");
        return new Link(base + "/book/" + consultation.token, consultation.expiresAt);
    }
}
