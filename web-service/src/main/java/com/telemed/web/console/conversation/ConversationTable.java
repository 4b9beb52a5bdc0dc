package com.telemed.web.console.conversation;

import java.util.List;

/**
 * The table of threads ({@code console-conversations-table.html}): on the conversations page and alone as
 * the fragment {@code app.js} fetches to refresh it ({@code liveSrc}), with the nav's unread text for the
 * script to update the header ({@code navUnread}).
 *
 * @param nextHref the next page ({@code after=<nextCursor>}), or null on the last one
 */
public record ConversationTable(String liveSrc, String navUnread, List<Row> rows, String nextHref) {

    /**
     * A thread: the patient's name, its last message's time in UTC ({@code yyyy-MM-dd HH:mm}), the patient
     * messages no prescriber has read; {@code href} its page, null for a role that may not open threads
     * (an administrator).
     */
    public record Row(String id, String patient, String lastMessageAt, int unread, String href) {
    }
}
