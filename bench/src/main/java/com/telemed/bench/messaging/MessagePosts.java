package com.telemed.bench.messaging;

import com.telemed.bench.support.LoadRun;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;

/**
 * The measurement of posting: {@code POST /v1/messages/conversations/:id/messages} with a short text
 * through the gateway, {@code clients} concurrent clients from this JVM (each its own call, which wrk
 * does not do without a script), anything but 201 an error counted by status and body. Either each
 * client posts to a conversation of its own, or all post to one: a post locks its conversation's row
 * for its transaction (message, conversation, mail), so posts to one conversation run one at a time.
 */
final class MessagePosts {

    static final String BODY = "{\"text\": \"Hello, I have a question about my prescription: can I take it with food?\"}";

    private final URI gateway;
    private final String apiKey;
    private final List<String> conversations;

    MessagePosts(URI gateway, String apiKey, List<String> conversations) {
        this.gateway = gateway;
        this.apiKey = apiKey;
        this.conversations = conversations;
    }

    /** Client {@code i} posts to conversation {@code i}. */
    LoadRun.Result ownConversations(String name, int clients, Duration duration) throws InterruptedException {
        return LoadRun.each(name, client -> post(conversations.get(client)), 201, clients, duration);
    }

    /** Every client posts to the first conversation. */
    LoadRun.Result sharedConversation(String name, int clients, Duration duration) throws InterruptedException {
        HttpRequest shared = post(conversations.get(0));
        return LoadRun.each(name, client -> shared, 201, clients, duration);
    }

    private HttpRequest post(String conversation) {
        return HttpRequest.newBuilder(gateway.resolve("/v1/messages/conversations/" + conversation + "/messages"))
                .header("x-api-key", apiKey).header("Content-Type", "application/json").timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString(BODY)).build();
    }
}
