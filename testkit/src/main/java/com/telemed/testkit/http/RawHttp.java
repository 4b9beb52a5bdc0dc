package com.telemed.testkit.http;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An HTTP/1.1 client that sends exactly the bytes it is given: a request target with invalid
 * percent-encoding or raw bytes, any header name and value, no {@code Content-Type}, a chunked
 * body. {@code java.net.http} and REST Assured validate all of these away. One keep-alive
 * connection, reopened when the server closes it; not thread-safe.
 */
public final class RawHttp implements AutoCloseable {

    /** A header as sent: the value's characters are written as ISO-8859-1 bytes (raw bytes 0x80-0xFF allowed). */
    public record Header(String name, String value) {
    }

    /**
     * The request. {@code target} is the request line's target, written as ISO-8859-1 bytes and
     * never encoded; {@code body} null sends no body and no length; {@code chunked} sends the body
     * in chunks instead of with a {@code Content-Length}.
     */
    public record Request(String method, String target, List<Header> headers, byte[] body, boolean chunked) {
    }

    /** The answer; header names lower-cased. */
    public record Response(int status, List<Header> headers, byte[] body) {

        public Optional<String> header(String name) {
            return headers.stream().filter(header -> header.name().equals(name.toLowerCase(Locale.ROOT)))
                    .map(Header::value).findFirst();
        }

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private static final int CHUNK = 8192;

    private final String host;
    private final int port;
    private final int timeoutMillis;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    public RawHttp(URI base, Duration timeout) {
        this.host = base.getHost();
        this.port = base.getPort();
        this.timeoutMillis = Math.toIntExact(timeout.toMillis());
    }

    /**
     * Sends the request and reads the whole answer. A kept-alive connection the server had
     * already closed is retried once on a new one; a new connection that gets no answer throws.
     */
    public Response send(Request request) throws IOException {
        Response response = sendOnce(request);
        Map<String, String> headers = new LinkedHashMap<>();
        request.headers().forEach(header -> headers.put(header.name().toLowerCase(Locale.ROOT), header.value()));
        // The contract check and the log scan's record hear of it (the contract check holds only
        // successful answers of these deliberately odd requests to the document: see ContractCheck).
        Exchanges.answered(new Exchange(Exchange.Client.RAW_HTTP, URI.create("http://" + host + ":" + port), request.method(),
                request.target(), headers, request.body() == null ? new byte[0] : request.body(), response.status(),
                response.header("content-type").orElse(null), response.body()));
        return response;
    }

    private Response sendOnce(Request request) throws IOException {
        boolean reused = socket != null;
        try {
            return exchange(request);
        } catch (IOException e) {
            closeQuietly();
            if (!reused || e instanceof ReadAfterAnswerStarted) {
                throw e;
            }
            return exchange(request);
        }
    }

    private Response exchange(Request request) throws IOException {
        if (socket == null) {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(timeoutMillis);
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            in = new BufferedInputStream(socket.getInputStream(), 16384);
            out = socket.getOutputStream();
        }
        IOException writeFailure = null;
        try {
            write(request);
        } catch (IOException e) {
            // The server may have answered (413) and closed before taking the whole body: read what it said.
            writeFailure = e;
        }
        Response response;
        try {
            response = read(request.method());
        } catch (IOException e) {
            if (writeFailure != null) {
                e.addSuppressed(writeFailure);
            }
            throw e;
        }
        if (writeFailure != null || response.header("connection").filter(value -> value.equalsIgnoreCase("close")).isPresent()) {
            closeQuietly();
        }
        return response;
    }

    private void write(Request request) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        line(head, request.method() + " " + request.target() + " HTTP/1.1");
        line(head, "Host: " + host + ":" + port);
        for (Header header : request.headers()) {
            line(head, header.name() + ": " + header.value());
        }
        byte[] body = request.body();
        if (body != null) {
            line(head, request.chunked() ? "Transfer-Encoding: chunked" : "Content-Length: " + body.length);
        }
        line(head, "");
        out.write(head.toByteArray());
        if (body != null) {
            if (request.chunked()) {
                for (int offset = 0; offset < body.length; offset += CHUNK) {
                    int length = Math.min(CHUNK, body.length - offset);
                    out.write((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                    out.write(body, offset, length);
                    out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
                }
                out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            } else {
                out.write(body);
            }
        }
        out.flush();
    }

    private static void line(ByteArrayOutputStream to, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        to.write(bytes, 0, bytes.length);
        to.write('\r');
        to.write('\n');
    }

    private Response read(String method) throws IOException {
        String statusLine = readLine();
        if (statusLine == null) {
            throw new IOException("connection closed without an answer");
        }
        try {
            String[] parts = statusLine.split(" ", 3);
            if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
                throw new ReadAfterAnswerStarted("not an HTTP status line: " + statusLine);
            }
            int status = Integer.parseInt(parts[1]);
            List<Header> headers = new ArrayList<>();
            for (String line = readLine(); line != null && !line.isEmpty(); line = readLine()) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    headers.add(new Header(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim()));
                }
            }
            if (status / 100 == 1) {
                return read(method);
            }
            Response bodiless = new Response(status, headers, new byte[0]);
            byte[] body;
            if (method.equals("HEAD") || status == 204 || status == 304) {
                body = new byte[0];
            } else if (bodiless.header("transfer-encoding").filter(value -> value.toLowerCase(Locale.ROOT).contains("chunked")).isPresent()) {
                body = readChunked();
            } else if (bodiless.header("content-length").isPresent()) {
                body = in.readNBytes(Integer.parseInt(bodiless.header("content-length").get()));
            } else {
                body = in.readAllBytes();
                closeQuietly();
            }
            return new Response(status, headers, body);
        } catch (IOException e) {
            throw e instanceof ReadAfterAnswerStarted ? e : new ReadAfterAnswerStarted(e);
        } catch (RuntimeException e) {
            throw new ReadAfterAnswerStarted("malformed answer: " + e);
        }
    }

    private byte[] readChunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String size = readLine();
            if (size == null) {
                throw new IOException("chunked body cut short");
            }
            int semicolon = size.indexOf(';');
            int length = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
            if (length == 0) {
                for (String trailer = readLine(); trailer != null && !trailer.isEmpty(); trailer = readLine()) {
                    // trailers are not used
                }
                return body.toByteArray();
            }
            body.write(in.readNBytes(length));
            readLine();
        }
    }

    /** A line without its CRLF, null at the end of the stream before any byte. */
    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }

    private void closeQuietly() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        socket = null;
        in = null;
        out = null;
    }

    @Override
    public void close() {
        closeQuietly();
    }

    /** The server started an answer and it broke off: never retried, the request may have been processed. */
    private static final class ReadAfterAnswerStarted extends IOException {
        ReadAfterAnswerStarted(String message) {
            super(message);
        }

        ReadAfterAnswerStarted(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }
}
