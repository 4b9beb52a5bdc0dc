package com.telemed.common.audit;

import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import jakarta.transaction.Transactional;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Reads the service's own {@code audit_entries}: what {@link AuditQuery} selects, newest first by
 * {@code (at desc, id desc)}, one range read of the index {@code audit_entries_newest} (the cursor is a
 * row comparison on that key). {@code GET /internal/audit} answers with it; the gateway reads its own
 * table with it too.
 */
@ApplicationScoped
@IfBuildProperty(name = "platform.audit.enabled", stringValue = "true")
public class AuditEntries {

    private final EntityManager entityManager;

    public AuditEntries(EntityManager entityManager) {
        this.entityManager = entityManager;
    }

    /**
     * Native SQL: commons has no entity for the table, and JPQL has no row-value comparison
     * ({@code (at, id) < (?, ?)}), which is what lets the index serve the cursor.
     */
    @Transactional
    public List<AuditEntry> read(AuditQuery query) {
        StringBuilder sql = new StringBuilder("select cast(id as text), at, actor_type, actor_id, action, target_type,"
                + " target_id, partner_id from audit_entries where true");
        List<Object> values = new ArrayList<>();
        query.actor().ifPresent(actor -> condition(sql, values, "actor_id = ?", actor));
        query.action().ifPresent(action -> condition(sql, values, "action = ?", action));
        query.targetId().ifPresent(target -> condition(sql, values, "target_id = ?", target));
        query.from().ifPresent(from -> condition(sql, values, "at >= ?", utc(from)));
        query.to().ifPresent(to -> condition(sql, values, "at < ?", utc(to)));
        query.before().ifPresent(cursor -> {
            values.add(utc(cursor.at()));
            values.add(cursor.id().toString());
            sql.append(" and (at, id) < (?").append(values.size() - 1).append(", cast(?").append(values.size()).append(" as uuid))");
        });
        values.add(query.limit());
        sql.append(" order by at desc, id desc limit ?").append(values.size());
        Query select = entityManager.createNativeQuery(sql.toString());
        for (int i = 0; i < values.size(); i++) {
            select.setParameter(i + 1, values.get(i));
        }
        List<AuditEntry> entries = new ArrayList<>();
        for (Object row : select.getResultList()) {
            Object[] columns = (Object[]) row;
            entries.add(new AuditEntry(UUID.fromString((String) columns[0]), instant(columns[1]), (String) columns[2],
                    (String) columns[3], (String) columns[4], (String) columns[5], (String) columns[6], (String) columns[7]));
        }
        return entries;
    }

    private static void condition(StringBuilder sql, List<Object> values, String condition, Object value) {
        values.add(value);
        sql.append(" and ").append(condition.replace("?", "?" + values.size()));
    }

    private static OffsetDateTime utc(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private static Instant instant(Object value) {
        if (value instanceof Instant instant) {
            return instant;
        }
        if (value instanceof OffsetDateTime offset) {
            return offset.toInstant();
        }
        if (value instanceof Timestamp timestamp) {
            return timestamp.toInstant();
        }
        throw new IllegalStateException("audit_entries.at read as " + value.getClass().getName());
    }
}
