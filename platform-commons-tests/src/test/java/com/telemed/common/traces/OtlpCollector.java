package com.telemed.common.traces;

import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in OTLP collector (OTLP over HTTP, {@code POST /v1/traces}) on a random port: the service
 * under test is pointed at it with the one setting a deployment sets, the endpoint.
 */
public class OtlpCollector implements QuarkusTestResourceLifecycleManager {

    /** One export as it arrived: its path and its protobuf body. */
    public record Export(String path, byte[] body) {
    }

    static final List<Export> EXPORTS = new CopyOnWriteArrayList<>();
    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                EXPORTS.add(new Export(exchange.getRequestURI().getPath(), body.readAllBytes()));
            }
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        return Map.of("quarkus.otel.exporter.otlp.endpoint", "http://127.0.0.1:" + server.getAddress().getPort(),
                "quarkus.otel.exporter.otlp.protocol", "http/protobuf",
                "quarkus.otel.bsp.schedule.delay", "100ms");
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }
}
