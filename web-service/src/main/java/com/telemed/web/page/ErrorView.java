package com.telemed.web.page;

/**
 * What an error page says: its status, a heading, one or two sentences, and where to go from there
 * ({@code linkHref} null for nowhere). Never an exception's message or anything of the call.
 */
public record ErrorView(int status, String title, String message, String linkHref, String linkText) {

    public ErrorView withLink(String href, String text) {
        return new ErrorView(status, title, message, href, text);
    }

    /** The platform's words for a status, for a failure no page named more precisely. */
    public static ErrorView forStatus(int status) {
        return switch (status) {
            case 400 -> new ErrorView(400, "There is a problem with what was sent",
                    "The page could not use what your browser sent. Go back and try again.", null, null);
            case 401 -> new ErrorView(401, "This link is not valid",
                    "The link may be incomplete, it may have expired, or it may have been used already. Ask the service that sent it for a new one.",
                    null, null);
            case 403 -> new ErrorView(403, "You cannot open this page", "This page is not available to you.", null, null);
            case 404 -> new ErrorView(404, "Page not found",
                    "If you typed the address, check it is correct. If you pasted it, check you copied the whole address.", null, null);
            case 405 -> new ErrorView(405, "This page cannot do that", "Go back and use the page's own buttons.", null, null);
            case 409 -> new ErrorView(409, "This could not be done", "Things changed while you were on the page. Go back and try again.",
                    null, null);
            case 410 -> new ErrorView(410, "This link has expired", "Ask the service that sent it for a new link.", null, null);
            case 413 -> new ErrorView(413, "What you sent is too large", "Go back and shorten your answers.", null, null);
            case 415 -> new ErrorView(415, "There is a problem with what was sent",
                    "The page could not read what your browser sent. Go back and try again.", null, null);
            case 429 -> new ErrorView(429, "Too many attempts", "Wait a minute, then try again.", null, null);
            case 503 -> new ErrorView(503, "Sorry, the service is unavailable", "Try again in a few minutes.", null, null);
            default -> status >= 500
                    ? new ErrorView(status, "Sorry, there is a problem with the service", "Try again later.", null, null)
                    : new ErrorView(status, "There is a problem with this page", "Go back and try again.", null, null);
        };
    }
}
