package com.telemed.bench.support;

import com.telemed.testkit.trust.TestServiceProofs;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The headers of a call straight to a service, as the gateway sends it: the partner header and a
 * service proof (the platform's development key, which a bench platform runs with). A proof is fresh
 * for {@code platform.trust.max-skew} (60 s), so a load round takes headers signed as it starts.
 */
public final class DirectCalls {

    private DirectCalls() {
    }

    /** {@code name, value, name, value...} for wrk and the JVM load client. */
    public static String[] headers(String method, URI uri, String partnerId) {
        List<String> headers = new ArrayList<>(List.of(TestServiceProofs.PARTNER_HEADER, partnerId));
        for (Map.Entry<String, String> header : TestServiceProofs.headers(TestServiceProofs.DEVELOPMENT_KEY, method,
                TestServiceProofs.target(uri), partnerId).entrySet()) {
            headers.add(header.getKey());
            headers.add(header.getValue());
        }
        return headers.toArray(String[]::new);
    }
}
