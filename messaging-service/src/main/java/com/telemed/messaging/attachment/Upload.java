package com.telemed.messaging.attachment;

import com.telemed.common.error.ApiException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

/**
 * A file part as received, checked against the contract before anything is stored
 * (partner-api.md, Limits): present, at most 10 MB, one of the accepted MIME types. The type is
 * compared and kept without parameters, in lower case: {@code Text/Plain; charset=utf-8} is
 * {@code text/plain}.
 */
public record Upload(Path file, String fileName, String contentType, long size) {

    /** The answer to an upload without a file part (or whose body cannot be read: {@code message.UnreadableUploads}). */
    public static final String NO_FILE = "No file uploaded";

    /** 10 MB: 10,485,760 bytes. */
    public static final long MAX_BYTES = 10L * 1024 * 1024;

    static final Set<String> ACCEPTED_TYPES = Set.of("image/jpeg", "image/png", "image/gif", "image/webp", "application/pdf",
            "application/msword", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "text/plain");

    /** The checked upload; {@code 400 No file uploaded}, {@code 413 File too large}, {@code 400 File type <mime> not allowed}. */
    public static Upload checked(Path file, String fileName, String contentType, long size) {
        if (file == null) {
            throw ApiException.badRequest(NO_FILE);
        }
        if (size > MAX_BYTES) {
            throw new ApiException(413, "File too large");
        }
        String type = contentType == null ? "application/octet-stream" : contentType.trim();
        if (!ACCEPTED_TYPES.contains(baseType(type))) {
            throw ApiException.badRequest("File type " + type + " not allowed");
        }
        return new Upload(file, storableName(fileName), baseType(type), size);
    }

    static String baseType(String contentType) {
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    }

    /**
     * The name as uploaded, minus what PostgreSQL cannot store (U+0000, unpaired surrogates:
     * replaced by U+FFFD) and any folder a client put before it, {@link #fitted fitted} to 255
     * bytes; {@code file} when none was sent, or when what is left is only dots ({@code .} and
     * {@code ..} name folders, and a link ending in one would lead elsewhere once its path is
     * normalized).
     */
    static String storableName(String sent) {
        if (sent == null || sent.isBlank()) {
            return "file";
        }
        String name = sent.substring(Math.max(sent.lastIndexOf('/'), sent.lastIndexOf('\\')) + 1);
        if (name.chars().allMatch(c -> c == '.')) {
            return "file";
        }
        StringBuilder storable = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean paired = Character.isHighSurrogate(c) ? i + 1 < name.length() && Character.isLowSurrogate(name.charAt(i + 1))
                    : !Character.isLowSurrogate(c) || i > 0 && Character.isHighSurrogate(name.charAt(i - 1));
            storable.append(c == 0 || !paired ? '\uFFFD' : c);
        }
        return storable.isEmpty() ? "file" : fitted(storable.toString());
    }

    /** The most UTF-8 bytes of a name kept: what file systems take, and what a link and a download header carry. */
    public static final int MAX_NAME_BYTES = 255;

    /**
     * The name's first whole characters within {@link #MAX_NAME_BYTES} UTF-8 bytes. A longer name
     * made a link the gateway refuses (414) and a download whose {@code Content-Disposition} alone
     * passed the gateway's 8 KB limit on an answer's headers (503): issue #38.
     */
    public static String fitted(String name) {
        StringBuilder kept = new StringBuilder();
        int bytes = 0;
        for (int i = 0; i < name.length(); ) {
            int c = name.codePointAt(i);
            bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
            if (bytes > MAX_NAME_BYTES) {
                break;
            }
            kept.appendCodePoint(c);
            i += Character.charCount(c);
        }
        return kept.toString();
    }
}
