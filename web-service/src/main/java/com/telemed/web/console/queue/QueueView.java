package com.telemed.web.console.queue;

import java.util.List;

/**
 * The queue page ({@code console-queue.html}): the filters as given ({@code mine} offered to a prescriber
 * only), the requests oldest first as requests-service orders them, and the form token of the claim forms;
 * for the live refresh ({@code app.js}): the table's own address ({@code console-queue-table.html} alone),
 * the nav's unread text and how often to refresh.
 */
public record QueueView(String drugId, String partnerId, boolean mine, boolean offerMine, List<Row> rows, String csrf, String liveSrc,
                        String navUnread, int refreshSeconds) {

    /**
     * One request: {@code created} in UTC ({@code yyyy-MM-dd HH:mm}), the patient's name and state, the
     * drugs, its status, who claimed it ({@code -} for nobody); {@code claimable} for a prescriber and a
     * request nobody claimed.
     */
    public record Row(String id, String created, String partnerId, String patient, String drugs, String status, String claimedBy,
                      boolean claimable) {

        public String href() {
            return "/console/requests/" + id;
        }

        public String claimAction() {
            return href() + "/claim";
        }
    }
}
