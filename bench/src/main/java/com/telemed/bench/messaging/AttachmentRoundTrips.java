package com.telemed.bench.messaging;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.bench.support.GatewayApi;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The measurement of attachments through the gateway: each client, in a conversation of its own,
 * uploads a file of {@link #FILE_BYTES} random bytes ({@code multipart/form-data}, one part
 * {@code file}, {@code application/pdf}; the first 16 bytes new each time, so no two uploads are the
 * same file) to {@code POST /v1/messages/conversations/:id/attachments} (201 expected, with the
 * file's size), then downloads it by its {@code attachmentUrl} through the gateway without a key
 * (200 expected) and compares the SHA-256 and the length of what came back with what it sent; then
 * the next. Anything else is an error, counted by what it was. The upload-only variant skips the
 * download: uploads alone, to set beside the database's ceiling.
 */
final class AttachmentRoundTrips {

    /** The largest file the contract accepts: 10 MB, 10,485,760 bytes. */
    static final int FILE_BYTES = 10 * 1024 * 1024;

    record Round(Transfers uploads, Transfers downloads) {
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final URI gateway;
    private final String apiKey;
    private final List<String> conversations;
    /** A link that did not name this gateway (it is downloaded through this gateway by its path all the same). */
    private final AtomicReference<String> foreignLink = new AtomicReference<>();

    AttachmentRoundTrips(URI gateway, String apiKey, List<String> conversations) {
        this.gateway = gateway;
        this.apiKey = apiKey;
        this.conversations = conversations;
    }

    /** The first download link that named another address than this gateway's; null when all named it. */
    String foreignLink() {
        return foreignLink.get();
    }

    /** One upload and its download, before any load: a broken path fails here, not as a column of errors. */
    void once(String conversation) {
        Transfers.Tally uploads = new Transfers.Tally();
        Transfers.Tally downloads = new Transfers.Tally();
        byte[] file = new byte[FILE_BYTES];
        ThreadLocalRandom.current().nextBytes(file);
        MessageDigest sha256 = sha256();
        byte[] expected = sha256.digest(file);
        String link = upload(conversation, "bench-check.pdf", file, uploads);
        if (link != null) {
            download(link, expected, downloads, sha256);
        }
        Transfers up = uploads.result("upload", 1, FILE_BYTES);
        Transfers down = downloads.result("download", 1, FILE_BYTES);
        if (up.ok() != 1 || down.ok() != 1) {
            throw new IllegalStateException("the first attachment round trip failed: " + up.failuresText() + "; " + down.failuresText());
        }
    }

    Round run(String name, int clients, Duration duration, boolean download) throws InterruptedException {
        Transfers.Tally uploads = new Transfers.Tally();
        Transfers.Tally downloads = new Transfers.Tally();
        long began = System.nanoTime();
        long end = began + duration.toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            String conversation = conversations.get(i);
            int client = i;
            Thread thread = new Thread(() -> loop(client, conversation, end, download, uploads, downloads), "attachments-" + i);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        double seconds = (System.nanoTime() - began) / 1e9;
        return new Round(uploads.result(name + ": uploads", seconds, FILE_BYTES),
                download ? downloads.result(name + ": downloads", seconds, FILE_BYTES) : null);
    }

    private void loop(int client, String conversation, long end, boolean download, Transfers.Tally uploads,
                      Transfers.Tally downloads) {
        byte[] file = new byte[FILE_BYTES];
        ThreadLocalRandom.current().nextBytes(file);
        MessageDigest sha256 = sha256();
        for (int n = 0; System.nanoTime() < end; n++) {
            byte[] stamp = new byte[16];
            ThreadLocalRandom.current().nextBytes(stamp);
            System.arraycopy(stamp, 0, file, 0, stamp.length);
            byte[] expected = sha256.digest(file);
            String link = upload(conversation, "bench-" + client + "-" + n + ".pdf", file, uploads);
            if (link != null && download) {
                download(link, expected, downloads, sha256);
            }
        }
    }

    /** The download link, or null after counting the failure. */
    private String upload(String conversation, String fileName, byte[] file, Transfers.Tally uploads) {
        String boundary = "bench" + UUID.randomUUID().toString().replace("-", "");
        byte[] head = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + fileName
                + "\"\r\nContent-Type: application/pdf\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII);
        HttpRequest request = HttpRequest.newBuilder(gateway.resolve("/v1/messages/conversations/" + conversation + "/attachments"))
                .timeout(Duration.ofSeconds(60))
                .header("x-api-key", apiKey)
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.concat(HttpRequest.BodyPublishers.ofByteArray(head),
                        HttpRequest.BodyPublishers.ofByteArray(file), HttpRequest.BodyPublishers.ofByteArray(tail)))
                .build();
        long started = System.nanoTime();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 201) {
                uploads.failed(started, "upload HTTP " + response.statusCode() + " " + shortened(response.body()));
                return null;
            }
            JsonNode message = GatewayApi.JSON.readTree(response.body()).path("message");
            if (message.path("attachmentSize").asLong() != file.length || !message.path("attachmentUrl").isTextual()) {
                uploads.failed(started, "upload 201 without the file's size or link: " + shortened(response.body()));
                return null;
            }
            uploads.succeeded(started);
            return message.path("attachmentUrl").asText();
        } catch (Exception e) {
            uploads.failed(started, "upload " + e.getClass().getSimpleName());
            return null;
        }
    }

    private void download(String link, byte[] expected, Transfers.Tally downloads, MessageDigest sha256) {
        URI linked = URI.create(link);
        if (!linked.getAuthority().equals(gateway.getAuthority())) {
            foreignLink.compareAndSet(null, linked.getScheme() + "://" + linked.getAuthority() + "/attachments/...");
        }
        HttpRequest request = HttpRequest.newBuilder(gateway.resolve(linked.getRawPath())).timeout(Duration.ofSeconds(60)).GET().build();
        long started = System.nanoTime();
        try {
            HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = response.body()) {
                if (response.statusCode() != 200) {
                    downloads.failed(started, "download HTTP " + response.statusCode() + " "
                            + shortened(new String(body.readAllBytes(), StandardCharsets.UTF_8)));
                    return;
                }
                byte[] buffer = new byte[64 * 1024];
                long length = 0;
                for (int read; (read = body.read(buffer)) >= 0; ) {
                    sha256.update(buffer, 0, read);
                    length += read;
                }
                byte[] actual = sha256.digest();
                if (length != FILE_BYTES) {
                    downloads.failed(started, "download of " + length + " bytes");
                } else if (!Arrays.equals(actual, expected)) {
                    downloads.failed(started, "download SHA-256 differs from the upload's");
                } else {
                    downloads.succeeded(started);
                }
            }
        } catch (Exception e) {
            sha256.reset();
            downloads.failed(started, "download " + e.getClass().getSimpleName());
        }
    }

    private static String shortened(String body) {
        String text = body.strip();
        return text.length() > 120 ? text.substring(0, 120) + "..." : text;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
