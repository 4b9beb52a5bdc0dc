package com.telemed.requests.request;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

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

    public static HistoryEntry record(UUID requestId, UUID itemId, String action, String by, String reason, Instant at) {
        HistoryEntry entry = new HistoryEntry();
        entry.requestId = requestId;
        entry.itemId = itemId;
        entry.action = action;
        entry.by = by;
        entry.reason = reason;
        entry.at = at;
        entry.persist();
        return entry;
    }

    public static List<HistoryEntry> ofRequest(UUID requestId) {
        return list("requestId = ?1 order by id", requestId);
    }

    public static String partner(String partnerId) {
        return "partner:" + partnerId;
    }
}
