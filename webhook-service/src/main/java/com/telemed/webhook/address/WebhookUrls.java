package com.telemed.webhook.address;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;

/**
 * Webhook URLs: the shape every environment requires (absolute http or https with a host) and,
 * through {@link AddressPolicy}, where production may send. {@link #target} resolves the host
 * (blocking DNS: call it off the event loop) and answers the one address to connect to, so the
 * address that was checked is the address that is used (no second lookup an attacker could rebind).
 */
public final class WebhookUrls {

    /** DNS, replaceable in tests. */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    public static final String HTTPS_REQUIRED = "Webhook URL must use https";
    public static final String ADDRESS_NOT_ALLOWED = "address not allowed";
    public static final String NOT_RESOLVED = "host could not be resolved";

    /** Where one attempt goes: connect to {@code address}, send {@code Host: host} and SNI {@code host}. */
    public record Target(String host, int port, boolean ssl, String requestUri, InetAddress address) {
    }

    /** A URL that may not be used now, with the reason (no URL text in it: it is partner data). */
    public static final class Refused extends Exception {
        public Refused(String reason) {
            super(reason, null, false, false);
        }
    }

    private final AddressPolicy policy;
    private final Resolver resolver;

    public WebhookUrls(AddressPolicy policy, Resolver resolver) {
        this.policy = policy;
        this.resolver = resolver;
    }

    public WebhookUrls(AddressPolicy policy) {
        this(policy, InetAddress::getAllByName);
    }

    public AddressPolicy policy() {
        return policy;
    }

    /** The URL if it is absolute http(s) with a host; the rule of every environment. */
    public static Optional<URI> parse(String text) {
        try {
            URI uri = new URI(text);
            if (!uri.isAbsolute() || uri.isOpaque() || uri.getHost() == null || uri.getHost().isEmpty()) {
                return Optional.empty();
            }
            String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) {
                return Optional.empty();
            }
            return Optional.of(uri);
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    /**
     * Resolves and checks a URL that passed {@link #parse}: in production it must be https and
     * every address its host resolves to must be allowed (one internal address refuses the URL).
     */
    public Target target(URI uri) throws Refused {
        boolean ssl = uri.getScheme().equalsIgnoreCase("https");
        if (policy.production() && !ssl) {
            throw new Refused(HTTPS_REQUIRED);
        }
        String host = uri.getHost();
        // URI keeps the brackets of an IPv6 literal.
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(bare);
        } catch (UnknownHostException | SecurityException e) {
            throw new Refused(NOT_RESOLVED);
        }
        if (addresses == null || addresses.length == 0) {
            throw new Refused(NOT_RESOLVED);
        }
        for (InetAddress address : addresses) {
            if (!policy.allowed(address)) {
                throw new Refused(ADDRESS_NOT_ALLOWED);
            }
        }
        int port = uri.getPort() != -1 ? uri.getPort() : ssl ? 443 : 80;
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        String requestUri = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
        return new Target(bare, port, ssl, requestUri, addresses[0]);
    }
}
