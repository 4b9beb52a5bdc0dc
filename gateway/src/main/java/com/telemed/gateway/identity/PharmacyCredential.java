package com.telemed.gateway.identity;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * A pharmacy's credential (table {@code pharmacy_credentials}): the SHA-256 of its {@code phk_} key,
 * shown once. It opens {@code /ops} as {@code pharmacy:<pharmacyId>} until revoked
 * ({@code edge.Credentials.pharmacyForKey}).
 */
@Entity
@Table(name = "pharmacy_credentials")
public class PharmacyCredential extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(name = "pharmacy_id")
    public String pharmacyId;

    @Column(name = "key_hash", columnDefinition = "bpchar(64)")
    public String keyHash;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "revoked_at")
    public Instant revokedAt;
}
