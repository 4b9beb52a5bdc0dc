package com.telemed.e2e;

import static com.telemed.e2e.WebhookPayloads.assertPayload;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.e2e.WebhookReceiver.Received;
import com.telemed.testkit.browser.Axe;
import com.telemed.testkit.browser.Browser;
import com.telemed.testkit.browser.BrowserFailureScreens;
import com.telemed.testkit.browser.Forms;
import com.telemed.testkit.browser.Screenshots;
import com.telemed.testkit.e2e.RunningPlatform;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The console (people-and-pages.md, "The console") in Debian's Chromium, headless, through the
 * shared platform's gateway, every service real: a prescriber signs in with a local account, claims
 * the oldest request of the queue (filtered to this test's partner: the queue is every partner's),
 * approves it after the API refused one field (the message next to the field), and the partner's
 * receiver gets {@code item.approved}, signed, with the contract's payload; an admin finds the
 * prescriber in the audit log. The same approval with the keyboard alone; a support account sees
 * no decision form and is refused when it posts one by hand; an admin rotates a partner's API key in
 * the console, shown once, and the old key fails on the partner's very next call. axe-core runs on every page (no serious
 * or critical finding), and every page is kept as a screenshot at 375 and 1280 px under
 * {@code target/screenshots}.
 */
@ExtendWith({RunningPlatform.class, BrowserFailureScreens.class})
class ConsolePagesIT {

    private static final String PATIENT_FIRST = "Grace";
    private static final String PATIENT_LAST = "Hopper";
    private static final String DRUG_NAME = "Metformin Console";
    private static final String PRESCRIBER_NAME = "Dr Console E2E";
    private static final String PRESCRIBER_ZONE = "America/New_York";

    private static Browser browser;

    private RunningPlatform.Handle platform;
    private WebhookReceiver receiver;
    private Clinic clinic;

    @BeforeAll
    static void openBrowser() {
        browser = Browser.open();
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    /** A partner with its webhook, a drug with one SKU, a prescriber and the three people's local accounts. */
    private record Clinic(String partnerId, String apiKey, String publishableKey, String secret, String drugId, String skuId,
                          String prescriberId, Account prescriber, Account support, Account admin) {
    }

    private record Account(String id, String email, String password, String name) {
    }

    @BeforeEach
    void clinic(RunningPlatform.Handle handle) throws Exception {
        platform = handle;
        receiver = new WebhookReceiver((post, attempt) -> 204);
        JsonPath created = ops().body(Map.of("name", "Console E2E " + UUID.randomUUID())).post("/ops/v1/partners")
                .then().statusCode(201).extract().jsonPath();
        String partnerId = created.getString("partner.id");
        String secret = ops().body(Map.of("url", receiver.url())).put("/ops/v1/partners/" + partnerId + "/webhook")
                .then().statusCode(200).extract().path("secret");
        ops().body(Map.of("mode", "deferred")).put("/ops/v1/partners/" + partnerId + "/fulfilment").then().statusCode(200);
        String drugId = "console-e2e-" + UUID.randomUUID().toString().substring(0, 8);
        String skuId = ops().body("""
                {"name": "%s", "classification": "non-controlled",
                 "skus": [{"label": "500 mg", "active": true}], "pharmacy": {"id": "sandbox", "method": "none"}}"""
                .formatted(DRUG_NAME)).put("/ops/v1/drugs/" + drugId).then().statusCode(200).extract().path("drug.skus[0].id");
        String prescriberId = ops().body(Map.of("name", PRESCRIBER_NAME, "email", "console." + UUID.randomUUID() + "@clinic.example"))
                .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
        clinic = new Clinic(partnerId, created.getString("apiKey"), created.getString("publishableKey"), secret, drugId, skuId,
                prescriberId,
                account("prescriber", PRESCRIBER_NAME, prescriberId), account("support", "Support E2E", null),
                account("admin", "Admin E2E", null));
    }

    @AfterEach
    void closeReceiver() {
        if (receiver != null) {
            receiver.close();
        }
        // Each story signs in anew: nothing of one person's session is left for the next story.
        browser.driver().manage().deleteAllCookies();
    }

    @Test
    void aPrescriberClaimsTheOldestRequestAndApprovesItAfterAFieldIsCorrected() throws Exception {
        String oldest = request("first");
        String younger = request("second");
        String itemId = itemOf(oldest);
        WebDriver driver = browser.driver();

        // Signed out, the console sends the browser to its sign-in page.
        browser.get(platform.gateway() + "/console");
        assertTrue(driver.getCurrentUrl().endsWith("/console/sign-in"), driver.getCurrentUrl());
        look(driver, "console-sign-in");
        driver.findElement(By.id("email")).sendKeys(clinic.prescriber().email());
        driver.findElement(By.id("password")).sendKeys("not the password at all");
        Forms.click(driver, By.cssSelector("form[action='/console/sign-in'] button[type=submit]"));
        assertEquals("Invalid email or password", driver.findElement(By.id("form-error")).getText());
        assertEquals(clinic.prescriber().email(), driver.findElement(By.id("email")).getAttribute("value"));
        look(driver, "console-sign-in-refused");
        signIn(driver, clinic.prescriber());

        // The queue, this partner's only: oldest first, neither claimed.
        assertTrue(driver.getCurrentUrl().contains("/console/queue"), driver.getCurrentUrl());
        browser.get(platform.gateway() + "/console/queue?partnerId=" + clinic.partnerId());
        assertEquals(List.of(oldest, younger), queueRows(driver));
        look(driver, "console-queue");
        Forms.click(driver, By.cssSelector("tr[data-request-id='" + oldest + "'] form button[type=submit]"));
        assertTrue(driver.getCurrentUrl().endsWith("/console/requests/" + oldest), driver.getCurrentUrl());
        assertEquals(clinic.prescriberId(), opsRequest(oldest).path("request").path("prescriberId").asText(),
                "claimed by the signed-in prescriber");
        String page = driver.findElement(By.tagName("main")).getText();
        assertTrue(page.contains(PATIENT_FIRST + " " + PATIENT_LAST), "the member's name");
        assertTrue(page.contains("1961-12-09"), "the member's date of birth");
        assertTrue(page.contains(DRUG_NAME), "the item's drug");
        // The record as signing will freeze it, from the catalogue: the drug, and the SKU the form may name.
        String record = driver.findElement(By.id("record-" + itemId)).getText();
        assertTrue(record.contains(DRUG_NAME) && record.contains("non-controlled") && record.contains("500 mg (" + clinic.skuId() + ")"),
                record);
        look(driver, "console-request");

        // One field the API refuses: its message next to the field, the other values kept.
        WebElement item = driver.findElement(By.id("item-" + itemId));
        fillPrescription(item, "0");
        Forms.click(driver, By.cssSelector("#item-" + itemId + " form[action$='/approve'] button[type=submit]"));
        WebElement days = driver.findElement(By.cssSelector("#item-" + itemId + " [name=daysSupply]"));
        assertEquals("true", days.getAttribute("aria-invalid"));
        assertEquals("error-daysSupply", days.getAttribute("aria-describedby"));
        assertFalse(driver.findElement(By.id("error-daysSupply")).getText().isBlank(), "the API's message for daysSupply");
        assertEquals("0", days.getAttribute("value"), "the value typed is kept");
        assertEquals("Take one tablet twice a day with meals",
                driver.findElement(By.cssSelector("#item-" + itemId + " [name=directions]")).getAttribute("value"));
        assertEquals("pending", opsRequest(oldest).path("request").path("lineItems").get(0).path("status").asText(),
                "nothing decided by the refused form");
        look(driver, "console-approve-refused");

        days = driver.findElement(By.cssSelector("#item-" + itemId + " [name=daysSupply]"));
        days.clear();
        days.sendKeys("30");
        Forms.click(driver, By.cssSelector("#item-" + itemId + " form[action$='/approve'] button[type=submit]"));
        assertEquals("Approved", driver.findElement(By.id("notice")).getText());
        look(driver, "console-approved");

        // The partner hears of it: signed, the contract's payload.
        Received delivery = awaitDelivery("item.approved", json -> oldest.equals(json.path("requestId").asText()));
        WebhookReceiver.assertSigned(delivery, clinic.secret());
        assertPayload(new com.fasterxml.jackson.databind.ObjectMapper().readTree(delivery.body()), "event", "item.approved",
                "requestId", oldest, "itemId", itemId, "status", "approved", "patientName", PATIENT_FIRST + " " + PATIENT_LAST,
                "prescriptionName", DRUG_NAME);
        JsonNode signed = opsRequest(oldest).path("request").path("lineItems").get(0);
        assertEquals("approved", signed.path("status").asText());
        assertEquals(clinic.prescriberId(), signed.path("prescriberId").asText());

        // The audit log shows who signed, to an admin.
        signOut(driver);
        signIn(driver, clinic.admin());
        browser.get(platform.gateway() + "/console/audit?targetId=" + itemId);
        List<WebElement> rows = driver.findElements(By.cssSelector("#audit tbody tr"));
        assertTrue(rows.stream().map(WebElement::getText)
                        .anyMatch(row -> row.contains("item.approve") && row.contains(PRESCRIBER_NAME)),
                "an item.approve entry by " + PRESCRIBER_NAME + ": " + rows.stream().map(WebElement::getText).toList());
        look(driver, "console-audit");
    }

    @Test
    void theApprovalStoryWithTheKeyboardAlone() throws Exception {
        String requestId = request("keyboard");
        String itemId = itemOf(requestId);
        WebDriver driver = browser.driver();

        browser.get(platform.gateway() + "/console/sign-in");
        Forms.tabTo(driver, "#email").sendKeys(clinic.prescriber().email());
        Forms.tabTo(driver, "#password").sendKeys(clinic.prescriber().password());
        Forms.pressEnter(driver);
        browser.get(platform.gateway() + "/console/queue?partnerId=" + clinic.partnerId());
        assertEquals(List.of(requestId), queueRows(driver));
        Forms.tabTo(driver, "tr[data-request-id='" + requestId + "'] form button[type=submit]");
        Forms.pressEnter(driver);
        assertTrue(driver.getCurrentUrl().endsWith("/console/requests/" + requestId), driver.getCurrentUrl());

        String form = "#item-" + itemId + " form[action$='/approve'] ";
        Forms.tabTo(driver, form + "[name=quantity]").sendKeys("30");
        Forms.tabTo(driver, form + "[name=quantityUnits]").sendKeys("tablets");
        Forms.tabTo(driver, form + "[name=daysSupply]").sendKeys("30");
        Forms.tabTo(driver, form + "[name=directions]").sendKeys("Take one tablet a day");
        Forms.tabTo(driver, form + "[name=refills]").sendKeys("0");
        Forms.tabTo(driver, form + "button[type=submit]");
        Forms.pressEnter(driver);
        assertEquals("Approved", driver.findElement(By.id("notice")).getText());
        awaitDelivery("item.approved", json -> requestId.equals(json.path("requestId").asText()));
        assertEquals("approved", opsRequest(requestId).path("request").path("lineItems").get(0).path("status").asText());
    }

    @Test
    void aSupportAccountSeesNoDecisionAndIsRefusedWhenItPostsOneByHand() throws Exception {
        String requestId = request("support");
        String itemId = itemOf(requestId);
        WebDriver driver = browser.driver();
        signIn(driver, clinic.support());
        browser.get(platform.gateway() + "/console/requests/" + requestId);
        assertTrue(driver.findElement(By.tagName("main")).getText().contains(PATIENT_FIRST + " " + PATIENT_LAST));
        assertTrue(driver.findElements(By.cssSelector("form[action$='/approve']")).isEmpty(), "no approve form for support");
        assertTrue(driver.findElements(By.linkText("Audit log")).isEmpty(), "no link to a page support may not use");
        look(driver, "console-request-support");

        // The form posted by hand, with the session's own cookie and CSRF value: 403, nothing decided.
        Cookie session = driver.manage().getCookieNamed("console_session");
        String csrf = driver.findElement(By.cssSelector("input[name=csrf]")).getAttribute("value");
        Map<String, String> form = new LinkedHashMap<>();
        form.put("csrf", csrf);
        form.put("quantity", "30");
        form.put("quantityUnits", "tablets");
        form.put("daysSupply", "30");
        form.put("directions", "Take one tablet a day");
        form.put("refills", "0");
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(platform.gateway() + "/console/requests/" + requestId + "/items/" + itemId + "/approve"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Cookie", "console_session=" + session.getValue())
                .POST(HttpRequest.BodyPublishers.ofString(form.entrySet().stream()
                        .map(each -> each.getKey() + "=" + URLEncoder.encode(each.getValue(), StandardCharsets.UTF_8))
                        .collect(Collectors.joining("&"))))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(403, answer.statusCode());
        assertTrue(answer.body().contains("<h1>Forbidden</h1>"), answer.body());
        assertEquals("pending", opsRequest(requestId).path("request").path("lineItems").get(0).path("status").asText());

        browser.get(platform.gateway() + "/console/audit");
        assertEquals("Forbidden", driver.findElement(By.tagName("h1")).getText());
        look(driver, "console-forbidden");
    }

    @Test
    void anAdminRotatesAPartnersKeyAndTheOldKeyFailsOnTheNextCall() {
        WebDriver driver = browser.driver();
        partner(clinic.apiKey()).get("/v1/drugs").then().statusCode(200);
        signIn(driver, clinic.admin());
        assertTrue(driver.findElements(By.linkText("Queue")).isEmpty(), "no queue for an admin alone");
        browser.get(platform.gateway() + "/console/partners/" + clinic.partnerId());
        look(driver, "console-partner");
        Forms.click(driver, By.cssSelector("form[action='/console/partners/" + clinic.partnerId() + "/rotate-key'] button[type=submit]"));
        String rotated = driver.findElement(By.id("api-key")).getText().trim();
        assertTrue(rotated.matches("apx_[0-9a-f]{32}"), rotated);
        assertFalse(driver.getCurrentUrl().contains(rotated), "never the key in a URL");
        look(driver, "console-partner-rotated");

        partner(clinic.apiKey()).get("/v1/drugs").then().statusCode(401)
                .body("error", org.hamcrest.Matchers.equalTo("Invalid API Key"));
        partner(rotated).get("/v1/drugs").then().statusCode(200);
    }

    @Test
    void aConsultationIsBookedByThePatientHeldAndThenApproved() throws Exception {
        List<Map<String, Object>> weekly = java.util.stream.IntStream.rangeClosed(1, 7)
                .mapToObj(day -> Map.<String, Object>of("weekday", day, "start", "00:00", "end", "24:00")).toList();
        ops().body(Map.of("timezone", PRESCRIBER_ZONE, "weekly", weekly, "slotMinutes", 30))
                .put("/ops/v1/prescribers/" + clinic.prescriberId() + "/availability").then().statusCode(200);
        String requestId = request("consultation");
        String itemId = itemOf(requestId);
        WebDriver driver = browser.driver();
        signIn(driver, clinic.prescriber());
        browser.get(platform.gateway() + "/console/queue?partnerId=" + clinic.partnerId());
        Forms.click(driver, By.cssSelector("tr[data-request-id='" + requestId + "'] form button[type=submit]"));
        Forms.click(driver, By.cssSelector("#item-" + itemId + " form[action$='/request-consultation'] button[type=submit]"));
        assertEquals("Consultation requested", driver.findElement(By.id("notice")).getText());

        // The patient books the first free slot with the link the partner's webhook carried.
        Received requested = awaitDelivery("appointment.consultation_requested", json -> requestId.equals(json.path("requestId").asText()));
        String link = requested.json().path("bookingUrl").asText();
        browser.get(link + "?tz=Europe%2FBerlin");
        WebElement first = driver.findElement(By.cssSelector("input[name=startTime]"));
        Instant start = Instant.parse(first.getAttribute("value"));
        first.click();
        Forms.click(driver, By.cssSelector("form.slot-form button[type=submit]"));
        awaitDelivery("appointment.booked", json -> requestId.equals(json.path("requestId").asText()));

        // The prescriber's list shows it in their own zone; held, then the item is approved.
        browser.get(platform.gateway() + "/console/appointments");
        assertEquals(PRESCRIBER_ZONE, driver.findElement(By.id("zone")).getText().replaceAll(".*?([A-Za-z_]+/[A-Za-z_]+).*", "$1"));
        List<WebElement> rows = driver.findElements(By.cssSelector("#appointments tr[data-appointment-id]"));
        assertEquals(1, rows.size(), "the prescriber's one appointment");
        String local = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneId.of(PRESCRIBER_ZONE)).format(start);
        assertTrue(rows.get(0).getText().contains(local), "shown in " + PRESCRIBER_ZONE + ": " + local + " in " + rows.get(0).getText());
        assertTrue(rows.get(0).getText().contains(PATIENT_FIRST + " " + PATIENT_LAST), rows.get(0).getText());
        look(driver, "console-appointments");
        String appointmentId = rows.get(0).getAttribute("data-appointment-id");
        Forms.click(driver, By.cssSelector("tr[data-appointment-id='" + appointmentId + "'] form:has(input[value=held]) button"));
        assertEquals("Marked held", driver.findElement(By.id("notice")).getText());
        assertEquals("held", ops().get("/ops/v1/appointments/" + appointmentId).then().statusCode(200).extract().path("appointment.status"));

        browser.get(platform.gateway() + "/console/requests/" + requestId);
        fillPrescription(driver.findElement(By.id("item-" + itemId)), "30");
        Forms.click(driver, By.cssSelector("#item-" + itemId + " form[action$='/approve'] button[type=submit]"));
        assertEquals("Approved", driver.findElement(By.id("notice")).getText());
        awaitDelivery("item.approved", json -> requestId.equals(json.path("requestId").asText()));
    }

    @Test
    void aPatientsMessageReachesThePrescribersListWithoutAReloadAndTheReplyAndHandOffReachThePartner() throws Exception {
        String requestId = request("messages");
        ops().body(Map.of("prescriberId", clinic.prescriberId())).post("/ops/v1/requests/" + requestId + "/claim").then().statusCode(200);
        String memberId = partner(clinic.apiKey()).get("/v1/requests/" + requestId).then().statusCode(200).extract().path("memberId");
        String conversationId = partner(clinic.apiKey()).contentType(ContentType.JSON).body(Map.of("memberId", memberId))
                .post("/v1/messages/conversations/for-member").then().statusCode(201).extract().path("conversation.id");
        WebDriver driver = browser.driver();
        signIn(driver, clinic.prescriber());
        browser.get(platform.gateway() + "/console/conversations");
        look(driver, "console-conversations-empty");

        // The patient writes: the open page shows it, unread, with no reload (its table refreshes itself).
        String patientText = "The tablets make me dizzy in the morning. Should I take them at night?";
        String patientMessageId = partner(clinic.apiKey()).contentType(ContentType.JSON).body(Map.of("text", patientText))
                .post("/v1/messages/conversations/" + conversationId + "/messages").then().statusCode(201).extract().path("message.id");
        WebElement page = driver.findElement(By.tagName("html"));
        By unreadRow = By.cssSelector("#conversations tr[data-conversation-id='" + conversationId + "'][data-unread='1']");
        await("the unread thread without a reload").atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(250))
                .until(() -> !driver.findElements(unreadRow).isEmpty());
        assertEquals("html", page.getTagName(), "the same document: not reloaded");
        assertEquals("(1 unread)", driver.findElement(By.id("nav-unread")).getText());
        look(driver, "console-conversations");

        // Opened: read; the prescriber replies, attaches a file and hands the question off.
        Forms.click(driver, By.cssSelector("tr[data-conversation-id='" + conversationId + "'] a"));
        assertTrue(driver.findElement(By.id("messages")).getText().contains(patientText));
        look(driver, "console-thread");
        String reply = "Take them at night with food; tell us if the dizziness goes on.";
        driver.findElement(By.id("text")).sendKeys(reply);
        Forms.click(driver, By.cssSelector("form[action$='/reply'] button[type=submit]"));
        assertEquals("Sent", driver.findElement(By.id("notice")).getText());
        java.nio.file.Path file = java.nio.file.Files.createTempFile("dosing-", ".pdf");
        java.nio.file.Files.write(file, "%PDF-1.4 a dosing plan".getBytes(StandardCharsets.UTF_8));
        driver.findElement(By.id("file")).sendKeys(file.toString());
        Forms.click(driver, By.cssSelector("form[action$='/attach'] button[type=submit]"));
        assertEquals("Attached", driver.findElement(By.id("notice")).getText());
        assertFalse(driver.findElements(By.cssSelector("#messages a.attachment")).isEmpty(), "the file in the thread");
        driver.findElement(By.cssSelector("#category-" + patientMessageId + " option[value=orders]")).click();
        driver.findElement(By.id("note-" + patientMessageId)).sendKeys("Dosing question");
        Forms.click(driver, By.cssSelector("li[data-message-id='" + patientMessageId + "'] form button[type=submit]"));
        assertEquals("Handed off", driver.findElement(By.id("notice")).getText());

        Received fresh = awaitDelivery("message.new", json -> conversationId.equals(json.path("conversationId").asText()));
        Received handoff = awaitDelivery("message.handoff", json -> conversationId.equals(json.path("conversationId").asText()));
        WebhookReceiver.assertSigned(fresh, clinic.secret());
        WebhookReceiver.assertSigned(handoff, clinic.secret());
        assertPayload(fresh.json(), "event", "message.new", "memberId", memberId, "prescriberName", PRESCRIBER_NAME,
                "messagePreview", reply, "conversationId", conversationId);
        assertPayload(handoff.json(), "event", "message.handoff", "memberId", memberId, "conversationId", conversationId,
                "messageId", patientMessageId, "text", patientText, "category", "orders", "prescriberName", PRESCRIBER_NAME,
                "note", "Dosing question");
        assertEquals(0, (int) partner(clinic.apiKey()).get("/v1/messages/conversations/" + conversationId).then().statusCode(200)
                .extract().path("conversation.unreadByPrescriber"), "read when opened");
    }

    @Test
    void everyOtherConsolePagePassesAxeAndFitsAPhone() {
        WebDriver driver = browser.driver();
        signIn(driver, clinic.prescriber());
        for (String page : List.of("/console/availability", "/console/appointments", "/console/conversations")) {
            browser.get(platform.gateway() + page);
            assertTrue(driver.getCurrentUrl().endsWith(page), driver.getCurrentUrl());
            look(driver, "console" + page.replace("/console", "").replace('/', '-'));
        }
        signOut(driver);
        signIn(driver, clinic.admin());
        for (String page : List.of("/console/accounts", "/console/drugs", "/console/drugs/" + clinic.drugId(), "/console/surveys",
                "/console/surveys/console-e2e-new-survey", "/console/prescribers", "/console/prescribers/" + clinic.prescriberId(),
                "/console/pharmacy-keys", "/console/transmissions", "/console/deliveries",
                "/console/partners/" + clinic.partnerId() + "/deliveries", "/console/partners", "/console/audit")) {
            browser.get(platform.gateway() + page);
            assertTrue(driver.getCurrentUrl().endsWith(page), driver.getCurrentUrl());
            assertFalse(driver.findElement(By.tagName("h1")).getText().isBlank(), page);
            look(driver, "console" + page.replace("/console", "").replace('/', '-').replaceAll("[0-9a-f]{8}-[0-9a-f-]{27}", "id"));
        }
    }

    @Test
    void aSurveyBackedRequestShowsTheSurveySummaryInItsCaseNotes() {
        String origin = "https://shop-" + UUID.randomUUID().toString().substring(0, 8) + ".example";
        ops().body(Map.of("origins", List.of(origin))).put("/ops/v1/partners/" + clinic.partnerId() + "/embed-origins")
                .then().statusCode(200);
        String surveyId = "console-e2e-" + UUID.randomUUID().toString().substring(0, 8);
        ops().body(Map.of("title", "Console intake", "drugIds", List.of(clinic.drugId()), "questions", List.of(
                        Map.of("id", "pregnant", "text", "Are you pregnant?", "type", "boolean", "required", true,
                                "disqualifyWhen", Map.of("equals", true)),
                        Map.of("id", "notes", "text", "Anything else?", "type", "text", "required", false))))
                .put("/ops/v1/surveys/" + surveyId).then().statusCode(200);
        String responseId = given().baseUri(platform.gateway().toString()).header("x-service-publishable-key", clinic.publishableKey())
                .header("Origin", origin).contentType(ContentType.JSON)
                .body(Map.of("answers", Map.of("pregnant", false, "notes", "Walks daily")))
                .post("/v2/embed/surveys/" + surveyId + "/responses").then().statusCode(201).extract().path("responseId");
        String requestId = given().baseUri(platform.gateway().toString()).header("x-api-key", clinic.apiKey()).contentType(ContentType.JSON)
                .body(Map.of("caseNotes", "Prefers an evening call", "v2SurveyResponseId", responseId,
                        "items", List.of(Map.of("drugId", clinic.drugId(), "dosage", "500 mg")),
                        "member", Map.of("firstName", PATIENT_FIRST, "lastName", PATIENT_LAST, "email", "grace." + UUID.randomUUID() + "@example.com",
                                "dateOfBirth", "1961-12-09", "state", "NY", "address", Map.of("street1", "1 Compiler Way", "city", "Albany",
                                        "state", "NY", "zipCode", "12207"))))
                .post("/v1/requests").then().statusCode(201).extract().path("requestId");

        WebDriver driver = browser.driver();
        signIn(driver, clinic.prescriber());
        browser.get(platform.gateway() + "/console/requests/" + requestId);
        assertEquals("Prefers an evening call\n---\nAre you pregnant?: No\nAnything else?: Walks daily",
                driver.findElement(By.id("case-notes")).getText());
        look(driver, "console-request-survey");
    }

    // --- the platform through its APIs -------------------------------------------------------------

    private RequestSpecification ops() {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
    }

    private RequestSpecification partner(String apiKey) {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey);
    }

    private Account account(String role, String name, String prescriberId) {
        String email = role + "." + UUID.randomUUID() + "@console-e2e.example";
        String password = "a long password " + UUID.randomUUID();
        Map<String, Object> body = new LinkedHashMap<>(Map.of("email", email, "name", name, "roles", List.of(role),
                "password", password));
        if (prescriberId != null) {
            body.put("prescriberId", prescriberId);
        }
        String id = ops().body(body).post("/ops/v1/accounts").then().statusCode(201).extract().path("account.id");
        return new Account(id, email, password, name);
    }

    /** A new request of one item, pending, from this test's partner. */
    private String request(String label) {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", clinic.apiKey()).contentType(ContentType.JSON)
                .body("""
                        {"caseNotes": "console e2e %s", "items": [{"drugId": "%s", "dosage": "500 mg"}],
                         "member": {"firstName": "%s", "lastName": "%s", "email": "grace.%s@example.com",
                                    "dateOfBirth": "1961-12-09", "state": "NY",
                                    "address": {"street1": "1 Compiler Way", "city": "Albany", "state": "NY", "zipCode": "12207"}}}"""
                        .formatted(label, clinic.drugId(), PATIENT_FIRST, PATIENT_LAST, UUID.randomUUID()))
                .post("/v1/requests").then().statusCode(201).extract().path("requestId");
    }

    private JsonNode opsRequest(String requestId) throws Exception {
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                ops().get("/ops/v1/requests/" + requestId).then().statusCode(200).extract().asString());
    }

    private String itemOf(String requestId) throws Exception {
        return opsRequest(requestId).path("request").path("lineItems").get(0).path("itemId").asText();
    }

    private Received awaitDelivery(String event, Predicate<JsonNode> match) {
        return await(event).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> receiver.ofEvent(event).stream().filter(post -> match.test(post.json())).findFirst(),
                        java.util.Optional::isPresent)
                .orElseThrow();
    }

    // --- the browser -------------------------------------------------------------------------------

    private void signIn(WebDriver driver, Account account) {
        browser.get(platform.gateway() + "/console/sign-in");
        driver.findElement(By.id("email")).sendKeys(account.email());
        driver.findElement(By.id("password")).sendKeys(account.password());
        Forms.click(driver, By.cssSelector("form[action='/console/sign-in'] button[type=submit]"));
        assertTrue(driver.getPageSource().contains(account.name()), "signed in as " + account.name());
    }

    private void signOut(WebDriver driver) {
        Forms.click(driver, By.cssSelector("form[action='/console/sign-out'] button[type=submit]"));
        assertTrue(driver.getCurrentUrl().endsWith("/console/sign-in"), driver.getCurrentUrl());
    }

    private static List<String> queueRows(WebDriver driver) {
        return driver.findElements(By.cssSelector("#queue tr[data-request-id]")).stream()
                .map(row -> row.getAttribute("data-request-id")).toList();
    }

    private void fillPrescription(WebElement item, String daysSupply) {
        WebElement form = item.findElement(By.cssSelector("form[action$='/approve']"));
        form.findElement(By.name("quantity")).sendKeys("60");
        form.findElement(By.name("quantityUnits")).sendKeys("tablets");
        form.findElement(By.name("daysSupply")).sendKeys(daysSupply);
        form.findElement(By.name("directions")).sendKeys("Take one tablet twice a day with meals");
        form.findElement(By.name("refills")).sendKeys("2");
    }

    /** The page as its user sees it: axe-core's check and the two screenshots, under one label. */
    private static void look(WebDriver driver, String label) {
        Axe.check(driver, label);
        Screenshots.both(driver, label);
        Screenshots.assertNoHorizontalScroll(driver);
    }
}
