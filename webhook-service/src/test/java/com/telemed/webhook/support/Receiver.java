package com.telemed.webhook.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A real HTTP webhook receiver on loopback (JDK HttpServer, random port). Answers the scripted
 * statuses in order, then the default; {@link #HANG} never answers (until closed); {@link #HOLD}
 * answers 200 once {@link #release} is called. A slow receiver ({@link #slow}) answers every
 * request only after a fixed delay.
 */
public final class Receiver implements AutoCloseable {

    public static final int HANG = -1;
    public static final int HOLD = -2;

    /** How often {@link #await} looks: arrival gaps are measured by the receiver, not by this. */
    private static final Duration POLL = Duration.ofMillis(20);

    /** One POST as received: {@code nanos} for gaps, {@code epochMillis} (wall clock) to compare with timestamps. */
    public record Received(long nanos, long epochMillis, String method, String path, Map<String, String> headers,
                           byte[] body) {

        public String header(String name) {
            return headers.get(name.toLowerCase());
        }

        public String bodyText() {
            return new String(body, java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Deque<Integer> script = new ArrayDeque<>();
    private final CountDownLatch closing = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile int defaultStatus;
    private final long delayMs;

    public Receiver(int defaultStatus, Integer... script) throws IOException {
        this(0, defaultStatus, script);
    }

    private Receiver(long delayMs, int defaultStatus, Integer... script) throws IOException {
        this.delayMs = delayMs;
        this.defaultStatus = defaultStatus;
        this.script.addAll(List.of(script));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    public static Receiver answering(int status) throws IOException {
        return new Receiver(status);
    }

    /** Answers each request {@code delay} after it arrived: the scripted statuses in order, then {@code status}. */
    public static Receiver slow(Duration delay, int status, Integer... script) throws IOException {
        return new Receiver(delay.toMillis(), status, script);
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks/telemed?source=test";
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    public void answer(int status) {
        defaultStatus = status;
    }

    /** Lets every held request (and every later one) be answered 200. */
    public void release() {
        released.countDown();
    }

    /** Waits until at least {@code count} requests arrived; false on timeout (the caller's assertion says what was missing). */
    public boolean await(int count, long timeoutMs) {
        try {
            Awaitility.await().atMost(Duration.ofMillis(timeoutMs)).pollInterval(POLL)
                    .until(() -> received.size() >= count);
            return true;
        } catch (ConditionTimeoutException timedOut) {
            return false;
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        long nanos = System.nanoTime();
        long epochMillis = System.currentTimeMillis();
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readAllBytes();
        }
        Map<String, String> headers = new TreeMap<>();
        exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), String.join(",", values)));
        received.add(new Received(nanos, epochMillis, exchange.getRequestMethod(),
                exchange.getRequestURI().toString(), headers, body));
        int status;
        synchronized (script) {
            Integer next = script.pollFirst();
            status = next != null ? next : defaultStatus;
        }
        if (delayMs > 0) {
            try {
                // The delay IS the behaviour under test (a slow receiver, SigningTest: deliveries wait
                // for a slot behind it); cut short when the receiver closes.
                closing.await(delayMs, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (status == HANG) {
            try {
                closing.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
            return;
        }
        if (status == HOLD) {
            try {
                released.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            status = 200;
        }
        if (status >= 300 && status < 400) {
            exchange.getResponseHeaders().add("Location", "http://127.0.0.1:" + port() + "/elsewhere");
        }
        if (status == 204) {
            exchange.sendResponseHeaders(status, -1);
        } else {
            byte[] answer = "{\"ok\":true}".getBytes();
            exchange.sendResponseHeaders(status, answer.length);
            exchange.getResponseBody().write(answer);
        }
        exchange.close();
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
