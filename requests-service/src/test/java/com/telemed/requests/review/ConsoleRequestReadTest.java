package com.telemed.requests.review;

import static com.telemed.requests.review.ConsoleBodies.json;
import static com.telemed.requests.review.ConsoleBodies.reviewed;
import static com.telemed.testkit.http.Refusals.assertAnswer;
import static com.telemed.testkit.http.Refusals.assertForbidden;
import static com.telemed.testkit.quarkus.ServiceDatabase.count;
import static com.telemed.testkit.quarkus.ServiceDatabase.rows;
import static com.telemed.testkit.quarkus.ServiceDatabase.update;
import static com.telemed.testkit.trust.TestPrincipals.ADMIN;
import static com.telemed.testkit.trust.TestPrincipals.SUPPORT;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.request.PendingRequest;
import com.telemed.requests.request.RequestFixtures;
import com.telemed.testkit.http.FakeNeighbour.Failure;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.trust.TestServiceProofs;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /ops/v1/requests/{id}}, the console's read of one request (interfaces of issue #41, B2):
 * the request as the queue gives it, its member from members-service (null when it has none), its
 * history as the partner's read gives it; one {@code request.read} audit entry for a person, none for
 * the operator key; admin, prescriber and support; 404 for an unknown or malformed id.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class ConsoleRequestReadTest {

    private static final String AUDIT = "SELECT actor_type, actor_id, action, target_type, target_id, partner_id"
            + " FROM audit_entries WHERE target_id = ? AND action = 'request.read' ORDER BY at, id";

    @Inject
    FakeNeighbours neighbours;

    PendingRequest pending;
    String prescriber;
    String secondDrug;
    String secondItem;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        pending = PendingRequest.create(neighbours, "Ada", "Lovelace");
        prescriber = TestServiceProofs.person("acc_" + UUID.randomUUID(), pending.prescriberId(), "prescriber");
        // A second item, as a request of two drugs holds it (the partner API creates one; the table holds any number).
        secondDrug = RequestFixtures.newDrugId();
        neighbours.drug(secondDrug, "Tirzepatide", List.of("2.5mg"), pending.partner());
        secondItem = UUID.randomUUID().toString();
        update("INSERT INTO line_items (id, request_id, partner_id, position, request_created_at, drug_id, drug_name, dosage,"
                + " requested_sku_id, status, pharmacy_id, created_at, updated_at)"
                + " SELECT ?, request_id, partner_id, 1, request_created_at, ?, 'Tirzepatide', '2.5mg', ?, 'pending', ?,"
                + " created_at, updated_at FROM line_items WHERE id = ?",
                UUID.fromString(secondItem), secondDrug, FakeNeighbours.skuId(secondDrug, 0), "pharmacy-" + secondDrug,
                UUID.fromString(pending.itemId()));
        as(prescriber).body(Map.of()).post("/ops/v1/requests/" + pending.requestId() + "/claim").then().statusCode(200);
        as(prescriber).body(Map.of("text", "Checked the dose history"))
                .post("/ops/v1/requests/" + pending.requestId() + "/notes").then().statusCode(200);
    }

    private static RequestSpecification as(String principal) {
        return given().header(TestServiceProofs.PRINCIPAL_HEADER, principal).contentType("application/json");
    }

    private Response read(RequestSpecification caller) {
        return caller.get("/ops/v1/requests/" + pending.requestId());
    }

    private static Map<String, Object> member(String id, Object shippingAddress) {
        Map<String, Object> member = new LinkedHashMap<>();
        member.put("id", id);
        member.put("firstName", "Ada");
        member.put("lastName", "Lovelace");
        member.put("dateOfBirth", "1990-04-12");
        member.put("state", "CA");
        member.put("shippingAddress", shippingAddress);
        return member;
    }

    /** created (by api, for the first item), claimed and note_added (by the prescriber), at the partner read's instants. */
    private List<Map<String, Object>> history() {
        JsonPath read = RequestFixtures.get(pending.partner(), pending.requestId()).then().statusCode(200).extract().jsonPath();
        List<String> at = read.getList("history.timestamp");
        List<Map<String, Object>> history = new ArrayList<>();
        history.add(entry("created", at.get(0), "api", null));
        history.add(entry("claimed", at.get(1), pending.prescriberId(), null));
        history.add(entry("note_added", at.get(2), pending.prescriberId(), "Checked the dose history"));
        assertEquals(3, at.size());
        return history;
    }

    private static Map<String, Object> entry(String action, String timestamp, String by, String reason) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("action", action);
        entry.put("timestamp", timestamp);
        entry.put("by", by);
        if (reason != null) {
            entry.put("reason", reason);
        }
        return entry;
    }

    private String body(Object member) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("request", reviewed(pending.partner(), pending.requestId()));
        body.put("member", member);
        body.put("history", history());
        return json(body);
    }

    @Test
    void theRequestWithTwoItemsItsMemberAndItsHistoryExactly() {
        JsonObject shipping = new JsonObject().put("street1", "2 Harbour Rd").put("street2", null).put("city", "Fresno")
                .put("state", "CA").put("zipCode", "93701");
        neighbours.changeMember(pending.memberId(), new JsonObject().put("shippingAddress", shipping));
        Response answer = read(as(SUPPORT));
        Map<String, Object> address = new LinkedHashMap<>(shipping.getMap());
        assertAnswer(answer, 200, body(member(pending.memberId(), address)));
        // The two items in their order, as the queue gives them.
        assertEquals(List.of(pending.itemId(), secondItem), answer.jsonPath().getList("request.lineItems.itemId"));
        assertEquals(List.of(pending.drugId(), secondDrug), answer.jsonPath().getList("request.lineItems.drugId"));
        assertEquals(FakeNeighbours.skuId(secondDrug, 0), answer.jsonPath().getString("request.lineItems[1].requestedSkuId"));
        assertEquals(pending.prescriberId(), answer.jsonPath().getString("request.prescriberId"));
    }

    @Test
    void theMemberIsNullWhenMembersServiceHasNone() {
        neighbours.deleteMember(pending.memberId());
        assertAnswer(read(as(prescriber)), 200, body(null));
    }

    @Test
    void membersServiceDownIsServiceUnavailableAndNoEntry() {
        neighbours.failMembers(Failure.UNAVAILABLE_503);
        assertAnswer(read(as(SUPPORT)), 503, "{\"error\":\"Service Unavailable\"}");
        assertEquals(0, count("SELECT count(*) FROM audit_entries WHERE target_id = ? AND action = 'request.read'",
                pending.requestId()));
    }

    @Test
    void aPersonsReadIsAuditedOnceAndTheOperatorKeysIsNot() {
        String account = "acc_" + UUID.randomUUID();
        read(as(TestServiceProofs.person(account, null, "admin"))).then().statusCode(200);
        assertEquals(List.of(row("person", account, pending.requestId(), pending.partner())),
                rows(AUDIT, pending.requestId()));
        read(given()).then().statusCode(200);
        assertEquals(1, count("SELECT count(*) FROM audit_entries WHERE target_id = ? AND action = 'request.read'",
                pending.requestId()));
        assertEquals(0, count("SELECT count(*) FROM audit_entries WHERE target_id = ? AND actor_type = 'operator_key'",
                pending.requestId()));
    }

    private static Map<String, Object> row(String actorType, String actorId, String targetId, String partnerId) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("actor_type", actorType);
        row.put("actor_id", actorId);
        row.put("action", "request.read");
        row.put("target_type", "request");
        row.put("target_id", targetId);
        row.put("partner_id", partnerId);
        return row;
    }

    @Test
    void everyPersonRoleMayReadAPharmacyMayNot() {
        for (String person : new String[] {ADMIN, SUPPORT, prescriber}) {
            read(as(person)).then().statusCode(200);
        }
        assertForbidden(read(as(TestServiceProofs.pharmacy("pharmacy-" + pending.drugId()))));
        assertForbidden(read(as("service:web-service")));
        assertAnswer(read(as("")), 401, "{\"error\":\"Invalid token\"}");
    }

    @Test
    void anUnknownOrMalformedIdIsRequestNotFound() {
        String notFound = "{\"error\":\"Request not found\"}";
        assertAnswer(as(SUPPORT).get("/ops/v1/requests/" + UUID.randomUUID()), 404, notFound);
        assertAnswer(as(SUPPORT).get("/ops/v1/requests/not-a-uuid"), 404, notFound);
        assertAnswer(given().get("/ops/v1/requests/" + UUID.randomUUID()), 404, notFound);
        // Nothing was read: no entry.
        assertEquals(0, count("SELECT count(*) FROM audit_entries WHERE target_id = 'not-a-uuid'"));
    }
}
