package com.telemed.web.survey;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code return=} of a hosted survey: where the browser goes after a submission, only when it is an
 * absolute {@code http} or {@code https} URL (no user information) whose origin is on the partner's
 * embed allow-list. Anything else is ignored: the patient sees the thank-you page instead, and the
 * platform never becomes an open redirect.
 */
final class ReturnUrls {

    private ReturnUrls() {
    }

    /** The origin of {@code url} ({@code https://partner.example}, {@code http://localhost:3000}), or empty when it has none we accept. */
    static Optional<String> origin(String url) {
        if (url == null || url.isBlank()) {
            return Optional.empty();
        }
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!uri.isAbsolute() || uri.isOpaque() || !(scheme.equals("http") || scheme.equals("https"))
                || uri.getHost() == null || uri.getRawUserInfo() != null) {
            return Optional.empty();
        }
        int port = uri.getPort();
        boolean defaultPort = port == -1 || (scheme.equals("http") && port == 80) || (scheme.equals("https") && port == 443);
        return Optional.of(scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port));
    }

    /** The origin of {@code url} when it is one of {@code allowed} (origins as the partner's allow-list holds them). */
    static Optional<String> allowedOrigin(String url, Collection<String> allowed) {
        return origin(url).filter(origin -> allowed.stream().map(ReturnUrls::origin)
                .anyMatch(listed -> listed.isPresent() && listed.get().equals(origin)));
    }

    /** {@code url} with {@code responseId} added to its query ({@code ?} or {@code &}), before any fragment. */
    static String withResponseId(String url, String responseId) {
        String trimmed = url.strip();
        int hash = trimmed.indexOf('#');
        String head = hash < 0 ? trimmed : trimmed.substring(0, hash);
        String fragment = hash < 0 ? "" : trimmed.substring(hash);
        String separator = !head.contains("?") ? "?" : head.endsWith("?") || head.endsWith("&") ? "" : "&";
        return head + separator + "responseId=" + responseId + fragment;
    }
}
