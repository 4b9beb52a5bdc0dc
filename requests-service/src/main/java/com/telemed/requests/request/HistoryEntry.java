package com.telemed.requests.request;

import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.sql.PreparedStatement;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.hibernate.Session;

/**
 * One audit entry (table {@code history_entries}). A request's history is all its entries; an
 * item's history is the entries naming that item. {@code by} is {@code api}, {@code partner:<id>},
 * {@code service} or a prescriber id (partner-api.md, "History entry").
 */
@Entity
@Table(name = "history_entries")
public class HistoryEntry extends PanacheEntityBase {

    public static final String API = "api";
    public static final String SERVICE = "service";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    @Column(name = "id", nullable = false, updatable = false)
    public Long id;

    @Column(name = "request_id", nullable = false, updatable = false)
    public UUID requestId;

    @Column(name = "item_id", updatable = false)
    public UUID itemId;

    @Column(name = "action", nullable = false, updatable = false)
    public String action;

    @Column(name = "by_actor", nullable = false, updatable = false)
    public String by;

    @Column(name = "reason", updatable = false)
    public String reason;

    @Column(name = "at", nullable = false, updatable = false)
    public Instant at;

    /**
     * Appends an entry in the current transaction. The entity state waiting in the session is flushed
     * first (the entry references its request, which may be new), then one plain INSERT on the
     * transaction's connection: the id comes from the column's sequence and is not read back, where a
     * persisted entity's IDENTITY id made Hibernate insert at once and read the whole row back
     * ({@code RETURNING *}), on every create's path (issue 23). Entries are never changed, and every read
     * is a query, which sees the row.
     */
    public static void record(UUID requestId, UUID itemId, String action, String by, String reason, Instant at) {
        Session session = Panache.getEntityManager().unwrap(Session.class);
        session.flush();
        session.doWork(connection -> {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO history_entries (request_id, item_id, action, by_actor, reason, at) VALUES (?, ?, ?, ?, ?, ?)")) {
                insert.setObject(1, requestId);
                if (itemId == null) {
                    insert.setNull(2, Types.OTHER);
                } else {
                    insert.setObject(2, itemId);
                }
                insert.setString(3, action);
                insert.setString(4, by);
                insert.setString(5, reason);
                insert.setObject(6, at.atOffset(ZoneOffset.UTC));
                insert.executeUpdate();
            }
        });
    }

    public static List<HistoryEntry> ofRequest(UUID requestId) {
        return list("requestId = ?1 order by id", requestId);
    }

    public static String partner(String partnerId) {
        return "partner:" + partnerId;
    }
}
