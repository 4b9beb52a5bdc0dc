package com.telemed.e2e;

import static com.telemed.e2e.WebhookPayloads.assertPayload;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
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
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The patient pages (people-and-pages.md, "Patient pages") in Debian's Chromium, headless, through
 * the shared platform's gateway, every service real: the booking link a real
 * {@code appointment.consultation_requested} webhook carried, opened by a patient whose browser is
 * in {@code Europe/Berlin} while the prescriber works in {@code America/New_York}: book, see it,
 * reschedule, cancel, and the partner's receiver gets exactly {@code appointment.booked},
 * {@code appointment.rescheduled}, {@code appointment.cancelled} with the contract's fields; two
 * browsers racing for one slot; a new patient's hosted survey, an error corrected, the allowed
 * {@code return} reached with the response id, which creates a request through the partner API;
 * the same booking and survey with JavaScript switched off. axe-core runs on every page and state
 * (no serious or critical finding; results under {@code target/axe}), and every page is kept as a
 * screenshot at 375 and 1280 px under {@code target/screenshots} (a failing test keeps its own under
 * {@code target/screenshots/failed}).
 */
@ExtendWith({RunningPlatform.class, BrowserFailureScreens.class})
class PatientPagesIT {

    private static final String PATIENT = "Lise Meitner";
    private static final String PRESCRIBER = "Dr Franklin";
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final String PRESCRIBER_ZONE = "America/New_York";
    private static final int SLOT_MINUTES = 30;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter WIRE = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    /**
     * The class's browsers, opened once (docs/testing.md, "Page tests"): one that runs script, a
     * second one for the race, and one that runs none. Each test opens its own pages in them; the
     * Berlin story puts the zone it emulates back when it ends.
     */
    private static Browser browser;
    private static Browser rival;
    private static Browser withoutScript;

    private RunningPlatform.Handle platform;

    @BeforeAll
    static void openBrowsers() {
        browser = Browser.open();
        rival = Browser.open();
        withoutScript = Browser.withoutJavaScript();
    }

    @AfterAll
    static void closeBrowsers() {
        for (Browser each : new Browser[] {browser, rival, withoutScript}) {
            if (each != null) {
                each.close();
            }
        }
    }

    /** The first delivery of {@code event} that {@code match} accepts, once it arrived (a minute at most). */
    private static JsonNode awaitEvent(WebhookReceiver receiver, String event, Predicate<JsonNode> match) {
        return await(event).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> receiver.ofEvent(event).stream().map(Received::json).filter(match).findFirst(), java.util.Optional::isPresent)
                .orElseThrow();
    }

    private RequestSpecification ops() {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
    }

    /** A partner with its webhook, a drug, and a prescriber with weekly hours in New York. */
    private record Clinic(String partnerId, String apiKey, String publishableKey, String secret, String drugId, String prescriberId) {
    }

    private Clinic clinic(WebhookReceiver receiver) {
        JsonPath created = ops().body(Map.of("name", "Pages E2E " + UUID.randomUUID())).post("/ops/v1/partners")
                .then().statusCode(201).extract().jsonPath();
        String partnerId = created.getString("partner.id");
        String secret = ops().body(Map.of("url", receiver.url())).put("/ops/v1/partners/" + partnerId + "/webhook")
                .then().statusCode(200).extract().path("secret");
        ops().body(Map.of("mode", "deferred")).put("/ops/v1/partners/" + partnerId + "/fulfilment").then().statusCode(200);
        String drugId = "pages-e2e-" + UUID.randomUUID().toString().substring(0, 8);
        ops().body("""
                {"name": "Semaglutide Pages", "classification": "non-controlled",
                 "skus": [{"label": "0.25 mg", "active": true}], "pharmacy": {"id": "sandbox", "method": "none"}}""")
                .put("/ops/v1/drugs/" + drugId).then().statusCode(200);
        String prescriberId = ops().body(Map.of("name", PRESCRIBER, "email", "franklin." + UUID.randomUUID() + "@clinic.example"))
                .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
        List<Map<String, Object>> weekly = IntStream.rangeClosed(1, 7)
                .mapToObj(day -> Map.<String, Object>of("weekday", day, "start", "09:00", "end", "17:00")).toList();
        ops().body(Map.of("timezone", PRESCRIBER_ZONE, "weekly", weekly, "slotMinutes", SLOT_MINUTES))
                .put("/ops/v1/prescribers/" + prescriberId + "/availability").then().statusCode(200)
                .body("availability.timezone", org.hamcrest.Matchers.equalTo(PRESCRIBER_ZONE));
        return new Clinic(partnerId, created.getString("apiKey"), created.getString("publishableKey"), secret, drugId, prescriberId);
    }

    /** A request of a new patient, its consultation asked in the console: the booking URL the partner's webhook carried. */
    private String bookingLink(Clinic clinic, WebhookReceiver receiver, String email) {
        String requestId = given().baseUri(platform.gateway().toString()).header("x-api-key", clinic.apiKey()).contentType(ContentType.JSON)
                .body("""
                        {"caseNotes": "pages e2e", "items": [{"drugId": "%s", "dosage": "0.25 mg"}],
                         "member": {"firstName": "Lise", "lastName": "Meitner", "email": "%s", "dateOfBirth": "1978-11-07",
                                    "state": "NY", "address": {"street1": "1 Atom Way", "city": "Albany", "state": "NY", "zipCode": "12207"}}}"""
                        .formatted(clinic.drugId(), email))
                .post("/v1/requests").then().statusCode(201).extract().path("requestId");
        ops().body(Map.of("prescriberId", clinic.prescriberId())).post("/ops/v1/requests/" + requestId + "/request-consultation")
                .then().statusCode(200);
        JsonNode event = awaitEvent(receiver, "appointment.consultation_requested",
                json -> requestId.equals(json.path("requestId").asText()));
        String url = event.path("bookingUrl").asText();
        assertTrue(url.matches(java.util.regex.Pattern.quote(platform.gateway() + "/book/") + "[A-Za-z0-9_-]{32}"), url);
        return url;
    }

    private static String token(String bookingUrl) {
        return bookingUrl.substring(bookingUrl.lastIndexOf('/') + 1);
    }

    /** The page as the patient sees it: axe-core's check and the two screenshots, under one label. */
    private static void look(WebDriver driver, String label) {
        Axe.check(driver, label);
        Screenshots.both(driver, label);
        Screenshots.assertNoHorizontalScroll(driver);
    }

    /** A slot's label: its local times in the zone the page shows ({@code 15:00 to 15:30}). */
    private static String label(WebDriver driver, WebElement slot) {
        return driver.findElement(By.cssSelector("label[for='" + slot.getAttribute("id") + "']")).getText();
    }

    /** A slot of {@value #SLOT_MINUTES} minutes from {@code start}, as a Berlin clock shows it. */
    private static String inBerlin(Instant start) {
        DateTimeFormatter time = DateTimeFormatter.ofPattern("HH:mm").withZone(BERLIN);
        return time.format(start) + " to " + time.format(start.plus(Duration.ofMinutes(SLOT_MINUTES)));
    }

    /**
     * Every slot the page offers, in its order: its value and its label's text as shown (read in one
     * call: a page offers about 200, and three driver calls for each took 38 s).
     */
    @SuppressWarnings("unchecked")
    private static Map<String, String> labelledSlots(WebDriver driver) {
        List<List<String>> pairs = (List<List<String>>) ((JavascriptExecutor) driver).executeScript("""
                return Array.from(document.querySelectorAll('input[name=startTime]')).map(slot => [slot.value,
                    document.querySelector('label[for="' + slot.id + '"]').innerText.trim()]);""");
        Map<String, String> labelled = new LinkedHashMap<>();
        pairs.forEach(pair -> labelled.put(pair.get(0), pair.get(1)));
        assertEquals(pairs.size(), labelled.size(), "each slot offered once");
        return labelled;
    }

    private static List<WebElement> slots(WebDriver driver) {
        return driver.findElements(By.cssSelector("input[name=startTime]"));
    }

    private static void choose(WebDriver driver, String value) {
        driver.findElement(By.cssSelector("input[name=startTime][value='" + value + "']")).click();
        Forms.click(driver, By.cssSelector("form.slot-form button[type=submit]"));
    }

    private JsonNode booking(String token) {
        try {
            return JSON.readTree(ops().get("/ops/v1/bookings/" + token).then().statusCode(200).extract().asString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aPatientInBerlinBooksReschedulesAndCancelsWhileThePrescriberWorksInNewYork(RunningPlatform.Handle platform) throws Exception {
        this.platform = platform;
        try (WebhookReceiver receiver = new WebhookReceiver((post, attempt) -> 204)) {
            Clinic clinic = clinic(receiver);
            String email = "lise." + UUID.randomUUID() + "@example.com";
            String link = bookingLink(clinic, receiver, email);
            String token = token(link);
            WebDriver driver = browser.driver();
            // The patient's browser is in Berlin: the page's script reads the zone and shows the times in it.
            browser.driver().executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", BERLIN.getId()));
            browser.get(link);
            await("the page in the browser's zone").atMost(Duration.ofSeconds(20))
                    .until(() -> driver.getCurrentUrl().endsWith("?tz=Europe%2FBerlin") || driver.getCurrentUrl().endsWith("?tz=Europe/Berlin"));
            assertEquals("Book your appointment", driver.findElement(By.tagName("h1")).getText());
            assertEquals("With " + PRESCRIBER, driver.findElement(By.cssSelector("p.lead")).getText());
            assertFalse(driver.getPageSource().contains("@clinic.example"), "never the prescriber's email");
            assertEquals(BERLIN.getId(), driver.findElement(By.cssSelector("#tz option:checked")).getAttribute("value"));
            look(driver, "booking-open");

            // Every slot offered is the prescriber's hours (09:00 to 17:00 in New York), shown in Berlin.
            Map<String, String> offered = labelledSlots(driver);
            assertFalse(offered.isEmpty(), "slots for the next 14 days");
            offered.forEach((value, label) -> {
                Instant start = Instant.parse(value);
                var local = start.atZone(ZoneId.of(PRESCRIBER_ZONE)).toLocalTime();
                assertTrue(!local.isBefore(java.time.LocalTime.of(9, 0)) && local.isBefore(java.time.LocalTime.of(17, 0)), value);
                assertEquals(inBerlin(start), label, "shown in Berlin: " + value);
            });
            List<String> values = List.copyOf(offered.keySet());
            String first = values.get(0);
            String second = values.get(3);

            choose(driver, first);
            assertEquals("Your appointment", driver.findElement(By.id("appointment-heading")).getText());
            JsonNode booked = booking(token).path("booking");
            assertEquals("booked", booked.path("status").asText());
            assertEquals(OffsetDateTime.parse(first).toInstant(), Instant.parse(booked.path("appointment").path("startTime").asText()));
            assertEquals(BERLIN.getId(), booked.path("appointment").path("timezone").asText());
            look(driver, "booking-booked");

            choose(driver, second);
            assertEquals(OffsetDateTime.parse(second).toInstant(),
                    Instant.parse(booking(token).path("booking").path("appointment").path("startTime").asText()));
            look(driver, "booking-rescheduled");

            Forms.click(driver, By.cssSelector("section.cancel button[type=submit]"));
            assertEquals("The cancelled appointment", driver.findElement(By.id("appointment-heading")).getText());
            assertEquals("cancelled", booking(token).path("booking").path("status").asText());
            look(driver, "booking-cancelled");

            // The partner's receiver: exactly booked, rescheduled and cancelled of this appointment, each the contract's.
            String requestId = booked.path("appointment").path("requestId").asText();
            String memberId = booked.path("appointment").path("memberId").asText();
            String appointmentId = booked.path("appointment").path("id").asText();
            Predicate<Received> ofThisAppointment = delivery -> delivery.event().startsWith("appointment.")
                    && appointmentId.equals(delivery.json().path("appointmentId").asText());
            await("booked, rescheduled, cancelled").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> receiver.received().stream().filter(ofThisAppointment).count() >= 3);
            await("nothing more").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4))
                    .until(() -> receiver.received().stream().filter(ofThisAppointment).count() == 3);
            List<Received> ofIt = receiver.received().stream().filter(ofThisAppointment).toList();
            for (Received delivery : ofIt) {
                WebhookReceiver.assertSigned(delivery, clinic.secret());
            }
            assertEquals(List.of("appointment.booked", "appointment.cancelled", "appointment.rescheduled"),
                    ofIt.stream().map(Received::event).sorted().toList());
            Map<String, String> wire = Map.of("first", WIRE.format(OffsetDateTime.parse(first).toInstant()),
                    "firstEnd", WIRE.format(OffsetDateTime.parse(first).toInstant().plus(Duration.ofMinutes(SLOT_MINUTES))),
                    "second", WIRE.format(OffsetDateTime.parse(second).toInstant()),
                    "secondEnd", WIRE.format(OffsetDateTime.parse(second).toInstant().plus(Duration.ofMinutes(SLOT_MINUTES))));
            for (Received delivery : ofIt) {
                JsonNode json = delivery.json();
                switch (delivery.event()) {
                    case "appointment.booked" -> assertPayload(json, "event", "appointment.booked", "requestId", requestId,
                            "memberId", memberId, "appointmentId", appointmentId, "patientName", PATIENT, "patientEmail", email,
                            "prescriberName", PRESCRIBER, "startTime", wire.get("first"), "endTime", wire.get("firstEnd"),
                            "timezone", BERLIN.getId(), "durationMinutes", SLOT_MINUTES);
                    case "appointment.rescheduled" -> assertPayload(json, "event", "appointment.rescheduled", "requestId", requestId,
                            "memberId", memberId, "appointmentId", appointmentId, "patientName", PATIENT, "patientEmail", email,
                            "prescriberName", PRESCRIBER, "startTime", wire.get("second"), "endTime", wire.get("secondEnd"),
                            "timezone", BERLIN.getId(), "durationMinutes", SLOT_MINUTES);
                    default -> assertPayload(json, "event", "appointment.cancelled", "requestId", requestId, "memberId", memberId,
                            "appointmentId", appointmentId, "patientName", PATIENT, "patientEmail", email,
                            "prescriberName", PRESCRIBER, "cancelledBy", "patient");
                }
            }
        } finally {
            browser.driver().executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", ""));
        }
    }

    @Test
    void twoBrowsersRaceForOneSlotOneBooksTheOtherIsToldAndBooksAnother(RunningPlatform.Handle platform) throws Exception {
        this.platform = platform;
        Browser first = browser;
        Browser second = rival;
        try (WebhookReceiver receiver = new WebhookReceiver((post, attempt) -> 204)) {
            Clinic clinic = clinic(receiver);
            String linkA = bookingLink(clinic, receiver, "a." + UUID.randomUUID() + "@example.com");
            String linkB = bookingLink(clinic, receiver, "b." + UUID.randomUUID() + "@example.com");
            first.get(linkA + "?tz=" + BERLIN.getId());
            second.get(linkB + "?tz=" + BERLIN.getId());
            String contested = slots(first.driver()).get(0).getAttribute("value");
            assertEquals(contested, slots(second.driver()).get(0).getAttribute("value"), "both see the same first slot");
            // Both have chosen it; the first sends first.
            second.driver().findElement(By.cssSelector("input[name=startTime][value='" + contested + "']")).click();
            choose(first.driver(), contested);
            assertEquals("Your appointment", first.driver().findElement(By.id("appointment-heading")).getText());

            Forms.click(second.driver(), By.cssSelector("form.slot-form button[type=submit]"));
            WebDriver loser = second.driver();
            assertEquals("There is a problem", loser.findElement(By.id("error-summary-title")).getText());
            assertTrue(loser.findElement(By.id("slot-error")).getText().contains("Sorry, that time has just been taken. Choose another time."),
                    loser.findElement(By.id("slot-error")).getText());
            List<String> left = List.copyOf(labelledSlots(loser).keySet());
            assertFalse(left.contains(contested), "the taken slot is not offered again");
            look(loser, "booking-slot-taken");
            choose(loser, left.get(0));
            assertEquals("Your appointment", loser.findElement(By.id("appointment-heading")).getText());
            assertEquals("booked", booking(token(linkB)).path("booking").path("status").asText());
            assertNotEquals(booking(token(linkA)).path("booking").path("appointment").path("startTime").asText(),
                    booking(token(linkB)).path("booking").path("appointment").path("startTime").asText());
        }
    }

    @Test
    void withoutJavaScriptAPatientChoosesAZoneAndBooks(RunningPlatform.Handle platform) throws Exception {
        this.platform = platform;
        try (WebhookReceiver receiver = new WebhookReceiver((post, attempt) -> 204)) {
            assertFalse(withoutScript.runsJavaScript());
            Clinic clinic = clinic(receiver);
            String link = bookingLink(clinic, receiver, "noscript." + UUID.randomUUID() + "@example.com");
            WebDriver driver = withoutScript.get(link).driver();
            assertEquals(link, driver.getCurrentUrl(), "no script: the page stays where it was opened");
            look(driver, "booking-open-noscript");
            driver.findElement(By.cssSelector("#tz option[value='" + BERLIN.getId() + "']")).click();
            Forms.click(driver, By.cssSelector("form.zone-form button[type=submit]"));
            assertTrue(driver.getCurrentUrl().contains("tz=Europe"), driver.getCurrentUrl());
            WebElement firstSlot = slots(driver).get(0);
            String chosen = firstSlot.getAttribute("value");
            assertEquals(inBerlin(Instant.parse(chosen)), label(driver, firstSlot));
            choose(driver, chosen);
            assertEquals("Your appointment", driver.findElement(By.id("appointment-heading")).getText());
            assertEquals(OffsetDateTime.parse(chosen).toInstant(),
                    Instant.parse(booking(token(link)).path("booking").path("appointment").path("startTime").asText()));
            look(driver, "booking-booked-noscript");
        }
    }

    private RequestSpecification partnerCall(Clinic clinic) {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", clinic.apiKey()).contentType(ContentType.JSON);
    }

    /** The partner's own page the survey returns to: a loopback server whose origin is on the allow-list. */
    private static HttpServer partnerSite() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Back at the partner</title></head>"
                    + "<body><main><h1>Back at the partner</h1></main></body></html>").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return server;
    }

    private void hostedSurvey(Browser browser, String label) throws Exception {
        hostedSurvey(browser, label, false);
    }

    /**
     * The hosted survey filled as a patient would, an error corrected, the partner's {@code return} page
     * reached with the response id; {@code returning}: a member's page by a token the partner minted
     * ({@code /surveys/t/<token>}, {@code survey.completed} with {@code mode: refill} and the member),
     * else a new patient's by the publishable key, whose response id then creates a request.
     */
    private void hostedSurvey(Browser browser, String label, boolean returning) throws Exception {
        HttpServer site = partnerSite();
        try (WebhookReceiver receiver = new WebhookReceiver((post, attempt) -> 204)) {
            Clinic clinic = clinic(receiver);
            String origin = "http://127.0.0.1:" + site.getAddress().getPort();
            ops().body(Map.of("origins", List.of(origin))).put("/ops/v1/partners/" + clinic.partnerId() + "/embed-origins")
                    .then().statusCode(200);
            String surveyId = "pages-e2e-" + UUID.randomUUID().toString().substring(0, 8);
            Map<String, Object> survey = new LinkedHashMap<>();
            survey.put("title", "Weight care intake");
            survey.put("drugIds", List.of(clinic.drugId()));
            survey.put("questions", List.of(
                    Map.of("id", "pregnant", "text", "Are you pregnant?", "type", "boolean", "required", true,
                            "disqualifyWhen", Map.of("equals", true)),
                    Map.of("id", "goal", "text", "What is your goal?", "type", "choice", "options", List.of("lose", "maintain"),
                            "required", true),
                    Map.of("id", "weight", "text", "Your weight in pounds", "type", "number", "required", true),
                    Map.of("id", "notes", "text", "Anything else?", "type", "text", "required", false)));
            ops().body(survey).put("/ops/v1/surveys/" + surveyId).then().statusCode(200);

            String returnUrl = origin + "/done?step=survey";
            String encodedReturn = java.net.URLEncoder.encode(returnUrl, StandardCharsets.UTF_8);
            String memberId = null;
            String page = platform.gateway() + "/surveys/" + surveyId + "?key=" + clinic.publishableKey() + "&return=" + encodedReturn;
            if (returning) {
                memberId = partnerCall(clinic).body("""
                        {"firstName": "Lise", "lastName": "Meitner", "email": "member.%s@example.com", "dateOfBirth": "1978-11-07",
                         "state": "NY", "address": {"street1": "1 Atom Way", "city": "Albany", "state": "NY", "zipCode": "12207"}}"""
                        .formatted(UUID.randomUUID())).post("/v1/members").then().statusCode(201).extract().path("member.id");
                String token = partnerCall(clinic).body(Map.of("memberId", memberId, "surveyId", surveyId))
                        .post("/v1/surveys/v2/tokens").then().statusCode(201).extract().path("token");
                page = platform.gateway() + "/surveys/t/" + token + "?return=" + encodedReturn;
            }
            WebDriver driver = browser.get(page).driver();
            assertEquals("Weight care intake", driver.findElement(By.tagName("h1")).getText());
            look(driver, "survey-" + label);

            driver.findElement(By.cssSelector("input[name=q-pregnant][value=false]")).click();
            driver.findElement(By.cssSelector("input[name=q-goal][value=lose]")).click();
            driver.findElement(By.id("q-weight")).sendKeys("heavy");
            Forms.click(driver, By.cssSelector("#survey-form button[type=submit]"));
            assertEquals("There is a problem", driver.findElement(By.id("error-summary-title")).getText());
            WebElement weight = driver.findElement(By.id("q-weight"));
            assertEquals("true", weight.getAttribute("aria-invalid"));
            String describedBy = weight.getAttribute("aria-describedby");
            assertFalse(driver.findElement(By.id(describedBy)).getText().isBlank(), "the error next to the field");
            assertEquals("heavy", weight.getAttribute("value"), "what was sent comes back");
            look(driver, "survey-" + label + "-error");

            weight.clear();
            weight.sendKeys("172");
            Forms.click(driver, By.cssSelector("#survey-form button[type=submit]"));
            await("back at the partner").atMost(Duration.ofSeconds(20)).until(() -> driver.getCurrentUrl().startsWith(returnUrl));
            URI landed = URI.create(driver.getCurrentUrl());
            assertTrue(landed.getQuery().matches("step=survey&responseId=[A-Za-z0-9_-]+"), landed.toString());
            String responseId = landed.getQuery().substring(landed.getQuery().indexOf("responseId=") + "responseId=".length());

            JsonNode completed = awaitEvent(receiver, "survey.completed", json -> responseId.equals(json.path("responseId").asText()));
            assertTrue(completed.path("qualified").asBoolean());
            if (returning) {
                assertEquals("refill", completed.path("mode").asText());
                assertEquals(memberId, completed.path("memberId").asText());
                return;
            }
            assertEquals("initial", completed.path("mode").asText());
            // The response id creates a request through the partner API.
            given().baseUri(platform.gateway().toString()).header("x-api-key", clinic.apiKey()).contentType(ContentType.JSON)
                    .body("""
                            {"v2SurveyResponseId": "%s", "items": [{"drugId": "%s", "dosage": "0.25 mg"}],
                             "member": {"firstName": "Lise", "lastName": "Meitner", "email": "survey.%s@example.com",
                                        "dateOfBirth": "1978-11-07", "state": "NY",
                                        "address": {"street1": "1 Atom Way", "city": "Albany", "state": "NY", "zipCode": "12207"}}}"""
                            .formatted(responseId, clinic.drugId(), UUID.randomUUID()))
                    .post("/v1/requests").then().statusCode(201);
        } finally {
            site.stop(0);
        }
    }

    @Test
    void aNewPatientCorrectsAnErrorAndLandsOnThePartnersReturnPageWithTheResponseId(RunningPlatform.Handle platform) throws Exception {
        this.platform = platform;
        hostedSurvey(browser, "new-patient");
    }

    @Test
    void aReturningMemberFillsTheSurveyTheirTokenOpens(RunningPlatform.Handle platform) throws Exception {
        this.platform = platform;
        hostedSurvey(browser, "returning-member", true);
    }

    @Test
    void theSameSurveyWithoutJavaScript(RunningPlatform.Handle platform) throws Exception {
        this.platform = platform;
        hostedSurvey(withoutScript, "new-patient-noscript");
    }

    @Test
    void anUnknownLinkAndAWrongKeyAreClearPages(RunningPlatform.Handle platform) throws Exception {
        this.platform = platform;
        WebDriver driver = browser.get(platform.gateway() + "/book/" + "x".repeat(32)).driver();
        assertFalse(driver.findElement(By.tagName("h1")).getText().isBlank());
        look(driver, "booking-unknown");
        browser.get(platform.gateway() + "/surveys/nothing-here?key=pk_" + "0".repeat(32));
        assertEquals("This survey link is not valid", driver.findElement(By.tagName("h1")).getText());
        look(driver, "survey-wrong-key");
        List<String> statuses = new ArrayList<>();
        statuses.add(given().baseUri(platform.gateway().toString()).get("/book/" + "x".repeat(32)).then().extract().statusCode() + "");
        statuses.add(given().baseUri(platform.gateway().toString()).get("/surveys/nothing-here?key=pk_" + "0".repeat(32)).then().extract()
                .statusCode() + "");
        assertEquals(List.of("404", "401"), statuses);
    }
}
