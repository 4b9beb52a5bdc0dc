package com.telemed.bench.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * nginx (Debian package {@code nginx}) as a plain reverse proxy in front of one service: what a proxy
 * that authenticates nothing costs, beside the gateway. One worker (the gateway's share of a core in
 * the isolated setup), access log off, kept-alive connections to the service (HTTP/1.1, a pool of
 * 64), every request header passed on unchanged; nothing else tuned. Runs from a scratch prefix on a
 * loopback port, in the foreground, until closed.
 */
public final class Nginx implements AutoCloseable {

    private static final List<String> BINARIES = List.of("/usr/sbin/nginx", "/usr/bin/nginx");

    private final Process process;
    private final URI url;

    private Nginx(Process process, URI url) {
        this.process = process;
        this.url = url;
    }

    /** The installed binary, or null. */
    public static String binary() {
        return BINARIES.stream().filter(candidate -> Files.isExecutable(Path.of(candidate))).findFirst().orElse(null);
    }

    /** Starts nginx proxying every path to {@code upstream} (http://host:port). */
    public static Nginx proxyTo(URI upstream) throws Exception {
        String binary = binary();
        if (binary == null) {
            throw new IOException("nginx not found (apt-get install nginx)");
        }
        Path prefix = Files.createTempDirectory("bench-nginx-");
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        String root = System.getProperty("user.name").equals("root") ? "user root;\n" : "";
        Files.writeString(prefix.resolve("nginx.conf"), root + """
                worker_processes 1;
                daemon off;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log warn;
                events { worker_connections 4096; }
                http {
                    access_log off;
                    client_body_temp_path %1$s/body;
                    proxy_temp_path %1$s/proxy;
                    fastcgi_temp_path %1$s/fastcgi;
                    uwsgi_temp_path %1$s/uwsgi;
                    scgi_temp_path %1$s/scgi;
                    upstream service {
                        server %2$s:%3$d;
                        keepalive 64;
                    }
                    server {
                        listen 127.0.0.1:%4$d;
                        location / {
                            proxy_pass http://service;
                            proxy_http_version 1.1;
                            proxy_set_header Connection "";
                        }
                    }
                }
                """.formatted(prefix, upstream.getHost(), upstream.getPort(), port));
        Process process = new ProcessBuilder(binary, "-p", prefix.toString(), "-c", prefix.resolve("nginx.conf").toString())
                .redirectErrorStream(true).redirectOutput(prefix.resolve("stdout.log").toFile()).start();
        boolean listening = Waits.until(Duration.ofSeconds(10), Duration.ofMillis(50),
                () -> process.isAlive() && accepts(port)) && process.isAlive();
        if (!listening) {
            process.destroy();
            throw new IOException("nginx did not start: " + Files.readString(prefix.resolve("stdout.log"))
                    + (Files.exists(prefix.resolve("error.log")) ? Files.readString(prefix.resolve("error.log")) : ""));
        }
        return new Nginx(process, URI.create("http://127.0.0.1:" + port));
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }

    /** Where it listens: http://127.0.0.1:port. */
    public URI url() {
        return url;
    }

    /** The master and its worker, for pinning. */
    public List<Long> pids() {
        List<Long> pids = new ArrayList<>(List.of(process.pid()));
        process.descendants().forEach(child -> pids.add(child.pid()));
        return pids;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
