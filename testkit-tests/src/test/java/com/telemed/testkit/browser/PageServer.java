package com.telemed.testkit.browser;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Small pages served on 127.0.0.1 by the JDK's HTTP server, each with the strict policy the web
 * service sends (no inline script or style): what the harness must work under.
 */
final class PageServer implements AutoCloseable {

    static final String POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
            + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

    private final HttpServer server;

    /** Serves each path's body; the type follows the path's ending (.css, .js, .png, else HTML). */
    PageServer(Map<String, byte[]> pages) {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            byte[] body = pages.get(exchange.getRequestURI().getPath());
            exchange.getResponseHeaders().set("Content-Security-Policy", POLICY);
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            if (body == null) {
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", type(exchange.getRequestURI().getPath()));
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    static byte[] text(String content) {
        return content.getBytes(StandardCharsets.UTF_8);
    }

    private static String type(String path) {
        if (path.endsWith(".css")) {
            return "text/css; charset=utf-8";
        }
        if (path.endsWith(".js")) {
            return "text/javascript; charset=utf-8";
        }
        if (path.endsWith(".png")) {
            return "image/png";
        }
        return "text/html; charset=utf-8";
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
