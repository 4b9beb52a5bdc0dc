package com.telemed.e2e.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.testkit.db.TableFingerprints;
import com.telemed.testkit.http.RawHttp;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What an upload's answer must be beyond the rules of every call ({@link Oracle}): the exact
 * answer a body calls for when the rest of the call is right ({@link Multipart#expected}), and
 * for a stored file a safe record, exactly the writes an upload makes, and a link that downloads
 * those very bytes with a header no file name can break.
 */
final class UploadCheck {

    /** What a stored upload writes in messaging's database: nothing else may change (no event, no mail). */
    private static final Set<String> UPLOAD_WRITES = Set.of("attachments", "file_chunks", "messages", "conversations",
            "audit_entries");

    /**
     * RFC 6266 as messaging-service writes it: an ASCII fallback without quote or backslash, and
     * the exact name percent-encoded ({@code URLEncoder}'s unreserved characters only).
     */
    private static final Pattern CONTENT_DISPOSITION =
            Pattern.compile("attachment; filename=\"[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]*\"; filename\\*=UTF-8''[A-Za-z0-9%._*-]*");

    private UploadCheck() {
    }

    /**
     * The call is right in every respect but its body (and the proxy headers, which must change
     * nothing), so the body alone says the answer.
     */
    static boolean onlyTheBodyIsOdd(Call call) {
        Call.Headers headers = call.headers();
        return call.method().equals(call.endpoint().method())
                && call.ids().stream().allMatch(id -> id.kind() == Call.PathId.Kind.FIXTURE)
                && call.query().isEmpty()
                && Call.DEFAULT.equals(headers.contentType())
                && headers.credential().kind() == Call.Credential.Kind.RIGHT
                && headers.idempotencyKey() == null && headers.accept() == null && headers.requestId() == null;
    }

    /** The problem with the answer to an upload whose body says what it must be, if any. */
    static Optional<String> unexpected(Multipart body, long sent, RawHttp.Response response, JsonNode answer) {
        Optional<Multipart.Expected> expected = body.expected(sent);
        if (expected.isEmpty()) {
            return Optional.empty();
        }
        int status = expected.get().status();
        String error = expected.get().error();
        if (response.status() != status) {
            return Optional.of("expected " + status + (error == null ? "" : " " + error));
        }
        if (status >= 400) {
            JsonNode text = answer.path("error");
            if (error != null && !error.equals(text.asText(null))) {
                return Optional.of("expected the error \"" + error + "\"");
            }
            if (error == null && body.files().size() == 1 && !text.asText("").matches("(?s)File type .* not allowed")) {
                return Optional.of("expected the error \"File type <type> not allowed\"");
            }
        }
        return Optional.empty();
    }

    /**
     * A stored upload: the message names a safe, storable file name of an accepted type and one
     * of the sizes sent; the database changed in the upload's tables only, by one attachment, its
     * chunks and one message (and the prescriber's upload's audit entry); its link, as given,
     * downloads the same bytes with a well-formed {@code Content-Disposition}. The problem, if any.
     */
    static Optional<String> stored(Call call, JsonNode answer, TableFingerprints.Snapshot before, TableFingerprints.Snapshot after,
                                   RawHttp http) {
        JsonNode message = answer.path("message");
        if (!"attachment".equals(message.path("type").asText())) {
            return Optional.of("a stored upload's message is not of type attachment");
        }
        String name = message.path("attachmentName").asText("");
        if (name.isEmpty() || name.contains("/") || name.contains("\\") || name.indexOf('\u0000') >= 0 || !wellFormed(name)) {
            return Optional.of("a stored upload's name is unsafe: " + Text.abbreviate(name));
        }
        if (!name.equals(message.path("text").asText(null))) {
            return Optional.of("a stored upload's text is not its name");
        }
        String type = message.path("attachmentType").asText("");
        if (!Multipart.ACCEPTED_TYPES.contains(type)) {
            return Optional.of("a stored upload's type is off the list: " + Text.abbreviate(type));
        }
        long size = message.path("attachmentSize").asLong(-1);
        Multipart.Part sentFile = null;
        if (call.body() instanceof Multipart multipart && multipart.readsAsSent()) {
            sentFile = multipart.files().stream().filter(part -> part.content().size() == size).findFirst().orElse(null);
            if (sentFile == null) {
                return Optional.of("a stored upload's size " + size + " is none of the files sent");
            }
        }
        Optional<String> writes = writes(before, after, size, call.endpoint().surface() == Endpoint.Surface.OPS);
        if (writes.isPresent()) {
            return writes;
        }
        String url = message.path("attachmentUrl").asText("");
        if (url.toLowerCase(Locale.ROOT).contains(BadInputs.FORWARDED_HOST)) {
            return Optional.of("a stored upload's link names the host a client's proxy header gave: " + Text.abbreviate(url));
        }
        URI link;
        try {
            link = new URI(url);
        } catch (URISyntaxException e) {
            return Optional.of("a stored upload's link is not a URI: " + Text.abbreviate(url));
        }
        if (link.getRawPath() == null || !link.getRawPath().startsWith("/attachments/") || link.getRawQuery() != null) {
            return Optional.of("a stored upload's link is not an attachment link: " + Text.abbreviate(url));
        }
        RawHttp.Response download;
        try {
            download = http.send(new RawHttp.Request("GET", link.getRawPath(), List.of(), null, false));
        } catch (IOException e) {
            return Optional.of("a stored upload's link did not answer: " + e.getClass().getSimpleName());
        }
        if (download.status() != 200) {
            return Optional.of("a stored upload's link, as given, answered " + download.status() + " "
                    + Text.abbreviate(download.bodyText()) + " (link of " + url.length() + " characters)");
        }
        if (sentFile != null && !Arrays.equals(download.body(), sentFile.content().render(((Multipart) call.body()).boundary()))) {
            return Optional.of("a stored upload's link downloads other bytes (" + download.body().length + ")");
        }
        String disposition = download.header("content-disposition").orElse("");
        if (!CONTENT_DISPOSITION.matcher(disposition).matches()) {
            return Optional.of("a download's Content-Disposition is malformed: " + Text.abbreviate(disposition));
        }
        if (!download.header("content-type").orElse("").toLowerCase(Locale.ROOT).startsWith(type)) {
            return Optional.of("a download's Content-Type is not the stored type " + type + ": "
                    + download.header("content-type").orElse("none"));
        }
        if (!download.header("x-content-type-options").orElse("").equals("nosniff")) {
            return Optional.of("a download without X-Content-Type-Options: nosniff");
        }
        return Optional.empty();
    }

    /**
     * One attachment, its chunks and one message, the conversation's counters, and for the prescriber's
     * upload ({@code /ops}) its one audit entry ({@code message.attach}; a partner's upload has none): nothing else.
     */
    private static Optional<String> writes(TableFingerprints.Snapshot before, TableFingerprints.Snapshot after, long size,
                                           boolean audited) {
        List<String> changed = before.changesTo(after);
        List<String> other = changed.stream().filter(change -> !UPLOAD_WRITES.contains(change.substring(0, change.indexOf(':'))))
                .toList();
        if (!other.isEmpty()) {
            return Optional.of("a stored upload wrote more than its attachment, chunks and message: " + other);
        }
        long chunks = (size + Multipart.CHUNK - 1) / Multipart.CHUNK;
        Map<String, Long> added = Map.of("attachments", 1L, "messages", 1L, "file_chunks", chunks,
                "audit_entries", audited ? 1L : 0L);
        for (Map.Entry<String, Long> table : added.entrySet()) {
            long more = rows(after, table.getKey()) - rows(before, table.getKey());
            if (more != table.getValue()) {
                return Optional.of("a stored upload of " + size + " bytes added " + more + " rows to " + table.getKey()
                        + ", not " + table.getValue());
            }
        }
        return Optional.empty();
    }

    /** The row count of a table fingerprinted as {@code count/...}. */
    private static long rows(TableFingerprints.Snapshot snapshot, String table) {
        String value = snapshot.tables().get(table);
        return Long.parseLong(value.substring(0, value.indexOf('/')));
    }

    private static boolean wellFormed(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
