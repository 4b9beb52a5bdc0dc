package com.telemed.gateway.edge;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * The minimum pace of a public download (an attachment link). The file streams from the service to
 * the client under backpressure, so a client that reads slowly, or not at all, would hold the
 * gateway's side and the service's side of the download for as long as it liked: the idle timeout
 * never fires while bytes trickle, and anyone can mint a link by uploading. At the end of every
 * window, a download whose client is behind (the gateway holds more for it than the connection
 * takes) and took fewer than {@code min-bytes-per-second} × {@code window} bytes in that window is
 * cut: the client's connection and the service's call are both reset. A slow service is not the
 * client's doing: while the gateway waits for the service, nothing is cut.
 */
final class DownloadPace {

    private static final Logger LOG = Logger.getLogger(DownloadPace.class);

    private DownloadPace() {
    }

    /** Streams {@code answer} to {@code response} as {@code pipeTo} does, cutting a client that falls below the pace. */
    static void relay(Vertx vertx, GatewayConfig.DownloadPaceConfig pace, HttpClientResponse answer, HttpServerResponse response) {
        AtomicLong written = new AtomicLong();
        long windowMillis = Math.max(1, pace.window().toMillis());
        long minimum = pace.minBytesPerSecond() * windowMillis / 1000;
        long[] atLastLook = {0};
        long timer = vertx.setPeriodic(windowMillis, id -> {
            if (response.ended() || response.closed()) {
                vertx.cancelTimer(id);
                return;
            }
            long now = written.get();
            long moved = now - atLastLook[0];
            atLastLook[0] = now;
            if (response.writeQueueFull() && moved < minimum) {
                vertx.cancelTimer(id);
                LOG.warnf("a download was cut: its client took %d bytes in %d ms (at least %d expected), %d in all",
                        moved, windowMillis, minimum, now);
                answer.request().reset();
                response.reset();
            }
        });
        answer.handler(chunk -> {
            response.write(chunk);
            written.addAndGet(chunk.length());
            if (response.writeQueueFull()) {
                answer.pause();
                response.drainHandler(drained -> answer.resume());
            }
        });
        answer.exceptionHandler(failure -> {
            vertx.cancelTimer(timer);
            response.reset();
        });
        answer.endHandler(ended -> {
            vertx.cancelTimer(timer);
            response.end();
        });
        answer.resume();
    }
}
