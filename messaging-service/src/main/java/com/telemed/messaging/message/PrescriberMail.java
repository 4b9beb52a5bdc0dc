package com.telemed.messaging.message;

import com.telemed.common.validation.StringSchema;
import com.telemed.messaging.conversation.Conversation;

/** The mail that tells a prescriber a patient wrote: the patient's text verbatim, plain text. */
final class PrescriberMail {

    private PrescriberMail() {
    }

    /**
     * A header's text: the member's name is checked at the API (no control character), but a name
     * stored before that check, or one that reached the copy another way, may still hold a line
     * feed, which vert.x mail would send as is in an ASCII subject (vert-x3/vertx-mail-client#241),
     * starting a header of its own. Every control character and line separator becomes a space.
     */
    static String subject(Conversation conversation) {
        return "New message from " + oneLine(conversation.memberName);
    }

    static String oneLine(String text) {
        StringBuilder line = new StringBuilder(text.length());
        text.chars().forEach(c -> line.append(StringSchema.breaksLine(c) ? ' ' : (char) c));
        return line.toString();
    }

    static String body(Conversation conversation, String text) {
        return conversation.memberName + " sent you a message:\n\n" + text + "\n\nConversation: " + conversation.id;
    }
}
