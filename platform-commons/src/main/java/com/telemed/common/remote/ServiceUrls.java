package com.telemed.common.remote;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithParentName;
import java.util.Map;

/**
 * Where a service finds the services it calls, the one shape for every caller (issue #43):
 * {@code platform.service-urls.<called service>}, each set in the caller's application.properties from the
 * launcher's and deployment's {@code SERVICE_URLS_<NAME>}, for example
 * {@code platform.service-urls.members-service=${SERVICE_URLS_MEMBERS:http://127.0.0.1:8082}}. The name is the one
 * {@link RemoteCalls#service} knows the called service by; a client reads its URL with {@link #of}.
 */
@ConfigMapping(prefix = "platform.service-urls")
public interface ServiceUrls {

    /** Every configured base URL by the called service's name. */
    @WithParentName
    Map<String, String> all();

    /** The base URL of {@code service} ({@code "members-service"}); a service left unset fails at the client's start. */
    default String of(String service) {
        String url = all().get(service);
        if (url == null || url.isBlank()) {
            throw new IllegalStateException("platform.service-urls." + service + " is not set");
        }
        return url;
    }
}
