package com.telemed.requests.prescriber;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/** A prescriber (table {@code prescribers}, created by Flyway V2). Never leaves the service as is. */
@Entity
@Table(name = "prescribers")
public class Prescriber extends PanacheEntityBase {

    @Id
    @Column(name = "id", nullable = false, updatable = false)
    public UUID id;

    @Column(name = "name", nullable = false)
    public String name;

    /** As given by the operator; unique case-insensitively (index {@code prescribers_email_lower_key}). */
    @Column(name = "email", nullable = false)
    public String email;

    @Column(name = "created_at", nullable = false, updatable = false)
    public Instant createdAt;

    /**
     * Inserts this prescriber unless one with the same email (compared with {@code lower()})
     * exists, returning whether it was inserted. The unique index arbitrates: a concurrent insert
     * of the same email waits for the other transaction and then inserts nothing. No statement
     * fails on a duplicate, so nothing is rolled back, and no driver or server error message
     * (which would quote the email) is logged.
     */
    public boolean insertUnlessEmailTaken() {
        int inserted = getEntityManager()
                .createNativeQuery("INSERT INTO prescribers (id, name, email, created_at) VALUES (:id, :name, :email, :createdAt)"
                        + " ON CONFLICT (lower(email)) DO NOTHING")
                .setParameter("id", id)
                .setParameter("name", name)
                .setParameter("email", email)
                .setParameter("createdAt", createdAt)
                .executeUpdate();
        return inserted == 1;
    }
}
