package com.telemed.web.console.appointment;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.putRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.telemed.web.PageCalls.json;
import static com.telemed.web.console.ConsoleCalls.as;
import static com.telemed.web.console.ConsoleCalls.assertSeeOther;
import static com.telemed.web.console.ConsoleCalls.formAs;
import static com.telemed.web.console.ConsoleCalls.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import com.telemed.web.Neighbours;
import com.telemed.web.console.ConsoleCalls;
import com.telemed.web.console.ConsoleCalls.TestSession;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The prescriber's appointments and weekly hours (interfaces.md D2): the list in their zone and its
 * outcome forms, the hours' form with what is stored and the exact body it puts, the API's issues next
 * to their fields, and who may use them.
 */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class AppointmentPagesTest {

    static final String BOOKED = "3c1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e01";
    static final String CANCELLED = "3c1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e02";
    static final String HELD = "3c1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e03";
    static final String AVAILABILITY = "/ops/v1/prescribers/" + ConsoleCalls.PRESCRIBER_ID + "/availability";

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    /** An appointment as requests-service's list gives it. */
    static Map<String, Object> appointment(String id, String status, String start, String end, String patientName) {
        Map<String, Object> appointment = new LinkedHashMap<>();
        appointment.put("id", id);
        appointment.put("requestId", "0b1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e01");
        appointment.put("itemId", null);
        appointment.put("memberId", "1b1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e9f");
        appointment.put("prescriberId", ConsoleCalls.PRESCRIBER_ID);
        appointment.put("status", status);
        appointment.put("startTime", start);
        appointment.put("endTime", end);
        appointment.put("durationMinutes", 30);
        appointment.put("timezone", "Europe/London");
        appointment.put("cancelledBy", null);
        appointment.put("cancellationReason", null);
        appointment.put("createdAt", "2030-02-01T10:00:00.000Z");
        appointment.put("updatedAt", "2030-02-01T10:00:00.000Z");
        appointment.put("patientName", patientName);
        return appointment;
    }

    static void appointments(List<Map<String, Object>> appointments) {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/appointments")).willReturn(okJson(json(Map.of("appointments", appointments)))));
    }

    static void hours(String timezone, List<Map<String, Object>> weekly, int slotMinutes) {
        Map<String, Object> availability = new LinkedHashMap<>();
        availability.put("prescriberId", ConsoleCalls.PRESCRIBER_ID);
        availability.put("timezone", timezone);
        availability.put("weekly", weekly);
        availability.put("slotMinutes", slotMinutes);
        availability.put("updatedAt", "2030-02-01T10:00:00.000Z");
        Neighbours.gateway().stubFor(get(urlPathEqualTo(AVAILABILITY)).willReturn(okJson(json(Map.of("availability", availability)))));
    }

    static void noHours() {
        refused(get(urlPathEqualTo(AVAILABILITY)), 404, "{\"error\":\"Availability not set\"}");
    }

    static Map<String, Object> interval(int weekday, String start, String end) {
        return Map.of("weekday", weekday, "start", start, "end", end);
    }

    static void refused(MappingBuilder call, int status, String body) {
        Neighbours.gateway().stubFor(call.willReturn(aResponse().withStatus(status).withHeader("Content-Type", "application/json").withBody(body)));
    }

    static List<String> cells(Element row) {
        return row.select("td").stream().map(Element::text).toList();
    }

    @Test
    void aPrescriberSeesTheirAppointmentsInTheirZoneAndMarksTheBookedOnes() {
        hours("America/New_York", List.of(interval(1, "09:00", "17:00")), 30);
        appointments(List.of(
                appointment(BOOKED, "booked", "2030-03-01T15:00:00.000Z", "2030-03-01T15:30:00.000Z", "Jo <b>Bloggs</b>"),
                // Across New York's spring-forward night: 01:30 EST to 03:15 EDT.
                appointment(CANCELLED, "cancelled", "2030-03-10T06:30:00.000Z", "2030-03-10T07:15:00.000Z", "Sam Smith"),
                appointment(HELD, "held", "2030-03-11T14:00:00.000Z", "2030-03-11T14:20:00.000Z", null)));
        Document page = page(as(ConsoleCalls.prescriber()).get("/console/appointments"), 200);
        assertEquals("Appointments", page.selectFirst("h1").text());
        assertEquals("Your appointments of the next 31 days, in your time zone: America/New_York.", page.selectFirst("#zone").text());
        List<Element> rows = page.select("table#appointments tbody tr");
        assertEquals(List.of(BOOKED, CANCELLED, HELD), rows.stream().map(row -> row.attr("data-appointment-id")).toList());
        assertEquals(List.of("2030-03-01 10:00 to 10:30", "America/New_York", "Jo <b>Bloggs</b>", "Booked", "Mark held Mark no-show"),
                cells(rows.get(0)));
        assertEquals(List.of("2030-03-10 01:30 to 03:15", "America/New_York", "Sam Smith", "Cancelled", ""), cells(rows.get(1)));
        assertEquals(List.of("2030-03-11 10:00 to 10:20", "America/New_York", "-", "Held", ""), cells(rows.get(2)));
        List<Element> forms = rows.get(0).select("form");
        assertEquals(2, forms.size());
        for (Element form : forms) {
            assertEquals("post", form.attr("method"));
            assertEquals("/console/appointments/" + BOOKED + "/outcome", form.attr("action"));
        }
        assertEquals("held", forms.get(0).selectFirst("input[type=hidden][name=outcome]").val());
        assertEquals("Mark held", forms.get(0).selectFirst("button").text());
        assertEquals("no_show", forms.get(1).selectFirst("input[type=hidden][name=outcome]").val());
        assertEquals("Mark no-show", forms.get(1).selectFirst("button").text());
        assertNull(rows.get(1).selectFirst("form"));
        assertNull(page.selectFirst("#notice"));
        assertEquals(List.of("Queue", "Appointments", "Availability", "Conversations"), page.select("header nav a").stream().map(Element::text).toList());
        // The prescriber in person: no prescriberId, and the API's range (now, 31 days).
        Neighbours.gateway().verify(1, getRequestedFor(urlEqualTo("/ops/v1/appointments"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)));
        Neighbours.gateway().verify(1, getRequestedFor(urlEqualTo(AVAILABILITY))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)));
    }

    @Test
    void withoutWeeklyHoursTheTimesAreInUtcAndNothingUpcomingSaysSo() {
        noHours();
        appointments(List.of(appointment(BOOKED, "booked", "2030-03-01T23:45:00.000Z", "2030-03-02T00:15:00.000Z", "Jo Bloggs")));
        Document page = page(as(ConsoleCalls.prescriber()).get("/console/appointments"), 200);
        assertEquals(List.of("2030-03-01 23:45 to 00:15", "UTC", "Jo Bloggs", "Booked", "Mark held Mark no-show"),
                cells(page.selectFirst("table#appointments tbody tr")));
        appointments(List.of());
        Document empty = page(as(ConsoleCalls.prescriber()).get("/console/appointments"), 200);
        assertNull(empty.selectFirst("table#appointments"));
        assertEquals("No upcoming appointments.", empty.selectFirst("#appointments-empty").text());
    }

    @Test
    void anOutcomeIsPostedAsTheFormSaysAndComesBackWithItsNotice() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1/appointments/" + BOOKED + "/outcome"))
                .willReturn(okJson("{\"appointment\":{\"id\":\"" + BOOKED + "\",\"status\":\"held\"}}")));
        TestSession session = ConsoleCalls.prescriber();
        assertSeeOther(formAs(session).formParam("csrf", session.csrf()).formParam("outcome", "held")
                .post("/console/appointments/" + BOOKED + "/outcome"), "/console/appointments?done=held");
        assertSeeOther(formAs(session).formParam("csrf", session.csrf()).formParam("outcome", "no_show")
                .post("/console/appointments/" + BOOKED + "/outcome"), "/console/appointments?done=no-show");
        Neighbours.gateway().verify(1, postRequestedFor(urlEqualTo("/ops/v1/appointments/" + BOOKED + "/outcome"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)).withRequestBody(equalToJson("{\"outcome\":\"held\"}")));
        Neighbours.gateway().verify(1, postRequestedFor(urlEqualTo("/ops/v1/appointments/" + BOOKED + "/outcome"))
                .withRequestBody(equalToJson("{\"outcome\":\"no_show\"}")));

        noHours();
        appointments(List.of());
        assertEquals("Marked held", page(as(session).get("/console/appointments?done=held"), 200).selectFirst("p[role=status]#notice").text());
        assertEquals("Marked no-show", page(as(session).get("/console/appointments?done=no-show"), 200).selectFirst("#notice").text());
        assertNull(page(as(session).get("/console/appointments?done=other"), 200).selectFirst("#notice"));
    }

    @Test
    void theApisRefusalIsThePagesErrorAndAnUnknownAppointmentThe404Page() {
        noHours();
        appointments(List.of(appointment(CANCELLED, "cancelled", "2030-03-01T15:00:00.000Z", "2030-03-01T15:30:00.000Z", "Sam Smith")));
        String outcome = "/ops/v1/appointments/" + CANCELLED + "/outcome";
        refused(post(urlPathEqualTo(outcome)), 409, "{\"error\":\"Appointment is cancelled, not booked\"}");
        TestSession session = ConsoleCalls.prescriber();
        Document page = page(formAs(session).formParam("csrf", session.csrf()).formParam("outcome", "held")
                .post("/console/appointments/" + CANCELLED + "/outcome"), 409);
        assertEquals("Appointment is cancelled, not booked", page.selectFirst("p[role=alert]#form-error").text());
        assertEquals("Error: Appointments - Console", page.title());
        assertEquals(1, page.select("table#appointments tbody tr").size());

        refused(post(urlPathEqualTo(outcome)), 400, "{\"error\":[{\"code\":\"invalid_enum_value\",\"path\":[\"outcome\"],"
                + "\"message\":\"Invalid enum value. Expected 'held' | 'no_show', received 'maybe'\"}]}");
        assertEquals("Invalid enum value. Expected 'held' | 'no_show', received 'maybe'",
                page(formAs(session).formParam("csrf", session.csrf()).formParam("outcome", "maybe")
                        .post("/console/appointments/" + CANCELLED + "/outcome"), 400).selectFirst("#form-error").text());

        refused(post(urlPathEqualTo(outcome)), 404, "{\"error\":\"Appointment not found\"}");
        Document missing = page(formAs(session).formParam("csrf", session.csrf()).formParam("outcome", "held")
                .post("/console/appointments/" + CANCELLED + "/outcome"), 404);
        assertEquals("Appointment not found", missing.selectFirst("h1").text());

        refused(post(urlPathEqualTo(outcome)), 403, "{\"error\":\"Prescriber mismatch\"}");
        assertEquals("You do not have access to this page.", page(formAs(session).formParam("csrf", session.csrf())
                .formParam("outcome", "held").post("/console/appointments/" + CANCELLED + "/outcome"), 403).selectFirst("h1 + p").text());
    }

    @Test
    void onlyAPrescriberInPersonMayUseThePagesAndAFormNeedsItsToken() {
        TestSession support = ConsoleCalls.support();
        TestSession admin = ConsoleCalls.admin();
        TestSession withoutPrescriber = ConsoleCalls.session(List.of("prescriber"), null);
        for (TestSession session : List.of(support, admin, withoutPrescriber)) {
            for (String address : List.of("/console/appointments", "/console/availability")) {
                assertEquals("You do not have access to this page.", page(as(session).get(address), 403).selectFirst("h1 + p").text());
            }
            page(formAs(session).formParam("csrf", session.csrf()).formParam("outcome", "held")
                    .post("/console/appointments/" + BOOKED + "/outcome"), 403);
            page(formAs(session).formParam("csrf", session.csrf()).formParam("timezone", "UTC").post("/console/availability"), 403);
        }
        assertEquals(List.of("Queue", "Conversations", "Webhook deliveries", "Failed transmissions"), page(as(support).get("/console/appointments"), 403).select("header nav a").stream()
                .map(Element::text).toList());
        TestSession prescriber = ConsoleCalls.prescriber();
        for (String address : List.of("/console/appointments/" + BOOKED + "/outcome", "/console/availability")) {
            assertEquals("This form has expired. Reload the page and try again.",
                    page(formAs(prescriber).formParam("csrf", "nope").formParam("outcome", "held").post(address), 403).selectFirst("h1 + p").text());
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void theGatewayDownIsThe503Page() {
        noHours();
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/appointments")).willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        assertEquals("Sorry, the service is unavailable", page(as(ConsoleCalls.prescriber()).get("/console/appointments"), 503)
                .selectFirst("h1").text());
        Neighbours.gateway().stubFor(get(urlPathEqualTo(AVAILABILITY)).willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        page(as(ConsoleCalls.prescriber()).get("/console/availability"), 503);
    }

    @Test
    void theWeeklyHoursFormShowsWhatIsStored() {
        hours("Europe/Berlin", List.of(interval(1, "09:00", "12:00"), interval(1, "13:00", "17:00"), interval(3, "08:30", "16:00"), interval(6, "18:00", "24:00")), 30);
        Document page = page(as(ConsoleCalls.prescriber()).get("/console/availability"), 200);
        assertEquals("Availability", page.selectFirst("h1").text());
        Element form = page.selectFirst("form[method=post][action=/console/availability]");
        assertNotNull(form.selectFirst("input[type=hidden][name=csrf]"));
        assertEquals("Europe/Berlin", form.selectFirst("input#timezone[type=text][name=timezone]").val());
        assertEquals("Time zone", page.selectFirst("label[for=timezone]").text());
        List<String> names = List.of("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday");
        for (int day = 1; day <= 7; day++) {
            Element start = form.selectFirst("input#start-" + day + "[type=time][name=start-" + day + "]");
            Element end = form.selectFirst("input#end-" + day + "[type=time][name=end-" + day + "]");
            assertEquals(names.get(day - 1) + " starts", page.selectFirst("label[for=start-" + day + "]").text());
            assertEquals(names.get(day - 1) + " ends", page.selectFirst("label[for=end-" + day + "]").text());
            assertEquals(day == 1 ? "09:00" : day == 3 ? "08:30" : day == 6 ? "18:00" : "", start.val());
            // The end of the day (24:00) as a time input can hold it.
            assertEquals(day == 1 ? "12:00" : day == 3 ? "16:00" : day == 6 ? "00:00" : "", end.val());
        }
        assertEquals(List.of("15", "20", "30", "45", "60"), form.select("select#slotMinutes[name=slotMinutes] option").stream()
                .map(option -> option.attr("value")).toList());
        assertEquals("30", form.selectFirst("select#slotMinutes option[selected]").val());
        assertEquals("Slot length (minutes)", page.selectFirst("label[for=slotMinutes]").text());
        assertEquals("Some days have more than one interval: this form shows the first of each, and saving keeps only what it shows.",
                page.selectFirst("#note").text());
        assertNull(page.selectFirst("#unset"));
        assertEquals("Save", form.selectFirst("button[type=submit]").text());
    }

    @Test
    void withoutHoursTheFormIsEmpty() {
        noHours();
        Document page = page(as(ConsoleCalls.prescriber()).get("/console/availability?done=saved"), 200);
        assertEquals("Your weekly hours are not set yet: patients can book any time until they are.", page.selectFirst("#unset").text());
        assertEquals("", page.selectFirst("#timezone").val());
        assertEquals("", page.selectFirst("#start-1").val());
        assertEquals("", page.selectFirst("select#slotMinutes option[selected]").val());
        assertEquals("Saved", page.selectFirst("p[role=status]#notice").text());
    }

    @Test
    void savingPutsTheWeeklyHoursAsTypedAndComesBackSaved() {
        Neighbours.gateway().stubFor(put(urlPathEqualTo(AVAILABILITY)).willReturn(okJson("{\"availability\":{}}")));
        TestSession session = ConsoleCalls.prescriber();
        assertSeeOther(formAs(session).formParam("csrf", session.csrf()).formParam("timezone", " Europe/Berlin ")
                .formParam("start-1", "09:00").formParam("end-1", "17:00").formParam("start-2", "").formParam("end-2", "")
                .formParam("start-5", "10:00:00").formParam("end-5", "14:00").formParam("start-6", "20:00").formParam("end-6", "00:00")
                .formParam("start-7", "").formParam("end-7", "12:00")
                .formParam("slotMinutes", "30").post("/console/availability"), "/console/availability?done=saved");
        Neighbours.gateway().verify(1, putRequestedFor(urlEqualTo(AVAILABILITY))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN))
                .withRequestBody(equalToJson("""
                        {"timezone": "Europe/Berlin", "weekly": [{"weekday": 1, "start": "09:00", "end": "17:00"},
                         {"weekday": 5, "start": "10:00", "end": "14:00"}, {"weekday": 6, "start": "20:00", "end": "24:00"},
                         {"weekday": 7, "start": "", "end": "12:00"}],
                         "slotMinutes": 30}""")));
        // Nothing typed: no zone, no hours, no slot length (the API says what is missing).
        Neighbours.reset();
        Neighbours.gateway().stubFor(put(urlPathEqualTo(AVAILABILITY)).willReturn(okJson("{\"availability\":{}}")));
        assertSeeOther(formAs(session).formParam("csrf", session.csrf()).formParam("timezone", "").formParam("slotMinutes", "many")
                .post("/console/availability"), "/console/availability?done=saved");
        Neighbours.gateway().verify(1, putRequestedFor(urlEqualTo(AVAILABILITY))
                .withRequestBody(equalToJson("{\"weekly\": [], \"slotMinutes\": \"many\"}")));
    }

    @Test
    void theApisIssuesAreNextToTheirFieldsWithEveryValueKept() {
        refused(put(urlPathEqualTo(AVAILABILITY)), 400, json(Map.of("error", List.of(
                Map.of("code", "custom", "path", List.of("timezone"), "message", "Invalid timezone"),
                Map.of("code", "custom", "path", List.of("weekly", 1, "end"), "message", "end must be after start"),
                Map.of("code", "invalid_string", "path", List.of("weekly", 0, "start"), "message", "Invalid time"),
                Map.of("code", "custom", "path", List.of("slotMinutes"), "message", "slotMinutes must be 15, 20, 30, 45 or 60")))));
        TestSession session = ConsoleCalls.prescriber();
        Document page = page(formAs(session).formParam("csrf", session.csrf()).formParam("timezone", "Mars/Olympus")
                .formParam("start-2", "9").formParam("end-2", "17:00").formParam("start-4", "18:00").formParam("end-4", "09:00")
                .formParam("slotMinutes", "25").post("/console/availability"), 400);
        assertEquals("Error: Availability - Console", page.title());
        assertEquals(Map.of("error-timezone", "Invalid timezone", "error-end-4", "end must be after start", "error-start-2", "Invalid time",
                        "error-slotMinutes", "slotMinutes must be 15, 20, 30, 45 or 60"),
                page.select("p.field-error").stream().collect(java.util.stream.Collectors.toMap(Element::id, Element::text)));
        for (String field : List.of("timezone", "end-4", "start-2", "slotMinutes")) {
            Element input = page.getElementById(field);
            assertEquals("true", input.attr("aria-invalid"), field);
            assertEquals("error-" + field, input.attr("aria-describedby"), field);
        }
        assertEquals("", page.getElementById("end-2").attr("aria-invalid"));
        assertEquals("Mars/Olympus", page.getElementById("timezone").val());
        assertEquals("9", page.getElementById("start-2").val());
        assertEquals("17:00", page.getElementById("end-2").val());
        assertEquals("18:00", page.getElementById("start-4").val());
        assertEquals("09:00", page.getElementById("end-4").val());
        assertNull(page.selectFirst("#notice"));
        Neighbours.gateway().verify(1, putRequestedFor(urlEqualTo(AVAILABILITY)).withRequestBody(equalToJson("""
                {"timezone": "Mars/Olympus", "weekly": [{"weekday": 2, "start": "9", "end": "17:00"},
                 {"weekday": 4, "start": "18:00", "end": "09:00"}], "slotMinutes": 25}""")));

        // A refusal about no field: the form's own message.
        refused(put(urlPathEqualTo(AVAILABILITY)), 400, "{\"error\":[{\"code\":\"too_big\",\"path\":[\"weekly\"],\"message\":\"Array must contain at most 672 element(s)\"}]}");
        assertEquals("Array must contain at most 672 element(s)", page(formAs(session).formParam("csrf", session.csrf())
                .formParam("timezone", "UTC").post("/console/availability"), 400).selectFirst("p[role=alert]#form-error").text());
    }
}
