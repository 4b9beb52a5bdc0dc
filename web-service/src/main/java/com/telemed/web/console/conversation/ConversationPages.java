package com.telemed.web.console.conversation;

import com.telemed.common.access.Principal.Role;
import com.telemed.web.console.session.ConsoleError;
import com.telemed.web.console.session.ConsoleSession;
import com.telemed.web.ops.OpsApi;
import com.telemed.web.ops.OpsClient;
import com.telemed.web.page.Pages;
import com.telemed.web.page.Refusal;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The prescribers' conversations as the console shows them (interfaces.md D1): messaging-service's list of
 * threads and a thread through the gateway, and the forms each role may use on a thread.
 */
@ApplicationScoped
public class ConversationPages {

    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);
    static final Map<String, String> NOTICES = Map.of("sent", "Sent", "attached", "Attached", "handed-off", "Handed off");

    private final OpsClient ops;

    public ConversationPages(OpsClient ops) {
        this.ops = ops;
    }

    /**
     * What the last post of one of the thread's forms left: the form ({@code reply}, {@code attach},
     * {@code handoff}), the message handed off (or null), what was typed, the issues by field ({@code ""}: about none).
     */
    public record Failed(String form, String messageId, Map<String, String> typed, Map<String, String> errors) {
    }

    /** A page of threads, unread first; {@code after} the cursor of the page before or null. */
    public ConversationTable table(ConsoleSession session, boolean unreadOnly, String after, String navUnread) {
        OpsApi.ConversationPage page = ops.conversations(session.token(), unreadOnly, after, null);
        boolean open = session.hasAny(Role.PRESCRIBER, Role.SUPPORT);
        List<ConversationTable.Row> rows = page.conversations().stream().map(conversation -> new ConversationTable.Row(conversation.id(),
                nullToEmpty(conversation.memberName()), time(conversation.lastMessageAt()),
                conversation.unreadByPrescriber() == null ? 0 : conversation.unreadByPrescriber(),
                open ? "/console/conversations/" + Pages.encode(conversation.id()) : null)).toList();
        String next = page.nextCursor() == null ? null
                : "/console/conversations?" + (unreadOnly ? "unread=1&" : "") + "after=" + Pages.encode(page.nextCursor());
        return new ConversationTable("/console/conversations/table" + query(unreadOnly, after), navUnread, rows, next);
    }

    /**
     * The thread's page; for a prescriber, the thread is marked read after it was read when it has unread
     * patient messages (its answer is not shown: a refusal leaves the page as read).
     */
    public ThreadView thread(ConsoleSession session, String id, String done, Failed failed) {
        OpsApi.Thread thread = read(session, id);
        OpsApi.Conversation conversation = thread.conversation();
        if (session.prescriber() && conversation.unreadByPrescriber() != null && conversation.unreadByPrescriber() > 0) {
            try {
                ops.markRead(session.token(), id);
            } catch (Refusal refused) {
                // Read all the same; the count stays until the next visit.
            }
        }
        boolean post = session.has(Role.PRESCRIBER);
        boolean handOff = post || session.has(Role.SUPPORT);
        String base = "/console/conversations/" + Pages.encode(id);
        List<ThreadView.MessageRow> messages = new ArrayList<>();
        for (OpsApi.Message message : thread.messages()) {
            boolean patient = "patient".equals(message.senderRole());
            Failed mine = failed != null && failed.form().equals("handoff") && message.id().equals(failed.messageId()) ? failed : null;
            messages.add(new ThreadView.MessageRow(message.id(), sender(message.senderRole()), nullToEmpty(message.senderName()),
                    time(message.createdAt()), nullToEmpty(message.text()), link(message.attachmentUrl()),
                    message.attachmentName() != null ? message.attachmentName() : nullToEmpty(message.text()),
                    message.handoffCategory() == null ? null : ThreadForms.CATEGORIES.getOrDefault(message.handoffCategory(), message.handoffCategory()),
                    patient && handOff ? handOffForm(base, message.id(), mine) : null));
        }
        boolean reply = failed != null && failed.form().equals("reply");
        boolean attach = failed != null && failed.form().equals("attach");
        return new ThreadView(conversation.id(), nullToEmpty(conversation.memberName()), nullToEmpty(conversation.prescriberName()),
                done == null ? null : NOTICES.get(done), failed != null, failed == null ? null : failed.errors().get(""), messages,
                post ? new ThreadView.Field("text", "text", "Message", reply ? failed.typed().getOrDefault("text", "") : "",
                        reply ? failed.errors().get("text") : null) : null,
                post ? new ThreadView.Field("file", "file", "File", "", attach ? failed.errors().get("file") : null) : null,
                session.csrf());
    }

    private OpsApi.Thread read(ConsoleSession session, String id) {
        try {
            return ops.thread(session.token(), id);
        } catch (Refusal refusal) {
            if (refusal.status() == 404 || refusal.status() == 400) {
                throw notFound();
            }
            throw refusal;
        }
    }

    static ConsoleError notFound() {
        return new ConsoleError(404, "Conversation not found", "There is no conversation with this id. Go back to the conversations and open it from there.");
    }

    private static ThreadView.HandOff handOffForm(String base, String messageId, Failed failed) {
        String category = failed == null ? "" : failed.typed().getOrDefault("category", "");
        List<ThreadView.Option> options = new ArrayList<>();
        ThreadForms.CATEGORIES.forEach((value, label) -> options.add(new ThreadView.Option(value, label, value.equals(category))));
        return new ThreadView.HandOff(base + "/messages/" + Pages.encode(messageId) + "/handoff",
                new ThreadView.Field("category", "category-" + messageId, "Category", category, failed == null ? null : failed.errors().get("category")),
                options,
                new ThreadView.Field("note", "note-" + messageId, "Note", failed == null ? "" : failed.typed().getOrDefault("note", ""),
                        failed == null ? null : failed.errors().get("note")));
    }

    private static String query(boolean unreadOnly, String after) {
        List<String> parameters = new ArrayList<>();
        if (unreadOnly) {
            parameters.add("unread=1");
        }
        if (after != null) {
            parameters.add("after=" + Pages.encode(after));
        }
        return parameters.isEmpty() ? "" : "?" + String.join("&", parameters);
    }

    private static String sender(String role) {
        return "patient".equals(role) || "prescriber".equals(role) ? role : "system";
    }

    /** An attachment's link when it is one a browser may follow (http or https); null otherwise. */
    static String link(String url) {
        if (url == null) {
            return null;
        }
        try {
            String scheme = URI.create(url).getScheme();
            return "https".equalsIgnoreCase(scheme) || "http".equalsIgnoreCase(scheme) ? url : null;
        } catch (IllegalArgumentException notAnAddress) {
            return null;
        }
    }

    private static String time(Instant at) {
        return at == null ? "" : TIME.format(at);
    }

    private static String nullToEmpty(String value) {
        return value == null ? "" : value;
    }
}
