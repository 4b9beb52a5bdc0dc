package com.telemed.requests.request;

import java.util.List;

/** Line item statuses (partner-api.md, "Line item statuses"). */
public final class ItemStatus {

    public static final String PENDING = "pending";
    public static final String CALL_REQUESTED = "call_requested";
    public static final String APPROVED = "approved";
    public static final String DENIED = "denied";
    public static final String CANCELLED = "cancelled";
    public static final String COMPLETED = "completed";

    /** The values of {@code GET /v1/requests?status=}. */
    public static final List<String> FILTERABLE = List.of(PENDING, APPROVED, DENIED, CALL_REQUESTED, COMPLETED, CANCELLED);

    private ItemStatus() {
    }

    /** Awaiting a prescriber: pending, or pending underneath a requested consultation. */
    public static boolean undecided(String status) {
        return PENDING.equals(status) || CALL_REQUESTED.equals(status);
    }

    public static boolean decided(String status) {
        return APPROVED.equals(status) || DENIED.equals(status) || COMPLETED.equals(status);
    }
}
