package com.telemed.web.console.session;

/**
 * The console's header for a signed-in person: the links their roles may use ("Queue" for a prescriber
 * or support, "Audit log" and the administration pages for an administrator, "Appointments" and "Availability"
 * for a prescriber), their name, and the sign-out form's token.
 */
public record Nav(String name, boolean queue, boolean audit, String csrf, boolean appointments) {

    /** An administrator's pages ({@code console.admin}): "Partners", "Accounts", "Webhook deliveries", as the audit log. */
    public boolean admin() {
        return audit;
    }
}
