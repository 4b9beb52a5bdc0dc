package com.telemed.requests.fulfilment;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.telemed.requests.request.LineItem;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * What operators resend: approved items whose last transmission failed and that are still not
 * sent (the partial index {@code line_items_transmission_failed_idx}), newest failure first,
 * across partners. Ids, the partner and the answer only: no patient data.
 */
@ApplicationScoped
public class FailedTransmissions {

    @JsonPropertyOrder({"requestId", "itemId", "partnerId", "error", "failedAt"})
    public record Failed(UUID requestId, UUID itemId, String partnerId, String error, Instant failedAt) {
    }

    public record Page(List<Failed> items) {
    }

    @Transactional
    public Page list(int limit) {
        List<LineItem> items = LineItem.<LineItem>find(
                        "transmissionFailedAt is not null and pharmacySent = false and status in ?1 order by transmissionFailedAt desc",
                        List.of("approved", "completed"))
                .range(0, limit - 1).list();
        return new Page(items.stream()
                .map(item -> new Failed(item.requestId, item.id, item.partnerId, item.transmissionError, item.transmissionFailedAt))
                .toList());
    }
}
