package com.telemed.web.console.conversation;

/**
 * The conversations page ({@code console-conversations.html}): the "Unread only" filter as given and the
 * table ({@link ConversationTable}); {@code refreshSeconds} for {@code app.js}.
 */
public record ConversationsView(boolean unreadOnly, ConversationTable table, int refreshSeconds) {
}
