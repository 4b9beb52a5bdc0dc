package com.telemed.web.console.operations;

import java.util.List;

/**
 * The failed transmissions page ({@code console-transmissions.html}): the items whose last transmission to
 * the pharmacy failed, newest first, each with its resend form.
 *
 * @param notice the last resend's outcome ({@code Sent to the pharmacy (api)}, {@code Not sent: pharmacy_rejected}), or null
 * @param error the gateway's refusal of the last resend (not approved, already sent), or null
 */
public record TransmissionsView(List<Row> rows, String notice, String error, String csrf) {

    /** One item: when it failed (UTC), its request (a link to the request's page), the partner and the error. */
    public record Row(String requestId, String itemId, String partnerId, String error, String failedAt, String requestHref,
                      String resendAction) {
    }
}
