package com.telemed.web.console.session;

import com.telemed.web.ops.OpsApi;
import com.telemed.web.ops.OpsClient;

/**
 * The nav's unread text (interfaces.md D1): the threads with unread patient messages, read as the first
 * page of {@code GET /ops/v1/conversations?unread=true&limit=100} ({@link OpsClient#unreadThreads}, its own
 * circuit breaker): {@code (n unread)}, {@code (100+ unread)} when there is a next page, empty for none.
 * Best effort: a count the gateway does not give is left out (the page it heads is shown all the same: its
 * own call answers for the session and the gateway; a session the gateway ended, {@code SignedOut}, too).
 */
final class UnreadThreads {

    private UnreadThreads() {
    }

    static String text(OpsClient ops, String token) {
        OpsApi.ConversationPage page;
        try {
            page = ops.unreadThreads(token);
        } catch (RuntimeException notGiven) {
            return "";
        }
        int count = page.conversations().size();
        if (count == 0) {
            return "";
        }
        return "(" + (count >= OpsClient.PAGE && page.nextCursor() != null ? OpsClient.PAGE + "+" : String.valueOf(count)) + " unread)";
    }
}
