package com.telemed.web.console.session;

/**
 * The console's header for a signed-in person: the links their roles may use ("Queue" for a prescriber
 * or support, "Audit log" for an administrator, "Appointments" and "Availability" for a prescriber), their
 * name, and the sign-out form's token.
 */
public record Nav(String name, boolean queue, boolean audit, String csrf, boolean appointments) {
}
