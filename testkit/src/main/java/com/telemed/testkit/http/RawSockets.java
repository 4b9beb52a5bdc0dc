package com.telemed.testkit.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A client a test controls byte by byte, for what an HTTP client library hides: a reader that takes
 * an answer's head and first byte and then stops reading, an upload whose body stops half-way, a
 * request target with raw bytes in it.
 */
public final class RawSockets {

    private RawSockets() {
    }

    /**
     * A connection to {@code port} on loopback that reads with a 30 s timeout. A small
     * {@code receiveBuffer} (set before connecting, so the window is small from the first byte) makes
     * a reader that stops reading stop the writer soon.
     */
    public static Socket connect(int port, int receiveBuffer) throws IOException {
        Socket socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.setSoTimeout(30_000);
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
        return socket;
    }

    /** An answer's status line and headers, up to and with the empty line, read byte by byte (nothing of the body). */
    public static String head(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the connection closed in the answer's head: " + head.toString(StandardCharsets.ISO_8859_1));
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }
}
