package com.telemed.web.console.session;

/**
 * The console's header for a signed-in person: the links their roles may use ("Queue" for a prescriber
 * or support, "Audit log" and the administration pages for an administrator, "Webhook deliveries" also for
 * support, "Appointments" and "Availability" for a prescriber, "Conversations" for all three), their name, and
 * the sign-out form's token; {@code unread} the threads with unread patient messages ({@code (3 unread)},
 * {@code (100+ unread)}), empty when none or not known (an error page asks nothing).
 */
public record Nav(String name, boolean queue, boolean audit, String csrf, boolean appointments, boolean conversations,
                  String unread, boolean deliveries) {

    /** An administrator's pages ({@code console.admin}): "Partners", "Accounts", "Drugs", "Surveys", "Prescribers", as the audit log. */
    public boolean admin() {
        return audit;
    }

    /** "Pharmacy keys" ({@code console.operations}): administrators only. */
    public boolean pharmacyKeys() {
        return audit;
    }

    /** "Failed transmissions" ({@code console.operations}): administrators and support, as the webhook deliveries. */
    public boolean transmissions() {
        return deliveries;
    }
}
