package com.telemed.messaging.message;

import com.telemed.common.error.ApiException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * The cursor of a thread's pages: opaque to partners, it names the last message of a page (its
 * position in the thread), and the next page starts after it. Messages posted meanwhile come on
 * later pages; none is skipped or repeated.
 */
final class Cursor {

    static final String INVALID = "Invalid cursor";
    private static final String PREFIX = "after:";
    private static final Pattern POSITION = Pattern.compile("[1-9][0-9]{0,17}");

    private Cursor() {
    }

    static String encode(long seq) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((PREFIX + seq).getBytes(StandardCharsets.US_ASCII));
    }

    /** The position a cursor names; {@code 400 Invalid cursor} for anything this class did not write. */
    static long decode(String cursor) {
        String text;
        try {
            text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.US_ASCII);
        } catch (IllegalArgumentException notBase64) {
            throw ApiException.badRequest(INVALID);
        }
        if (!text.startsWith(PREFIX) || !POSITION.matcher(text.substring(PREFIX.length())).matches()) {
            throw ApiException.badRequest(INVALID);
        }
        return Long.parseLong(text.substring(PREFIX.length()));
    }
}
