package com.telemed.bench.billing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.testkit.kafka.BillingEvents;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The benchmark's events: the mix its breakdown prints, and the billable members and approvals the summary check expects. */
class BillingDataTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void eventsAreTheBreakdownAndTheExpectedSummary() throws Exception {
        BillingData data = new BillingData("partner-under-test", 2_000, 200, Instant.parse("2026-11-25T12:00:00Z"));
        assertEquals(2_000 + 200 + 40, data.total());
        Map<String, Integer> types = new HashMap<>();
        Set<String> approvedMembers = new HashSet<>();
        Set<Instant> approvals = new HashSet<>();
        Set<String> underTest = new HashSet<>();
        Instant first = Instant.MAX;
        Instant last = Instant.MIN;
        for (int i = 0; i < data.total(); i++) {
            BillingEvents.Envelope envelope = data.event(i);
            JsonNode event = JSON.readTree(envelope.json());
            String type = event.path("type").asText();
            types.merge(envelope.topic() + " " + type, 1, Integer::sum);
            String member = event.path("subject").path("memberId").asText();
            if (type.endsWith("approved")) {
                assertEquals("partner-under-test", event.path("partnerId").asText());
                approvedMembers.add(member);
                Instant at = Instant.parse(event.path("occurredAt").asText());
                approvals.add(at);
                first = at.isBefore(first) ? at : first;
                last = at.isAfter(last) ? at : last;
            } else if (type.equals("member.created") && event.path("partnerId").asText().equals("partner-under-test")) {
                underTest.add(member);
                assertEquals(member, envelope.key());
            }
        }
        assertEquals(Map.of("member.events member.created", 2_000, "member.events member.status_changed", 40,
                "care.events item.approved", 180, "care.events request.approved", 20), types);
        assertEquals(data.billableIds(), approvedMembers);
        assertEquals(data.billableIds(), underTest);
        assertEquals(200, approvals.size(), "every approval at a millisecond of its own");
        assertEquals(data.firstApproval(), first);
        assertEquals(data.lastApproval(), last);
        assertTrue(data.approvedAt(0).isAfter(data.approvedAt(1)) || data.approvedAt(1).isAfter(data.approvedAt(2)),
                "approval order is not the members' order");
    }
}
