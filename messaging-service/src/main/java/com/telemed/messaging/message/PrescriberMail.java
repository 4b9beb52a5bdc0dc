package com.telemed.messaging.message;

import com.telemed.messaging.conversation.Conversation;

/** The mail that tells a prescriber a patient wrote: the patient's text verbatim, plain text. */
final class PrescriberMail {

    private PrescriberMail() {
    }

    static String subject(Conversation conversation) {
        return "New message from " + conversation.memberName;
    }

    static String body(Conversation conversation, String text) {
        return conversation.memberName + " sent you a message:\n\n" + text + "\n\nConversation: " + conversation.id;
    }
}
