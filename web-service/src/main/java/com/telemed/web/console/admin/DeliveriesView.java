package com.telemed.web.console.admin;

import java.util.List;

/**
 * The webhook deliveries page ({@code console-deliveries.html}): without a partner, the form that finds
 * one; with one, the filter by event and the partner's deliveries newest first, each with its redeliver
 * form.
 *
 * @param partnerId the partner, or null on the find page
 * @param notice {@code Redelivered} after a redelivery, or null
 * @param error the gateway's refusal of the last redelivery (still being attempted, no URL), or null
 */
public record DeliveriesView(String partnerId, String event, List<Row> rows, String notice, String error, String csrf) {

    /** One delivery: created (UTC), the number of attempts and what the last one got. */
    public record Row(String id, String event, String status, int attempts, String lastAttempt, String createdAt, String redeliverAction) {
    }

    public String action() {
        return partnerId == null ? "/console/deliveries" : base();
    }

    public String partnerHref() {
        return "/console/partners/" + com.telemed.web.page.Pages.encode(partnerId);
    }

    private String base() {
        return partnerHref() + "/deliveries";
    }
}
