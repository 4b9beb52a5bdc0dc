package com.telemed.testkit.logscan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.testkit.http.Exchange;
import com.telemed.testkit.http.Exchanges;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The patient data and credentials the end-to-end suite sent or was given, recorded from every
 * {@link Exchange} of this JVM for the log scan ({@link LogScan}): which must never appear in a
 * service's log.
 *
 * <ul>
 *   <li>request bodies (JSON, anywhere in them: a member, an inline member of a request, a survey's
 *       contact): {@code firstName}, {@code lastName}, {@code email}, {@code phone}, {@code dateOfBirth},
 *       the address lines {@code street1}, {@code street2}, {@code city} (of {@code address} and
 *       {@code shippingAddress} alike); a message's {@code text}, {@code html} and {@code subject} and a
 *       handoff's {@code note}; the
 *       clinical {@code caseNotes}; survey {@code answers} that are free text; and of the query,
 *       {@code search} (a name) and {@code token} (a survey token). Prescribers ({@code /ops/v1/prescribers})
 *       are staff, not patients: their names and emails are not recorded.</li>
 *   <li>credentials: the {@code x-api-key}, {@code x-service-publishable-key}, {@code x-ops-key} and
 *       {@code x-tenant-key} headers sent, an {@code Authorization} header's bearer value (a session token,
 *       a pharmacy key, an OpenID Connect token), a local account's {@code password} in a request body, and
 *       in successful answers {@code apiKey}, {@code publishableKey}, {@code secret} (a webhook secret), a
 *       survey token's {@code token}, a session's {@code token} ({@code /ops/v1/sessions}) and a pharmacy
 *       credential's {@code key}.</li>
 *   <li>links that are bearer tokens, and what they carry: an attachment's {@code attachmentUrl}
 *       ({@code .../attachments/:token/:fileName}: the token, and the file name) and {@code attachmentName},
 *       in answers and webhook bodies ({@link #webhookBody}); a {@code bookingUrl}'s token
 *       ({@code .../book/:token}), and the token in the path of {@code /ops/v1/bookings/:token/...}.</li>
 *   <li>the deployment's own secrets, which the suite's platform sets and records itself ({@link #record}):
 *       the service trust key, the attachment link key, the database and SMTP passwords.</li>
 * </ul>
 *
 * Only values worth a scan are kept ({@link #worthScanning}): four characters or more, not a common
 * word or enum value (a gender {@code m} or a state {@code CA} is everywhere in a log), a credential
 * sixteen or more.
 */
public final class SensitiveValues implements Exchanges.Listener {

    public enum Kind {
        NAME("name"), EMAIL("email"), PHONE("phone"), DATE_OF_BIRTH("date of birth"), ADDRESS("address line"),
        MESSAGE_TEXT("message text"), CLINICAL_TEXT("clinical text"), FILE_NAME("attachment file name"),
        // Credentials from here on (sixteen characters or more).
        API_KEY("API key"), PUBLISHABLE_KEY("publishable key"), OPS_KEY("operator key"), TENANT_KEY("tenant key"),
        WEBHOOK_SECRET("webhook secret"), SURVEY_TOKEN("survey token"), ATTACHMENT_TOKEN("attachment token"),
        BOOKING_TOKEN("booking token"), TRUST_KEY("service trust key"), ATTACHMENT_LINK_KEY("attachment link key"), DATABASE_PASSWORD("database password"),
        SMTP_PASSWORD("SMTP password"), PASSWORD("account password"), SESSION_TOKEN("session token"),
        PHARMACY_KEY("pharmacy key"), BEARER_TOKEN("bearer token");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        boolean credential() {
            return ordinal() >= API_KEY.ordinal();
        }
    }

    private static final SensitiveValues INSTANCE = new SensitiveValues();
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final Map<String, Kind> REQUEST_FIELDS = Map.of("firstName", Kind.NAME, "lastName", Kind.NAME,
            "email", Kind.EMAIL, "phone", Kind.PHONE, "dateOfBirth", Kind.DATE_OF_BIRTH, "street1", Kind.ADDRESS,
            "street2", Kind.ADDRESS, "city", Kind.ADDRESS, "caseNotes", Kind.CLINICAL_TEXT);
    private static final Map<String, Kind> HEADERS = Map.of("x-api-key", Kind.API_KEY, "x-service-publishable-key",
            Kind.PUBLISHABLE_KEY, "x-ops-key", Kind.OPS_KEY, "x-tenant-key", Kind.TENANT_KEY);
    private static final Map<String, Kind> ANSWER_FIELDS = Map.of("apiKey", Kind.API_KEY, "publishableKey", Kind.PUBLISHABLE_KEY,
            "secret", Kind.WEBHOOK_SECRET, "attachmentName", Kind.FILE_NAME);
    /** Fields of a message the patient or the prescriber wrote (on a messaging path). */
    private static final Set<String> MESSAGE_FIELDS = Set.of("text", "html", "subject");
    /** {@code .../attachments/<token>/<file name>}, a link anywhere (an answer's URL, a download's path). */
    private static final Pattern ATTACHMENT_LINK = Pattern.compile("/attachments/([^/?#]+)/([^/?#]+)");
    /** {@code .../book/<token>} (a booking link) and {@code /ops/v1/bookings/<token>/...}. */
    private static final Pattern BOOKING_LINK = Pattern.compile("/(?:book|bookings)/([^/?#]+)");

    /** Words and enum values of the contract, and the suite's own filler: in any log for reasons of their own. */
    private static final Set<String> COMMON = Set.of("null", "true", "false", "none", "test", "tests", "user", "name", "email",
            "example", "example.com", "active", "paused", "cancelled", "pending", "approved", "denied", "other", "text", "html",
            "system", "info", "debug", "error", "warn", "admin", "service", "partner", "member", "request", "requests", "members",
            "gateway", "billing", "orders", "account", "technical", "message", "messages", "notes", "note", "string", "value",
            "default", "unknown", "sandbox", "production", "street", "city", "main", "e2e-notes", "e2e notes");
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Pattern LETTER = Pattern.compile("\\p{L}");
    private static final int LONGEST = 10_000;

    private final Map<String, Kind> values = new ConcurrentHashMap<>();

    SensitiveValues() {
    }

    /** The record of this JVM. */
    public static SensitiveValues instance() {
        return INSTANCE;
    }

    /** Starts recording every exchange of this JVM (once). */
    public void listen() {
        Exchanges.listen(this);
    }

    /** Records one value the suite used (a canary, the operator key), if it is worth a scan. */
    public void record(Kind kind, String value) {
        if (value != null && worthScanning(kind, value.strip())) {
            values.putIfAbsent(value.strip(), kind);
        }
    }

    /** What was recorded so far: value to kind, in the value's order. */
    public Map<String, Kind> snapshot() {
        return new TreeMap<>(values);
    }

    static boolean worthScanning(Kind kind, String value) {
        if (value.length() < 4 || value.length() > LONGEST || COMMON.contains(value.toLowerCase(Locale.ROOT))) {
            return false;
        }
        if (kind.credential()) {
            return value.length() >= 16;
        }
        return switch (kind) {
            case DATE_OF_BIRTH -> DATE.matcher(value).matches();
            // A phone is digits and separators: seven digits at least, or it is some other number.
            case PHONE -> value.chars().filter(Character::isDigit).count() >= 7;
            default -> LETTER.matcher(value).find();
        };
    }

    @Override
    public void answered(Exchange exchange) {
        if (exchange.client() == Exchange.Client.RAW_HTTP) {
            // The bad-input property's generated values (one fixed UUID as a token, an id and a path
            // segment alike): no patient's data or credential, and found in every access line.
            return;
        }
        exchange.requestHeaders().forEach((name, value) -> {
            Kind kind = HEADERS.get(name);
            if (kind != null) {
                record(kind, value);
            } else if (name.equalsIgnoreCase("authorization") && value.regionMatches(true, 0, "Bearer ", 0, 7)) {
                record(Kind.BEARER_TOKEN, value.substring(7));
            }
        });
        String path = exchange.path();
        boolean staff = path.startsWith("/ops/v1/prescribers");
        links(path);
        for (String pair : exchange.query().split("&")) {
            int equals = pair.indexOf('=');
            if (equals > 0) {
                String name = pair.substring(0, equals);
                String value = decode(pair.substring(equals + 1));
                if (name.equals("search") && !staff) {
                    record(Kind.NAME, value);
                } else if (name.equals("token")) {
                    record(Kind.SURVEY_TOKEN, value);
                }
            }
        }
        JsonNode sent = json(exchange.requestBody());
        if (sent != null && !staff) {
            requestBody(sent, path, false);
        }
        if (exchange.status() / 100 == 2) {
            JsonNode answer = json(exchange.responseBody());
            if (answer != null) {
                answerBody(answer, path.endsWith("/tokens"));
                if (path.equals("/ops/v1/sessions") && answer.path("token").isTextual()) {
                    record(Kind.SESSION_TOKEN, answer.path("token").asText());
                } else if (path.endsWith("/credentials") && answer.path("key").isTextual()) {
                    record(Kind.PHARMACY_KEY, answer.path("key").asText());
                }
            }
        }
    }

    private void requestBody(JsonNode node, String path, boolean inAnswers) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                String name = field.getKey();
                JsonNode value = field.getValue();
                if (value.isTextual()) {
                    Kind kind = REQUEST_FIELDS.get(name);
                    if (kind != null) {
                        record(kind, value.asText());
                    } else if (name.equals("password")) {
                        record(Kind.PASSWORD, value.asText());
                    } else if (MESSAGE_FIELDS.contains(name) && path.contains("messag")) {
                        record(Kind.MESSAGE_TEXT, value.asText());
                    } else if (name.equals("note") && path.contains("handoff")) {
                        record(Kind.MESSAGE_TEXT, value.asText());
                    } else if (inAnswers && value.asText().strip().contains(" ")) {
                        // A survey answer in words is free text; a choice's value is one token.
                        record(Kind.CLINICAL_TEXT, value.asText());
                    }
                } else {
                    requestBody(value, path, inAnswers || name.equals("answers"));
                }
            }
        } else if (node.isArray()) {
            node.forEach(element -> {
                if (inAnswers && element.isTextual() && element.asText().strip().contains(" ")) {
                    record(Kind.CLINICAL_TEXT, element.asText());
                } else {
                    requestBody(element, path, inAnswers);
                }
            });
        }
    }

    /**
     * Records what a webhook body the suite received carries: the links of {@link #answerBody}
     * (a {@code bookingUrl}, an {@code attachmentUrl}) and file names. Bodies that are not JSON are skipped.
     */
    public void webhookBody(byte[] body) {
        JsonNode payload = json(body);
        if (payload != null) {
            answerBody(payload, false);
        }
    }

    /** The tokens (and an attachment's file name) of the links in {@code text}. */
    private void links(String text) {
        Matcher attachment = ATTACHMENT_LINK.matcher(text);
        while (attachment.find()) {
            record(Kind.ATTACHMENT_TOKEN, decodeSegment(attachment.group(1)));
            record(Kind.FILE_NAME, decodeSegment(attachment.group(2)));
        }
        Matcher booking = BOOKING_LINK.matcher(text);
        while (booking.find()) {
            record(Kind.BOOKING_TOKEN, decodeSegment(booking.group(1)));
        }
    }

    private void answerBody(JsonNode node, boolean surveyToken) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                Kind kind = ANSWER_FIELDS.get(field.getKey());
                if (field.getValue().isTextual() && (field.getKey().equals("attachmentUrl") || field.getKey().equals("bookingUrl"))) {
                    links(field.getValue().asText());
                } else if (field.getValue().isTextual() && kind != null) {
                    record(kind, field.getValue().asText());
                } else if (field.getValue().isTextual() && surveyToken && field.getKey().equals("token")) {
                    record(Kind.SURVEY_TOKEN, field.getValue().asText());
                } else {
                    answerBody(field.getValue(), surveyToken);
                }
            }
        } else if (node.isArray()) {
            node.forEach(element -> answerBody(element, surveyToken));
        }
    }

    private static JsonNode json(byte[] body) {
        if (body == null || body.length == 0 || (body[0] != '{' && body[0] != '[' && !Character.isWhitespace(body[0]))) {
            return null;
        }
        try {
            return JSON.readTree(body);
        } catch (IOException notJson) {
            return null;
        }
    }

    /** A path segment: percent escapes decoded, a {@code +} kept (it is a plus in a path). */
    private static String decodeSegment(String segment) {
        return decode(segment.replace("+", "%2B"));
    }

    private static String decode(String value) {
        try {
            return URLDecoder.decode(value, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException badEncoding) {
            return value;
        }
    }
}
