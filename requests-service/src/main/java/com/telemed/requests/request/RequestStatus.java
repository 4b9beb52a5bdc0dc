package com.telemed.requests.request;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The request-level status rules: computed on every read from the item statuses
 * (partner-api.md, "Request-level status", with decisions.md: cancelled items are ignored, all
 * cancelled is {@code cancelled}), and stored once every live item is decided.
 */
public final class RequestStatus {

    public static final String PENDING = "pending";
    public static final String PARTIAL = "partial";

    private RequestStatus() {
    }

    /** The status a read shows; a request without items shows its stored status (call_requested while a consultation is open). */
    public static String computed(Request request, List<String> itemStatuses) {
        if (itemStatuses.isEmpty()) {
            return request.consultationOpen && PENDING.equals(request.status) ? ItemStatus.CALL_REQUESTED : request.status;
        }
        List<String> live = live(itemStatuses);
        if (live.isEmpty()) {
            return ItemStatus.CANCELLED;
        }
        if (live.contains(ItemStatus.CALL_REQUESTED)) {
            return ItemStatus.CALL_REQUESTED;
        }
        if (live.contains(ItemStatus.PENDING)) {
            return ItemStatus.PENDING;
        }
        return decision(live);
    }

    /**
     * The stored status after a change: {@code cancelled} when every item is cancelled, the
     * decision once every live item is decided, else {@code pending} (a call_requested item
     * leaves it pending).
     */
    public static String stored(List<String> itemStatuses) {
        List<String> live = live(itemStatuses);
        if (live.isEmpty()) {
            return ItemStatus.CANCELLED;
        }
        if (live.stream().anyMatch(ItemStatus::undecided)) {
            return PENDING;
        }
        return decision(live);
    }

    /** Every live item decided (and at least one live item): the moment aggregate events are sent. */
    public static boolean decided(List<String> itemStatuses) {
        List<String> live = live(itemStatuses);
        return !live.isEmpty() && live.stream().allMatch(ItemStatus::decided);
    }

    /** {@code <items> drug - <count> <status>, <count> <status>} per distinct status, in item order. */
    public static String summary(List<String> itemStatuses) {
        if (itemStatuses.isEmpty()) {
            return "No items";
        }
        Map<String, Long> counts = itemStatuses.stream()
                .collect(Collectors.groupingBy(status -> status, LinkedHashMap::new, Collectors.counting()));
        return itemStatuses.size() + " drug - " + counts.entrySet().stream()
                .map(entry -> entry.getValue() + " " + entry.getKey())
                .collect(Collectors.joining(", "));
    }

    private static String decision(List<String> decided) {
        if (decided.stream().allMatch(ItemStatus.DENIED::equals)) {
            return ItemStatus.DENIED;
        }
        if (decided.stream().allMatch(ItemStatus.COMPLETED::equals)) {
            return ItemStatus.COMPLETED;
        }
        if (decided.stream().allMatch(status -> ItemStatus.APPROVED.equals(status) || ItemStatus.COMPLETED.equals(status))) {
            return decided.contains(ItemStatus.COMPLETED) ? ItemStatus.COMPLETED : ItemStatus.APPROVED;
        }
        return PARTIAL;
    }

    private static List<String> live(List<String> itemStatuses) {
        return itemStatuses.stream().filter(status -> !ItemStatus.CANCELLED.equals(status)).toList();
    }
}
