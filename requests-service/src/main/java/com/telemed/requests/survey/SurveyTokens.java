package com.telemed.requests.survey;

import com.telemed.common.error.ApiException;
import com.telemed.requests.member.MemberRecord;
import com.telemed.requests.member.MembersClient;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Returning-member survey tokens ({@code POST /v1/surveys/v2/tokens}; partner-api.md, "Survey
 * token"): 32 bytes of {@link SecureRandom} (256 bits) in base64url without padding, valid for
 * {@link #LIFETIME}, good for one submission. A token is a bearer credential: it is returned once
 * and stored only as its SHA-256 ({@link #hash}), by which it is found. A token that is unknown,
 * expired (by the injected clock), already used, or another partner's than the one the gateway
 * forwards is {@code 401 Invalid survey token}, all alike.
 */
@ApplicationScoped
public class SurveyTokens {

    static final Duration LIFETIME = Duration.ofHours(24);
    static final int TOKEN_BYTES = 32;
    static final String INVALID = "Invalid survey token";
    static final String MEMBER_NOT_FOUND = "Member not found";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final MembersClient members;
    private final Clock clock;

    public SurveyTokens(MembersClient members, Clock clock) {
        this.members = members;
        this.clock = clock;
    }

    /**
     * Mints a token for the partner's member and the survey: {@code 404 Survey not found} (asked
     * first: no call to members-service for it), then {@code 404 Member not found} for an unknown,
     * foreign or malformed member id (members-service, asked with no transaction open).
     */
    public SurveyViews.Token issue(String partnerId, SurveyTokenInput input) {
        QuarkusTransaction.requiringNew().run(() -> Surveys.existing(input.surveyId()));
        MemberRecord member = members.find(partnerId, input.memberId())
                .orElseThrow(() -> ApiException.notFound(MEMBER_NOT_FOUND));
        byte[] secret = new byte[TOKEN_BYTES];
        RANDOM.nextBytes(secret);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        return QuarkusTransaction.requiringNew().call(() -> {
            Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
            SurveyToken stored = new SurveyToken();
            stored.tokenHash = hash(token);
            stored.partnerId = partnerId;
            stored.memberId = member.id();
            stored.surveyId = input.surveyId();
            stored.createdAt = now;
            stored.expiresAt = now.plus(LIFETIME);
            stored.persist();
            return new SurveyViews.Token(token, stored.expiresAt);
        });
    }

    /**
     * {@code GET /internal/survey-tokens?token=} (the hosted survey page's, which has the token and
     * nothing else): the partner of a token still usable now, else {@code 401 Invalid survey token}.
     * The page then reads and submits as the embed does, with that partner.
     */
    public String partnerOf(String token) {
        return QuarkusTransaction.requiringNew().call(() -> {
            if (token == null || token.isEmpty()) {
                throw new ApiException(401, INVALID);
            }
            SurveyToken found = SurveyToken.findById(hash(token));
            if (found == null) {
                throw new ApiException(401, INVALID);
            }
            return usable(found.partnerId, token, clock.instant().truncatedTo(ChronoUnit.MILLIS), false).partnerId;
        });
    }

    /**
     * In an open transaction: the token's row, still usable by this partner at {@code now}, else
     * {@code 401 Invalid survey token}. {@code lock}: held until commit, so of two submissions with
     * one token only the first is taken.
     */
    static SurveyToken usable(String partnerId, String token, Instant now, boolean lock) {
        if (token == null || token.isEmpty()) {
            throw new ApiException(401, INVALID);
        }
        SurveyToken found = lock ? SurveyToken.findById(hash(token), LockModeType.PESSIMISTIC_WRITE) : SurveyToken.findById(hash(token));
        if (found == null || !found.partnerId.equals(partnerId) || !found.expiresAt.isAfter(now) || found.usedAt != null) {
            throw new ApiException(401, INVALID);
        }
        return found;
    }

    /** SHA-256 of the token's UTF-8 bytes in lowercase hex, as booking tokens are kept. */
    static String hash(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is unavailable", e);
        }
    }
}
