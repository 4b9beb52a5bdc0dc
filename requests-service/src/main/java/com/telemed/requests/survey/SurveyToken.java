package com.telemed.requests.survey;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * A returning member's survey token (table {@code survey_tokens}, V14): kept only as the SHA-256
 * of the token ({@link SurveyTokens#hash}), by which it is found. Good for one submission until
 * {@link #expiresAt}.
 */
@Entity
@Table(name = "survey_tokens")
public class SurveyToken extends PanacheEntityBase {

    @Id
    @Column(name = "token_hash", nullable = false, updatable = false)
    public String tokenHash;

    @Column(name = "partner_id", nullable = false, updatable = false)
    public String partnerId;

    @Column(name = "member_id", nullable = false, updatable = false)
    public UUID memberId;

    @Column(name = "survey_id", nullable = false, updatable = false)
    public String surveyId;

    @Column(name = "expires_at", nullable = false, updatable = false)
    public Instant expiresAt;

    @Column(name = "used_at")
    public Instant usedAt;

    @Column(name = "response_id")
    public UUID responseId;

    @Column(name = "created_at", nullable = false, updatable = false)
    public Instant createdAt;
}
