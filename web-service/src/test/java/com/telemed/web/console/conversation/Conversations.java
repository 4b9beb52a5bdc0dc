package com.telemed.web.console.conversation;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.telemed.web.PageCalls.json;

import com.telemed.web.Neighbours;
import com.telemed.web.console.ConsoleCalls;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** messaging-service's answers as the gateway gives them to the console's conversation pages. */
final class Conversations {

    static final String FIRST = "3c1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e01";
    static final String SECOND = "3c1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e02";

    private Conversations() {
    }

    /** A conversation as partner-api.md's Conversation has it. */
    static Map<String, Object> conversation(String id, String memberName, String lastMessageAt, int unreadByPrescriber) {
        Map<String, Object> conversation = new LinkedHashMap<>();
        conversation.put("id", id);
        conversation.put("memberId", "1b1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e9f");
        conversation.put("memberName", memberName);
        conversation.put("memberEmail", "jo@example.com");
        conversation.put("prescriberId", ConsoleCalls.PRESCRIBER_ID);
        conversation.put("prescriberName", "Dr Ada Okafor");
        conversation.put("partnerId", "partner-1");
        conversation.put("lastMessageAt", lastMessageAt);
        conversation.put("lastMessagePreview", "Hello");
        conversation.put("lastMessageSenderId", "1b1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e9f");
        conversation.put("unreadByMember", 0);
        conversation.put("unreadByPrescriber", unreadByPrescriber);
        conversation.put("createdAt", "2030-03-01T08:00:00Z");
        conversation.put("updatedAt", lastMessageAt);
        return conversation;
    }

    static Map<String, Object> listing(List<Map<String, Object>> conversations, String nextCursor) {
        Map<String, Object> page = new LinkedHashMap<>();
        page.put("conversations", conversations);
        page.put("nextCursor", nextCursor);
        return page;
    }

    /** The nav's count: {@code n} unread threads on the first page of {@code unread=true&limit=100}. */
    static void unreadThreads(int n, String nextCursor) {
        List<Map<String, Object>> unread = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            unread.add(conversation(String.format("4c1c2a38-0b7e-4d0b-9a43-%012d", i), "Patient " + i, "2030-03-01T09:00:00Z", 1));
        }
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/conversations")).withQueryParam("limit", equalTo("100")).atPriority(1)
                .willReturn(okJson(json(listing(unread, nextCursor)))));
    }

    /** A message as partner-api.md's Message has it. */
    static Map<String, Object> message(String id, String senderRole, String text, String createdAt) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("id", id);
        message.put("conversationId", FIRST);
        message.put("senderId", senderRole.equals("system") ? "system" : "1b1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e9f");
        message.put("senderRole", senderRole);
        message.put("senderName", senderRole.equals("patient") ? "Jo Bloggs" : senderRole.equals("prescriber") ? "Dr Ada Okafor" : "System");
        message.put("type", senderRole.equals("system") ? "system" : "text");
        message.put("text", text);
        message.put("html", null);
        message.put("attachmentUrl", null);
        message.put("attachmentName", null);
        message.put("attachmentType", null);
        message.put("attachmentSize", null);
        message.put("handoffCategory", null);
        message.put("createdAt", createdAt);
        return message;
    }

    static Map<String, Object> thread(Map<String, Object> conversation, List<Map<String, Object>> messages, String nextCursor) {
        Map<String, Object> thread = new LinkedHashMap<>();
        thread.put("conversation", conversation);
        thread.put("messages", messages);
        thread.put("nextCursor", nextCursor);
        return thread;
    }
}
