package com.telemed.web.page;

/**
 * A page's own error answer: an {@link ErrorView} with its status ({@code 404} for an unknown booking
 * link, {@code 401} for a wrong survey key ...), rendered by {@link ErrorPages}. No stack trace is kept.
 */
public final class PageError extends RuntimeException {

    private final ErrorView view;

    public PageError(ErrorView view) {
        super(null, null, false, false);
        this.view = view;
    }

    public PageError(int status, String title, String message) {
        this(new ErrorView(status, title, message, null, null));
    }

    public ErrorView view() {
        return view;
    }
}
