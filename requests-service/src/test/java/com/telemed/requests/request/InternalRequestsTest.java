package com.telemed.requests.request;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** /internal/requests: summaries, member deletions, by-member (members-service/README.md contract). */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class InternalRequestsTest {

    @Inject
    FakeNeighbours neighbours;

    String partner;
    String drugId;
    String member;
    String otherMember;
    String idle;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        partner = "partner-" + UUID.randomUUID();
        drugId = "drug-" + UUID.randomUUID().toString().substring(0, 8);
        neighbours.drug(drugId, "Semaglutide", List.of("0.25mg", "0.5mg"), partner);
        member = neighbours.seedMember(partner, "Grace", "Hopper", "grace+" + UUID.randomUUID() + "@example.com");
        otherMember = neighbours.seedMember(partner, "Alan", "Turing", "alan+" + UUID.randomUUID() + "@example.com");
        idle = neighbours.seedMember(partner, "Idle", "Member", "idle+" + UUID.randomUUID() + "@example.com");
    }

    private String create(String memberId, Map<String, Object> extra) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("memberId", memberId);
        body.put("caseNotes", "notes");
        body.putAll(extra);
        return given().header("X-Partner-Id", partner).contentType("application/json").body(body)
                .when().post("/v1/requests").then().statusCode(201).extract().path("requestId");
    }

    private JsonPath summaries(String partnerId, List<String> memberIds) {
        return given().contentType("application/json").body(Map.of("partnerId", partnerId, "memberIds", memberIds))
                .when().post("/internal/requests/summaries").then().statusCode(200).extract().jsonPath();
    }

    @Test
    void summariesPerMemberNewestFirst() {
        String first = create(member, Map.of("items", List.of(Map.of("drugId", drugId, "dosage", "0.5mg"))));
        String second = create(member, Map.of());
        String others = create(otherMember, Map.of("items", List.of(Map.of("drugId", drugId))));
        JsonPath answer = summaries(partner, List.of(member, otherMember, idle));
        Map<String, Object> byMember = answer.getMap("summaries");
        assertEquals(Set.of(member, otherMember, idle), byMember.keySet());
        assertEquals(List.of(second, first), answer.getList("summaries.'" + member + "'.id"));
        assertEquals(List.of(others), answer.getList("summaries.'" + otherMember + "'.id"));
        assertEquals(List.of(), answer.getList("summaries.'" + idle + "'"));
        Map<String, Object> summary = answer.getMap("summaries.'" + member + "'[1]");
        assertEquals(Set.of("id", "drugId", "prescriptionName", "dosage", "status", "caseNotes", "createdAt", "updatedAt"),
                summary.keySet());
        assertEquals(drugId, summary.get("drugId"));
        assertEquals("Semaglutide", summary.get("prescriptionName"));
        assertEquals("0.5mg", summary.get("dosage"));
        assertEquals("pending", summary.get("status"));
        assertEquals("notes", summary.get("caseNotes"));
    }

    /**
     * A request of several items (the partner API creates one; a second is written here as the console's changes
     * would): its summary has no drug, name or dosage (partner-api.md, "Request summary") and the status its live
     * items give; beside it a one-item request's summary is its item's. One statement reads both with their items.
     */
    @Test
    void aMultiItemRequestsSummaryHasNoDrugAndItsItemsStatus() {
        String single = create(member, Map.of("items", List.of(Map.of("drugId", drugId, "dosage", "0.25mg"))));
        String multi = create(member, Map.of("items", List.of(Map.of("drugId", drugId, "dosage", "0.5mg"))));
        database("INSERT INTO line_items (id, request_id, partner_id, position, request_created_at, drug_id, drug_name, dosage,"
                + " status, created_at, updated_at) SELECT gen_random_uuid(), r.id, r.partner_id,"
                + " (SELECT max(position) + 1 FROM line_items WHERE request_id = r.id), r.created_at, 'drug-other', 'Metformin',"
                + " '500mg', 'cancelled', now(), now() FROM requests r WHERE r.id = ?::uuid RETURNING id::text", multi);
        JsonPath answer = summaries(partner, List.of(member, idle));
        assertEquals(List.of(multi, single), answer.getList("summaries.'" + member + "'.id"));
        Map<String, Object> several = answer.getMap("summaries.'" + member + "'[0]");
        assertTrue(several.containsKey("drugId") && several.containsKey("prescriptionName") && several.containsKey("dosage"));
        assertEquals(null, several.get("drugId"));
        assertEquals(null, several.get("prescriptionName"));
        assertEquals(null, several.get("dosage"));
        assertEquals("pending", several.get("status"));
        assertEquals("notes", several.get("caseNotes"));
        Map<String, Object> one = answer.getMap("summaries.'" + member + "'[1]");
        assertEquals(drugId, one.get("drugId"));
        assertEquals("Semaglutide", one.get("prescriptionName"));
        assertEquals("0.25mg", one.get("dosage"));
        assertEquals("pending", one.get("status"));
        assertEquals(List.of(), answer.getList("summaries.'" + idle + "'"));
    }

    @Test
    void summariesAreEachMembersNewestUpToTheLimitAsked() {
        String first = create(member, Map.of());
        String second = create(member, Map.of());
        String third = create(member, Map.of());
        String others = create(otherMember, Map.of());
        JsonPath answer = given().contentType("application/json")
                .body(Map.of("partnerId", partner, "memberIds", List.of(member, otherMember), "limitPerMember", 2))
                .when().post("/internal/requests/summaries").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(third, second), answer.getList("summaries.'" + member + "'.id"));
        assertEquals(List.of(others), answer.getList("summaries.'" + otherMember + "'.id"));
        assertEquals(List.of(third, second, first), summaries(partner, List.of(member)).getList("summaries.'" + member + "'.id"));
    }

    @Test
    void anAskWithoutALimitIsCappedAtOneHundredPerMemberAndALargerOneIsRefused() {
        String many = UUID.randomUUID().toString();
        insertRequests(many, 101);
        List<String> ids = summaries(partner, List.of(many)).getList("summaries.'" + many + "'.id");
        assertEquals(100, ids.size());
        assertEquals(newest(many, 100), ids);

        String refused = given().contentType("application/json")
                .body(Map.of("partnerId", partner, "memberIds", List.of(many), "limitPerMember", 101))
                .when().post("/internal/requests/summaries").then().statusCode(400).extract().asString();
        assertEquals("{\"error\":[{\"code\":\"too_big\",\"maximum\":100,\"type\":\"number\",\"inclusive\":true,"
                + "\"exact\":false,\"path\":[\"limitPerMember\"],\"message\":\"Number must be less than or equal to 100\"}]}",
                refused);
        given().contentType("application/json")
                .body(Map.of("partnerId", partner, "memberIds", List.of(many), "limitPerMember", 0))
                .when().post("/internal/requests/summaries").then().statusCode(400)
                .body("error[0].code", equalTo("too_small")).body("error[0].path", equalTo(List.of("limitPerMember")));
    }

    /** {@code count} requests of the member straight into the table, one second apart, the newest now. */
    private void insertRequests(String memberId, int count) {
        database("INSERT INTO requests (id, partner_id, member_id, status, case_notes, created_at, updated_at)"
                + " SELECT gen_random_uuid(), ?, ?::uuid, 'pending', 'notes', now() - n * interval '1 second',"
                + " now() - n * interval '1 second' FROM generate_series(0, ? - 1) AS n", partner, memberId, count);
    }

    private List<String> newest(String memberId, int count) {
        return database("SELECT id::text FROM requests WHERE partner_id = ? AND member_id = ?::uuid"
                + " ORDER BY created_at DESC, id DESC LIMIT ?", partner, memberId, count);
    }

    private static List<String> database(String sql, Object... parameters) {
        var config = org.eclipse.microprofile.config.ConfigProvider.getConfig();
        try (var connection = java.sql.DriverManager.getConnection(
                config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                config.getValue("quarkus.datasource.password", String.class));
             var statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            if (!statement.execute()) {
                return List.of();
            }
            List<String> rows = new java.util.ArrayList<>();
            try (var result = statement.getResultSet()) {
                while (result.next()) {
                    rows.add(result.getString(1));
                }
            }
            return rows;
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void summariesSeeOnlyThePartnersRequests() {
        create(member, Map.of());
        JsonPath answer = summaries("partner-" + UUID.randomUUID(), List.of(member));
        assertEquals(Map.of(member, List.of()), answer.getMap("summaries"));
    }

    @Test
    void summariesOfMoreThanOneHundredMembersAreRefused() {
        List<String> ids = java.util.stream.IntStream.range(0, 101).mapToObj(index -> UUID.randomUUID().toString()).toList();
        given().contentType("application/json").body(Map.of("partnerId", partner, "memberIds", ids))
                .when().post("/internal/requests/summaries").then().statusCode(400)
                .body("error[0].code", equalTo("too_big"))
                .body("error[0].path", equalTo(List.of("memberIds")));
    }

    @Test
    void summariesOfUnknownAndMalformedIdsAreEmpty() {
        String unknown = UUID.randomUUID().toString();
        assertEquals(Map.of(unknown, List.of(), "not-a-uuid", List.of()),
                summaries(partner, List.of(unknown, "not-a-uuid")).getMap("summaries"));
    }

    private static io.restassured.response.Response memberDeletion(Object body) {
        return given().contentType("application/json").body(body).when().post("/internal/requests/member-deletions");
    }

    private static Map<String, Object> deletionOf(String partnerId, String memberId) {
        return Map.of("partnerId", partnerId, "memberId", memberId);
    }

    @Test
    void memberDeletionIsRefusedWhileTheMemberHasRequestsAndRecordedOtherwise() {
        create(member, Map.of());
        memberDeletion(deletionOf(partner, member)).then().statusCode(200).body("", equalTo(Map.of("hasRequests", true)));
        // Refused: nothing recorded, the member keeps getting requests.
        create(member, Map.of());

        memberDeletion(deletionOf(partner, idle)).then().statusCode(200).body("", equalTo(Map.of("hasRequests", false)));
        memberDeletion(deletionOf(partner, idle)).then().statusCode(200).body("", equalTo(Map.of("hasRequests", false)));
        // members-service still has the member (it deletes after this answer), but no request is made for it any more.
        given().header("X-Partner-Id", partner).contentType("application/json")
                .body(Map.of("memberId", idle, "caseNotes", "notes", "items", List.of(Map.of("drugId", drugId))))
                .when().post("/v1/requests").then().statusCode(400).body("", equalTo(Map.of("error", "Member not found")));
        given().queryParam("partnerId", partner).queryParam("memberId", idle).when().get("/internal/requests/by-member")
                .then().statusCode(200).body("", equalTo(Map.of("requests", List.of())));

        // Recorded for one partner only: another partner's deletion of this id leaves the member alone here.
        memberDeletion(deletionOf("partner-" + UUID.randomUUID(), otherMember)).then().statusCode(200)
                .body("", equalTo(Map.of("hasRequests", false)));
        create(otherMember, Map.of());
        memberDeletion(deletionOf(partner, "not-a-uuid")).then().statusCode(200).body("", equalTo(Map.of("hasRequests", false)));
    }

    @Test
    void memberDeletionNamesItsPartnerAndMember() {
        memberDeletion(Map.of()).then().statusCode(400)
                .body("error.path", equalTo(List.of(List.of("partnerId"), List.of("memberId"))))
                .body("error.code", equalTo(List.of("invalid_type", "invalid_type")));
        memberDeletion(deletionOf("", member)).then().statusCode(400)
                .body("error.path", equalTo(List.of(List.of("partnerId"))))
                .body("error.code", equalTo(List.of("too_small")));
    }

    @Test
    void byMember() {
        String first = create(member, Map.of("items", List.of(Map.of("drugId", drugId))));
        String second = create(member, Map.of());
        JsonPath answer = given().queryParam("partnerId", partner).queryParam("memberId", member)
                .when().get("/internal/requests/by-member").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(second, first), answer.getList("requests.id"));
        assertEquals(Set.of("id", "prescriberId", "status", "createdAt"), answer.getMap("requests[0]").keySet());
        assertEquals(null, (Object) answer.get("requests[0].prescriberId"));
        assertEquals("pending", answer.getString("requests[0].status"));
        given().queryParam("partnerId", "partner-" + UUID.randomUUID()).queryParam("memberId", member)
                .when().get("/internal/requests/by-member").then().statusCode(200).body("requests", equalTo(List.of()));
    }
}
