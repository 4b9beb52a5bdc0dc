package com.telemed.members.audit;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/** One partner-made change of a member's status (table {@code member_status_audit}, Flyway V3). */
@Entity
@Table(name = "member_status_audit")
public class MemberStatusAudit extends PanacheEntityBase {

    @Id
    @Column(name = "id", nullable = false, updatable = false)
    public UUID id;

    @Column(name = "member_id", nullable = false, updatable = false)
    public UUID memberId;

    @Column(name = "partner_id", nullable = false, updatable = false)
    public String partnerId;

    @Column(name = "previous_status", nullable = false, updatable = false)
    public String previousStatus;

    @Column(name = "new_status", nullable = false, updatable = false)
    public String newStatus;

    @Column(name = "changed_at", nullable = false, updatable = false)
    public Instant changedAt;

    /**
     * The partner's status changes of these members, in one query ({@code member_status_audit_member_idx}):
     * by member, then oldest first ({@code changed_at}, then id).
     */
    public static List<MemberStatusAudit> ofMembers(String partnerId, Collection<UUID> memberIds) {
        if (memberIds.isEmpty()) {
            return List.of();
        }
        return list("partnerId = ?1 and memberId in ?2 order by memberId, changedAt, id", partnerId, memberIds);
    }
}
