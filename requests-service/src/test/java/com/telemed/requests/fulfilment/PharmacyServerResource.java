package com.telemed.requests.fulfilment;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.extension.ResponseTransformerV2;
import com.github.tomakehurst.wiremock.http.Response;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A real HTTP pharmacy (WireMock on a loopback port) behind {@code integration_a}, in a production
 * deployment: orders go to it, not to the sandbox pharmacy. {@code integration_b} has no endpoint.
 * The pharmacy answers within {@link #TIMEOUT_MS} or the order is unavailable (generous: a loaded
 * two-core machine once took over a second to answer a stubbed 503). Its orders are signed with
 * {@link #SECRET}, its own (the other pharmacies keep the development one).
 */
public class PharmacyServerResource implements QuarkusTestResourceLifecycleManager {

    static final long TIMEOUT_MS = 2_500;
    static final String ORDERS = "/orders";
    static final String SECRET = "integration-a-test-secret-0123456789abcdef";

    private static volatile WireMockServer server;

    static WireMockServer server() {
        return server;
    }

    @Override
    public Map<String, String> start() {
        server = new WireMockServer(WireMockConfiguration.options().dynamicPort().bindAddress("127.0.0.1")
                .extensions(new PaddedAnswer()));
        server.start();
        return Map.of(
                "requests.pharmacy.environment", "production",
                "requests.pharmacy.integration-a-url", "http://127.0.0.1:" + server.port() + ORDERS,
                "requests.pharmacy.integration-a-secret", SECRET,
                "requests.pharmacy.timeout", TIMEOUT_MS + "ms");
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop();
        }
    }

    /**
     * {@code .withTransformers(PaddedAnswer.NAME).withTransformerParameter("padding", n)}: the stub's
     * body with {@code n} bytes of {@code x} inserted before its last two characters
     * ({@code {"orderId": "PH-1", "note": ""}} becomes a well-formed acceptance of any size), made as
     * it is sent: WireMock takes seconds to start sending a 10 MB body it holds, and the test JVM
     * never holds one.
     */
    static final class PaddedAnswer implements ResponseTransformerV2 {

        static final String NAME = "padded-answer";

        @Override
        public String getName() {
            return NAME;
        }

        @Override
        public boolean applyGlobally() {
            return false;
        }

        @Override
        public Response transform(Response response, ServeEvent event) {
            long padding = ((Number) event.getTransformerParameters().get("padding")).longValue();
            byte[] body = response.getBody();
            byte[] head = Arrays.copyOf(body, body.length - 2);
            byte[] tail = Arrays.copyOfRange(body, body.length - 2, body.length);
            return Response.Builder.like(response).but().body(() -> new SequenceInputStream(Collections.enumeration(List.of(
                    new ByteArrayInputStream(head), new Padding(padding), new ByteArrayInputStream(tail))))).build();
        }
    }

    private static final class Padding extends InputStream {

        private long left;

        Padding(long bytes) {
            this.left = bytes;
        }

        @Override
        public int read() {
            return left-- > 0 ? 'x' : -1;
        }

        @Override
        public int read(byte[] into, int offset, int length) {
            if (left <= 0) {
                return -1;
            }
            int n = (int) Math.min(length, left);
            Arrays.fill(into, offset, offset + n, (byte) 'x');
            left -= n;
            return n;
        }
    }
}
