package com.telemed.requests.request;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Rows of requests joined with their line items, as the list ({@code RequestQueries}) and the member summaries
 * ({@link MemberRequests}) read them by plain JDBC: one row per item (or one with null item columns for a request
 * without items), a request's rows together, column 1 the request's id. Each request is copied once into a detached
 * {@link Request} with its {@link LineItem}s, which no session knows, in the rows' order.
 */
final class RequestRows {

    private RequestRows() {
    }

    /** The request of a row, its id read already. */
    @FunctionalInterface
    interface RequestColumns {
        Request read(UUID id, ResultSet row) throws SQLException;
    }

    /** The line item of a row, its request's and its own id read already. */
    @FunctionalInterface
    interface ItemColumns {
        LineItem read(UUID requestId, UUID itemId, ResultSet row) throws SQLException;
    }

    /** A request and its items, in the rows' order. */
    record Listed(Request request, List<LineItem> items) {
    }

    /** Every row of {@code rows}, grouped by request: {@code itemIdColumn} holds the item's id (null: no item). */
    static List<Listed> grouped(ResultSet rows, RequestColumns request, int itemIdColumn, ItemColumns item) throws SQLException {
        Map<UUID, Listed> requests = new LinkedHashMap<>();
        while (rows.next()) {
            UUID id = rows.getObject(1, UUID.class);
            Listed listed = requests.get(id);
            if (listed == null) {
                listed = new Listed(request.read(id, rows), new ArrayList<>(1));
                requests.put(id, listed);
            }
            UUID itemId = rows.getObject(itemIdColumn, UUID.class);
            if (itemId != null) {
                listed.items().add(item.read(id, itemId, rows));
            }
        }
        return new ArrayList<>(requests.values());
    }

    static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
