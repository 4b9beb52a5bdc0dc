package com.telemed.billing.ledger;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * A member as billing knows it (table {@code ledger_members}, V3): the names and email of their
 * latest member event and their first approval. Written only by {@link LedgerWrites}' merges.
 */
@Entity
@Table(name = "ledger_members")
public class LedgerMember extends PanacheEntityBase {

    @Id
    @Column(name = "member_id", nullable = false, updatable = false)
    public UUID memberId;

    @Column(name = "partner_id", nullable = false, updatable = false)
    public String partnerId;

    @Column(name = "first_name")
    public String firstName;

    @Column(name = "last_name")
    public String lastName;

    @Column(name = "email")
    public String email;

    /** When the names were true: an older event never overwrites them. */
    @Column(name = "names_at")
    public Instant namesAt;

    /** The first approval; null until one is seen. */
    @Column(name = "billing_start")
    public Instant billingStart;
}
