package com.telemed.gateway.identity;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * A session of a local account (table {@code sessions}): the SHA-256 of its {@code ops_} token,
 * never the token. It opens {@code /ops} until {@code expiresAt} (12 hours), unless it ended first
 * (sign-out, the account deleted). The edge's lookup is {@code edge.Credentials.personForSession}.
 */
@Entity
@Table(name = "sessions")
public class AccountSession extends PanacheEntityBase {

    @Id
    @Column(name = "token_hash", columnDefinition = "bpchar(64)")
    public String tokenHash;

    @Column(name = "account_id")
    public UUID accountId;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "expires_at")
    public Instant expiresAt;

    @Column(name = "ended_at")
    public Instant endedAt;
}
