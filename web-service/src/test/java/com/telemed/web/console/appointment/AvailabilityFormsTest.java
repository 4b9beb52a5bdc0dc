package com.telemed.web.console.appointment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The weekly hours' form as the availability body, and the API's issues back by field. */
class AvailabilityFormsTest {

    static final ObjectMapper JSON = new ObjectMapper();

    static MultivaluedMap<String, String> form(String... pairs) {
        MultivaluedMap<String, String> form = new MultivaluedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            form.add(pairs[i], pairs[i + 1]);
        }
        return form;
    }

    static String text(String json) throws Exception {
        return JSON.readTree(json).toString();
    }

    @Test
    void daysWithATimeAreIntervalsAndTheSlotLengthANumberWhenItIsOne() throws Exception {
        AvailabilityForms.Put put = AvailabilityForms.body(form("csrf", "x", "timezone", " America/Chicago ", "start-2", " 08:00 ",
                "end-2", "12:30:00", "start-3", "", "end-3", "", "start-4", "12:00:30", "end-4", "", "end-6", "00:00",
                "slotMinutes", " 45 ", "prescriberId", "someone-else"));
        assertEquals(text("{\"timezone\":\"America/Chicago\",\"weekly\":[{\"weekday\":2,\"start\":\"08:00\",\"end\":\"12:30\"},"
                + "{\"weekday\":4,\"start\":\"12:00:30\",\"end\":\"\"},{\"weekday\":6,\"start\":\"\",\"end\":\"24:00\"}],"
                + "\"slotMinutes\":45}"), put.body().toString());
        assertEquals(List.of(2, 4, 6), put.weekdays());
        assertEquals(text("{\"weekly\":[],\"slotMinutes\":\"1e3\"}"), AvailabilityForms.body(form("slotMinutes", "1e3")).body().toString());
        assertEquals(text("{\"weekly\":[]}"), AvailabilityForms.body(form()).body().toString());
        assertEquals("00:00", AvailabilityForms.shownEnd("24:00"));
        assertEquals("17:00", AvailabilityForms.shownEnd("17:00"));
    }

    @Test
    void issuesGoToTheFieldsOfTheirWeekdayAndTheRestToTheForm() throws Exception {
        List<JsonNode> issues = List.of(
                JSON.readTree("{\"path\":[\"weekly\",1,\"end\"],\"message\":\"end must be after start\"}"),
                JSON.readTree("{\"path\":[\"weekly\",0],\"message\":\"Overlaps another interval on the same weekday\"}"),
                JSON.readTree("{\"path\":[\"weekly\",0,\"start\"],\"message\":\"Invalid time\"}"),
                JSON.readTree("{\"path\":[\"weekly\",5,\"start\"],\"message\":\"Out of the form\"}"),
                JSON.readTree("{\"path\":[\"weekly\"],\"message\":\"Array must contain at most 672 element(s)\"}"),
                JSON.readTree("{\"path\":[\"timezone\"],\"message\":\"Invalid timezone\"}"),
                JSON.readTree("{\"path\":[\"slotMinutes\"],\"message\":\"\"}"));
        assertEquals(Map.of("end-5", "end must be after start", "start-3", "Overlaps another interval on the same weekday",
                        "", "Out of the form", "timezone", "Invalid timezone", "slotMinutes", "Check this value"),
                AvailabilityForms.errors(issues, List.of(3, 5)));
    }
}
