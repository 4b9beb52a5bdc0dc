package com.telemed.web.console.conversation;

import java.util.List;

/**
 * A thread's page ({@code console-conversation.html}): who it is between, its messages oldest first, and
 * the forms the roles may use: reply and attach (a prescriber), hand-off per patient message (a prescriber,
 * support). After a refusal, the form with what was typed and the gateway's issues next to its fields.
 *
 * @param notice what the last action did ("Sent", "Attached", "Handed off"), or null
 * @param failed the last post was refused ({@code Error:} in the title)
 * @param error the gateway's refusal of the last action that was about no field, or null
 * @param text the reply's field, {@code file} the attachment's; both null for a role that may not post
 */
public record ThreadView(String id, String patient, String prescriber, String notice, boolean failed, String error, List<MessageRow> messages,
                         Field text, Field file, String csrf) {

    public String replyAction() {
        return "/console/conversations/" + id + "/reply";
    }

    public String attachAction() {
        return "/console/conversations/" + id + "/attach";
    }

    /**
     * A message: who sent it ({@code patient}, {@code prescriber}, {@code system}) and their name, when (UTC),
     * its text, its attachment's link (http or https only) and name, the category it was handed off with,
     * and its hand-off form (null: not a patient message, or a role that may not hand off).
     */
    public record MessageRow(String id, String sender, String senderName, String time, String text, String attachmentHref,
                             String attachmentName, String handoffCategory, HandOff handOff) {

        public String senderLabel() {
            return switch (sender) {
                case "patient" -> "Patient";
                case "prescriber" -> "Prescriber";
                default -> "System";
            };
        }
    }

    /** A patient message's hand-off form: {@code category} (a select of {@code options}) and {@code note}. */
    public record HandOff(String action, Field category, List<Option> options, Field note) {
    }

    public record Option(String value, String label, boolean selected) {
    }

    /**
     * A field: {@code name} as posted, {@code id} unique on the page, its label, what was typed, the
     * gateway's issue or null.
     */
    public record Field(String name, String id, String label, String value, String error) {

        public String errorId() {
            return "error-" + name;
        }
    }
}
