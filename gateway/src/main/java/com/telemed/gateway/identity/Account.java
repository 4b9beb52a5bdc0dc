package com.telemed.gateway.identity;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A local account (table {@code accounts}, Flyway V3): a person on {@code /ops} with roles, the
 * prescriber they are if any, and an Argon2id hash of their password ({@link Passwords}). Deleting
 * one sets {@code deletedAt}: its sessions end and its email is free again. Never leaves the
 * gateway as is ({@link IdentityViews.AccountView}); the password hash never leaves it at all.
 */
@Entity
@Table(name = "accounts")
public class Account extends PanacheEntityBase {

    @Id
    public UUID id;

    /** As given; unique among live accounts case-insensitively (index {@code accounts_email_lower_key}). */
    public String email;

    public String name;

    @Column(name = "prescriber_id")
    public UUID prescriberId;

    /** Null for an account provisioned from an OpenID Connect token (V5): it has no password. */
    @Column(name = "password_hash")
    public String passwordHash;

    /** The roles' wire names ({@code admin}, {@code prescriber}, {@code support}). */
    @ElementCollection(fetch = FetchType.EAGER)
    @CollectionTable(name = "account_roles", joinColumns = @JoinColumn(name = "account_id"))
    @Column(name = "role")
    public Set<String> roles = new HashSet<>();

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "deleted_at")
    public Instant deletedAt;

    /** The live account with this id. */
    public static Optional<Account> findLive(UUID id) {
        return Account.<Account>find("id = ?1 and deletedAt is null", id).firstResultOptional();
    }

    /** The live account signing in with this email, compared case-insensitively. */
    public static Optional<Account> findLiveByEmail(String email) {
        return Account.<Account>find("lower(email) = lower(?1) and deletedAt is null", email).firstResultOptional();
    }

    /** Every live account, oldest first. */
    public static List<Account> listLive() {
        return Account.<Account>find("deletedAt is null order by createdAt, id").list();
    }
}
