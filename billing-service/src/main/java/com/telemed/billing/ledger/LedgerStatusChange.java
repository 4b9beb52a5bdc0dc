package com.telemed.billing.ledger;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * One point of a member's status timeline (table {@code ledger_status_changes}, V3): the status
 * they were created with (id = the member id) or a change (id = members-service's audit row id).
 */
@Entity
@Table(name = "ledger_status_changes")
public class LedgerStatusChange extends PanacheEntityBase {

    @Id
    @Column(name = "id", nullable = false, updatable = false)
    public UUID id;

    @Column(name = "partner_id", nullable = false, updatable = false)
    public String partnerId;

    @Column(name = "member_id", nullable = false, updatable = false)
    public UUID memberId;

    @Column(name = "status", nullable = false, updatable = false)
    public String status;

    @Column(name = "at", nullable = false, updatable = false)
    public Instant at;

    /** Arrival order, which breaks a tie of two changes in one millisecond. */
    @Column(name = "seq", nullable = false, insertable = false, updatable = false)
    public long seq;
}
