package com.telemed.common.audit;

import java.time.Instant;
import java.util.Comparator;
import java.util.UUID;

/**
 * One row of a service's {@code audit_entries} table, as {@code GET /internal/audit} answers it
 * (people-and-pages.md, "Audit"). Ids only: the actor's id, the target's id and the partner's id,
 * never a name, an email, a text or a token.
 *
 * @param actorType  {@code person}, {@code operator_key}, {@code pharmacy} or {@code service}
 *                   ({@link com.telemed.common.access.Principal.Type#wire()})
 * @param actorId    the account id, {@code service} for the operator key, the pharmacy id, the module
 * @param action     {@code <targetType>.<verb>}, lowercase snake case ({@code request.approve})
 * @param targetId   null when the action has no one target ({@code queue.read})
 * @param partnerId  null when the target belongs to no partner
 */
public record AuditEntry(UUID id, Instant at, String actorType, String actorId, String action, String targetType,
                         String targetId, String partnerId) {

    /**
     * The order of every audit read: {@code at} descending, then {@code id} descending as PostgreSQL
     * orders uuids (unsigned, byte by byte: the canonical text's order; {@link UUID#compareTo} compares
     * signed halves and would disagree), so entries merged from several services' tables page exactly.
     */
    public static final Comparator<AuditEntry> NEWEST_FIRST = Comparator.comparing(AuditEntry::at)
            .thenComparing(entry -> entry.id().toString())
            .reversed();
}
