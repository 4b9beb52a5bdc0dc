package com.telemed.requests.audit;

import static com.telemed.testkit.quarkus.ServiceDatabase.count;
import static com.telemed.testkit.quarkus.ServiceDatabase.rows;
import static com.telemed.testkit.quarkus.ServiceDatabase.update;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.request.PendingRequest;
import com.telemed.requests.request.RequestEvents;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.trust.TestServiceProofs;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The audit entries requests-service writes (people-and-pages.md, "Audit"; platform-commons' audit
 * package): one per {@code /ops} change, in the change's transaction, with the caller's ids; none for
 * a refused call; a failed audit write undoes the change; {@code GET /internal/audit} exactly.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class AuditEntriesTest {

    private static final String ENTRY = "SELECT actor_type, actor_id, action, target_type, target_id, partner_id"
            + " FROM audit_entries WHERE target_id = ? ORDER BY at, id";

    @Inject
    FakeNeighbours neighbours;

    PendingRequest pending;
    String account;
    String prescriber;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        pending = PendingRequest.create(neighbours, "Ada", "Lovelace");
        account = "acc_" + UUID.randomUUID();
        prescriber = TestServiceProofs.person(account, pending.prescriberId(), "prescriber");
    }

    private static RequestSpecification as(String principal) {
        return given().header(TestServiceProofs.PRINCIPAL_HEADER, principal).contentType("application/json");
    }

    private Map<String, Object> approval(String prescriberId) {
        Map<String, Object> prescription = new LinkedHashMap<>();
        prescription.put("skuId", FakeNeighbours.skuId(pending.drugId(), 0));
        prescription.put("quantity", 4);
        prescription.put("daysSupply", 30);
        prescription.put("directions", "Inject weekly");
        prescription.put("refills", 0);
        prescription.put("dispenseAsWritten", false);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("prescriberId", prescriberId);
        body.put("prescription", prescription);
        return body;
    }

    private Response approve(String principal, String prescriberId) {
        return as(principal).body(approval(prescriberId)).post("/ops/v1/requests/" + pending.requestId() + "/approve");
    }

    private static Map<String, Object> row(String actorType, String actorId, String action, String targetType, String targetId,
                                           String partnerId) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("actor_type", actorType);
        row.put("actor_id", actorId);
        row.put("action", action);
        row.put("target_type", targetType);
        row.put("target_id", targetId);
        row.put("partner_id", partnerId);
        return row;
    }

    @Test
    void anApproveWritesExactlyOneEntryWithTheCallersIds() {
        approve(prescriber, pending.prescriberId()).then().statusCode(200);
        assertEquals(List.of(row("person", account, "request.approve", "request", pending.requestId(), pending.partner())),
                rows(ENTRY, pending.requestId()));
    }

    @Test
    void aRefusedApproveWritesNone() {
        String other = given().contentType("application/json")
                .body(Map.of("name", "Dr Other", "email", "other+" + UUID.randomUUID() + "@example.com"))
                .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
        Response forbidden = approve(TestServiceProofs.person(account, null, "support"), pending.prescriberId());
        forbidden.then().statusCode(403);
        assertEquals("{\"error\":\"Forbidden\"}", forbidden.body().asString());
        Response mismatch = approve(prescriber, other);
        mismatch.then().statusCode(403);
        assertEquals("{\"error\":\"Prescriber mismatch\"}", mismatch.body().asString());
        Response unknownSku = as(prescriber).body(Map.of("prescription", Map.of("skuId", "no-such-sku", "quantity", 4,
                "daysSupply", 30, "directions", "Inject weekly", "refills", 0, "dispenseAsWritten", false)))
                .post("/ops/v1/requests/" + pending.requestId() + "/approve");
        assertEquals(400, unknownSku.statusCode(), unknownSku.body().asString());
        assertEquals(List.of(), rows(ENTRY, pending.requestId()));
        // Decided once, a second approve is refused and writes nothing either.
        approve(prescriber, pending.prescriberId()).then().statusCode(200);
        Response again = approve(prescriber, pending.prescriberId());
        again.then().statusCode(400);
        assertEquals(1, count("SELECT count(*) FROM audit_entries WHERE target_id = ?", pending.requestId()));
    }

    @Test
    void aFailedAuditWriteLeavesTheRequestAsItWas() {
        String function = "refuse_audit_" + pending.requestId().replace('-', '_');
        update("CREATE FUNCTION " + function + "() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + " IF NEW.target_id = '" + pending.requestId() + "' THEN RAISE EXCEPTION 'audit refused'; END IF;"
                + " RETURN NEW; END $$");
        update("CREATE TRIGGER " + function + " BEFORE INSERT ON audit_entries FOR EACH ROW EXECUTE FUNCTION " + function + "()");
        try {
            Response failed = approve(prescriber, pending.prescriberId());
            failed.then().statusCode(500);
            assertEquals("{\"error\":\"Internal Server Error\"}", failed.body().asString());
        } finally {
            update("DROP TRIGGER " + function + " ON audit_entries");
            update("DROP FUNCTION " + function + "()");
        }
        UUID requestId = UUID.fromString(pending.requestId());
        assertEquals(List.of(Map.of("status", "pending")), rows("SELECT status FROM requests WHERE id = ?", requestId));
        assertEquals(List.of(Map.of("status", "pending")), rows("SELECT status FROM line_items WHERE request_id = ?", requestId));
        assertEquals(0, count("SELECT count(*) FROM prescription_records WHERE request_id = ?", requestId));
        assertEquals(0, count("SELECT count(*) FROM history_entries WHERE request_id = ? AND action = 'approved'", requestId));
        assertEquals(0, count("SELECT count(*) FROM outbox_events WHERE message_key = ?", pending.requestId()));
        assertEquals(List.of(), TopicReader.readKey(TopicReader.configuredBootstrapServers(), RequestEvents.TOPIC,
                pending.requestId(), 0, Duration.ofSeconds(5)));
        assertEquals(List.of(), rows(ENTRY, pending.requestId()));
    }

    @Test
    void aPersonsReadOfTheQueueIsAuditedAndTheOperatorKeysIsNot() {
        String support = "acc_" + UUID.randomUUID();
        as(TestServiceProofs.person(support, null, "support")).get("/ops/v1/review/queue").then().statusCode(200);
        assertEquals(List.of(row("person", support, "queue.read", "queue", null, null)),
                rows("SELECT actor_type, actor_id, action, target_type, target_id, partner_id FROM audit_entries"
                        + " WHERE actor_id = ?", support));
        given().get("/ops/v1/review/queue").then().statusCode(200);
        assertEquals(0, count("SELECT count(*) FROM audit_entries WHERE actor_type = 'operator_key' AND action = 'queue.read'"));
    }

    @Test
    void internalAuditFiltersAndPagesExactly() {
        String actor = "acc_" + UUID.randomUUID();
        String target = UUID.randomUUID().toString();
        Instant at = Instant.parse("2026-11-20T08:00:00.000Z");
        String first = "00000000-0000-4000-8000-000000000001";
        String second = "00000000-0000-4000-8000-000000000002";
        String third = "00000000-0000-4000-8000-000000000003";
        insert(first, at, actor, "request.claim", target);
        insert(second, at.plusSeconds(60), actor, "request.add_note", target);
        // Same instant as the second: the id orders them.
        insert(third, at.plusSeconds(60), actor, "request.approve", target);
        insert(UUID.randomUUID().toString(), at.plusSeconds(30), "acc_" + UUID.randomUUID(), "request.claim", target);

        Response page = given().get("/internal/audit?actor=" + actor + "&limit=2");
        page.then().statusCode(200);
        assertEquals("{\"entries\":[" + json(third, "2026-11-20T08:01:00.000Z", actor, "request.approve", target) + ","
                + json(second, "2026-11-20T08:01:00.000Z", actor, "request.add_note", target) + "]}", page.body().asString());
        Response next = given().get("/internal/audit?actor=" + actor + "&limit=2&beforeAt=2026-11-20T08:01:00.000Z&beforeId=" + second);
        next.then().statusCode(200);
        assertEquals("{\"entries\":[" + json(first, "2026-11-20T08:00:00.000Z", actor, "request.claim", target) + "]}",
                next.body().asString());

        assertEquals(List.of(first), given().get("/internal/audit?targetId=" + target + "&action=request.claim&actor=" + actor)
                .then().statusCode(200).extract().path("entries.id"));
        assertEquals(List.of(first), given().get("/internal/audit?actor=" + actor
                + "&from=2026-11-20T08:00:00Z&to=2026-11-20T08:01:00Z").then().statusCode(200).extract().path("entries.id"));
        assertEquals(Integer.valueOf(4), given().get("/internal/audit?targetId=" + target).then().statusCode(200)
                .extract().<Integer>path("entries.size()"));

        Response bad = given().get("/internal/audit?limit=0&beforeAt=2026-11-20T08:01:00Z");
        bad.then().statusCode(400);
        assertEquals("{\"error\":[{\"code\":\"too_small\",\"minimum\":1,\"type\":\"number\",\"inclusive\":true,\"exact\":false,"
                + "\"path\":[\"limit\"],\"message\":\"Number must be greater than or equal to 1\"},"
                + "{\"code\":\"custom\",\"path\":[\"beforeId\"],\"message\":\"beforeAt and beforeId go together\"}]}",
                bad.body().asString());
        // Behind the service proof like every /internal route.
        given().noFilters().get("/internal/audit").then().statusCode(401);
    }

    private static void insert(String id, Instant at, String actor, String action, String target) {
        update("INSERT INTO audit_entries (id, at, actor_type, actor_id, action, target_type, target_id, partner_id)"
                + " VALUES (CAST(? AS uuid), ?, 'person', ?, ?, 'request', ?, 'partner-1')", id, Timestamp.from(at), actor, action, target);
    }

    private static String json(String id, String at, String actor, String action, String target) {
        return "{\"id\":\"" + id + "\",\"at\":\"" + at + "\",\"actorType\":\"person\",\"actorId\":\"" + actor + "\",\"action\":\""
                + action + "\",\"targetType\":\"request\",\"targetId\":\"" + target + "\",\"partnerId\":\"partner-1\"}";
    }
}
