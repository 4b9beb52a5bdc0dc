package com.telemed.requests.pharmacy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A pharmacy's answer read to at most {@code max} bytes: a longer one (declared by its
 * {@code Content-Length}, or found so while reading) stops the read at once (the subscription is
 * cancelled and the connection dropped) and fails with {@link TooLarge}. Memory held: at most
 * {@code max} bytes plus the one buffer the client hands over at a time, whatever the pharmacy sends.
 */
final class BoundedAnswer implements HttpResponse.BodySubscriber<byte[]> {

    /** The answer is longer than the bound. */
    static final class TooLarge extends IOException {

        TooLarge(int max) {
            super("answer larger than " + max + " bytes");
        }
    }

    private final int max;
    private final long declared;
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private Flow.Subscription subscription;

    private BoundedAnswer(int max, long declared) {
        this.max = max;
        this.declared = declared;
    }

    /** Reads each answer to at most {@code max} bytes. */
    static HttpResponse.BodyHandler<byte[]> atMost(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1 byte, not " + max);
        }
        return info -> new BoundedAnswer(max, info.headers().firstValueAsLong("Content-Length").orElse(-1));
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        if (declared > max) {
            tooLarge();
            return;
        }
        subscription.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        if (body.isDone()) {
            return;
        }
        for (ByteBuffer buffer : buffers) {
            if (buffer.remaining() > max - bytes.size()) {
                tooLarge();
                return;
            }
            byte[] chunk = new byte[buffer.remaining()];
            buffer.get(chunk);
            bytes.write(chunk, 0, chunk.length);
        }
        subscription.request(1);
    }

    @Override
    public void onError(Throwable failure) {
        body.completeExceptionally(failure);
    }

    @Override
    public void onComplete() {
        body.complete(bytes.toByteArray());
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return body;
    }

    private void tooLarge() {
        subscription.cancel();
        body.completeExceptionally(new TooLarge(max));
    }
}
