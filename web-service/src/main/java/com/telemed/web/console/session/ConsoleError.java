package com.telemed.web.console.session;

import com.telemed.web.page.ErrorView;

/**
 * A console page's own error answer, rendered in the console's layout (its header and sign-out) by
 * {@link ConsoleErrors}: the 403 pages (a role that may not, a form whose token is not the session's),
 * a request not found, a refusal of the gateway. No stack trace is kept.
 */
public final class ConsoleError extends RuntimeException {

    private final ErrorView view;

    public ConsoleError(ErrorView view) {
        super(null, null, false, false);
        this.view = view;
    }

    public ConsoleError(int status, String title, String message) {
        this(new ErrorView(status, title, message, null, null));
    }

    public ErrorView view() {
        return view;
    }

    public static ConsoleError forbidden() {
        return new ConsoleError(403, "Forbidden", "You do not have access to this page.");
    }

    public static ConsoleError formExpired() {
        return new ConsoleError(403, "Forbidden", "This form has expired. Reload the page and try again.");
    }
}
