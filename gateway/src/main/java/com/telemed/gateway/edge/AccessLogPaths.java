package com.telemed.gateway.edge;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The path as the access log writes it: a path segment that is a bearer token (whoever holds it
 * may use it) is written as {@value #REDACTED}, anywhere in the path and in any case (the path is
 * logged whether or not it is routed). Today that is:
 * <ul>
 *   <li>the segment after {@code bookings} or {@code book}: the booking token of
 *       {@code /ops/v1/bookings/:token/appointment} (operations-api.md) and of the booking link
 *       itself, {@code <base>/book/:token} (decisions.md), whose default base is the gateway, and
 *       so of the booking page's forms ({@code /book/:token/reschedule}, {@code /book/:token/cancel});</li>
 *   <li>the segment after {@code surveys/t}: a returning member's survey token in the hosted survey
 *       page's path, {@code /surveys/t/:token} (people-and-pages.md);</li>
 *   <li>the two segments after {@code attachments}: the token of an attachment link,
 *       {@code /attachments/:token/:fileName} (partner-api.md: not authenticated, anyone holding
 *       the link downloads the file), and its file name, which is patient data. The upload routes
 *       ({@code .../:id/attachments}, {@code .../:id/prescriber-attachments}) end there and are
 *       written as received.</li>
 * </ul>
 * Survey tokens of the API travel in the query or the body, which the access log never writes (nor
 * the hosted survey page's {@code key}, a publishable key). A route that puts another token in its
 * path joins {@link #TOKEN_SEGMENT}.
 */
final class AccessLogPaths {

    static final String REDACTED = "[redacted]";

    /** A segment named after a token-carrying route, then the token segment itself. */
    private static final Pattern TOKEN_SEGMENT = Pattern.compile("(?i)(/(?:bookings|book|surveys/+t)/+)[^/]+");

    /** An attachment link: its token segment, then (when there is one) its file-name segment. */
    private static final Pattern ATTACHMENT_LINK = Pattern.compile("(?i)(/attachments/+)[^/]+(?:(/+)[^/]+)?");

    private AccessLogPaths() {
    }

    static String redact(String path) {
        String tokensRedacted = TOKEN_SEGMENT.matcher(path).replaceAll("$1" + REDACTED);
        return ATTACHMENT_LINK.matcher(tokensRedacted).replaceAll(link -> Matcher.quoteReplacement(link.group(1) + REDACTED
                + (link.group(2) == null ? "" : link.group(2) + REDACTED)));
    }
}
