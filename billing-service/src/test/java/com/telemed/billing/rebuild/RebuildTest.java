package com.telemed.billing.rebuild;

import static com.telemed.testkit.kafka.BillingEvents.approved;
import static com.telemed.testkit.kafka.BillingEvents.created;
import static com.telemed.testkit.kafka.BillingEvents.statusChanged;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.billing.LedgerFixture;
import com.telemed.billing.ledger.Ledger;
import com.telemed.testkit.http.FakeNeighbour;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /ops/v1/partners/:id/billing/rebuild}: a partner's ledger rebuilt from scratch out of
 * the owners' data (here a fake members-service and requests-service answering as those do, in
 * pages) gives the summaries the events gave; it mends what events never brought; it leaves every
 * other partner's ledger alone; and an owner that cannot answer leaves the ledger as it was.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(OwnersNeighbourResource.class)
class RebuildTest {

    @Inject
    Ledger ledger;

    @Inject
    ObjectMapper json;

    @Inject
    OwnersNeighbour owners;

    String partner;

    @BeforeEach
    void partnerWithMonthlyBilling() {
        owners.reset();
        partner = "partner-" + UUID.randomUUID();
        given().contentType("application/json").body("{\"enabled\": true, \"cycle\": \"monthly\", \"ratePerMember\": 20}")
                .put("/ops/v1/partners/" + partner + "/billing").then().statusCode(200);
    }

    private static Instant at(String instant) {
        return Instant.parse(instant);
    }

    private static JsonObject change(String id, String status, String at) {
        return new JsonObject().put("id", id).put("status", status).put("at", at);
    }

    private String summary(String partnerId, String period) {
        return given().header("X-Partner-Id", partnerId).queryParam("period", period).get("/v1/billing")
                .then().statusCode(200).extract().asString();
    }

    private Map<String, String> summaries(String partnerId) {
        return Map.of("2026-09", summary(partnerId, "2026-09"), "2026-10", summary(partnerId, "2026-10"),
                "2026-11", summary(partnerId, "2026-11"), "2026-12", summary(partnerId, "2026-12"));
    }

    @Test
    void aRebuildFromTheOwnersGivesTheSameSummariesAsTheEvents() {
        String ada = UUID.randomUUID().toString();
        String paul = UUID.randomUUID().toString();
        String rita = UUID.randomUUID().toString();
        String nora = UUID.randomUUID().toString();
        String pause = UUID.randomUUID().toString();
        String ritaPause = UUID.randomUUID().toString();
        String ritaBack = UUID.randomUUID().toString();
        LedgerFixture.apply(ledger, json,
                created(partner, ada, "Ada", "Lovelace", "ada@example.com", at("2026-10-01T08:00:00Z")),
                approved(partner, ada, at("2026-10-05T10:00:00.250Z")),
                created(partner, paul, "Paul", "Paused", "paul@example.com", at("2026-09-01T00:00:00Z")),
                approved(partner, paul, at("2026-09-10T00:00:00Z")),
                statusChanged(partner, paul, pause, "active", "paused", at("2026-10-03T00:00:00Z")),
                created(partner, rita, "Rita", "Return", "rita@example.com", at("2026-08-01T00:00:00Z")),
                approved(partner, rita, at("2026-08-01T12:00:00Z")),
                statusChanged(partner, rita, ritaPause, "active", "paused", at("2026-08-15T00:00:00Z")),
                statusChanged(partner, rita, ritaBack, "paused", "active", at("2026-11-25T00:00:00Z")),
                created(partner, nora, "Nora", "None", "nora@example.com", at("2026-11-01T00:00:00Z")));
        Map<String, String> fromEvents = summaries(partner);

        // What the owners hold: the same members, status audits and first approvals.
        owners.member(partner, ada, "Ada", "Lovelace", "ada@example.com", "2026-10-01T08:00:00.000Z", "2026-10-01T08:00:00.000Z",
                List.of(change(ada, "active", "2026-10-01T08:00:00.000Z")));
        owners.member(partner, paul, "Paul", "Paused", "paul@example.com", "2026-09-01T00:00:00.000Z", "2026-10-03T00:00:00.000Z",
                List.of(change(paul, "active", "2026-09-01T00:00:00.000Z"), change(pause, "paused", "2026-10-03T00:00:00.000Z")));
        owners.member(partner, rita, "Rita", "Return", "rita@example.com", "2026-08-01T00:00:00.000Z", "2026-11-25T00:00:00.000Z",
                List.of(change(rita, "active", "2026-08-01T00:00:00.000Z"), change(ritaPause, "paused", "2026-08-15T00:00:00.000Z"),
                        change(ritaBack, "active", "2026-11-25T00:00:00.000Z")));
        owners.member(partner, nora, "Nora", "None", "nora@example.com", "2026-11-01T00:00:00.000Z", "2026-11-01T00:00:00.000Z",
                List.of(change(nora, "active", "2026-11-01T00:00:00.000Z")));
        owners.firstApproval(partner, ada, "2026-10-05T10:00:00.250Z");
        owners.firstApproval(partner, paul, "2026-09-10T00:00:00.000Z");
        owners.firstApproval(partner, rita, "2026-08-01T12:00:00.000Z");

        given().post("/ops/v1/partners/" + partner + "/billing/rebuild").then().statusCode(200)
                .body(equalTo("{\"members\":4,\"billableMembers\":3}"));
        assertEquals(fromEvents, summaries(partner));
        // Paged: 4 members in pages of 2 (and an empty third), 3 approvals in pages of 2.
        assertEquals(3, owners.calls("GET", "/internal/members/billing-export").size());
        assertEquals(2, owners.calls("GET", "/internal/requests/first-approvals").size());
        assertEquals(partner, owners.calls("GET", "/internal/members/billing-export").get(0).query().get("partnerId"));
        assertEquals(List.of(), owners.unproven());
    }

    @Test
    void aRebuildMendsWhatTheEventsNeverBroughtAndTouchesNoOtherPartner() {
        String other = "partner-" + UUID.randomUUID();
        given().contentType("application/json").body("{\"enabled\": true, \"cycle\": \"monthly\", \"ratePerMember\": 20}")
                .put("/ops/v1/partners/" + other + "/billing").then().statusCode(200);
        String othersMember = UUID.randomUUID().toString();
        String missed = UUID.randomUUID().toString();
        String stale = UUID.randomUUID().toString();
        LedgerFixture.apply(ledger, json,
                created(other, othersMember, "Otto", "Other", "otto@example.com", at("2026-11-01T00:00:00Z")),
                approved(other, othersMember, at("2026-11-02T00:00:00Z")),
                // Known to the ledger but gone from the owners (a member the ledger should not have).
                approved(partner, stale, at("2026-11-03T00:00:00Z")));
        String othersBefore = summary(other, "2026-11");
        // The owners know a member and an approval the ledger never saw.
        owners.member(partner, missed, "Mia", "Missed", "mia@example.com", "2026-11-01T00:00:00.000Z", "2026-11-06T00:00:00.000Z",
                List.of(change(missed, "active", "2026-11-01T00:00:00.000Z")));
        owners.firstApproval(partner, missed, "2026-11-04T00:00:00.000Z");

        given().post("/ops/v1/partners/" + partner + "/billing/rebuild").then().statusCode(200)
                .body(equalTo("{\"members\":1,\"billableMembers\":1}"));
        String november = summary(partner, "2026-11");
        assertEquals(true, november.contains("\"billableMembers\":[{\"memberId\":\"" + missed + "\",\"memberName\":\"Mia Missed\","
                + "\"memberEmail\":\"mia@example.com\",\"billingStartDate\":\"2026-11-04T00:00:00.000Z\",\"billingAnniversaryDay\":4}]"),
                november);
        assertEquals(othersBefore, summary(other, "2026-11"));
    }

    @Test
    void aPartnerIdTheSettingsWouldRefuseIsRefusedBeforeAnyOwnerIsAsked() {
        given().post("/ops/v1/partners/" + "p".repeat(65) + "/billing/rebuild").then().statusCode(400)
                .body(equalTo("{\"error\":[{\"code\":\"too_big\",\"maximum\":64,\"type\":\"string\",\"inclusive\":true,"
                        + "\"exact\":false,\"path\":[\"partnerId\"],\"message\":\"String must contain at most 64 character(s)\"}]}"));
        assertEquals(List.of(), owners.calls());
    }

    @Test
    void anOwnerThatCannotAnswerLeavesTheLedgerAsItWas() {
        String ada = UUID.randomUUID().toString();
        LedgerFixture.apply(ledger, json,
                created(partner, ada, "Ada", "Lovelace", "ada@example.com", at("2026-10-01T08:00:00Z")),
                approved(partner, ada, at("2026-10-05T10:00:00Z")));
        String before = summary(partner, "2026-11");
        owners.member(partner, UUID.randomUUID().toString(), "New", "Member", "new@example.com", "2026-11-01T00:00:00.000Z",
                "2026-11-01T00:00:00.000Z", List.of());
        owners.failAlways(FakeNeighbour.Failure.UNAVAILABLE_503);
        given().post("/ops/v1/partners/" + partner + "/billing/rebuild").then().statusCode(503)
                .body("error", equalTo("Service Unavailable"));
        assertEquals(before, summary(partner, "2026-11"));
    }
}
