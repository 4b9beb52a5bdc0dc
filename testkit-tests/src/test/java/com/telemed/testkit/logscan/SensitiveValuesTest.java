package com.telemed.testkit.logscan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.http.Exchange;
import com.telemed.testkit.logscan.SensitiveValues.Kind;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SensitiveValuesTest {

    private static final URI GATEWAY = URI.create("http://127.0.0.1:1234");
    private static final String API_KEY = "apx_0123456789abcdef0123456789abcdef";

    @Test
    void aRequestWithAnInlineMemberRecordsItsPatientDataAndKey() {
        SensitiveValues values = new SensitiveValues();
        values.answered(exchange("POST", "/v1/requests", Map.of("x-api-key", API_KEY, "content-type", "application/json"), """
                {"caseNotes": "Migraines twice a week", "items": [{"drugId": "d1"}],
                 "member": {"firstName": "Zebulon", "lastName": "Lee", "email": "zeb@example.org", "phone": "555-0199",
                            "gender": "m", "dateOfBirth": "1911-11-11", "state": "CA",
                            "address": {"street1": "742 Evergreen Terrace", "city": "Springfield", "state": "OR", "zipCode": "97475"},
                            "shippingAddress": {"street1": "1 Canary Wharf", "street2": "Unit 9", "city": "Shelbyville",
                                                "state": "OR", "zipCode": "97476"}}}""", 201, "{\"success\": true}"));
        Map<String, Kind> expected = new TreeMap<>();
        expected.put(API_KEY, Kind.API_KEY);
        expected.put("Migraines twice a week", Kind.CLINICAL_TEXT);
        expected.put("Zebulon", Kind.NAME);
        expected.put("zeb@example.org", Kind.EMAIL);
        expected.put("555-0199", Kind.PHONE);
        expected.put("1911-11-11", Kind.DATE_OF_BIRTH);
        expected.put("742 Evergreen Terrace", Kind.ADDRESS);
        expected.put("Springfield", Kind.ADDRESS);
        expected.put("1 Canary Wharf", Kind.ADDRESS);
        expected.put("Unit 9", Kind.ADDRESS);
        expected.put("Shelbyville", Kind.ADDRESS);
        // Lee (three letters), gender m, the states and zip codes are everywhere in a log: not recorded.
        assertEquals(expected, values.snapshot());
    }

    @Test
    void messagesSurveyAnswersAndSearchesAreRecorded() {
        SensitiveValues values = new SensitiveValues();
        values.answered(exchange("POST", "/v1/messages/conversations/c1/messages", Map.of(), "{\"text\": \"My refill ran out\"}", 201, "{}"));
        values.answered(exchange("POST", "/ops/v1/conversations/c1/handoff", Map.of(), "{\"category\": \"orders\", \"note\": \"Refill timing\"}",
                200, "{}"));
        values.answered(exchange("POST", "/v2/embed/surveys/s1/responses", Map.of(), """
                {"answers": {"pregnant": false, "goal": "lose", "weight": 182.5, "notes": "Walks daily", "tags": ["a b c", "x"]},
                 "contact": {"firstName": "Augusta", "lastName": "Byron", "email": "augusta@example.com"}}""", 201, "{}"));
        values.answered(exchange("GET", "/v1/members?search=Quackenbush&status=active", Map.of(), "", 200, "{\"members\": []}"));
        Map<String, Kind> expected = new TreeMap<>();
        expected.put("My refill ran out", Kind.MESSAGE_TEXT);
        expected.put("Refill timing", Kind.MESSAGE_TEXT);
        expected.put("Walks daily", Kind.CLINICAL_TEXT);
        expected.put("a b c", Kind.CLINICAL_TEXT);
        expected.put("Augusta", Kind.NAME);
        expected.put("Byron", Kind.NAME);
        expected.put("augusta@example.com", Kind.EMAIL);
        expected.put("Quackenbush", Kind.NAME);
        assertEquals(expected, values.snapshot());
    }

    @Test
    void credentialsInAnswersAreRecordedButNotStaffOrRefusedCalls() {
        SensitiveValues values = new SensitiveValues();
        String opsKey = "ops_00112233445566778899aabbccddeeff0011223344556677";
        values.answered(exchange("POST", "/ops/v1/partners", Map.of("x-ops-key", opsKey), "{\"name\": \"Acme Health\"}", 201,
                "{\"partner\": {\"id\": \"p\", \"name\": \"Acme Health\"}, \"apiKey\": \"" + API_KEY
                        + "\", \"publishableKey\": \"pk_0123456789abcdef0123456789abcdef\"}"));
        values.answered(exchange("PUT", "/ops/v1/partners/p/webhook", Map.of(), "{\"url\": \"http://127.0.0.1:1/hooks\"}", 200,
                "{\"url\": \"http://127.0.0.1:1/hooks\", \"secret\": \"" + "ab".repeat(32) + "\"}"));
        values.answered(exchange("POST", "/v1/surveys/v2/tokens", Map.of(), "{}", 201, "{\"token\": \"st_9f8e7d6c5b4a39281706\"}"));
        values.answered(exchange("POST", "/ops/v1/prescribers", Map.of(), "{\"name\": \"Dr Vaughan\", \"email\": \"vaughan@clinic.example\"}",
                201, "{}"));
        // A refused call's answer holds no credential; what it sent is recorded all the same.
        values.answered(exchange("POST", "/v1/members", Map.of("x-api-key", "nope"), "{\"firstName\": \"Refused\"}", 401,
                "{\"apiKey\": \"apx_ffffffffffffffffffffffffffffffff\"}"));
        Map<String, Kind> expected = new TreeMap<>();
        expected.put(opsKey, Kind.OPS_KEY);
        expected.put(API_KEY, Kind.API_KEY);
        expected.put("pk_0123456789abcdef0123456789abcdef", Kind.PUBLISHABLE_KEY);
        expected.put("ab".repeat(32), Kind.WEBHOOK_SECRET);
        expected.put("st_9f8e7d6c5b4a39281706", Kind.SURVEY_TOKEN);
        expected.put("Refused", Kind.NAME);
        assertEquals(expected, values.snapshot());
    }

    @Test
    void attachmentLinksBookingTokensAndPrescriberMarkupAreRecorded() {
        SensitiveValues values = new SensitiveValues();
        String token = "at_0123456789abcdef0123456789abcdef";
        values.answered(exchange("POST", "/v1/messages/conversations/c1/attachments", Map.of(), "", 201, """
                {"message": {"type": "attachment", "text": "Lab results.pdf", "attachmentName": "Lab results.pdf",
                 "attachmentUrl": "http://127.0.0.1:1234/attachments/%s/Lab%%20results+2.pdf"}}""".formatted(token)));
        values.answered(exchange("GET", "/attachments/at_fedcba9876543210fedcba9876543210/Scan%20of%20rash.png", Map.of(), "", 200,
                "not json"));
        values.answered(exchange("POST", "/ops/v1/conversations/c1/prescriber-messages", Map.of(),
                "{\"text\": \"Take it with food\", \"html\": \"<p>Take it <b>with food</b></p>\", \"subject\": \"Your dose\"}", 201, "{}"));
        values.answered(exchange("POST", "/ops/v1/bookings/bk_00112233445566778899aabbccdd/appointment", Map.of(),
                "{\"startTime\": \"2099-01-01T10:00:00Z\"}", 201, "{}"));
        values.webhookBody("""
                {"event": "appointment.consultation_requested", "data": {"bookingUrl": "https://book.example/book/bk_ffeeddccbbaa99887766554433"}}"""
                .getBytes(StandardCharsets.UTF_8));
        values.webhookBody("not json".getBytes(StandardCharsets.UTF_8));
        Map<String, Kind> expected = new TreeMap<>();
        expected.put("Lab results.pdf", Kind.FILE_NAME);
        expected.put(token, Kind.ATTACHMENT_TOKEN);
        expected.put("Lab results+2.pdf", Kind.FILE_NAME);
        expected.put("at_fedcba9876543210fedcba9876543210", Kind.ATTACHMENT_TOKEN);
        expected.put("Scan of rash.png", Kind.FILE_NAME);
        expected.put("Take it with food", Kind.MESSAGE_TEXT);
        expected.put("<p>Take it <b>with food</b></p>", Kind.MESSAGE_TEXT);
        expected.put("Your dose", Kind.MESSAGE_TEXT);
        expected.put("bk_00112233445566778899aabbccdd", Kind.BOOKING_TOKEN);
        expected.put("bk_ffeeddccbbaa99887766554433", Kind.BOOKING_TOKEN);
        assertEquals(expected, values.snapshot());
    }

    @Test
    void onlyValuesWorthAScanAreKept() {
        assertEquals(false, SensitiveValues.worthScanning(Kind.NAME, "Ann"));
        assertEquals(false, SensitiveValues.worthScanning(Kind.NAME, "Test"));
        assertEquals(false, SensitiveValues.worthScanning(Kind.ADDRESS, "12345"));
        assertEquals(false, SensitiveValues.worthScanning(Kind.DATE_OF_BIRTH, "yesterday"));
        assertEquals(false, SensitiveValues.worthScanning(Kind.PHONE, "5550"));
        assertEquals(false, SensitiveValues.worthScanning(Kind.API_KEY, "apx_short"));
        assertEquals(true, SensitiveValues.worthScanning(Kind.NAME, "Grace"));
        assertEquals(true, SensitiveValues.worthScanning(Kind.DATE_OF_BIRTH, "1906-12-09"));
        assertEquals(true, SensitiveValues.worthScanning(Kind.PHONE, "+1 555 0100"));
    }

    private static Exchange exchange(String method, String target, Map<String, String> headers, String body, int status, String answer) {
        return new Exchange(Exchange.Client.REST_ASSURED, GATEWAY, method, target, headers, body.getBytes(StandardCharsets.UTF_8), status,
                "application/json", answer.getBytes(StandardCharsets.UTF_8));
    }
}
