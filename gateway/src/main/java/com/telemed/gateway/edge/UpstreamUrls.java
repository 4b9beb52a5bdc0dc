package com.telemed.gateway.edge;

import com.telemed.common.remote.ServiceUrls;
import jakarta.inject.Singleton;
import java.net.URI;
import java.util.EnumMap;
import java.util.Map;

/**
 * Where each service listens: platform-commons {@link ServiceUrls} ({@code platform.service-urls.<service>},
 * from {@code SERVICE_URLS_<NAME>}), read once. A service left unset fails the gateway's start.
 */
@Singleton
public class UpstreamUrls {

    private final Map<Upstream, URI> urls = new EnumMap<>(Upstream.class);

    public UpstreamUrls(ServiceUrls serviceUrls) {
        for (Upstream upstream : Upstream.values()) {
            if (upstream != Upstream.GATEWAY) {
                urls.put(upstream, URI.create(serviceUrls.of(upstream.service())));
            }
        }
    }

    /** The base URL of {@code upstream}'s service. */
    public URI of(Upstream upstream) {
        if (upstream == Upstream.GATEWAY) {
            throw new IllegalArgumentException("the gateway serves its own routes");
        }
        return urls.get(upstream);
    }
}
