package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.logscan.LogScan;
import com.telemed.testkit.logscan.LogStarts;
import com.telemed.testkit.logscan.SensitiveValues;
import com.telemed.testkit.platform.PlatformService;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * No patient data and no credential in any log line: the last test class of the failsafe JVM
 * (class order in junit-platform.properties; jqwik's property runs before every Jupiter class) scans
 * every file under {@code e2e/target/platform-logs*} for every value the suite sent or was given
 * ({@link SensitiveValues}: names, emails, phones, dates of birth, address lines, message and clinical
 * text, API, publishable, operator and tenant keys, webhook secrets, survey tokens). It first makes
 * calls of its own with distinctive canary values through the shared platform, so that it is never
 * vacuous, even alone: a partner (its keys), a webhook URL (its secret), a request with an inline
 * member (names, email, phone, date of birth, both addresses, case notes), a member search, both
 * sides of a conversation (message text, a prescriber's html and subject), an attachment uploaded and
 * downloaded (its file name and link token), a consultation booked with its link's token, and a
 * prescriber's local account (its password, a wrong one, a session token used to approve in person)
 * and a pharmacy key; then it
 * waits for the mail and the webhooks they cause. The platform's own secrets (trust key, database and
 * SMTP passwords, the attachment link key: {@link RunningPlatform.Secrets}) are recorded when it starts. Three of its services
 * log JSON ({@link RunningPlatform}), the others plain text: the scan reads both ({@link LogScan}).
 */
@ExtendWith(RunningPlatform.class)
@Order(Integer.MAX_VALUE)
class LogScanIT {

    private static final Map<String, Object> PRESCRIPTION = Map.of("quantity", 30, "quantityUnits", "tablets",
            "daysSupply", 30, "directions", "One tablet daily", "refills", 1, "dispenseAsWritten", false);
    /** The most hits listed in the failure; the count says how many there were. */
    private static final int LISTED = 200;

    private RunningPlatform.Handle platform;
    private String apiKey;

    private RequestSpecification ops() {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
    }

    private RequestSpecification partner() {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey);
    }

    @Test
    void noValueTheSuiteUsedIsInAnyLogLine(RunningPlatform.Handle platform) throws Exception {
        this.platform = platform;
        List<String> canaries = canaryCalls();
        Map<String, SensitiveValues.Kind> recorded = SensitiveValues.instance().snapshot();
        List<String> unrecorded = canaries.stream().filter(canary -> !recorded.containsKey(canary)).toList();
        assertEquals(List.of(), unrecorded, "canary values the record missed");

        Path target = RunningPlatform.projectRoot().resolve("e2e/target");
        List<Path> directories;
        try (Stream<Path> children = Files.list(target)) {
            directories = children.filter(Files::isDirectory).filter(dir -> dir.getFileName().toString().startsWith("platform-logs"))
                    .sorted().toList();
        }
        // Only this run's part of each log: the platform appends to them across runs.
        LogScan.Result result = new LogScan(recorded, LogStarts::start).scan(directories);

        // Every service of the shared platform wrote lines, and they were read.
        Path shared = target.resolve("platform-logs");
        for (PlatformService service : PlatformService.values()) {
            Long lines = result.linesPerFile().get(shared.resolve(service.module() + ".log"));
            assertTrue(lines != null && lines > 0, service.module() + ": no log lines scanned in " + shared + " (" + lines + ")");
        }
        if (!result.hits().isEmpty()) {
            long lines = result.linesPerFile().values().stream().mapToLong(Long::longValue).sum();
            fail(result.hits().size() + " recorded values found in " + lines + " log lines of " + result.linesPerFile().size()
                    + " files (" + recorded.size() + " values scanned for):\n" + result.hits().stream().limit(LISTED)
                    .map(LogScan.Hit::toString).collect(Collectors.joining("\n")));
        }
    }

    /** The canary calls; the values they send that the record must hold. */
    private List<String> canaryCalls() throws Exception {
        String tag = letters(8);
        String capitalTag = Character.toUpperCase(tag.charAt(0)) + tag.substring(1);
        String firstName = "Zephyrine" + tag;
        String lastName = "Quackenbush" + capitalTag;
        String email = "canary." + tag + "@logscan.example";
        SecureRandom random = new SecureRandom();
        String dateOfBirth = String.format("19%02d-%02d-%02d", 1 + random.nextInt(30), 1 + random.nextInt(12), 1 + random.nextInt(28));
        String phone = String.format("+1 555 01%02d %03d", random.nextInt(100), random.nextInt(1000));
        String street = "77 Canary Row " + capitalTag;
        String shippingStreet = "9 Shipping Lane " + capitalTag;
        String city = "Lognowhere" + tag;
        String caseNotes = "Canary notes " + tag + ": migraines twice a week";
        String patientText = "Canary message " + tag + ": my refill ran out on Sunday";
        String prescriberText = "Canary reply " + tag + ": do not double the dose";
        String prescriberHtml = "<p>Canary markup " + tag + ": <b>halve</b> the dose</p>";
        String prescriberSubject = "Canary subject " + tag;
        String fileName = "Canary scan " + capitalTag + ".png";

        try (WebhookReceiver receiver = new WebhookReceiver((post, attempt) -> 204)) {
            JsonPath created = ops().body(Map.of("name", "Log scan " + UUID.randomUUID())).post("/ops/v1/partners")
                    .then().statusCode(201).extract().jsonPath();
            String partnerId = created.getString("partner.id");
            apiKey = created.getString("apiKey");
            String publishableKey = created.getString("publishableKey");
            String secret = ops().body(Map.of("url", receiver.url())).put("/ops/v1/partners/" + partnerId + "/webhook")
                    .then().statusCode(200).extract().path("secret");
            String drugId = "logscan-" + tag;
            ops().body("""
                            {"name": "Canary Drug", "classification": "non-controlled",
                             "skus": [{"label": "1 mg", "active": true}], "pharmacy": {"id": "sandbox", "method": "none"}}""")
                    .put("/ops/v1/drugs/" + drugId).then().statusCode(200);
            String prescriberEmail = "dr." + tag + "@clinic.example";
            String prescriberId = ops().body(Map.of("name", "Dr Canary", "email", prescriberEmail)).post("/ops/v1/prescribers")
                    .then().statusCode(201).extract().path("prescriber.id");

            Map<String, Object> member = Map.of("firstName", firstName, "lastName", lastName, "email", email, "phone", phone,
                    "dateOfBirth", dateOfBirth, "state", "VA", "gender", "f",
                    "address", Map.of("street1", street, "city", city, "state", "VA", "zipCode", "23665"),
                    "shippingAddress", Map.of("street1", shippingStreet, "city", city, "state", "VA", "zipCode", "23666"));
            String requestId = partner().contentType(ContentType.JSON)
                    .body(Map.of("caseNotes", caseNotes, "items", List.of(Map.of("drugId", drugId, "dosage", "1 mg")), "member", member))
                    .post("/v1/requests").then().statusCode(201).extract().path("requestId");
            JsonPath request = partner().get("/v1/requests/" + requestId).then().statusCode(200).extract().jsonPath();
            String memberId = request.getString("memberId");
            partner().queryParam("search", lastName).get("/v1/members").then().statusCode(200);
            // People on /ops (requests-service runs in production here when PeopleOnOpsIT ran before: the
            // prescriber acts in person): the prescriber's local account (its password), a wrong password, a session (its
            // token), the approve in person with it, and a pharmacy credential (its key) used once.
            String accountEmail = "account." + tag + "@logscan.example";
            String password = "Canary password " + capitalTag + " 2468";
            ops().body(Map.of("email", accountEmail, "name", "Dr Canary", "roles", List.of("prescriber"), "prescriberId", prescriberId,
                    "password", password)).post("/ops/v1/accounts").then().statusCode(201);
            given().baseUri(platform.gateway().toString()).contentType(ContentType.JSON)
                    .body(Map.of("email", accountEmail, "password", password + " wrong")).post("/ops/v1/sessions").then().statusCode(401);
            String session = given().baseUri(platform.gateway().toString()).contentType(ContentType.JSON)
                    .body(Map.of("email", accountEmail, "password", password)).post("/ops/v1/sessions")
                    .then().statusCode(201).extract().path("token");
            given().baseUri(platform.gateway().toString()).header("Authorization", "Bearer " + session).contentType(ContentType.JSON)
                    .body(Map.of("prescription", PRESCRIPTION))
                    .post("/ops/v1/requests/" + requestId + "/items/" + request.getString("lineItems[0].itemId") + "/approve")
                    .then().statusCode(200);
            String pharmacyKey = ops().post("/ops/v1/pharmacies/sandbox/credentials").then().statusCode(201).extract().path("key");
            given().baseUri(platform.gateway().toString()).header("Authorization", "Bearer " + pharmacyKey).contentType(ContentType.JSON)
                    .body("{}").post("/ops/v1/pharmacy/updates").then().statusCode(400);

            String conversationId = partner().contentType(ContentType.JSON).body(Map.of("memberId", memberId))
                    .post("/v1/messages/conversations/for-member").then().statusCode(201).extract().path("conversation.id");
            partner().contentType(ContentType.JSON).body(Map.of("text", patientText))
                    .post("/v1/messages/conversations/" + conversationId + "/messages").then().statusCode(201);
            ops().body(Map.of("text", prescriberText)).post("/ops/v1/conversations/" + conversationId + "/prescriber-messages")
                    .then().statusCode(201);
            ops().body(Map.of("text", prescriberText + " (formatted)", "html", prescriberHtml, "subject", prescriberSubject))
                    .post("/ops/v1/conversations/" + conversationId + "/prescriber-messages").then().statusCode(201);
            // An attachment: its file name is in its link, with the token that opens it; the link is downloaded.
            String attachmentUrl = partner().multiPart("file", fileName, new byte[] {(byte) 0x89, 'P', 'N', 'G'}, "image/png")
                    .post("/v1/messages/conversations/" + conversationId + "/attachments").then().statusCode(201)
                    .extract().path("message.attachmentUrl");
            given().urlEncodingEnabled(false).get(attachmentUrl).then().statusCode(200);
            String attachmentToken = attachmentUrl.split("/attachments/")[1].split("/")[0];

            // A consultation: the booking link's token, used to book as the patient would.
            String consultationRequestId = partner().contentType(ContentType.JSON)
                    .body(Map.of("memberId", memberId, "caseNotes", caseNotes + " (follow-up)",
                            "items", List.of(Map.of("drugId", drugId, "dosage", "1 mg"))))
                    .post("/v1/requests").then().statusCode(201).extract().path("requestId");
            String consultationItemId = partner().get("/v1/requests/" + consultationRequestId).then().statusCode(200)
                    .extract().path("lineItems[0].itemId");
            String bookingUrl = given().baseUri(platform.gateway().toString()).header("Authorization", "Bearer " + session)
                    .contentType(ContentType.JSON).body("{}")
                    .post("/ops/v1/requests/" + consultationRequestId + "/items/" + consultationItemId + "/request-consultation")
                    .then().statusCode(200).extract().path("booking.bookingUrl");
            String bookingToken = bookingUrl.substring(bookingUrl.lastIndexOf('/') + 1);
            ops().body(Map.of("startTime", Instant.now().plus(Duration.ofDays(3)).truncatedTo(ChronoUnit.HOURS).toString(),
                            "durationMinutes", 30, "timezone", "America/New_York"))
                    .post("/ops/v1/bookings/" + bookingToken + "/appointment").then().statusCode(201);

            // What the calls set going in the background has run (and logged): the prescriber's mail, the partner's webhook.
            await("the prescriber's mail").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> platform.mail().received().stream().anyMatch(mail -> mail.recipients().contains(prescriberEmail)));
            receiver.await("message.new", 2, Duration.ofSeconds(60));
            receiver.await("appointment.booked", 1, Duration.ofSeconds(60));

            return List.of(firstName, lastName, email, dateOfBirth, phone, street, shippingStreet, city, caseNotes, patientText,
                    prescriberText, prescriberHtml, prescriberSubject, fileName, attachmentToken, bookingToken, apiKey, publishableKey,
                    secret, accountEmail, password, password + " wrong", session, pharmacyKey, platform.opsKey(), platform.secrets().trustKey(), platform.secrets().attachmentLinkKey(), platform.secrets().databasePassword(),
                    platform.secrets().smtpPassword());
        }
    }

    private static String letters(int count) {
        SecureRandom random = new SecureRandom();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append((char) ('a' + random.nextInt(26)));
        }
        return text.toString();
    }
}
