package com.telemed.messaging.message;

import com.telemed.common.error.EarlyAnswers;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * Bounds the uploads in flight, so that the files Quarkus REST writes to disk as their parts arrive
 * can never fill the volume they are written to (the chart's {@code /tmp} emptyDir): at most
 * {@code messaging.uploads.max-in-flight} at once, and at most {@code max-in-flight-per-partner} of
 * one partner's (the prescriber's uploads count in the total). One more is answered {@code 429
 * {"error":"Too Many Requests"}} with {@code Retry-After}, before a byte of its body is read
 * ({@link EarlyAnswers}). A slot is taken when
 * the call arrives, after the service proof check, and given back when its answer ends or its
 * connection closes, whatever happened in between.
 */
@ApplicationScoped
public class UploadSlots {

    /** {@code messaging.uploads.*} ({@code MESSAGING_UPLOADS_*}). */
    @ConfigMapping(prefix = "messaging.uploads")
    public interface Limits {

        /**
         * Uploads in flight at once on one replica. Each writes at most 11 MB (a 10 MB part and its
         * framing) to disk: 64 of them fit in the chart's 1 GiB volume with room to spare.
         */
        @WithDefault("64")
        int maxInFlight();

        /** Uploads in flight at once for one partner, so that one partner cannot take every slot. */
        @WithDefault("16")
        int maxInFlightPerPartner();

        /** The {@code Retry-After} of a refused upload. */
        @WithDefault("5")
        int retryAfterSeconds();
    }

    private static final Logger LOG = Logger.getLogger(UploadSlots.class);
    private static final Pattern UPLOADS = Pattern.compile(
            "/v1/messages/conversations/[^/]+/attachments|/ops/v1/conversations/[^/]+/prescriber-attachments");
    private static final String BODY = "{\"error\":\"Too Many Requests\"}";
    private static final String PRESCRIBERS = "";

    private final Limits limits;
    private final AtomicInteger total = new AtomicInteger();
    private final ConcurrentHashMap<String, AtomicInteger> perPartner = new ConcurrentHashMap<>();

    public UploadSlots(Limits limits) {
        this.limits = limits;
    }

    /** Right after the proof check ({@code Integer.MIN_VALUE}), before anything reads a body. */
    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE + 1).handler(this::take);
    }

    /** Uploads in flight now (for tests and metrics). */
    public int inFlight() {
        return total.get();
    }

    private void take(RoutingContext context) {
        HttpServerRequest request = context.request();
        if (request.method() != HttpMethod.POST || !UPLOADS.matcher(context.normalizedPath()).matches()) {
            context.next();
            return;
        }
        String partner = request.getHeader("X-Partner-Id");
        String key = partner == null ? PRESCRIBERS : partner;
        AtomicInteger mine = perPartner.computeIfAbsent(key, k -> new AtomicInteger());
        if (!acquire(mine, partner == null ? Integer.MAX_VALUE : limits.maxInFlightPerPartner())) {
            refuse(request);
            return;
        }
        if (!acquire(total, limits.maxInFlight())) {
            mine.decrementAndGet();
            refuse(request);
            return;
        }
        AtomicBoolean released = new AtomicBoolean();
        context.addEndHandler(ended -> {
            if (released.compareAndSet(false, true)) {
                total.decrementAndGet();
                mine.decrementAndGet();
            }
        });
        context.next();
    }

    private static boolean acquire(AtomicInteger count, int limit) {
        while (true) {
            int now = count.get();
            if (now >= limit) {
                return false;
            }
            if (count.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    private void refuse(HttpServerRequest request) {
        LOG.warnf("refused an upload: %d in flight (at most %d, %d per partner)", total.get(), limits.maxInFlight(),
                limits.maxInFlightPerPartner());
        request.response().putHeader("Retry-After", String.valueOf(limits.retryAfterSeconds()));
        EarlyAnswers.answerAndClose(request, 429, BODY);
    }
}
