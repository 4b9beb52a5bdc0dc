package com.telemed.testkit.infra;

import java.util.List;

/**
 * One mail as the embedded server delivered it into one mailbox. A mail sent to two recipients is
 * two of these, one per envelope recipient ({@code deliveredTo}), as any mail server delivers it.
 *
 * @param deliveredTo the address of the mailbox it was delivered into (the envelope recipient)
 * @param from        the {@code From} header's (first) address, bare ({@code ""} when absent)
 * @param recipients  the {@code To} and then {@code Cc} addresses, bare ({@code dr.ada@example.com}), in header order
 * @param subject     the decoded subject ({@code ""} when absent)
 * @param text        the first {@code text/plain} part that is not an attachment, decoded with its
 *                    charset (UTF-8 when it names none), line breaks as {@code \n}; {@code ""} when there is none
 * @param html        the first {@code text/html} part, decoded the same way; {@code ""} when there is none
 */
public record ReceivedMail(String deliveredTo, String from, List<String> recipients, String subject, String text,
                           String html) {

    public ReceivedMail {
        recipients = List.copyOf(recipients);
    }
}
