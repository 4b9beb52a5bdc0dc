package com.telemed.web.booking;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.telemed.web.PageCalls.browser;
import static com.telemed.web.PageCalls.form;
import static com.telemed.web.PageCalls.json;
import static com.telemed.web.PageCalls.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.telemed.testkit.trust.SignedQuarkusTests;
import com.telemed.testkit.trust.TestServiceProofs;
import com.telemed.web.Neighbours;
import com.telemed.web.PageCalls;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The booking page in every state of its link, its three forms and their answers, against a stand-in requests-service. */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class BookingPageTest {

    static final String TOKEN = "tok-Abc_123";
    static final String BOOKING = "/ops/v1/bookings/" + TOKEN;
    static final String PAGE = "/book/" + TOKEN;
    static final String PRESCRIBER = "Dr Ada Okafor";

    /** Both sides of Europe/Berlin's change to summer time (2030-03-31 01:00 UTC), one of them after local midnight. */
    static final List<Map<String, String>> SLOTS = List.of(
            slot("2030-03-30T14:00:00Z", "2030-03-30T14:30:00Z"),
            slot("2030-03-30T23:30:00Z", "2030-03-31T00:00:00Z"),
            slot("2030-03-31T00:30:00Z", "2030-03-31T01:30:00Z"),
            slot("2030-03-31T14:00:00Z", "2030-03-31T14:30:00Z"));

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    static Map<String, String> slot(String start, String end) {
        return Map.of("startTime", start, "endTime", end);
    }

    static Map<String, Object> appointment(String status, String start, String end) {
        Map<String, Object> appointment = new LinkedHashMap<>();
        appointment.put("id", "6f1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e9f");
        appointment.put("requestId", "0b1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e9f");
        appointment.put("itemId", null);
        appointment.put("memberId", "1b1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e9f");
        appointment.put("prescriberId", "2b1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e9f");
        appointment.put("status", status);
        appointment.put("startTime", start);
        appointment.put("endTime", end);
        appointment.put("durationMinutes", 30);
        appointment.put("timezone", "Europe/Berlin");
        appointment.put("cancelledBy", status.equals("cancelled") ? "patient" : null);
        appointment.put("cancellationReason", null);
        appointment.put("createdAt", "2030-03-01T10:00:00.000Z");
        appointment.put("updatedAt", "2030-03-01T10:00:00.000Z");
        return appointment;
    }

    static void booking(String status, String prescriberName, Map<String, Object> appointment) {
        Map<String, Object> booking = new HashMap<>();
        booking.put("status", status);
        booking.put("expiresAt", "2030-03-08T10:00:00.000Z");
        booking.put("prescriberName", prescriberName);
        booking.put("slotMinutes", 30);
        booking.put("appointment", appointment);
        // Whatever else requests-service might add, the page shows only the name.
        booking.put("prescriberEmail", "ada.okafor@clinic.example");
        Neighbours.requests().stubFor(get(urlPathEqualTo(BOOKING)).willReturn(okJson(json(Map.of("booking", booking)))));
    }

    static void slots(List<Map<String, String>> slots) {
        Neighbours.requests().stubFor(get(urlPathEqualTo(BOOKING + "/slots")).willReturn(okJson(json(Map.of("slots", slots)))));
    }

    static void refused(com.github.tomakehurst.wiremock.client.MappingBuilder call, int status, String error) {
        Neighbours.requests().stubFor(call.willReturn(aResponse().withStatus(status).withHeader("Content-Type", "application/json")
                .withBody(json(Map.of("error", error)))));
    }

    /** Each local day's heading and its slots' labels, in page order. */
    static Map<String, List<String>> days(Document page) {
        Map<String, List<String>> days = new LinkedHashMap<>();
        for (Element day : page.select("fieldset.day")) {
            days.put(day.selectFirst("legend").text(), day.select("input[type=radio]").stream()
                    .map(radio -> page.selectFirst("label[for=" + radio.id() + "]").text()).toList());
        }
        return days;
    }

    @Test
    void anOpenLinkShowsTheSlotsOfTheNext14DaysByLocalDayInTheChosenZone() {
        booking("open", PRESCRIBER, null);
        slots(SLOTS);
        Document page = page(browser().get(PAGE + "?tz=Europe/Berlin"), 200);

        assertEquals("Book your appointment", page.selectFirst("h1").text());
        assertEquals("Book your appointment", page.title());
        assertEquals("With " + PRESCRIBER, page.selectFirst("p.lead").text());
        assertFalse(page.html().contains("ada.okafor@clinic.example"), "never the prescriber's email");
        // Berlin: CET (+1) on Saturday, CEST (+2) from Sunday 01:00 UTC; the 60-minute slot crosses the change.
        assertEquals(Map.of(
                "Saturday 30 March 2030", List.of("15:00 to 15:30"),
                "Sunday 31 March 2030", List.of("00:30 to 01:00", "01:30 (UTC+01:00) to 03:30 (UTC+02:00)", "16:00 to 16:30")), days(page));
        assertEquals(List.of("Saturday 30 March 2030", "Sunday 31 March 2030"), List.copyOf(days(page).keySet()));

        Element form = page.selectFirst("form.slot-form");
        assertEquals("post", form.attr("method"));
        assertEquals(PAGE, form.attr("action"));
        assertEquals("Europe/Berlin", form.selectFirst("input[type=hidden][name=tz]").val());
        assertEquals(List.of("2030-03-30T14:00:00Z", "2030-03-30T23:30:00Z", "2030-03-31T00:30:00Z", "2030-03-31T14:00:00Z"),
                form.select("input[type=radio][name=startTime]").eachAttr("value"));
        assertEquals("Choose a time", form.selectFirst("fieldset#slots > legend").text());
        assertEquals("Book this time", form.selectFirst("button[type=submit]").text());
        assertTrue(page.select("form[action=" + PAGE + "/cancel]").isEmpty());

        // The zone select: the common zones and the one in use, selected; a plain GET form carrying only tz.
        Element zones = page.selectFirst("form.zone-form");
        assertEquals("get", zones.attr("method"));
        assertEquals(PAGE, zones.attr("action"));
        assertEquals("tz", page.selectFirst("label[for=tz]").nextElementSibling().attr("name"));
        assertEquals("Europe/Berlin", zones.selectFirst("option[selected]").val());
        assertTrue(zones.select("option").eachAttr("value").containsAll(List.of("UTC", "America/New_York", "Asia/Kolkata")));
        assertEquals("UTC", zones.selectFirst("option").val());

        // The window asked for: from now, 14 days.
        LoggedRequest asked = Neighbours.requests().findAll(getRequestedFor(urlPathEqualTo(BOOKING + "/slots"))).get(0);
        Instant from = Instant.parse(asked.queryParameter("from").firstValue());
        Instant to = Instant.parse(asked.queryParameter("to").firstValue());
        assertEquals(Duration.ofDays(14), Duration.between(from, to));
        assertTrue(Duration.between(from, Instant.now()).abs().toSeconds() < 60);
    }

    @Test
    void theSameSlotsInAnotherZoneAndAcrossNewYorksChange() {
        booking("open", PRESCRIBER, null);
        slots(SLOTS);
        assertEquals(Map.of(
                "Saturday 30 March 2030", List.of("14:00 to 14:30", "23:30 to 00:00"),
                "Sunday 31 March 2030", List.of("00:30 to 01:30", "14:00 to 14:30")), days(page(browser().get(PAGE + "?tz=UTC"), 200)));
        assertEquals(Map.of(
                "Saturday 30 March 2030", List.of("10:00 to 10:30", "19:30 to 20:00", "20:30 to 21:30"),
                "Sunday 31 March 2030", List.of("10:00 to 10:30")), days(page(browser().get(PAGE + "?tz=America/New_York"), 200)));

        // New York leaves EST (-5) for EDT (-4) on 2030-03-10: the same UTC hour is 10:00 on both sides.
        slots(List.of(slot("2030-03-09T15:00:00Z", "2030-03-09T15:30:00Z"), slot("2030-03-11T14:00:00Z", "2030-03-11T14:30:00Z")));
        assertEquals(Map.of(
                "Saturday 9 March 2030", List.of("10:00 to 10:30"),
                "Monday 11 March 2030", List.of("10:00 to 10:30")), days(page(browser().get(PAGE + "?tz=America/New_York"), 200)));
        // And in Berlin (no change then): 16:00 and 15:00.
        assertEquals(Map.of(
                "Saturday 9 March 2030", List.of("16:00 to 16:30"),
                "Monday 11 March 2030", List.of("15:00 to 15:30")), days(page(browser().get(PAGE + "?tz=Europe/Berlin"), 200)));
    }

    @Test
    void withoutAZoneOrWithOneThatIsNoIanaZoneTheTimesAreInUtc() {
        booking("open", PRESCRIBER, null);
        slots(SLOTS.subList(0, 1));
        for (String address : List.of(PAGE, PAGE + "?tz=%2B02:00", PAGE + "?tz=Mars/Olympus_Mons", PAGE + "?tz=")) {
            Document page = page(browser().get(address), 200);
            assertEquals(Map.of("Saturday 30 March 2030", List.of("14:00 to 14:30")), days(page), address);
            assertEquals("UTC", page.selectFirst("option[selected]").val());
            assertEquals("UTC", page.selectFirst("input[type=hidden][name=tz]").val());
            // Only a first visit, without tz (or an empty one), lets the script show the page again in the browser's zone.
            assertEquals(address.equals(PAGE) || address.endsWith("?tz="), page.selectFirst("form.zone-form").hasAttr("data-detect-zone"),
                    address);
        }
        // A zone outside the common list is listed too, and selected.
        Document page = page(browser().get(PAGE + "?tz=Asia/Kathmandu"), 200);
        assertEquals("Asia/Kathmandu", page.selectFirst("option[selected]").val());
        assertEquals("Asia/Kathmandu", page.selectFirst("option[selected]").text().replace(' ', '_'));
    }

    @Test
    void noFreeTimeSaysSoWithoutAForm() {
        booking("open", PRESCRIBER, null);
        slots(List.of());
        Document page = page(browser().get(PAGE + "?tz=UTC"), 200);
        assertTrue(page.select("form.slot-form").isEmpty());
        assertEquals("No times are free in the next 14 days. Come back to this page later, or contact the service that sent you this link.",
                page.selectFirst("h2#slots + p").text());
    }

    @Test
    void bookingPostsTheSlotAndTheZoneThenShowsTheLinkAgain() {
        booking("open", PRESCRIBER, null);
        Neighbours.requests().stubFor(post(urlPathEqualTo(BOOKING + "/appointment")).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json")
                .withBody(json(Map.of("appointment", appointment("booked", "2030-03-31T14:00:00.000Z", "2030-03-31T14:30:00.000Z"))))));
        Response answer = form().formParam("startTime", "2030-03-31T14:00:00Z").formParam("tz", "Europe/Berlin").post(PAGE);

        assertEquals(303, answer.statusCode());
        assertEquals(PAGE + "?tz=Europe%2FBerlin", answer.header("Location"));
        PageCalls.assertHeaders(answer, PageCalls.CSP);
        Neighbours.requests().verify(1, postRequestedFor(urlPathEqualTo(BOOKING + "/appointment")).withRequestBody(equalToJson(
                "{\"startTime\":\"2030-03-31T14:00:00Z\",\"durationMinutes\":30,\"timezone\":\"Europe/Berlin\"}")));
        // As the gateway's and every service's calls are: proven, for exactly that call.
        LoggedRequest call = Neighbours.requests().findAll(postRequestedFor(urlPathEqualTo(BOOKING + "/appointment"))).get(0);
        // It acts as web-service (issue #40: the one service the booking link's /ops operations admit).
        assertEquals("service:web-service", call.getHeader("X-Principal"));
        assertEquals(TestServiceProofs.proof(SignedQuarkusTests.applicationKey(), "POST", BOOKING + "/appointment", null,
                "service:web-service", call.getHeader("X-Service-Timestamp")), call.getHeader("X-Service-Proof"));
    }

    @Test
    void aSlotTakenMeanwhileSaysSoAndShowsTheSlotsLeftWith409() {
        booking("open", PRESCRIBER, null);
        slots(SLOTS.subList(1, 3));
        refused(post(urlPathEqualTo(BOOKING + "/appointment")), 409, "Slot no longer available");
        Document page = page(form().formParam("startTime", "2030-03-30T14:00:00Z").formParam("tz", "Europe/Berlin").post(PAGE), 409);

        assertEquals("Error: Book your appointment", page.title());
        Element summary = page.selectFirst("div.error-summary[role=alert]");
        assertEquals("There is a problem", summary.selectFirst("h2").text());
        assertEquals("Sorry, that time has just been taken. Choose another time.", summary.selectFirst("a").text());
        assertEquals("#slot-0", summary.selectFirst("a").attr("href"));
        assertEquals("slot-error", page.selectFirst("fieldset#slots").attr("aria-describedby"));
        assertEquals("Error: Sorry, that time has just been taken. Choose another time.", page.selectFirst("#slot-error").text());
        assertEquals(Map.of("Sunday 31 March 2030", List.of("00:30 to 01:00", "01:30 (UTC+01:00) to 03:30 (UTC+02:00)")), days(page));
        assertTrue(page.select("input[type=radio][checked]").isEmpty());
        assertTrue(page.select("[data-detect-zone]").isEmpty(), "a page answering a form is never reloaded by the script");
    }

    @Test
    void noTimeChosenOrATimeThatIsNoSlotIsShownOnThePage() {
        booking("open", PRESCRIBER, null);
        slots(SLOTS.subList(0, 1));
        Document none = page(form().formParam("tz", "UTC").post(PAGE), 400);
        assertEquals("Choose a time", none.selectFirst("div.error-summary a").text());
        Neighbours.requests().verify(0, postRequestedFor(urlPathEqualTo(BOOKING + "/appointment")));

        refused(post(urlPathEqualTo(BOOKING + "/appointment")), 400, "Not an open slot");
        Document notOpen = page(form().formParam("startTime", "2030-03-30T14:00:00Z").formParam("tz", "UTC").post(PAGE), 400);
        assertEquals("That time cannot be booked. Choose one of the times shown.", notOpen.selectFirst("div.error-summary a").text());
        assertEquals("2030-03-30T14:00:00Z", notOpen.selectFirst("input[type=radio][checked]").val());
    }

    @Test
    void aBookedLinkShowsTheAppointmentWithRescheduleAndCancel() {
        booking("booked", PRESCRIBER, appointment("booked", "2030-04-02T08:00:00.000Z", "2030-04-02T08:30:00.000Z"));
        slots(SLOTS.subList(3, 4));
        Document page = page(browser().get(PAGE + "?tz=Europe/Berlin"), 200);

        assertEquals("Your appointment is booked", page.selectFirst("h1").text());
        Element panel = page.selectFirst("section.panel");
        assertEquals("Your appointment", panel.selectFirst("h2").text());
        assertEquals("Tuesday 2 April 2030 10:00 to 10:30", panel.selectFirst("p.when").text());
        assertEquals("Times in Europe/Berlin", panel.selectFirst("p.zone-note").text());
        Element reschedule = page.selectFirst("form.slot-form");
        assertEquals(PAGE + "/reschedule", reschedule.attr("action"));
        assertEquals("post", reschedule.attr("method"));
        assertEquals("Choose a new time", reschedule.selectFirst("legend").text());
        assertEquals("Move my appointment to this time", reschedule.selectFirst("button").text());
        assertEquals(Map.of("Sunday 31 March 2030", List.of("16:00 to 16:30")), days(page));
        Element cancel = page.selectFirst("form[action=" + PAGE + "/cancel]");
        assertEquals("post", cancel.attr("method"));
        assertEquals("Europe/Berlin", cancel.selectFirst("input[name=tz]").val());
        assertEquals("Cancel this appointment", cancel.selectFirst("button").text());
        // Headings in order: h1, then h2s.
        assertEquals(List.of("h1", "h2", "h2", "h2"), page.select("h1, h2, h3, h4").stream().map(Element::tagName).toList());
    }

    @Test
    void rescheduleAndCancelPostToTheLinkAndComeBackToThePage() {
        Neighbours.requests().stubFor(post(urlPathEqualTo(BOOKING + "/appointment/reschedule")).willReturn(okJson(json(Map.of(
                "appointment", appointment("booked", "2030-03-31T14:00:00.000Z", "2030-03-31T14:30:00.000Z"))))));
        Response moved = form().formParam("startTime", "2030-03-31T14:00:00Z").formParam("tz", "America/New_York")
                .post(PAGE + "/reschedule");
        assertEquals(303, moved.statusCode());
        assertEquals(PAGE + "?tz=America%2FNew_York", moved.header("Location"));
        Neighbours.requests().verify(postRequestedFor(urlPathEqualTo(BOOKING + "/appointment/reschedule"))
                .withRequestBody(equalToJson("{\"startTime\":\"2030-03-31T14:00:00Z\",\"timezone\":\"America/New_York\"}")));

        Neighbours.requests().stubFor(post(urlPathEqualTo(BOOKING + "/appointment/cancel")).willReturn(okJson(json(Map.of(
                "appointment", appointment("cancelled", "2030-03-31T14:00:00.000Z", "2030-03-31T14:30:00.000Z"))))));
        Response cancelled = form().formParam("tz", "Europe/Berlin").post(PAGE + "/cancel");
        assertEquals(303, cancelled.statusCode());
        assertEquals(PAGE + "?tz=Europe%2FBerlin", cancelled.header("Location"));
        Neighbours.requests().verify(postRequestedFor(urlPathEqualTo(BOOKING + "/appointment/cancel")).withRequestBody(equalToJson("{}")));
    }

    @Test
    void reschedulingIntoATakenSlotShowsTheAppointmentAndTheSlotsLeftWith409() {
        booking("booked", PRESCRIBER, appointment("booked", "2030-04-02T08:00:00.000Z", "2030-04-02T08:30:00.000Z"));
        slots(SLOTS.subList(0, 1));
        refused(post(urlPathEqualTo(BOOKING + "/appointment/reschedule")), 409, "Slot no longer available");
        Document page = page(form().formParam("startTime", "2030-03-31T14:00:00Z").formParam("tz", "UTC").post(PAGE + "/reschedule"), 409);
        assertEquals("Your appointment is booked", page.selectFirst("h1").text());
        assertEquals("Sorry, that time has just been taken. Choose another time.", page.selectFirst("div.error-summary a").text());
        assertEquals("Tuesday 2 April 2030 08:00 to 08:30", page.selectFirst("p.when").text());
        assertEquals(Map.of("Saturday 30 March 2030", List.of("14:00 to 14:30")), days(page));
    }

    @Test
    void aChangeRefusedForAnotherReasonIsA409PageLeadingBackToTheBooking() {
        refused(post(urlPathEqualTo(BOOKING + "/appointment/cancel")), 409, "Appointment has already started");
        Document started = page(form().formParam("tz", "Europe/Berlin").post(PAGE + "/cancel"), 409);
        assertEquals("This could not be done", started.selectFirst("h1").text());
        assertEquals("Your appointment has already started, so it can no longer be changed.", started.selectFirst("h1 + p").text());
        assertEquals(PAGE + "?tz=Europe%2FBerlin", started.selectFirst("main a[href^=/book/]").attr("href"));
        assertEquals("See your booking", started.selectFirst("main a[href^=/book/]").text());

        refused(post(urlPathEqualTo(BOOKING + "/appointment/reschedule")), 409, "Appointment is cancelled, not booked");
        Document cancelled = page(form().formParam("startTime", "2030-03-31T14:00:00Z").formParam("tz", "UTC").post(PAGE + "/reschedule"), 409);
        assertEquals("This appointment is no longer booked, so it cannot be changed.", cancelled.selectFirst("h1 + p").text());

        booking("open", PRESCRIBER, null);
        refused(post(urlPathEqualTo(BOOKING + "/appointment")), 409, "Booking link has already been used");
        Document used = page(form().formParam("startTime", "2030-03-31T14:00:00Z").formParam("tz", "UTC").post(PAGE), 409);
        assertEquals("This booking link has already been used to book an appointment.", used.selectFirst("h1 + p").text());
    }

    @Test
    void theOtherStatesOfALink() {
        booking("booked", PRESCRIBER, appointment("booked", "2020-04-02T08:00:00.000Z", "2020-04-02T08:30:00.000Z"));
        Document started = page(browser().get(PAGE + "?tz=UTC"), 200);
        assertEquals("Your appointment has started", started.selectFirst("h1").text());
        assertEquals("Thursday 2 April 2020 08:00 to 08:30", started.selectFirst("p.when").text());
        assertTrue(started.select("form").isEmpty(), "nothing to change once it started");

        booking("booked", PRESCRIBER, appointment("held", "2020-04-02T08:00:00.000Z", "2020-04-02T08:30:00.000Z"));
        Document over = page(browser().get(PAGE + "?tz=UTC"), 200);
        assertEquals("This appointment is over", over.selectFirst("h1").text());
        assertTrue(over.select("form").isEmpty());

        booking("cancelled", PRESCRIBER, appointment("cancelled", "2030-04-02T08:00:00.000Z", "2030-04-02T08:30:00.000Z"));
        Document cancelled = page(browser().get(PAGE + "?tz=Europe/Berlin"), 200);
        assertEquals("Your appointment is cancelled", cancelled.selectFirst("h1").text());
        assertEquals("The cancelled appointment", cancelled.selectFirst("section.panel h2").text());
        assertEquals("Tuesday 2 April 2030 10:00 to 10:30", cancelled.selectFirst("p.when").text());
        assertTrue(cancelled.select("form").isEmpty());

        booking("closed", PRESCRIBER, null);
        Document closed = page(browser().get(PAGE), 200);
        assertEquals("This booking link can no longer be used", closed.selectFirst("h1").text());
        assertTrue(closed.select("form").isEmpty());
        Neighbours.requests().verify(0, getRequestedFor(urlPathEqualTo(BOOKING + "/slots")));
    }

    @Test
    void anUnknownLinkIs404AndAnExpiredOne410() {
        refused(get(urlPathEqualTo(BOOKING)), 404, "Booking link not found");
        Document unknown = page(browser().get(PAGE + "?tz=UTC"), 404);
        assertEquals("This booking link is not valid", unknown.selectFirst("h1").text());
        assertEquals("This booking link is not valid", unknown.title());
        assertEquals("Check that you copied the whole link from the message you received. If it still does not work, ask the service"
                + " that sent it for a new one.", unknown.selectFirst("h1 + p").text());
        page(form().formParam("startTime", "2030-03-31T14:00:00Z").formParam("tz", "UTC").post(PAGE), 404);

        refused(get(urlPathEqualTo(BOOKING)), 410, "Booking link has expired");
        Document expired = page(browser().get(PAGE + "?tz=UTC"), 410);
        assertEquals("This booking link has expired", expired.selectFirst("h1").text());
        assertEquals("Booking links last a few days. Ask the service that sent you this link for a new one.",
                expired.selectFirst("h1 + p").text());
        page(form().formParam("startTime", "2030-03-31T14:00:00Z").formParam("tz", "UTC").post(PAGE), 410);

        refused(post(urlPathEqualTo(BOOKING + "/appointment/reschedule")), 410, "Booking link has expired");
        page(form().formParam("startTime", "2030-03-31T14:00:00Z").formParam("tz", "UTC").post(PAGE + "/reschedule"), 410);
    }

    @Test
    void requestsServiceDownIsThe503Page() {
        Neighbours.requests().stubFor(get(urlPathEqualTo(BOOKING)).willReturn(aResponse().withStatus(503)));
        Document down = page(browser().get(PAGE + "?tz=UTC"), 503);
        assertEquals("Sorry, the service is unavailable", down.selectFirst("h1").text());
        assertEquals("Try again in a few minutes.", down.selectFirst("h1 + p").text());
        // Tried twice (the platform's policy: one retry after a 503).
        Neighbours.requests().verify(2, getRequestedFor(urlPathEqualTo(BOOKING)));

        Neighbours.requests().stubFor(get(urlPathEqualTo(BOOKING)).willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        page(browser().get(PAGE + "?tz=UTC"), 503);
        // An answer that is none of the operation's (a broken contract) is a 503 too, never a 500.
        refused(get(urlPathEqualTo(BOOKING)), 403, "Forbidden");
        page(browser().get(PAGE + "?tz=UTC"), 503);
    }

    @Test
    void everyValueIsEscaped() {
        String name = "<script>alert('x')</script> & \"Dr\" <b>Bold</b>";
        booking("open", name, null);
        slots(SLOTS.subList(0, 1));
        Response answer = browser().get(PAGE + "?tz=UTC");
        Document page = page(answer, 200);
        assertEquals("With " + name, page.selectFirst("p.lead").text());
        assertTrue(page.select("p.lead script, p.lead b").isEmpty());
        assertTrue(answer.asString().contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;Dr&quot; &lt;b&gt;Bold&lt;/b&gt;"));
        assertNull(page.selectFirst("script:not([src])"));
    }

    @Test
    void theTokenIsTheOnlyThingOfThePatientInAnAddress() {
        booking("booked", PRESCRIBER, appointment("booked", "2030-04-02T08:00:00.000Z", "2030-04-02T08:30:00.000Z"));
        slots(SLOTS);
        Document page = page(browser().get(PAGE + "?tz=Europe/Berlin"), 200);
        for (Element form : page.select("form")) {
            URI action = URI.create(form.attr("action"));
            assertTrue(action.getPath().equals(PAGE) || action.getPath().startsWith(PAGE + "/"), action.toString());
            assertNull(action.getQuery(), "actions carry no query: " + action);
        }
    }
}
