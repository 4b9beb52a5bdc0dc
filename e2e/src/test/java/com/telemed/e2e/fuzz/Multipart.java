package com.telemed.e2e.fuzz;

import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A {@code multipart/form-data} body, what the attachment uploads take (partner-api.md: one part
 * named {@code file}, its type the part's {@code Content-Type}, at most 10 MB of an allow-listed
 * type): its parts, its boundary and how the request's {@code Content-Type} names it, and what is
 * wrong with its framing. {@link #BASELINES} are valid uploads; the generators ({@link BadInputs})
 * change one thing of one of them at a time, sometimes several.
 *
 * <p>{@code declaredLength}, when set, is the only length the call carries: a {@code Content-Length}
 * header past the gateway's upload limit and no body at all, so that "over the limit" costs no
 * megabytes on the wire. The bodies that do cross 10 MB are rare ({@link BadInputs}).
 */
public record Multipart(String boundary, Param param, List<Part> parts, Framing framing, int cut, String declaredLength)
        implements Call.Body {

    /** 10 MB, the largest file (partner-api.md, Limits); messaging-service answers 413 past it. */
    static final int FILE_LIMIT = 10 * 1024 * 1024;
    /** The gateway's multipart body limit (a 10 MB file and its framing); 413 past it, the service never called. */
    static final int GATEWAY_LIMIT = 11_534_336;
    /** messaging-service's 1 MiB chunks of a stored file (file_chunks). */
    static final int CHUNK = 1024 * 1024;

    static final Set<String> ACCEPTED_TYPES = Set.of("image/jpeg", "image/png", "image/gif", "image/webp", "application/pdf",
            "application/msword", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "text/plain");

    static final String BOUNDARY = "fuzzBoundary7MA4YWxkTrZu0gW";

    /** Valid uploads of a few bytes, each of an accepted type. */
    static final List<Multipart> BASELINES = List.of(
            of(new Part("file", FileName.quoted("note.pdf"), "application/pdf", new Content(13, "%PDF-1.4\n"))),
            of(new Part("file", FileName.quoted("scan.png"), "image/png", new Content(24, "\u0089PNG\r\n\u001a\n"))),
            of(new Part("file", FileName.quoted("notes.txt"), "text/plain; charset=utf-8", new Content(11, "Hello doc\n"))));

    /** How the request's {@code Content-Type} names the boundary. */
    public enum Param {
        /** {@code multipart/form-data; boundary=B}. */
        SAME,
        /** {@code boundary="B"}. */
        QUOTED,
        /** {@code multipart/form-data; charset=utf-8; boundary=B}. */
        CHARSET,
        /** {@code MULTIPART/FORM-DATA; BOUNDARY=B}. */
        UPPER_CASE,
        /** {@code multipart/form-data}, no boundary. */
        MISSING,
        /** {@code boundary=} (empty). */
        EMPTY,
        /** A boundary the body does not use. */
        OTHER,
        /** {@code boundary=B; boundary=other}. */
        TWICE,
        /** {@code multipart/mixed; boundary=B}. */
        MIXED
    }

    /** What is wrong with the framing around the parts. */
    public enum Framing {
        NONE,
        /** The body cut after {@code cut} per mille of it (at least one byte short). */
        TRUNCATED,
        /** No closing delimiter {@code --B--}. */
        NO_CLOSE,
        /** LF instead of CRLF at the end of every framing line. */
        BARE_LF,
        /** Part headers not followed by the blank line. */
        NO_BLANK_LINE,
        /** Text before the first delimiter and after the last (which RFC 2046 allows). */
        PREAMBLE
    }

    /**
     * One part: {@code name} null writes no {@code name} parameter, {@code fileName} null no
     * {@code filename} (a plain form field), {@code contentType} null no {@code Content-Type} line;
     * {@code header}, when set, is one more header line of the part ({@code Content-Transfer-Encoding}, ...).
     */
    public record Part(String name, FileName fileName, String contentType, Content content, String header) {

        Part(String name, FileName fileName, String contentType, Content content) {
            this(name, fileName, contentType, content, null);
        }

        Part withName(String other) {
            return new Part(other, fileName, contentType, content, header);
        }

        Part withFileName(FileName other) {
            return new Part(name, other, contentType, content, header);
        }

        Part withContentType(String other) {
            return new Part(name, fileName, other, content, header);
        }

        Part withContent(Content other) {
            return new Part(name, fileName, contentType, other, header);
        }

        Part withHeader(String other) {
            return new Part(name, fileName, contentType, content, other);
        }

        /** The part the service takes as its {@code file} (RFC 7578: a file name is optional). */
        boolean isFile() {
            return "file".equals(name);
        }

        String describe() {
            StringBuilder text = new StringBuilder("{name ").append(name == null ? "none" : Text.abbreviate(name));
            if (fileName != null) {
                text.append(", filename ").append(fileName.describe());
            }
            text.append(", type ").append(contentType == null ? "none" : Text.abbreviate(contentType));
            if (header != null) {
                text.append(", header ").append(Text.abbreviate(header));
            }
            return text.append(", ").append(content.describe()).append('}').toString();
        }
    }

    /** How a file name is written into {@code Content-Disposition}. */
    public record FileName(String text, Form form) {

        public enum Form {
            /** {@code filename="<UTF-8 bytes, as they are>"}: a quote or a line break in it breaks the header. */
            RAW,
            /** As browsers write it (WHATWG): {@code "} as {@code %22}, CR as {@code %0D}, LF as {@code %0A}. */
            ESCAPED,
            /** {@code filename="<each char as one ISO-8859-1 byte>"}: bytes that are not UTF-8. */
            LATIN1,
            /** {@code filename=<text>} unquoted. */
            UNQUOTED,
            /** RFC 5987 {@code filename*=UTF-8''<percent-encoded>} and no plain {@code filename}. */
            EXTENDED
        }

        static FileName quoted(String text) {
            return new FileName(text, Form.RAW);
        }

        byte[] render() {
            return switch (form) {
                case RAW -> ("filename=\"" + text + "\"").getBytes(StandardCharsets.UTF_8);
                case ESCAPED -> ("filename=\"" + text.replace("\"", "%22").replace("\r", "%0D").replace("\n", "%0A") + "\"")
                        .getBytes(StandardCharsets.UTF_8);
                case LATIN1 -> ("filename=\"" + text + "\"").getBytes(StandardCharsets.ISO_8859_1);
                case UNQUOTED -> ("filename=" + text).getBytes(StandardCharsets.UTF_8);
                case EXTENDED -> ("filename*=UTF-8''" + URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20"))
                        .getBytes(StandardCharsets.UTF_8);
            };
        }

        /**
         * A name every multipart parser reads the same way: written quoted as UTF-8, 1 to 255
         * bytes, with no control character, quote or backslash (which a parser may end, unescape
         * or refuse at).
         */
        boolean plain() {
            return (form == Form.RAW || form == Form.ESCAPED) && !text.isEmpty()
                    && text.getBytes(StandardCharsets.UTF_8).length <= 255
                    && text.chars().allMatch(c -> c >= 0x20 && c != 0x7f && c != '"' && c != '\\' && !Character.isSurrogate((char) c)
                            && !(c >= 0x80 && c < 0xa0) && c != 0x2028 && c != 0x2029);
        }

        String describe() {
            return Text.abbreviate(text) + (form == Form.RAW ? "" : " " + form.name().toLowerCase(Locale.ROOT));
        }
    }

    /**
     * A part's bytes: {@code head} (UTF-8, {@code {boundary}} standing for the delimiter line
     * {@code CRLF--B}) and then {@code x} up to {@code size} bytes (cut when the head is longer).
     */
    public record Content(int size, String head) {

        byte[] render(String boundary) {
            byte[] start = head.replace("{boundary}", "\r\n--" + boundary).getBytes(StandardCharsets.UTF_8);
            byte[] bytes = new byte[size];
            Arrays.fill(bytes, (byte) 'x');
            System.arraycopy(start, 0, bytes, 0, Math.min(size, start.length));
            return bytes;
        }

        boolean holdsBoundary() {
            return head.contains("{boundary}");
        }

        String describe() {
            return size + " bytes" + (head.isEmpty() ? "" : " from " + Text.abbreviate(head));
        }
    }

    static Multipart of(Part... parts) {
        return new Multipart(BOUNDARY, Param.SAME, List.of(parts), Framing.NONE, 0, null);
    }

    Multipart withParts(List<Part> other) {
        return new Multipart(boundary, param, List.copyOf(other), framing, cut, declaredLength);
    }

    Multipart withFile(Function<Part, Part> change) {
        List<Part> changed = new ArrayList<>(parts);
        for (int i = 0; i < changed.size(); i++) {
            if (changed.get(i).isFile()) {
                changed.set(i, change.apply(changed.get(i)));
                return withParts(changed);
            }
        }
        return this;
    }

    Multipart withBoundary(String other, Param otherParam) {
        return new Multipart(other, otherParam, parts, framing, cut, declaredLength);
    }

    Multipart withFraming(Framing other, int otherCut) {
        return new Multipart(boundary, param, parts, other, otherCut, declaredLength);
    }

    Multipart withDeclaredLength(String length) {
        return new Multipart(boundary, param, parts, framing, cut, length);
    }

    @Override
    public String contentType() {
        return switch (param) {
            case SAME -> "multipart/form-data; boundary=" + boundary;
            case QUOTED -> "multipart/form-data; boundary=\"" + boundary + "\"";
            case CHARSET -> "multipart/form-data; charset=utf-8; boundary=" + boundary;
            case UPPER_CASE -> "MULTIPART/FORM-DATA; BOUNDARY=" + boundary;
            case MISSING -> "multipart/form-data";
            case EMPTY -> "multipart/form-data; boundary=";
            case OTHER -> "multipart/form-data; boundary=otherBoundary";
            case TWICE -> "multipart/form-data; boundary=" + boundary + "; boundary=otherBoundary";
            case MIXED -> "multipart/mixed; boundary=" + boundary;
        };
    }

    @Override
    public Optional<String> declared() {
        return Optional.ofNullable(declaredLength);
    }

    @Override
    public byte[] render(Function<Slot, String> ids) {
        if (declaredLength != null) {
            return null;
        }
        String eol = framing == Framing.BARE_LF ? "\n" : "\r\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (framing == Framing.PREAMBLE) {
            ascii(out, "This is the preamble." + eol);
        }
        for (Part part : parts) {
            ascii(out, "--" + boundary + eol);
            out.writeBytes("Content-Disposition: form-data".getBytes(StandardCharsets.UTF_8));
            if (part.name() != null) {
                out.writeBytes(("; name=\"" + part.name() + "\"").getBytes(StandardCharsets.UTF_8));
            }
            if (part.fileName() != null) {
                ascii(out, "; ");
                out.writeBytes(part.fileName().render());
            }
            ascii(out, eol);
            if (part.contentType() != null) {
                out.writeBytes(("Content-Type: " + part.contentType() + eol).getBytes(StandardCharsets.UTF_8));
            }
            if (part.header() != null) {
                out.writeBytes((part.header() + eol).getBytes(StandardCharsets.UTF_8));
            }
            if (framing != Framing.NO_BLANK_LINE) {
                ascii(out, eol);
            }
            out.writeBytes(part.content().render(boundary));
            ascii(out, eol);
        }
        if (framing != Framing.NO_CLOSE) {
            ascii(out, "--" + boundary + "--" + eol);
        }
        if (framing == Framing.PREAMBLE) {
            ascii(out, "This is the epilogue." + eol);
        }
        byte[] whole = out.toByteArray();
        return framing == Framing.TRUNCATED ? Arrays.copyOf(whole, Math.min(whole.length - 1, (int) ((long) whole.length * cut / 1000)))
                : whole;
    }

    private static void ascii(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** The parts named {@code file}. */
    List<Part> files() {
        return parts.stream().filter(Part::isFile).toList();
    }

    /**
     * Whether the service reads the parts as they were written: no content holds the boundary, and
     * the framing is whole (with or without a preamble), so a stored file is one of {@link #files}.
     */
    boolean readsAsSent() {
        return declaredLength == null && (framing == Framing.NONE || framing == Framing.PREAMBLE)
                && parts.stream().allMatch(part -> !part.content().holdsBoundary() && part.header() == null);
    }

    private static final Pattern BCHARS = Pattern.compile("[0-9A-Za-z'()+_,./:=?-]{1,70}");

    /**
     * A body every multipart parser reads alike, within the service's form limits: whole, CRLF,
     * the boundary valid (RFC 2046: 1 to 70 of its characters) and named as such, no content
     * holding it, at most 16 parts, each named in printable ASCII and with a short header, every
     * file name {@link FileName#plain plain}, no header but the disposition and the type, every field (a part that is no file) at most 1 KB
     * (Quarkus's form limits: 2 KB a field, 1 KB buffered, 256 fields; past them it answers 413).
     */
    boolean wellFormed() {
        return declaredLength == null && framing == Framing.NONE
                && (param == Param.SAME || param == Param.QUOTED || param == Param.CHARSET)
                && BCHARS.matcher(boundary).matches() && parts.size() <= 16
                && parts.stream().allMatch(part -> part.name() != null && part.header() == null && !part.content().holdsBoundary()
                        && part.name().length() <= 255
                        && part.name().chars().allMatch(c -> c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
                        && (part.fileName() == null ? part.content().size() <= 1024 : part.fileName().plain())
                        && (part.contentType() == null || part.contentType().length() <= 255
                                && part.contentType().chars().allMatch(c -> c >= 0x20 && c < 0x7f)));
    }

    /**
     * What a call that is right in every other respect must be answered, when this body says it:
     * {@code 413 File too large} past the gateway's limit (declared or sent), and for a well-formed
     * body {@code 400 No file uploaded} without a part named {@code file}, {@code 413 File too
     * large} for a single file over 10 MB, {@code 400 File type <type> not allowed} for a single
     * file of a type off the list, {@code 201} for a single one on it ({@code sent}: the body's bytes). Empty when the body leaves
     * it open (two file parts, a {@code file} field with no file name, damaged framing: any
     * refusal below 500, or a success).
     */
    Optional<Expected> expected(long sent) {
        if (declaredLength != null) {
            return declaredOverLimit() ? Optional.of(new Expected(413, "File too large")) : Optional.empty();
        }
        if (sent > GATEWAY_LIMIT) {
            return Optional.of(new Expected(413, "File too large"));
        }
        if (!wellFormed()) {
            return Optional.empty();
        }
        if (parts.stream().noneMatch(part -> "file".equals(part.name()))) {
            return Optional.of(new Expected(400, "No file uploaded"));
        }
        List<Part> files = files();
        if (files.size() != 1 || files.get(0).fileName() == null) {
            return Optional.empty();
        }
        Part file = files.get(0);
        if (file.content().size() > FILE_LIMIT) {
            return Optional.of(new Expected(413, "File too large"));
        }
        String type = file.contentType() == null ? "application/octet-stream" : file.contentType().trim();
        if (type.contains(",") || type.toLowerCase(Locale.ROOT).startsWith("multipart/")) {
            // A list of types, or a nested multipart: parsers differ on what such a part is.
            return Optional.empty();
        }
        if (!ACCEPTED_TYPES.contains(baseType(type))) {
            // The message names the type as the part's header gave it: with its parameters or not, as the parser keeps them.
            return Optional.of(new Expected(400, type.contains(";") || type.isEmpty() ? null : "File type " + type + " not allowed"));
        }
        return Optional.of(new Expected(201, null));
    }

    private boolean declaredOverLimit() {
        try {
            return Long.parseLong(declaredLength) > GATEWAY_LIMIT;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    static String baseType(String contentType) {
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    }

    /** A status and, for a refusal, its exact {@code error} (null: any string). */
    record Expected(int status, String error) {
    }

    @Override
    public String describe() {
        List<String> notes = new ArrayList<>();
        if (!boundary.equals(BOUNDARY)) {
            notes.add("boundary " + Text.abbreviate(boundary));
        }
        if (param != Param.SAME) {
            notes.add("Content-Type " + param.name().toLowerCase(Locale.ROOT));
        }
        if (framing != Framing.NONE) {
            notes.add(framing.name().toLowerCase(Locale.ROOT) + (framing == Framing.TRUNCATED ? " at " + cut + "/1000" : ""));
        }
        if (declaredLength != null) {
            notes.add("no body, Content-Length " + Text.abbreviate(declaredLength));
        }
        StringBuilder text = new StringBuilder("multipart ");
        if (parts.size() > 4) {
            text.append(parts.size()).append(" parts, the first and the last two ")
                    .append(List.of(parts.get(0).describe(), parts.get(parts.size() - 2).describe(), parts.get(parts.size() - 1).describe()));
        } else {
            text.append(parts.stream().map(Part::describe).toList());
        }
        if (!notes.isEmpty()) {
            text.append(' ').append(notes);
        }
        return text.toString();
    }
}
