package com.telemed.gateway.audit;

import com.telemed.common.audit.AuditEntry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** {@code GET /ops/v1/audit}'s answer (people-and-pages.md, "Audit"). */
public final class AuditViews {

    /** The operator key's {@code actor.name}. */
    static final String OPERATOR_KEY = "Operator key";

    private AuditViews() {
    }

    /**
     * Who acted: {@code type} {@code person}, {@code operator_key} or {@code pharmacy} ({@code service}
     * for a service's own act); {@code id} the account id, {@code service}, the pharmacy id; {@code name}
     * the account's name (null when no account has the id), {@code Operator key}, the pharmacy id.
     */
    public record Actor(String type, String id, String name) {
    }

    public record Entry(UUID id, Instant at, Actor actor, String action, String targetType, String targetId, String partnerId) {

        static Entry of(AuditEntry entry, Map<String, String> accountNames) {
            String name = switch (entry.actorType()) {
                case "person" -> accountNames.get(entry.actorId());
                case "operator_key" -> OPERATOR_KEY;
                default -> entry.actorId();
            };
            return new Entry(entry.id(), entry.at(), new Actor(entry.actorType(), entry.actorId(), name), entry.action(),
                    entry.targetType(), entry.targetId(), entry.partnerId());
        }
    }

    /** Newest first; {@code nextCursor} is the {@code after} of the next page, null after the last. */
    public record Page(List<Entry> entries, String nextCursor) {
    }
}
