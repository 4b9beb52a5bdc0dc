package com.telemed.gateway.identity;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * A sign-in that failed, or is still being checked (table {@code sign_in_failures}; {@link SignIns}):
 * the SHA-256 of the lower-cased email, never the email, and when. Counted in the database so that
 * every gateway replica applies the same limit.
 */
@Entity
@Table(name = "sign_in_failures")
public class SignInFailure extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(name = "email_hash", columnDefinition = "bpchar(64)")
    public String emailHash;

    @Column(name = "at")
    public Instant failedAt;
}
