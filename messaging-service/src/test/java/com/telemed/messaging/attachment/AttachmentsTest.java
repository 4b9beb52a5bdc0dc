package com.telemed.messaging.attachment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The download link an attachment's message carries, and the name a download gives. */
class AttachmentsTest {

    private static final String KEY = "attachments-test-link-key-0123456789abcdef";
    private static final Attachments ATTACHMENTS = new Attachments(null, new AttachmentConfig() {
        @Override
        public Optional<String> baseUrl() {
            return Optional.of("https://api.example/");
        }

        @Override
        public Optional<List<String>> linkKey() {
            return Optional.of(List.of(KEY));
        }
    });
    private static final UUID ID = UUID.fromString("0b6f7c1e-2d3a-4e5f-8a9b-0c1d2e3f4a5b");
    private static final String TOKEN = new AttachmentLinks(List.of(KEY)).token(ID);

    private static String link(String fileName) {
        Attachment attachment = new Attachment();
        attachment.id = ID;
        attachment.fileName = fileName;
        return ATTACHMENTS.link(attachment);
    }

    @Test
    void theLinkNamesTheFilePercentEncoded() {
        assertEquals("https://api.example/attachments/" + TOKEN + "/Lab%20results%20%C3%A9%201.pdf", link("Lab results é 1.pdf"));
    }

    /**
     * Issue #38 (the bad-input property, extended to uploads): a stored name of 2,000 "é" made a link
     * of 12,079 characters, which the gateway refuses (414, over 4,000). The link carries the name's
     * first 255 bytes, whole characters only (names stored since are no longer; older rows may be);
     * the token alone names the file.
     */
    @Test
    void aLongNameIsCutInTheLinkToItsFirst255Bytes() {
        String prefix = "https://api.example/attachments/" + TOKEN + "/";
        assertEquals(prefix + "%C3%A9".repeat(127), link("é".repeat(2_000)));
        assertEquals(prefix + "x".repeat(255), link("x".repeat(255)));
        assertEquals(prefix + "x".repeat(255), link("x".repeat(20_000)));
        // An emoji is four bytes: 63 of them fit, not a half of the 64th.
        assertEquals(prefix + "%F0%9F%98%80".repeat(63), link("\uD83D\uDE00".repeat(100)));
        assertTrue(link("\u00e9".repeat(70_000)).length() < 1_000);
    }

    /**
     * Issue #38: the download of a name of 20,000 characters had a Content-Disposition of 40,000,
     * past the 8 KB the gateway's client takes of an answer's headers: the gateway answered 503.
     * It names the first 255 bytes, as the link.
     */
    @Test
    void aDownloadNamesTheFirst255BytesOfALongName() {
        assertEquals("attachment; filename=\"" + "x".repeat(255) + "\"; filename*=UTF-8''" + "x".repeat(255),
                AttachmentResource.contentDisposition("x".repeat(20_000)));
        assertEquals("attachment; filename=\"" + "_".repeat(127) + "\"; filename*=UTF-8''" + "%C3%A9".repeat(127),
                AttachmentResource.contentDisposition("\u00e9".repeat(2_000)));
        assertEquals("attachment; filename=\"a_b.pdf\"; filename*=UTF-8''a%0Ab.pdf", AttachmentResource.contentDisposition("a\nb.pdf"));
    }
}
