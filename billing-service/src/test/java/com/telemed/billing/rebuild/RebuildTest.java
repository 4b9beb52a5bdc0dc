package com.telemed.billing.rebuild;

import static com.telemed.testkit.kafka.BillingEvents.approved;
import static com.telemed.testkit.kafka.BillingEvents.created;
import static com.telemed.testkit.kafka.BillingEvents.statusChanged;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.billing.LedgerFixture;
import com.telemed.billing.ledger.Ledger;
import com.telemed.billing.members.MembersClient;
import com.telemed.billing.requests.RequestsServiceClient;
import com.telemed.testkit.http.FakeNeighbour;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /ops/v1/partners/:id/billing/rebuild}: a partner's ledger rebuilt from scratch out of
 * the owners' data (here a fake members-service and requests-service answering as those do, in
 * pages) gives the summaries the events gave; it mends what events never brought; it leaves every
 * other partner's ledger alone; and an owner that cannot answer leaves the ledger as it was. Issue 38:
 * no transaction or lock is held while an owner keeps a page waiting, what the consumer applies
 * meanwhile survives, two rebuilds of one partner still run one after the other, and a stale claim
 * is taken over.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(OwnersNeighbourResource.class)
class RebuildTest {

    private static final Duration PROMPTLY = Duration.ofSeconds(20);

    @Inject
    Ledger ledger;

    @Inject
    ObjectMapper json;

    @Inject
    OwnersNeighbour owners;

    @Inject
    MembersClient membersClient;

    @Inject
    RequestsServiceClient requestsClient;

    String partner;

    ExecutorService background;

    @BeforeEach
    void partnerWithMonthlyBilling() {
        owners.reset();
        background = Executors.newCachedThreadPool();
        partner = "partner-" + UUID.randomUUID();
        given().contentType("application/json").body("{\"enabled\": true, \"cycle\": \"monthly\", \"ratePerMember\": 20}")
                .put("/ops/v1/partners/" + partner + "/billing").then().statusCode(200);
    }

    @AfterEach
    void answerWhatIsHeld() {
        owners.release();
        background.shutdownNow();
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

    /**
     * Ada, Paul (paused since October), Rita (paused from August to November 25) and Nora (never approved), by events
     * and as the owners hold them: the same members, status audits and first approvals. Ada's id.
     */
    private String fourMembersByEventsAndOwners() {
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
        return ada;
    }

    private Response rebuild() {
        return given().post("/ops/v1/partners/" + partner + "/billing/rebuild");
    }

    private static void assertRebuilt(Response answer) {
        assertEquals(200, answer.statusCode(), answer.asString());
        assertEquals("{\"members\":4,\"billableMembers\":3}", answer.asString());
    }

    /** The second page of the members' export: the first page has been read (and staged) when it is asked for. */
    private static boolean secondMembersPage(FakeNeighbour.Call call) {
        return call.path().equals("/internal/members/billing-export") && call.query().get("after") != null;
    }

    /** The owners' calls as {@code path?after}, in the order they arrived. */
    private List<String> ownerCalls() {
        return owners.calls().stream().map(call -> call.path() + "?" + call.query().get("after")).toList();
    }

    @Test
    void aRebuildFromTheOwnersGivesTheSameSummariesAsTheEvents() {
        fourMembersByEventsAndOwners();
        Map<String, String> fromEvents = summaries(partner);

        given().post("/ops/v1/partners/" + partner + "/billing/rebuild").then().statusCode(200)
                .body(equalTo("{\"members\":4,\"billableMembers\":3}"));
        assertEquals(fromEvents, summaries(partner));
        // Paged: 4 members in pages of 2 (and an empty third), 3 approvals in pages of 2.
        assertEquals(3, owners.calls("GET", "/internal/members/billing-export").size());
        assertEquals(2, owners.calls("GET", "/internal/requests/first-approvals").size());
        assertEquals(partner, owners.calls("GET", "/internal/members/billing-export").get(0).query().get("partnerId"));
        assertEquals(List.of(), owners.unproven());
        // Nothing of the rebuild is left beside the ledger.
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM ledger_rebuilds"));
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM ledger_rebuild_members WHERE partner_id = ?", partner));
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM ledger_rebuild_status_changes WHERE partner_id = ?", partner));
    }

    /**
     * Issue 38: no call to another service inside a transaction or under a lock. While an owner keeps a page waiting,
     * billing-service has no transaction open and holds no advisory lock; summaries answer, from the ledger as it was;
     * the consumer applies events the owners' pages do not hold (Ada paused on November 20th, after her page was
     * read; Grace created and approved). Once the owner answers, the rebuild answers as before and the ledger is the
     * owners' data merged with those events: December leaves Ada out and bills Grace, exactly as the events alone say.
     */
    @Test
    void aRebuildWaitingOnAnOwnerHoldsNoTransactionAndNoLockAndKeepsWhatTheConsumerAppliedMeanwhile() throws Exception {
        String ada = fourMembersByEventsAndOwners();
        owners.hold(RebuildTest::secondMembersPage);
        Future<Response> rebuild = background.submit(this::rebuild);
        await().atMost(PROMPTLY).until(() -> owners.held().size() == 1);

        String grace = UUID.randomUUID().toString();
        LedgerFixture.apply(ledger, json, statusChanged(partner, ada, UUID.randomUUID().toString(), "active", "paused",
                        at("2026-11-20T00:00:00Z")),
                created(partner, grace, "Grace", "Hopper", "grace@example.com", at("2026-11-21T00:00:00Z")),
                approved(partner, grace, at("2026-11-22T00:00:00Z")));
        assertEquals(List.of(), ServiceDatabase.texts("""
                SELECT pid || ' ' || state || ': ' || left(query, 120) FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL"""));
        assertEquals(List.of(), ServiceDatabase.texts("""
                SELECT pid || ' ' || mode || ' ' || objid FROM pg_locks
                WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"""));
        Map<String, String> fromEvents = summaries(partner);
        assertEquals(false, fromEvents.get("2026-12").contains(ada), fromEvents.get("2026-12"));
        assertEquals(true, fromEvents.get("2026-11").contains(ada), fromEvents.get("2026-11"));
        assertEquals(true, fromEvents.get("2026-12").contains(grace), fromEvents.get("2026-12"));
        // Still waiting on the owner: everything above was seen during the stall.
        assertEquals(1, owners.held().size());

        owners.release();
        assertRebuilt(rebuild.get(60, TimeUnit.SECONDS));
        assertEquals(fromEvents, summaries(partner));
    }

    /**
     * Two rebuilds of one partner run one after the other: the second asks no owner while the first is under way
     * (waiting on an owner), then reads everything again once the first is done. Both answer the same.
     */
    @Test
    void twoRebuildsOfOnePartnerRunOneAfterTheOther() throws Exception {
        fourMembersByEventsAndOwners();
        Map<String, String> fromEvents = summaries(partner);
        owners.hold(RebuildTest::secondMembersPage);
        Future<Response> first = background.submit(this::rebuild);
        await().atMost(PROMPTLY).until(() -> owners.held().size() == 1);
        Future<Response> second = background.submit(this::rebuild);
        await().during(Duration.ofMillis(700)).atMost(PROMPTLY).until(() -> owners.calls().size() == 2);

        owners.release();
        assertRebuilt(first.get(60, TimeUnit.SECONDS));
        assertRebuilt(second.get(60, TimeUnit.SECONDS));
        List<String> calls = ownerCalls();
        assertEquals(10, calls.size(), calls.toString());
        assertEquals(calls.subList(0, 5), calls.subList(5, 10));
        assertEquals(List.of("/internal/members/billing-export?null", "/internal/requests/first-approvals?null"),
                List.of(calls.get(5), calls.get(8)));
        assertEquals(fromEvents, summaries(partner));
    }

    /** A rebuild that stopped half-way (its replica killed) leaves its claim; once stale, the next rebuild takes it over. */
    @Test
    void aClaimLeftByARebuildThatStoppedIsTakenOverOnceStale() {
        fourMembersByEventsAndOwners();
        Map<String, String> fromEvents = summaries(partner);
        ServiceDatabase.update("INSERT INTO ledger_rebuilds (partner_id, rebuild_id, heartbeat_at) VALUES (?, ?, now() - interval '1 hour')",
                partner, UUID.randomUUID());
        ServiceDatabase.update("INSERT INTO ledger_rebuild_members (member_id, partner_id, first_name) VALUES (?, ?, 'Left')",
                UUID.randomUUID(), partner);

        assertRebuilt(rebuild());
        assertEquals(fromEvents, summaries(partner));
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM ledger_rebuilds WHERE partner_id = ?", partner));
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM ledger_rebuild_members WHERE partner_id = ?", partner));
    }

    /** The code-level guard of issue 38: billing-service never calls an owner with a transaction open. */
    @Test
    void noOwnerIsCalledInsideATransaction() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> QuarkusTransaction.requiringNew().run(() -> membersClient.page(partner, null)));
        assertEquals("members-service billing-export called inside a transaction", refused.getMessage());
        refused = assertThrows(IllegalStateException.class,
                () -> QuarkusTransaction.requiringNew().run(() -> requestsClient.firstApprovals(partner, null)));
        assertEquals("requests-service first-approvals called inside a transaction", refused.getMessage());
        assertEquals(List.of(), owners.calls());
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
        // A rebuild that changed nothing wrote no audit entry; the one that swapped wrote one.
        String rebuilds = "SELECT (actor_type, actor_id, action, target_type, target_id, partner_id)::text FROM audit_entries"
                + " WHERE partner_id = ? AND action = 'billing_ledger.rebuild'";
        assertEquals(List.of(), ServiceDatabase.texts(rebuilds, partner));
        // Its claim and what it staged are gone: the next rebuild starts at once.
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM ledger_rebuilds WHERE partner_id = ?", partner));
        assertEquals(0, ServiceDatabase.count("SELECT count(*) FROM ledger_rebuild_members WHERE partner_id = ?", partner));
        owners.reset();
        given().post("/ops/v1/partners/" + partner + "/billing/rebuild").then().statusCode(200)
                .body(equalTo("{\"members\":1,\"billableMembers\":0}"));
        assertEquals(List.of("(operator_key,service,billing_ledger.rebuild,billing_ledger," + partner + "," + partner + ")"),
                ServiceDatabase.texts(rebuilds, partner));
    }
}
